/**
 * Deny zones on the action path: the refusal's class and the ref's sentence, and how a failure
 * that would describe a zone is told instead. What a call touches is checked by the one gate in
 * touches.ts; no message names what a zone holds.
 */
import { ActionError, flatContains, flatParent, isElement, tag, visibleBox } from './dom';
import { deepHit, hitReaches } from './hit';
import type { Zones } from '../settings';

/** What the model reads when an action would reach into a zone: it names nothing in it. */
export const ZONE_REFUSAL = 'is in a part of the page the site keeps pagehand out of';

/** A refusal because of a deny zone (its kind is `in_deny_zone`, whatever the sentence). */
export class ZoneRefusal extends ActionError {}

/**
 * The target is covered by a layer that is, or holds, a zone: the actionability error would
 * describe that layer (its heading, its text), so the dispatcher says it differently. Looks at
 * the points actionability tries (centre and inner points of the visible box).
 */
export function coveredByZone(target: Element, zones: Zones): boolean {
  const { box } = visibleBox(target);
  if (!box) return false;
  const w = box.right - box.left;
  const h = box.bottom - box.top;
  const points = [
    [0.5, 0.5],
    [0.25, 0.5],
    [0.75, 0.5],
    [0.5, 0.25],
    [0.5, 0.75],
  ].map(([fx, fy]) => ({ x: box.left + w * fx!, y: box.top + h * fy! }));
  const zoned = zones.check();
  for (const p of points) {
    const hit = deepHit(p.x, p.y);
    if (!hit || hit.crossOriginFrame || hitReaches(hit.el, target)) continue;
    if (zoned(hit.el)) return true;
    // The covering layer, as actionability names it: the outermost ancestor of the hit that
    // does not hold the target.
    let layer: Element = hit.el;
    for (let n = flatParent(hit.el); n && isElement(n) && !flatContains(n, target); n = flatParent(n)) {
      if (tag(n) === 'body' || tag(n) === 'html') break;
      layer = n;
    }
    if (zones.holds(layer)) return true;
  }
  return false;
}
