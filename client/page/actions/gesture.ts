/**
 * A held button moving across the page: the pointer part of `drag` (and of press and hold).
 *
 * Pointer libraries (dnd-kit, SortableJS's fallback, sliders, map pans) follow pointermove /
 * mousemove with the button held, then pointerup; native HTML5 drag and drop starts when the
 * pointer moves on a `draggable` element, and from then on the page sees drag events instead:
 * `dragstart` on the source, `dragenter`/`dragleave`/`dragover` where the pointer is, `drop`
 * where it is let go (when a `dragover` was cancelled there) and `dragend` on the source, all
 * carrying one `DataTransfer`. A cancelled `dragstart` means no drag: the pointer events go on.
 * Between points the page gets an animation frame, as it would from a hand.
 */
import { nativeSetTimeout } from '../settle/settle';
import { emulateCapture } from './capture';
import { dataTransfer, initialDropEffect } from './data-transfer';
import { flatParent, frameOffset, isElement, nextFrame, winOf, type Point, type Win } from './dom';
import { deepHit } from './hit';
import { nextTask } from './task';
import { hoverAt, moveWhilePressed, pressAt, releaseAt, type Pressed } from './pointer';
import { attrOf } from '../dom/proto';

interface Init {
  local: Point;
  root: Point;
}

export interface DragOutcome {
  /** How the page saw it: native drag events, or pointer moves only. */
  mode: 'native' | 'pointer';
  /** Native drag: the element a drop went to (a dragover there was cancelled), if any. */
  droppedOn?: Element;
  /** The element under the pointer when it was let go. */
  releasedOver?: Element;
}

/** The draggable element a press at `el` would drag natively: itself or an ancestor with draggable="true". */
export function nativeDraggable(el: Element): HTMLElement | undefined {
  for (let n: Node | null = el; n && isElement(n); n = flatParent(n)) {
    const e = n as HTMLElement;
    if (attrOf(e, 'draggable') === 'true' && e.draggable) return e;
  }
  return undefined;
}

/** The element at a root-viewport point in `win`'s document, with the point in its own viewport. */
function elementAt(win: Win, root: Point): { el: Element; init: Init } | undefined {
  const hit = deepHit(root.x, root.y);
  const off = frameOffset(win) ?? { x: 0, y: 0 };
  const local = { x: root.x - off.x, y: root.y - off.y };
  if (!hit || hit.crossOriginFrame) return undefined;
  // A drag stays in its own document: points over another frame go to that frame's element there.
  if (winOf(hit.el) !== win) {
    const inner = win.document.elementFromPoint(local.x, local.y);
    return inner ? { el: inner, init: { local, root } } : undefined;
  }
  return { el: hit.el, init: { local: hit.local, root } };
}

/** A short pause between moves: an animation frame, and at least a few milliseconds. */
async function beat(win: Win): Promise<void> {
  await Promise.all([nextFrame(win), new Promise((r) => nativeSetTimeout(r, 16))]);
}

function dragEvent(win: Win, type: string, init: Init, dt: DataTransfer, related: Element | null = null): DragEvent {
  const cancelable = type !== 'dragleave' && type !== 'dragend';
  return new win.DragEvent(type, {
    bubbles: true,
    cancelable,
    composed: true,
    view: win,
    clientX: init.local.x,
    clientY: init.local.y,
    screenX: init.root.x + (window.screenX || 0),
    screenY: init.root.y + (window.screenY || 0),
    button: 0,
    buttons: type === 'dragend' || type === 'drop' ? 0 : 1,
    relatedTarget: related,
    dataTransfer: dt,
  });
}

/**
 * Native drag and drop from `source` along `points` (root-viewport). Returns undefined when the
 * page cancelled dragstart (no drag: the caller goes on with pointer moves).
 */
async function nativeDrag(source: HTMLElement, start: Init, points: Point[], pressed: Pressed): Promise<DragOutcome | undefined> {
  const win = winOf(source);
  const dt = dataTransfer(win);
  if (!source.dispatchEvent(dragEvent(win, 'dragstart', start, dt))) return undefined;
  // The browser hands the pointer to the drag: the page's pointer stream ends here.
  const cancel = { ...start };
  if (typeof win.PointerEvent === 'function') {
    pressed.target.dispatchEvent(
      new win.PointerEvent('pointercancel', {
        bubbles: true,
        composed: true,
        pointerId: 1,
        pointerType: 'mouse',
        isPrimary: true,
        clientX: cancel.local.x,
        clientY: cancel.local.y,
      }),
    );
  }
  let current: Element | undefined;
  let accepted = false;
  let last: Init = start;
  for (const p of points) {
    const at = elementAt(win, p);
    if (!at) continue;
    last = at.init;
    if (at.el !== current) {
      const prev = current;
      at.el.dispatchEvent(dragEvent(win, 'dragenter', at.init, dt, prev ?? null));
      current = at.el;
      if (prev?.isConnected) prev.dispatchEvent(dragEvent(win, 'dragleave', at.init, dt, at.el));
    }
    if (!source.dispatchEvent(dragEvent(win, 'drag', at.init, dt))) {
      // The page aborted the drag.
      current.dispatchEvent(dragEvent(win, 'dragleave', at.init, dt));
      source.dispatchEvent(dragEvent(win, 'dragend', at.init, dt));
      return { mode: 'native', releasedOver: current };
    }
    dt.dropEffect = initialDropEffect(dt.effectAllowed);
    accepted = !current.dispatchEvent(dragEvent(win, 'dragover', at.init, dt));
    if (!accepted) dt.dropEffect = 'none';
    await beat(win);
    if (current && !current.isConnected) current = undefined;
  }
  let droppedOn: Element | undefined;
  if (current && accepted && dt.dropEffect !== 'none') {
    droppedOn = current;
    current.dispatchEvent(dragEvent(win, 'drop', last, dt));
  } else {
    dt.dropEffect = 'none';
    current?.dispatchEvent(dragEvent(win, 'dragleave', last, dt));
  }
  source.dispatchEvent(dragEvent(win, 'dragend', last, dt));
  return { mode: 'native', droppedOn, releasedOver: current };
}

/**
 * Presses the main button at `start` (on `target`), moves through `points` and lets go at the
 * last one; native drag and drop when the pressed element is draggable, pointer moves else.
 */
export async function dragAlong(target: Element, start: Init, points: Point[]): Promise<DragOutcome> {
  const win = winOf(target);
  const capture = emulateCapture(win);
  try {
    hoverAt(target, start);
    // The move there and the press are input events of their own: a task apart (task.ts).
    await nextTask();
    const pressed = pressAt(target, start);
    await beat(win);
    // Decided after the press: libraries (SortableJS) make an item draggable on pointerdown.
    const source = target.isConnected ? nativeDraggable(target) : undefined;
    let rest = points;
    if (source && pressed.mouseOk) {
      // The drag starts once the pointer has moved a little with the button down.
      const first = points[0];
      if (first) {
        const at = elementAt(win, first);
        if (at) moveWhilePressed(capture.target() ?? at.el, at.init, pressed);
      }
      const native = await nativeDrag(source, start, points.slice(1), pressed);
      if (native) return native;
      rest = points.slice(1);
    }
    let last: { el: Element; init: Init } = { el: target, init: start };
    for (const p of rest) {
      const at = elementAt(win, p);
      if (!at) continue;
      last = at;
      moveWhilePressed(capture.target() ?? at.el, at.init, pressed);
      await beat(win);
    }
    const holder = capture.target();
    const end = releaseAt(pressed, last.init, holder, capture.release);
    return { mode: 'pointer', releasedOver: holder ?? last.el ?? end.clicked };
  } finally {
    capture.stop();
  }
}

/**
 * Press and hold: the main button down on `target` for `ms`, then up where the pointer is
 * (a click follows, as it does after any press on the same element).
 */
export async function holdAt(target: Element, at: Init, ms: number): Promise<{ clickPrevented: boolean }> {
  const win = winOf(target);
  const capture = emulateCapture(win);
  try {
    hoverAt(target, at);
    await nextTask();
    const pressed = pressAt(target, at);
    await new Promise((r) => nativeSetTimeout(r, ms));
    const out = releaseAt(pressed, at, capture.target(), capture.release);
    return { clickPrevented: out.clickPrevented };
  } finally {
    capture.stop();
  }
}
