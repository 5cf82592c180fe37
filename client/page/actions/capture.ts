/**
 * Pointer capture for the synthetic mouse while a button is held (drag, press and hold).
 *
 * Browsers let a page capture a pointer only while a real button is down, so a slider that
 * calls `setPointerCapture(e.pointerId)` in its pointerdown handler and then follows only the
 * moves it holds the capture of (`hasPointerCapture`) would ignore every synthetic move. While
 * the gesture lasts, the capture calls for the synthetic pointer's id are answered here, as the
 * browser would: the capturing element gets `gotpointercapture` before the next pointer event
 * and every move goes to it; release (or the end of the gesture) fires `lostpointercapture`.
 * Calls for any other pointer id go to the browser's own methods. Everything is put back when
 * the gesture ends.
 */
import { winOf, type Win } from './dom';

/** The pointerId the synthetic mouse uses (the mouse's id in browsers). */
export const SYNTHETIC_POINTER_ID = 1;

export interface CaptureEmulation {
  /** The element holding the capture, after firing got/lostpointercapture if it changed. */
  target(): Element | undefined;
  /** The implicit release after pointerup: lostpointercapture on the holder, if any. */
  release(): void;
  /** Ends the gesture: releases a capture still held and restores the browser's methods. */
  stop(): void;
}

type CaptureMethods = Pick<Element, 'setPointerCapture' | 'releasePointerCapture' | 'hasPointerCapture'>;

function fire(el: Element, type: string): void {
  const win = winOf(el);
  if (typeof win.PointerEvent !== 'function') return;
  el.dispatchEvent(new win.PointerEvent(type, { bubbles: true, composed: true, pointerId: SYNTHETIC_POINTER_ID, pointerType: 'mouse', isPrimary: true }));
}

/** Answers the capture calls of the synthetic pointer in `win` until `stop()`. */
export function emulateCapture(win: Win): CaptureEmulation {
  const proto = win.Element.prototype as CaptureMethods;
  const original: CaptureMethods = {
    setPointerCapture: proto.setPointerCapture,
    releasePointerCapture: proto.releasePointerCapture,
    hasPointerCapture: proto.hasPointerCapture,
  };
  let pending: Element | undefined;
  let current: Element | undefined;
  let stopped = false;
  const ours = (id: number): boolean => !stopped && id === SYNTHETIC_POINTER_ID;
  /** The element a synthetic pointer's capture was set on (the method's receiver). */
  const hold = (el: Element | undefined): void => void (pending = el);
  const patched: CaptureMethods = {
    setPointerCapture(this: Element, id: number) {
      if (!ours(id)) return original.setPointerCapture.call(this, id);
      if (this.isConnected) hold(this);
    },
    releasePointerCapture(this: Element, id: number) {
      if (!ours(id)) return original.releasePointerCapture.call(this, id);
      if (pending === this) hold(undefined);
    },
    hasPointerCapture(this: Element, id: number) {
      if (!ours(id)) return original.hasPointerCapture.call(this, id);
      return pending === this;
    },
  };
  try {
    Object.assign(proto, patched);
  } catch {
    /* a frozen prototype: the page gets the browser's own behaviour */
  }
  const settle = (): Element | undefined => {
    if (pending && !pending.isConnected) pending = undefined;
    if (pending !== current) {
      const lost = current;
      current = pending;
      if (lost?.isConnected) fire(lost, 'lostpointercapture');
      if (current) fire(current, 'gotpointercapture');
    }
    return current;
  };
  return {
    target: settle,
    release: () => {
      pending = undefined;
      settle();
    },
    stop: () => {
      if (stopped) return;
      pending = undefined;
      settle();
      stopped = true;
      try {
        // Only put back what is still ours (the page may have replaced a method meanwhile).
        for (const k of Object.keys(patched) as Array<keyof CaptureMethods>)
          if (proto[k] === patched[k]) (proto as unknown as Record<string, unknown>)[k] = original[k];
      } catch {
        /* nothing to restore */
      }
    },
  };
}
