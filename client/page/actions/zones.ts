/**
 * Deny zones on the action path: what the dispatcher (index.ts) checks before an action may
 * run, once its target is known — the focused element a key would go to, where Tab would move
 * focus, a label whose control is in a zone — and how a failure that would describe a zone is
 * told instead. No action lands inside a zone, and no message names what one holds.
 */
import { ActionError, deepActiveElement, flatContains, flatParent, isElement, isHTML, tag, visibleBox } from './dom';
import { deepHit, hitReaches } from './hit';
import { nextTabStop } from './press';
import type { Zones } from '../settings';

/** What the model reads when an action would reach into a zone: it names nothing in it. */
export const ZONE_REFUSAL = 'is in a part of the page the site keeps pagehand out of';

/** A refusal because of a deny zone (its kind is `in_deny_zone`, whatever the sentence). */
export class ZoneRefusal extends ActionError {}

/** The element keys go to now (the deepest focused one), when it sits in a zone. */
export function focusInZone(zones: Zones): Element | undefined {
  const focused = deepActiveElement(document);
  return focused && zones.inside(focused) ? focused : undefined;
}

/** Tab from `from` would put focus inside a zone. */
export function tabEntersZone(from: Element | null, back: boolean, zones: Zones): boolean {
  const next = nextTabStop(from, back);
  return !!next && zones.inside(next);
}

/** A click on `el` would activate a control in a zone through a <label> (its `for`, or the control it wraps). */
export function labelsZone(el: Element, zones: Zones): boolean {
  for (let n: Node | null = el; n && isElement(n); n = flatParent(n)) {
    if (isHTML(n) && tag(n) === 'label') {
      const control = (n as HTMLLabelElement).control;
      return !!control && zones.inside(control);
    }
  }
  return false;
}

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
