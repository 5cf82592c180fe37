/**
 * Document-start hooks: when the bundle runs before page scripts (userscript, embed in <head>),
 * they reveal what the DOM alone hides — closed shadow roots and elements whose only sign of
 * being clickable is a listener. They wrap the originals transparently (same `this`, arguments,
 * return value and exceptions) and add no globals.
 */

const closedRoots = new WeakMap<Element, ShadowRoot>();
const clickTargets = new WeakSet<EventTarget>();
const CLICK_EVENTS = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart', 'dblclick']);
let installed = false;

export function installHooks(win: Window & typeof globalThis = window): void {
  if (installed) return;
  installed = true;
  const proto = win.Element.prototype;
  const attach = proto.attachShadow;
  proto.attachShadow = function (this: Element, init: ShadowRootInit): ShadowRoot {
    const root = attach.call(this, init);
    if (init?.mode === 'closed') closedRoots.set(this, root);
    return root;
  };
  const target = win.EventTarget.prototype;
  const add = target.addEventListener;
  target.addEventListener = function (this: EventTarget, type: string, ...rest: unknown[]) {
    if (CLICK_EVENTS.has(type) && this instanceof win.Element) clickTargets.add(this);
    return (add as (...a: unknown[]) => void).call(this, type, ...rest);
  } as typeof add;
}

/** The element's shadow root, open or (if the hooks saw it attached) closed. */
export function shadowRootOf(el: Element): ShadowRoot | null {
  return el.shadowRoot ?? closedRoots.get(el) ?? null;
}

/** True when a click-like listener was added to this element after the hooks were installed. */
export function hasClickListener(el: Element): boolean {
  return clickTargets.has(el);
}
