/**
 * A map's walk, kept for reuse while the page has not changed since it began: a step's
 * recording describes its target from the same walk instead of walking the whole page again.
 *
 * "Not changed" is watched, not guessed: a DOM mutation outside the agent's own UI, a scroll, a
 * resize or a focus change since the walk began, and the walk is no longer offered. What a
 * MutationObserver on the document cannot see (inside shadow roots, style sheets edited
 * through the CSSOM) is checked by the user of the walk on the element it cares about.
 *
 * @example
 *   keepWalk(map, { walk, describer, settings }, watch); // map.ts, once the map is built
 *   walkBehind(map, settings)?.walk.items;               // later, or undefined if the page moved
 */
import type { Describer } from '../names/describe';
import { deepActiveElement } from '../dom/flat-tree';
import type { PageMap } from '../page-types';
import type { PageSettings } from '../settings';
import type { WalkResult } from './walk/items';
import { parentElementOf, nodeTypeOf } from '../dom/proto';

export interface KeptWalk {
  walk: WalkResult;
  /** The describer the map named with (its cache holds while the page does). */
  describer: Describer;
  settings: PageSettings;
}

/** Whether the page may have changed since it was started; stops by itself on the first change. */
export interface ChangeWatch {
  changed(): boolean;
  /** Stops watching: from then on it answers "changed". */
  stop(): void;
}

/** Starts watching before a walk begins. */
export function watchChanges(settings: PageSettings): ChangeWatch {
  const focused = deepActiveElement(document);
  let changed = false;
  const relevant = (records: MutationRecord[]): boolean =>
    records.some(
      (r) =>
        !(nodeTypeOf(r.target) === 1
          ? settings.zones.inside(r.target as Element)
          : !!parentElementOf(r.target) && settings.zones.inside(parentElementOf(r.target)!)),
    );
  const mark = (): void => stop();
  const observer = new MutationObserver((records) => {
    if (relevant(records)) mark();
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const opts = { capture: true, passive: true } as const;
  addEventListener('scroll', mark, opts);
  addEventListener('resize', mark, opts);
  function stop(): void {
    changed = true;
    observer.disconnect();
    removeEventListener('scroll', mark, opts);
    removeEventListener('resize', mark, opts);
  }
  return {
    changed: () => {
      if (!changed && relevant(observer.takeRecords())) mark();
      if (!changed && deepActiveElement(document) !== focused) mark();
      return changed;
    },
    stop,
  };
}

const kept = new WeakMap<PageMap, { entry: KeptWalk; watch: ChangeWatch }>();
/** The latest kept walk per settings value: a newer map's walk retires the older one's watch. */
const latest = new WeakMap<PageSettings, ChangeWatch>();

export function keepWalk(map: PageMap, entry: KeptWalk, watch: ChangeWatch): void {
  latest.get(entry.settings)?.stop();
  latest.set(entry.settings, watch);
  kept.set(map, { entry, watch });
}

/** The same walk under another map object (one merged with remote frames' maps). */
export function keepWalkAs(map: PageMap, from: PageMap): void {
  const k = kept.get(from);
  if (k) kept.set(map, k);
}

/** The walk behind `map`, if the page has not changed since it began and the settings are the same. */
export function walkBehind(map: PageMap | undefined, settings: PageSettings): KeptWalk | undefined {
  const k = map && kept.get(map);
  if (!k || k.entry.settings !== settings || k.watch.changed()) return undefined;
  return k.entry;
}
