/**
 * Small DOM facts the actions share: realms, the flat tree, frames, geometry, visibility,
 * enabled/editable state, focusability. Elements may live in same-origin iframes, so nothing
 * here uses `instanceof` against the top window's classes.
 */

import type { Said } from '../../../common/said';
import { contentOrigin, flatParent, type Point } from '../dom/flat-tree';
import { nativeSetTimeout } from '../settle/settle';
import { typeOf, parentElementOf, hasAttrOf, attrOf, nodeTypeOf, nodeDocumentOf } from '../dom/proto';
import type { Zones } from '../settings';

export { deepActiveElement, flatContains, flatParent, type Point } from '../dom/flat-tree';

export type Win = Window & typeof globalThis;

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Thrown by actions for expected failures; the message goes to the model as is. */
export class ActionError extends Error {
  constructor(
    message: string,
    /** The failure as a code, for the panel to word in its language. */
    readonly said?: Said,
  ) {
    super(message);
    this.name = 'ActionError';
  }
}

export function winOf(node: Node): Win {
  return ((nodeDocumentOf(node) ?? (node as Document)).defaultView ?? window) as Win;
}

export function isElement(n: unknown): n is Element {
  if (!n || typeof n !== 'object') return false;
  try {
    return nodeTypeOf(n) === 1;
  } catch {
    return false; // not a node at all (a window, a plain object): the getter refuses it
  }
}

export function isHTML(el: Element): el is HTMLElement {
  return 'style' in el && 'focus' in el;
}

export const tag = (el: Element): string => el.localName;

/** The element's frame offset: its document's viewport origin in the root window's viewport. */
export function frameOffset(win: Win): Point | undefined {
  let x = 0;
  let y = 0;
  for (let w: Win = win; w !== window;) {
    let fe: Element | null;
    try {
      fe = w.frameElement;
    } catch {
      return undefined;
    }
    if (!fe) return undefined;
    const o = contentOrigin(fe);
    x += o.x;
    y += o.y;
    w = winOf(fe);
  }
  return { x, y };
}

/** Size of the root viewport without scrollbars. */
export function viewportSize(win: Win = window): { width: number; height: number } {
  const de = win.document.documentElement;
  return {
    width: de.clientWidth || win.innerWidth,
    height: (win.document.compatMode === 'BackCompat' ? win.document.body?.clientHeight : de.clientHeight) || win.innerHeight,
  };
}

/** The element's box in root-viewport coordinates, clipped to every viewport on the way up. */
export function visibleBox(el: Element): { rect: DOMRect; box: Box | undefined } {
  const rect = el.getBoundingClientRect();
  let box: Box | undefined = { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom };
  let w = winOf(el);
  box = clipByScrollers(el, box);
  for (;;) {
    const vp = viewportSize(w);
    box = intersect(box, { left: 0, top: 0, right: vp.width, bottom: vp.height });
    if (!box || w === window) break;
    let fe: Element | null = null;
    try {
      fe = w.frameElement;
    } catch {
      /* cross-origin parent */
    }
    if (!fe) return { rect, box: undefined };
    const o = contentOrigin(fe);
    box = { left: box.left + o.x, top: box.top + o.y, right: box.right + o.x, bottom: box.bottom + o.y };
    w = winOf(fe);
  }
  return { rect, box };
}

/** Clips a box by the padding boxes of ancestors that hide overflow (scroll containers). */
export function clipByScrollers(el: Element, box: Box | undefined): Box | undefined {
  const win = winOf(el);
  if (win.getComputedStyle(el).position === 'fixed') return box;
  for (let n = flatParent(el); n && box && isElement(n) && n !== win.document.documentElement && n !== win.document.body; n = flatParent(n)) {
    const cs = win.getComputedStyle(n);
    if (cs.overflowX !== 'visible' || cs.overflowY !== 'visible') {
      const r = n.getBoundingClientRect();
      const left = r.left + n.clientLeft;
      const top = r.top + n.clientTop;
      box = intersect(box, {
        left: cs.overflowX === 'visible' ? -Infinity : left,
        right: cs.overflowX === 'visible' ? Infinity : left + n.clientWidth,
        top: cs.overflowY === 'visible' ? -Infinity : top,
        bottom: cs.overflowY === 'visible' ? Infinity : top + n.clientHeight,
      });
    }
    if (cs.position === 'fixed') break;
  }
  return box;
}

function intersect(a: Box | undefined, b: Box): Box | undefined {
  if (!a) return undefined;
  const r = { left: Math.max(a.left, b.left), top: Math.max(a.top, b.top), right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom) };
  return r.right - r.left >= 1 && r.bottom - r.top >= 1 ? r : undefined;
}

/** Rendered, not `visibility:hidden`, not inside a closed `<details>`, non-empty box. */
export function isVisible(el: Element): boolean {
  const r = el.getBoundingClientRect();
  if (r.width <= 0 && r.height <= 0) return false;
  if (typeof el.checkVisibility === 'function') return el.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions);
  const cs = winOf(el).getComputedStyle(el);
  return cs.visibility !== 'hidden' && cs.display !== 'none';
}

/** Why an invisible element is not visible, for messages. */
export function invisibilityReason(el: Element): string {
  const r = el.getBoundingClientRect();
  const cs = winOf(el).getComputedStyle(el);
  if (cs.display === 'none') return 'hidden (display: none)';
  if (cs.visibility === 'hidden' || cs.visibility === 'collapse') return 'hidden (visibility: hidden)';
  for (let p = flatParent(el); p && isElement(p); p = flatParent(p)) {
    if (winOf(p).getComputedStyle(p).display === 'none') {
      return tag(p) === 'details' || p.closest?.('details:not([open])')
        ? 'inside a closed section (expand it first)'
        : 'inside a hidden container (open its menu or section first)';
    }
  }
  if (r.width <= 0 || r.height <= 0) return 'zero-sized';
  return 'not visible';
}

const DISABLEABLE = new Set(['button', 'input', 'select', 'textarea', 'optgroup', 'option', 'fieldset']);

/** Disabled natively (including by a disabled fieldset) or by aria-disabled on it or a parent. */
export function isDisabled(el: Element): boolean {
  if (DISABLEABLE.has(tag(el)) && el.matches(':disabled')) return true;
  return !!el.closest('[aria-disabled="true"]');
}

const TEXT_INPUT_TYPES = new Set(['', 'text', 'search', 'email', 'url', 'tel', 'password', 'number']);
const VALUE_INPUT_TYPES = new Set([...TEXT_INPUT_TYPES, 'date', 'time', 'datetime-local', 'month', 'week', 'range', 'color']);

export function inputType(el: Element): string {
  return tag(el) === 'input' ? (typeOf(el) || 'text').toLowerCase() : '';
}

/** Inputs and textareas whose text a user types (incl. number). */
export function isTextField(el: Element): el is HTMLInputElement | HTMLTextAreaElement {
  return tag(el) === 'textarea' || (tag(el) === 'input' && TEXT_INPUT_TYPES.has(inputType(el)));
}

/** Inputs that take a value by typing or picking (text-like, date-like, range, colour). */
export function isValueField(el: Element): el is HTMLInputElement | HTMLTextAreaElement {
  return tag(el) === 'textarea' || (tag(el) === 'input' && VALUE_INPUT_TYPES.has(inputType(el)));
}

/** The editing host if `el` is (inside) a contenteditable region. */
export function editingHost(el: Element): HTMLElement | undefined {
  if (!isHTML(el) || !el.isContentEditable) return undefined;
  let host: HTMLElement = el;
  for (let p = parentElementOf(host); p?.isContentEditable; p = parentElementOf(p)) host = p;
  return host;
}

export function isReadOnly(el: Element): boolean {
  if (tag(el) === 'input' || tag(el) === 'textarea') return (el as HTMLInputElement).readOnly;
  return attrOf(el, 'aria-readonly') === 'true';
}

/** Focusable by a click: native controls, links, [tabindex] (even -1), editing hosts, iframes. */
export function isClickFocusable(el: Element): boolean {
  if (!isHTML(el) && tag(el) !== 'svg' && !('focus' in el)) return false;
  const t = tag(el);
  if (DISABLEABLE.has(t) && t !== 'fieldset' && t !== 'optgroup' && t !== 'option')
    return !el.matches(':disabled') && !(t === 'input' && inputType(el) === 'hidden');
  if ((t === 'a' || t === 'area') && hasAttrOf(el, 'href')) return true;
  if (hasAttrOf(el, 'tabindex')) return true;
  if (t === 'iframe' || t === 'summary') return true;
  if ((t === 'audio' || t === 'video') && hasAttrOf(el, 'controls')) return true;
  return isHTML(el) && el.isContentEditable && !parentElementOf(el)?.isContentEditable;
}

/** The nearest click-focusable flat-tree ancestor-or-self. */
export function focusTargetFor(el: Element): (HTMLElement | SVGElement) | undefined {
  for (let n: Node | null = el; n; n = flatParent(n)) {
    if (isElement(n) && isClickFocusable(n)) return n as HTMLElement;
    if (isHTML(n as Element) && (n as HTMLElement).isContentEditable) {
      const host = editingHost(n as Element);
      if (host) return host;
    }
  }
  return undefined;
}

/** Waits for the next animation frame (or a short timer in a hidden tab, where rAF stops). */
export function nextFrame(win: Win = window): Promise<void> {
  return new Promise((resolve) => {
    if (win.document.visibilityState === 'hidden') {
      nativeSetTimeout(resolve, 16);
      return;
    }
    win.requestAnimationFrame(() => resolve());
  });
}

/** Current value of a field as the model may see it (passwords masked, nothing from a deny zone). */
export function fieldValue(el: Element, zones: Zones): string | undefined {
  const inZone = zones.check();
  if (tag(el) === 'select') {
    const s = el as HTMLSelectElement;
    return [...s.selectedOptions]
      .filter((o) => !inZone(o))
      .map((o) => o.label || o.text)
      .join(', ');
  }
  if (isValueField(el)) {
    const v = el.value;
    return inputType(el) === 'password' ? '•'.repeat(v.length) : v;
  }
  const host = editingHost(el);
  // An editor holding a zone: its own words only (innerText would read the zone's too).
  if (host) return (zones.holds(host) ? zones.textOutside(host, 100_000) : host.innerText || '').trim();
  return undefined;
}

/** Scrolls `el` to the middle of its scroll containers when its box is not fully in view. */
export function scrollIntoViewIfNeeded(el: Element): boolean {
  const { rect, box } = visibleBox(el);
  const fully = box && Math.abs(box.right - box.left - rect.width) < 1 && Math.abs(box.bottom - box.top - rect.height) < 1;
  if (fully) return false;
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' as ScrollBehavior });
  return true;
}
