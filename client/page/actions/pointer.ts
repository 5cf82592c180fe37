/**
 * Synthetic pointer input, dispatched in the order a browser does for a mouse:
 *   boundary events (pointerout/leave, mouseout/leave on the old target; pointerover/enter,
 *   mouseover/enter on the new), pointermove, mousemove,
 *   pointerdown, mousedown, focus (mousedown's default action), pointerup, mouseup, click.
 * The click is a real `MouseEvent('click')`, so default actions (follow a link, toggle a
 * checkbox, activate a label's control, submit a form) run exactly once. As in browsers, a
 * cancelled pointerdown suppresses the compatibility mouse events, and a cancelled mousedown
 * prevents the focus change.
 */
import { deepActiveElement, flatContains, flatParent, focusTargetFor, isElement, winOf, type Point, type Win } from './dom';
import { deepHit } from './hit';
import type { Modifiers } from './keys';
import { ownerDocumentOf } from '../dom/proto';

const NO_MODIFIERS: Modifiers = { ctrl: false, shift: false, alt: false, meta: false };

/** Where the synthetic mouse is, per window (so hover/leave pairs stay consistent). */
const hovered = new WeakMap<Win, WeakRef<Element>>();

interface Init {
  local: Point;
  root: Point;
  modifiers?: Modifiers;
}

function baseInit(win: Win, i: Init, button: number, buttons: number, detail: number, related: Element | null = null): MouseEventInit {
  const m = i.modifiers ?? NO_MODIFIERS;
  return {
    bubbles: true,
    cancelable: true,
    composed: true,
    view: win,
    detail,
    clientX: i.local.x,
    clientY: i.local.y,
    screenX: i.root.x + (window.screenX || 0),
    screenY: i.root.y + (window.screenY || 0),
    button,
    buttons,
    relatedTarget: related,
    ctrlKey: m.ctrl,
    shiftKey: m.shift,
    altKey: m.alt,
    metaKey: m.meta,
  };
}

function fireMouse(el: Element, type: string, init: MouseEventInit): boolean {
  const win = winOf(el);
  return el.dispatchEvent(new win.MouseEvent(type, init));
}

function firePointer(el: Element, type: string, init: MouseEventInit, pressure: number): boolean {
  const win = winOf(el);
  if (typeof win.PointerEvent !== 'function') return true;
  const p: PointerEventInit = { ...init, pointerId: 1, pointerType: 'mouse', isPrimary: true, width: 1, height: 1, pressure };
  return el.dispatchEvent(new win.PointerEvent(type, p));
}

/** Flat-tree ancestors of `el`, itself first. */
function chainOf(el: Element | null): Element[] {
  const out: Element[] = [];
  for (let n: Node | null = el; n; n = flatParent(n)) if (isElement(n)) out.push(n);
  return out;
}

/** Boundary events for the pointer moving from the previous hover target to `to`. */
function crossBoundary(win: Win, to: Element, i: Init): void {
  const from = hovered.get(win)?.deref();
  hovered.set(win, new WeakRef(to));
  if (from === to) return;
  const fromChain = from?.isConnected ? chainOf(from) : [];
  const toChain = chainOf(to);
  const shared = new Set(toChain.filter((e) => fromChain.includes(e)));
  const left = fromChain.filter((e) => !shared.has(e)); // innermost first
  const entered = toChain.filter((e) => !shared.has(e)).reverse(); // outermost first
  const out = (type: string, rel: Element | null): MouseEventInit => baseInit(win, i, 0, 0, 0, rel);
  const noBubble = (type: string, rel: Element | null): MouseEventInit => ({ ...out(type, rel), bubbles: false, cancelable: false });
  if (from && from.isConnected) {
    firePointer(from, 'pointerout', out('pointerout', to), 0);
    for (const e of left) firePointer(e, 'pointerleave', noBubble('pointerleave', to), 0);
    fireMouse(from, 'mouseout', out('mouseout', to));
    for (const e of left) fireMouse(e, 'mouseleave', noBubble('mouseleave', to));
  }
  const rel = from?.isConnected ? from : null;
  firePointer(to, 'pointerover', out('pointerover', rel), 0);
  for (const e of entered) firePointer(e, 'pointerenter', noBubble('pointerenter', rel), 0);
  fireMouse(to, 'mouseover', out('mouseover', rel));
  for (const e of entered) fireMouse(e, 'mouseenter', noBubble('mouseenter', rel));
}

/** Moves the synthetic mouse onto `target` at the point: boundary events, then move events. */
export function hoverAt(target: Element, i: Init): void {
  const win = winOf(target);
  crossBoundary(win, target, i);
  const init = baseInit(win, i, 0, 0, 0);
  firePointer(target, 'pointermove', init, 0);
  fireMouse(target, 'mousemove', init);
}

/** Focus as mousedown's default action: the nearest focusable ancestor, or blur. */
function focusFor(target: Element): void {
  const doc = ownerDocumentOf(target);
  const f = focusTargetFor(target);
  const active = deepActiveElement(doc);
  if (f) {
    if (active !== f && !(active && flatContains(f, active) && (f as HTMLElement).isContentEditable)) f.focus({ preventScroll: true });
  } else if (active && active !== doc.body && 'blur' in active) {
    (active as HTMLElement).blur();
  }
}

/** Nearest common flat-tree ancestor, for the click after a down/up on different elements. */
function commonAncestor(a: Element, b: Element): Element {
  const chain = chainOf(a);
  for (const e of chainOf(b)) if (chain.includes(e)) return e;
  return b;
}

export interface ClickOutcome {
  /** The element the click event went to. */
  clicked: Element;
  /** The page called preventDefault on the click (default action suppressed). */
  clickPrevented: boolean;
}

/** Which button a press uses: 0 the main (left) one, 2 the secondary (right) one. */
export type Button = 0 | 2;
const BUTTONS_OF: Record<Button, number> = { 0: 1, 2: 2 };

/** A button held down, from `pressAt` until `releaseAt`. */
export interface Pressed {
  target: Element;
  button: Button;
  /** The page did not cancel pointerdown: the compatibility mouse events follow. */
  pointerOk: boolean;
  /** The page did not cancel mousedown (so focus moved). */
  mouseOk: boolean;
  clickCount: number;
}

/** Presses a button at the point: pointerdown, mousedown, focus (the pointer is already there). */
export function pressAt(target: Element, i: Init, button: Button = 0, clickCount = 1): Pressed {
  const win = winOf(target);
  const down = baseInit(win, i, button, BUTTONS_OF[button], clickCount);
  const pointerOk = firePointer(target, 'pointerdown', down, 0.5);
  let mouseOk = true;
  if (pointerOk) mouseOk = fireMouse(target, 'mousedown', down);
  if (mouseOk) focusFor(target);
  return { target, button, pointerOk, mouseOk, clickCount };
}

/**
 * Moves the pointer with the button held: boundary events, pointermove, mousemove — to `to`
 * (the element under the point, or the one holding the pointer capture).
 */
export function moveWhilePressed(to: Element, i: Init, p: Pressed): void {
  const win = winOf(to);
  crossBoundary(win, to, i);
  const init = baseInit(win, i, 0, BUTTONS_OF[p.button], 0);
  // A move changes no button: pointermove says so with -1, mousemove with 0.
  firePointer(to, 'pointermove', { ...init, button: -1 }, 0.5);
  if (p.pointerOk) fireMouse(to, 'mousemove', init);
}

/**
 * Releases the button over whatever is at the point now (handlers may have re-rendered), or
 * over `over` when given (the element holding the pointer capture): pointerup, then
 * `afterPointerUp` (where a capture is released), mouseup, and
 * for the main button click (and dblclick on the second of two) at the common ancestor of
 * where it went down and up, as browsers do; for the others auxclick.
 */
export function releaseAt(p: Pressed, i: Init, over?: Element, afterPointerUp?: () => void): ClickOutcome {
  const { target, button, clickCount } = p;
  const win = winOf(target);
  let upTarget = over;
  if (!upTarget) {
    const again = target.isConnected ? deepHit(i.root.x, i.root.y) : undefined;
    upTarget = again && !again.crossOriginFrame && winOf(again.el) === win ? again.el : target;
  }
  const up = baseInit(win, i, button, 0, clickCount);
  firePointer(upTarget, 'pointerup', up, 0);
  // Pointer capture ends right after pointerup, before the mouse events (lostpointercapture).
  afterPointerUp?.();
  if (p.pointerOk) fireMouse(upTarget, 'mouseup', up);
  const clickTarget = target.isConnected ? commonAncestor(target, upTarget) : upTarget;
  const clickInit = baseInit(win, i, button, 0, clickCount);
  const clickOk = fireMouse(clickTarget, button === 0 ? 'click' : 'auxclick', clickInit);
  if (button === 0 && clickCount === 2) fireMouse(clickTarget, 'dblclick', clickInit);
  return { clicked: clickTarget, clickPrevented: !clickOk };
}

/** A full left click at the point: hover, press, focus, release, click. */
export function clickAt(target: Element, i: Init, clickCount = 1): ClickOutcome {
  hoverAt(target, i);
  return releaseAt(pressAt(target, i, 0, clickCount), i);
}

/**
 * A double click as a mouse makes it: two presses at the same point (detail 1, then 2), a
 * click after each, and dblclick after the second.
 */
export function doubleClickAt(target: Element, i: Init): ClickOutcome {
  hoverAt(target, i);
  const first = releaseAt(pressAt(target, i, 0, 1), i);
  // The second press lands on whatever is at the point now (the first click may re-render).
  const again = deepHit(i.root.x, i.root.y);
  const second = again && !again.crossOriginFrame && winOf(again.el) === winOf(target) ? again.el : target;
  const out = releaseAt(pressAt(second.isConnected ? second : first.clicked, i, 0, 2), i);
  return { clicked: out.clicked, clickPrevented: first.clickPrevented || out.clickPrevented };
}

/**
 * A right click as browsers on Linux and macOS send it: pointerdown and mousedown with the
 * secondary button, `contextmenu` (cancelable: the page shows its own menu when it cancels it),
 * pointerup, mouseup, auxclick. Returns whether the page took the menu over.
 */
export function contextClickAt(target: Element, i: Init): { menuByPage: boolean; target: Element } {
  const win = winOf(target);
  hoverAt(target, i);
  const p = pressAt(target, i, 2);
  const init = baseInit(win, i, 2, 2, 1);
  const menuTarget = target.isConnected ? target : (deepHit(i.root.x, i.root.y)?.el ?? target);
  const shown = fireMouse(menuTarget, 'contextmenu', init);
  releaseAt(p, i);
  return { menuByPage: !shown, target: menuTarget };
}
