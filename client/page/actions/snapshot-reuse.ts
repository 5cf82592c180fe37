/**
 * An action's after-snapshot, kept as the next action's before-snapshot while the page has not
 * changed since (watched as a kept walk is: map/walk-reuse.ts): the two would be equal, and a
 * snapshot is a selector query and a visibility check of every interactive element (about 6 ms
 * on a 4.5k-element page). The same way, the after-snapshot is taken ahead, while the page is
 * quiet inside the settle wait, and used when nothing changed by the wait's end: the wait
 * absorbs its cost. The URL and the title are read anew (a pushState mutates nothing).
 */
import { watchChanges, type ChangeWatch } from '../map/walk-reuse';
import type { Zones } from '../settings';
import { takeSnapshot, type Snapshot } from './observe';

interface Kept {
  snapshot: Snapshot;
  doc: Document;
  zones: Zones;
  watch: ChangeWatch;
}

/** The last after-snapshot, with its document and zones (another run's zones never reuse it). */
let kept: Kept | null = null;
/** This action's after-snapshot, taken ahead inside its settle wait. */
let ahead: Kept | null = null;

/** `k` if it is of `doc` and `zones` and nothing changed since it was taken; stops its watch otherwise. */
function unchanged(k: Kept | null, doc: Document, zones: Zones): Kept | null {
  if (k && k.doc === doc && k.zones === zones && !k.watch.changed()) return k;
  k?.watch.stop();
  return null;
}

const withPlace = (s: Snapshot, doc: Document): Snapshot => ({ ...s, url: doc.location?.href ?? '', title: doc.title });

/** The snapshot of `doc` now: the kept one when nothing changed since it was taken. */
export function snapshotBefore(doc: Document, zones: Zones): Snapshot {
  ahead?.watch.stop();
  ahead = null;
  const k = unchanged(kept, doc, zones);
  kept = null;
  k?.watch.stop();
  return k ? withPlace(k.snapshot, doc) : takeSnapshot(doc, zones);
}

/** Takes the after-snapshot of `doc` now, for `snapshotAfter` to use if nothing changes meanwhile. */
export function snapshotAhead(doc: Document, zones: Zones): void {
  ahead?.watch.stop();
  ahead = null;
  const watch = watchChanges(doc);
  // Something running (an animation) would void it at once: not taken.
  if (!watch.changed()) ahead = { snapshot: takeSnapshot(doc, zones), doc, zones, watch };
}

/** The snapshot of `doc` after an action (the one taken ahead, if still true), kept for the next action's before. */
export function snapshotAfter(doc: Document, zones: Zones): Snapshot {
  const a = unchanged(ahead, doc, zones);
  ahead = null;
  kept?.watch.stop();
  kept = a ? { ...a, snapshot: withPlace(a.snapshot, doc) } : { snapshot: takeSnapshot(doc, zones), doc, zones, watch: watchChanges(doc) };
  return kept.snapshot;
}
