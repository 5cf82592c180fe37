/**
 * An action's after-snapshot, kept as the next action's before-snapshot while the page has not
 * changed since (watched as a kept walk is: map/walk-reuse.ts): the two would be equal, and a
 * snapshot is a selector query and a visibility check of every interactive element (about 8 ms
 * on a 4.5k-element page). The URL and the title are read anew (a pushState mutates nothing).
 */
import { watchChanges, type ChangeWatch } from '../map/walk-reuse';
import type { Zones } from '../settings';
import { takeSnapshot, type Snapshot } from './observe';

/** The last after-snapshot, with its document and zones (another run's zones never reuse it). */
let kept: { snapshot: Snapshot; doc: Document; zones: Zones; watch: ChangeWatch } | null = null;

/** The snapshot of `doc` now: the kept one when nothing changed since it was taken. */
export function snapshotBefore(doc: Document, zones: Zones): Snapshot {
  const k = kept;
  kept = null;
  const same = k && k.doc === doc && k.zones === zones && !k.watch.changed();
  k?.watch.stop();
  return same ? { ...k.snapshot, url: doc.location?.href ?? '', title: doc.title } : takeSnapshot(doc, zones);
}

/** The snapshot of `doc` after an action, kept for the next action's before. */
export function snapshotAfter(doc: Document, zones: Zones): Snapshot {
  const snapshot = takeSnapshot(doc, zones);
  kept?.watch.stop();
  kept = { snapshot, doc, zones, watch: watchChanges(doc) };
  return snapshot;
}
