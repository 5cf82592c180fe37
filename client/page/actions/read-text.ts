/**
 * The text `read` cuts into pages, kept while the page stays as it was: a model reads page 1,
 * then 2 and 3 (often in one turn), and walking a 5k-element page for its text costs ~30 ms
 * each time for the same string.
 *
 * "As it was" is watched, not guessed (map/walk-reuse.ts `watchChanges`): a DOM mutation, a
 * focus change, a running animation, a scroll, resize or pointer event since the walk, and the
 * text is walked again; each same-origin frame the walk entered is watched the same way, and
 * each open shadow root for mutations. A style sheet edited through the CSSOM with no mutation
 * and no event (a timer's `insertRule`) is not seen until the next change. Only the rendered
 * text is kept: secrets are masked and look-alike markers cleaned at every read, so a secret
 * given since is masked too.
 *
 * @example
 *   const text = textForRead(document.body, settings); // walked
 *   textForRead(document.body, settings);              // the same text, unless the page moved
 */
import type { PageSettings } from '../settings';
import { watchChanges, type PageWatch } from '../map/walk-reuse';
import { ownerDocumentOf } from '../dom/proto';
import { asPageData, renderedText } from './text';

interface Kept {
  root: Element;
  zones: PageSettings['zones'];
  text: string;
  watch: PageWatch;
}

/** One text at a time: the region read last. */
let kept: Kept | undefined;

export function textForRead(root: Element, settings: Pick<PageSettings, 'zones' | 'masks' | 'fence'>): string {
  const { zones } = settings;
  let text: string;
  if (kept && kept.root === root && kept.zones === zones && !kept.watch.changed()) text = kept.text;
  else {
    kept?.watch.stop();
    kept = undefined;
    const watch = watchChanges(ownerDocumentOf(root));
    text = renderedText(root, zones, undefined, watch.enter);
    if (!watch.changed()) kept = { root, zones, text, watch };
    else watch.stop();
  }
  return asPageData(text, settings);
}
