/**
 * A map's walk, kept for reuse while the page has not changed since it began: a step's
 * recording describes its target from the same walk instead of walking the whole page again.
 *
 * "Not changed" is watched, not guessed (`watchChanges`): a DOM mutation outside the agent's own
 * UI (in the document, and in each shadow root and same-origin frame the walk entered), a focus
 * change, a running animation or an event that may restyle the page (a scroll, the user's
 * pointer, an image or a font loaded) since the walk began, and the walk is no longer offered.
 * What no observer sees (style sheets edited through the CSSOM) is checked by the user of the
 * walk on the element it cares about.
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
import { parentElementOf, nodeTypeOf, closestOf } from '../dom/proto';
import { UI_ATTR } from '../ui-attr';

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

const OWN_UI = `[${UI_ATTR}]`;
/** Events after which styles or boxes may differ with no mutation to see (the user's pointer on a hover menu, a ticked checkbox, a popover, an image loaded). */
const RESTYLING = ['scroll', 'resize', 'load', 'mouseover', 'mouseout', 'input', 'change', 'toggle', 'hashchange', 'popstate', 'fullscreenchange'];
/**
 * An image or frame that loads (or fails to) resizes its box. Such an event never reaches the
 * window, not even a capturing listener (a load event's path stops at the document), so the
 * document listens for them.
 */
const LOADED = ['load', 'error'];

/** Within the agent's own UI (its host, or a host it adds or removes): not the page's change. */
function ownUi(n: Node | null, r?: MutationRecord): boolean {
  const el = n && (nodeTypeOf(n) === 1 ? (n as Element) : parentElementOf(n));
  if (el && closestOf(el, OWN_UI)) return true;
  const nodes = r?.type === 'childList' ? [...Array.from(r.addedNodes), ...Array.from(r.removedNodes)] : [];
  return nodes.length > 0 && nodes.every((c) => nodeTypeOf(c) === 1 && closestOf(c as Element, OWN_UI) === c);
}

/** Running animations change what shows with no mutation (a transition still turning a menu visible). */
const animating = (doc: Document): boolean => typeof doc.getAnimations === 'function' && doc.getAnimations().length > 0;

/** A watch a walk widens as it goes: what it reads inside a root is watched from when it enters. */
export interface PageWatch extends ChangeWatch {
  /** Watches `root` too: a shadow root's mutations; a same-origin frame's document as a document is. */
  enter(root: ShadowRoot | Document): void;
}

const TREE = { subtree: true, childList: true, attributes: true, characterData: true } as const;

/**
 * Starts watching `doc`: any mutation outside the agent's own UI (in a deny zone too: a zone
 * marked meanwhile changes what is left out), a focus change, a running animation or an event
 * in RESTYLING, and it answers "changed". Its MutationObserver sees nothing inside shadow roots
 * or frames: those a walk enters are added with `enter`.
 */
export function watchChanges(doc: Document = document): PageWatch {
  const win = doc.defaultView;
  const focused = deepActiveElement(doc);
  let changed = false;
  const frames: ChangeWatch[] = [];
  const pageOnly = (records: MutationRecord[]): boolean => records.every((r) => ownUi(r.target, r));
  const observer = new MutationObserver((records) => {
    if (!pageOnly(records)) stop();
  });
  observer.observe(doc, TREE);
  const opts = { capture: true, passive: true } as const;
  const mark = (e: Event): void => {
    if (!ownUi(e.target instanceof Node ? e.target : null)) stop();
  };
  // A web font that arrives re-lays out its text.
  const fonts = doc.fonts as FontFaceSet | undefined;
  const fontsDone = (): void => stop();
  for (const type of RESTYLING) win?.addEventListener(type, mark, opts);
  for (const type of LOADED) doc.addEventListener(type, mark, opts);
  fonts?.addEventListener?.('loadingdone', fontsDone);
  function stop(): void {
    if (changed) return;
    changed = true;
    observer.disconnect();
    for (const type of RESTYLING) win?.removeEventListener(type, mark, opts);
    for (const type of LOADED) doc.removeEventListener(type, mark, opts);
    fonts?.removeEventListener?.('loadingdone', fontsDone);
    for (const f of frames) f.stop();
  }
  if (!win || animating(doc)) stop();
  return {
    changed: () => {
      if (!changed && (!pageOnly(observer.takeRecords()) || deepActiveElement(doc) !== focused || animating(doc) || frames.some((f) => f.changed()))) stop();
      return changed;
    },
    stop,
    enter(root) {
      if (changed) return;
      if (nodeTypeOf(root) === 9) frames.push(watchChanges(root as Document));
      else observer.observe(root, TREE);
    },
  };
}

/**
 * Watches `roots` (shadow roots, or a document where focus and events do not matter) for DOM
 * mutations only: the first change answers "changed" and stops watching. Records are taken at
 * each ask, so a change made a moment before counts at once. `text: false` leaves text edits
 * out (what depends on elements and attributes only).
 */
export function watchTrees(roots: readonly Node[], { text = true }: { text?: boolean } = {}): ChangeWatch {
  let changed = false;
  const observer = new MutationObserver(() => stop());
  for (const r of roots) observer.observe(r, { ...TREE, characterData: text });
  function stop(): void {
    changed = true;
    observer.disconnect();
  }
  return {
    changed: () => {
      if (!changed && observer.takeRecords().length) stop();
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
