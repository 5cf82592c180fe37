/**
 * Deny zones on the action path: what the dispatcher (index.ts) checks before an action may
 * run, once its target is known — the focused element a key would go to, where Tab would move
 * focus, a label whose control is in a zone — and how a failure that would describe a zone is
 * told instead. No action lands inside a zone, and no message names what one holds.
 */
import { containsZone, createZoneCheck, inExcludedZone } from '../own-ui';
import { ActionError, deepActiveElement, flatContains, flatParent, inputType, isDisabled, isElement, isHTML, isVisible, tag, visibleBox } from './dom';
import { deepHit, hitReaches } from './hit';
import { focusOrder } from './press';

/** What the model reads when an action would reach into a zone: it names nothing in it. */
export const ZONE_REFUSAL = 'is in a part of the page the site keeps pagehand out of';

/** A refusal because of a deny zone (its kind is `in_deny_zone`, whatever the sentence). */
export class ZoneRefusal extends ActionError {}

/** The element keys go to now (the deepest focused one), when it sits in a zone. */
export function focusInZone(): Element | undefined {
  const focused = deepActiveElement(document);
  return focused && inExcludedZone(focused) ? focused : undefined;
}

/** A radio group has one tab stop (mirrors press.ts): its checked radio, else the first (last going back). */
function radioStop(radio: HTMLInputElement, back: boolean): boolean {
  if (!radio.name) return true;
  const scope: ParentNode = radio.form ?? (radio.getRootNode() as ParentNode);
  const group = [...scope.querySelectorAll('input[type=radio]')].filter(
    (r) => (r as HTMLInputElement).name === radio.name && (r as HTMLInputElement).form === radio.form && !isDisabled(r) && isVisible(r),
  ) as HTMLInputElement[];
  const checked = group.find((r) => r.checked);
  if (checked) return checked === radio;
  return (back ? group[group.length - 1] : group[0]) === radio;
}

function isTabStop(el: HTMLElement, back: boolean): boolean {
  if (isDisabled(el) || el.closest('[inert]') || !isVisible(el)) return false;
  if (tag(el) === 'input' && inputType(el) === 'radio') return radioStop(el as HTMLInputElement, back);
  return true;
}

/**
 * The element Tab (Shift+Tab when `back`) would move focus to from `from`, found as press_key
 * finds it (press.ts `moveFocus`: the tab order of `focusOrder`, continued from the nearest
 * tabbable ancestor or the element's place in the document), or undefined when none would take it.
 */
export function nextTabStop(from: Element | null, back: boolean): HTMLElement | undefined {
  const doc = from?.ownerDocument ?? document;
  const order = focusOrder(doc);
  if (!order.length) return undefined;
  let i = from ? order.indexOf(from as HTMLElement) : -1;
  if (i < 0 && from && from !== doc.body) {
    for (let n = flatParent(from); n && isElement(n); n = flatParent(n)) {
      i = order.indexOf(n as HTMLElement);
      if (i >= 0) break;
    }
    if (i < 0) {
      const after = order.findIndex((e) => from.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING);
      i = after < 0 ? order.length : after;
      if (!back) i -= 1;
    }
  } else if (i < 0 && back) {
    i = order.length;
  }
  const n = order.length;
  for (let step = 1; step <= n; step++) {
    const next = order[(((back ? i - step : i + step) % n) + n) % n]!;
    if (next === from || !isTabStop(next, back)) continue;
    return next;
  }
  return undefined;
}

/** Tab from `from` would put focus inside a zone. */
export function tabEntersZone(from: Element | null, back: boolean): boolean {
  const next = nextTabStop(from, back);
  return !!next && inExcludedZone(next);
}

/** A click on `el` would activate a control in a zone through a <label> (its `for`, or the control it wraps). */
export function labelsZone(el: Element): boolean {
  for (let n: Node | null = el; n && isElement(n); n = flatParent(n)) {
    if (isHTML(n) && tag(n) === 'label') {
      const control = (n as HTMLLabelElement).control;
      return !!control && inExcludedZone(control);
    }
  }
  return false;
}

/**
 * The target is covered by a layer that is, or holds, a zone: the actionability error would
 * describe that layer (its heading, its text), so the dispatcher says it differently. Looks at
 * the points actionability tries (centre and inner points of the visible box).
 */
export function coveredByZone(target: Element): boolean {
  const { box } = visibleBox(target);
  if (!box) return false;
  const w = box.right - box.left;
  const h = box.bottom - box.top;
  const points = [[0.5, 0.5], [0.25, 0.5], [0.75, 0.5], [0.5, 0.25], [0.5, 0.75]].map(([fx, fy]) => ({ x: box.left + w * fx!, y: box.top + h * fy! }));
  const zoned = createZoneCheck();
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
    if (containsZone(layer)) return true;
  }
  return false;
}
