/**
 * The next map's walk, started ahead while the page is quiet inside an action's settle wait
 * (`whenQuiet`, settle-watch.ts). The walk is most of a map's cost, and the wait is time the
 * step spends anyway. The next map (map.ts) takes the walk over if nothing changed since it
 * began, and finishes it if the wait ended first. Otherwise the walk is dropped and the map
 * walks afresh.
 *
 * "Nothing changed" is watched as for a kept walk (walk-reuse.ts), every shadow root and
 * same-origin frame document the walk enters included, from the moment it enters.
 *
 * @example
 *   walkAhead(settings);                                  // actions/index.ts, the page quiet
 *   const ahead = takeAhead(settings, { text: true, exactScreens: 2 }); // map.ts, at its start
 */
import { deepActiveElement } from '../dom/flat-tree';
import type { PageSettings, Zones } from '../settings';
import { scrollCount } from '../settle/scrolls';
import { nextTask, sliceBudget, SLICE_MS } from './slicing';
import { startWalk, type Walk } from './walk';
import { watchChanges, type PageWatch } from './walk-reuse';

/** The walk options the agent's step map uses (map.ts's defaults): only such a map takes the walk. */
export interface AheadKey {
  text: boolean;
  exactScreens: number;
}

const STEP_MAP: AheadKey = { text: true, exactScreens: 2 };

export interface Ahead {
  walk: Walk;
  /** Watches the document and every root the walk entered; started before the walk. */
  watch: PageWatch;
}

interface Pending extends Ahead {
  /** The walk reads the settings' deny zones only. */
  zones: Zones;
  view: string;
  scrolls: number;
}

let pending: Pending | null = null;
/** Bumped by every start and drop: a start still waiting for its frame is then void. */
let generation = 0;

/** Scroll position and viewport size, as one comparable string. */
export function viewOf(): string {
  return `${window.scrollX},${window.scrollY},${window.innerWidth},${window.innerHeight}`;
}

/**
 * Starts the step map's walk of `document` in a task after the next frame, then walks in slices
 * between the page's tasks; replaces one started before. After the frame: what the frame's
 * rendering starts (an IntersectionObserver that loads more items) starts before the walk,
 * which never holds that frame up. Resolves when the walk is done, taken, dropped or voided.
 */
export async function walkAhead(settings: PageSettings): Promise<void> {
  dropAhead();
  const mine = generation;
  try {
    await afterFrame();
  } catch {
    return; // a page's own requestAnimationFrame that throws: no walk ahead, the map walks then
  }
  if (generation !== mine) return;
  const doc = document;
  const watch = watchChanges(doc);
  // Something running (an animation) would void it at once: not started.
  if (watch.changed()) return;
  const walk = startWalk(doc, {
    focused: deepActiveElement(doc),
    text: STEP_MAP.text,
    exactScreens: STEP_MAP.exactScreens,
    zones: settings.zones,
    entered: watch.enter,
  });
  const p: Pending = { walk, watch, zones: settings.zones, view: viewOf(), scrolls: scrollCount() };
  pending = p;
  await runAhead(p);
}

/** A task after the next frame; in a hidden tab, where frames stop, just a task. */
async function afterFrame(): Promise<void> {
  if (document.visibilityState !== 'hidden') await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
  await nextTask();
}

/**
 * Slices in plain tasks, queued behind the page's own (and the settle wait's timer): the walk
 * never holds up what it waits for. Stops when taken, dropped or voided.
 */
async function runAhead(p: Pending): Promise<void> {
  const budget = sliceBudget({ sliceMs: SLICE_MS });
  try {
    while (pending === p && !p.watch.changed()) {
      if (p.walk.run(budget)) return;
      await nextTask();
      budget.restart();
    }
  } catch {
    // One odd element: the map walks afresh and meets it there.
    if (pending === p) dropAhead();
  }
}

/** Drops the walk started ahead, if any (an action begins: the page is about to change). */
export function dropAhead(): void {
  generation++;
  pending?.watch.stop();
  pending = null;
}

/**
 * The walk started ahead, for a map with `settings`' zones that walks as `key` says (the step
 * map's way), if nothing changed since it began (then dropped). A map that walks otherwise
 * leaves it for the next.
 */
export function takeAhead(settings: PageSettings, key: AheadKey): Ahead | undefined {
  const p = pending;
  if (!p || p.zones !== settings.zones || key.text !== STEP_MAP.text || key.exactScreens !== STEP_MAP.exactScreens) return undefined;
  pending = null;
  // A scroll's event comes at the next frame: the position itself is compared too.
  if (viewOf() === p.view && scrollCount() === p.scrolls && !p.watch.changed()) return { walk: p.walk, watch: p.watch };
  p.watch.stop();
  return undefined;
}
