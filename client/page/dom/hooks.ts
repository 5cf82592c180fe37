/**
 * Document-start hooks: when the bundle runs before page scripts (userscript, embed in <head>),
 * they reveal what the DOM alone hides — closed shadow roots and elements whose only sign of
 * being clickable is a listener. They wrap the originals transparently (same `this`, arguments,
 * return value and exceptions) and add no globals.
 *
 * The headless runner runs the bundle in an isolated world, where hooks would see only the
 * bundle's own calls. There a small page-world part (client/entries/runner-page.ts) installs
 * `installPageWorldHooks` at document start and hands over only what it observed, through the
 * DOM; the bundle reads it after `useHooksFromPageWorld`. Nothing of the run is exposed to the
 * page: a page that lies to these hooks can only hide a shadow root or a click cue, or invent
 * one — never touch the run's state, results or approvals.
 */
import { mimic } from '../settle/network';
import { frameworkClickHandler, isFrameworkRoot } from '../map/walk/framework-handlers';

const closedRoots = new WeakMap<Element, ShadowRoot>();
const clickTargets = new WeakSet<EventTarget>();
const CLICK_EVENTS = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart', 'dblclick', 'contextmenu']);
/** The handler properties a page may set instead of adding a listener. */
const HANDLER_PROPS = ['onclick', 'onmousedown', 'onpointerdown', 'onmouseup'] as const;
let installed = false;
/** In the runner's isolated world: click cues come from the page world. */
let fromPageWorld = false;

/**
 * Dispatched (cancelable, composed) by the runner's isolated world on an element: the page
 * world cancels it when the page gave that element a click-like listener or handler. One bit.
 */
export const CLICK_LISTENER_PROBE = 'pagehand-runner-click-listener';

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
  hookListeners(win);
}

/** Records elements given a click-like listener (after this call). */
function hookListeners(win: Window & typeof globalThis): void {
  const target = win.EventTarget.prototype;
  const add = target.addEventListener;
  const wrapped = function (this: EventTarget, type: string, ...rest: unknown[]) {
    if (CLICK_EVENTS.has(type) && this instanceof win.Element) clickTargets.add(this);
    return (add as (...a: unknown[]) => void).call(this, type, ...rest);
  } as typeof add;
  mimic(wrapped, add);
  target.addEventListener = wrapped;
}

/**
 * The runner's page-world part, at document start (in the page's world, top frame).
 *
 * Closed shadow roots: attached open, so the isolated world sees them through its own native
 * `shadowRoot` getter, and disguised as closed in the page's world (`shadowRoot` null on the
 * host, `mode` 'closed'). Limits: a page script can still reach such a root where the disguise
 * does not reach — the native getter taken from another realm (an iframe's `Element.prototype`),
 * `composedPath()` seen from outside the root, `assignedSlot` of a slotted node; shadow roots
 * declared in HTML (`<template shadowrootmode="closed">`) are not attached by script, stay
 * closed and stay unseen.
 *
 * Click cues: answers CLICK_LISTENER_PROBE for elements given a click-like listener (as
 * `installHooks` records them), a handler property, or a handler a framework keeps on the node
 * (walk/framework-handlers.ts) — the isolated world cannot see what the page set on its nodes
 * (`el.onclick`, `__reactProps$…` are per world). A framework's root container is no cue.
 */
export function installPageWorldHooks(win: Window & typeof globalThis = window): void {
  if (installed) return;
  installed = true;
  const disguised = new WeakSet<object>();
  const proto = win.Element.prototype;
  const attach = proto.attachShadow;
  const attachShadow = function (this: Element, init: ShadowRootInit): ShadowRoot {
    if (init?.mode !== 'closed') return attach.call(this, init);
    const root = attach.call(this, { ...init, mode: 'open' });
    disguised.add(this);
    disguised.add(root);
    return root;
  };
  mimic(attachShadow, attach);
  proto.attachShadow = attachShadow;
  disguise(
    proto,
    'shadowRoot',
    (get) =>
      function (this: Element) {
        return disguised.has(this) ? null : get.call(this);
      },
  );
  disguise(
    win.ShadowRoot.prototype,
    'mode',
    (get) =>
      function (this: ShadowRoot) {
        return disguised.has(this) ? 'closed' : get.call(this);
      },
  );
  hookListeners(win);

  const getters = HANDLER_PROPS.map((p) => Object.getOwnPropertyDescriptor(win.HTMLElement.prototype, p)?.get).filter((g): g is () => unknown => !!g);
  const path = win.Event.prototype.composedPath;
  win.addEventListener(
    CLICK_LISTENER_PROBE,
    (e) => {
      const el = path.call(e)[0];
      if (!el || !(el instanceof win.Element)) return;
      // A framework's delegated handler kept on the node counts; its root's listeners do not.
      const own = (clickTargets.has(el) || (el instanceof win.HTMLElement && getters.some((g) => g.call(el) != null))) && !isFrameworkRoot(el);
      if (own || frameworkClickHandler(el)) e.preventDefault();
    },
    true,
  );
}

/** Replaces a prototype's getter with `make(original)`, keeping its descriptor, name and length. */
function disguise(proto: object, name: string, make: (get: () => unknown) => (this: never) => unknown): void {
  const d = Object.getOwnPropertyDescriptor(proto, name);
  if (!d?.get) return;
  const get = make(d.get);
  mimic(get, d.get);
  Object.defineProperty(proto, name, { ...d, get });
}

/** In the runner's isolated world (before the bundle's entry runs): take the cues from the page world. */
export function useHooksFromPageWorld(): void {
  installed = true;
  fromPageWorld = true;
}

/** The closed shadow root the hooks saw attached to the element, if any (open ones: `shadowRootOf` in ./flat-tree.ts). */
export function closedRootOf(el: Element): ShadowRoot | null {
  return closedRoots.get(el) ?? null;
}

/** The bundle runs in the runner's isolated world: what the page keeps on its nodes is asked of the page world. */
export function cuesFromPageWorld(): boolean {
  return fromPageWorld;
}

/** True when a click-like listener was added to this element after the hooks were installed. */
export function hasClickListener(el: Element): boolean {
  if (fromPageWorld) return !el.dispatchEvent(new Event(CLICK_LISTENER_PROBE, { cancelable: true, composed: true }));
  return clickTargets.has(el);
}
