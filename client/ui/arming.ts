/**
 * When the confirmation card's Allow may take a click. A page cannot press Allow itself
 * (trusted.ts), so it tries to make the user press it: a "Deny" drawn over Allow that lets
 * clicks through (`pointer-events: none`), its own dialog on top, the card moved under the
 * pointer, the whole page faded, or the card shown just as the user clicks somewhere else.
 *
 * So Allow arms only after the card has been in full view — wholly on screen, nothing drawn
 * over it, no opacity, filter or transform on it or its ancestors (IntersectionObserver v2's
 * `isVisible`, where the browser has it) — and unmoved, for `ARM_MS`. Losing any of that
 * disarms, and the wait starts again when it is back. A key press on Allow counts only when the
 * focus has been on it that long too: a page that moves the focus there just before the user
 * presses Enter gets nothing.
 */

/** How long the card must have been in full view, unmoved, before Allow counts. */
export const ARM_MS = 500;

/** `intersectionRatio` at or above this is the whole card (edges land on fractions of a pixel). */
const WHOLE = 0.98;

export interface CardGuard {
  /** Whether a click (or a key press, `detail` 0) on `button` counts now. */
  ok(e: MouseEvent): boolean;
  /** Called when one of the gated buttons gets the focus. */
  focused(button: EventTarget | null): void;
  stop(): void;
}

/** Chromium's IntersectionObserver v2: without it, only the wait and the movement check hold. */
const v2 = (): boolean => typeof IntersectionObserverEntry === 'function' && 'isVisible' in IntersectionObserverEntry.prototype;

/** Watches `card` and calls `onArmed` each time Allow arms or disarms. */
export function guardCard(card: Element, onArmed: (armed: boolean) => void, ms = ARM_MS): CardGuard {
  const tracked = v2() && typeof IntersectionObserver === 'function';
  let visible = !tracked;
  let armed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let frame = 0;
  let place = '';
  let focus: { el: EventTarget | null; at: number } = { el: null, at: 0 };

  const set = (a: boolean): void => {
    if (a !== armed) onArmed((armed = a));
  };
  /** Disarms, and arms again `ms` from now if the card is in view. */
  const restart = (): void => {
    clearTimeout(timer);
    set(false);
    if (visible) timer = setTimeout(() => set(true), ms);
  };
  /** Where the card and its buttons are (its content scrolls: a button can move inside it). */
  const where = (): string =>
    [card, ...card.querySelectorAll('button')]
      .map((el) => {
        const r = el.getBoundingClientRect();
        return `${r.x},${r.y},${r.width},${r.height}`;
      })
      .join(' ');
  /** Each frame while shown: the card moved (a page that shifts it under the pointer) disarms. */
  const watch = (): void => {
    const now = where();
    if (now !== place) {
      place = now;
      restart();
    }
    frame = requestAnimationFrame(watch);
  };

  const io = tracked
    ? new IntersectionObserver(
        (entries) => {
          const e = entries[entries.length - 1]!;
          const v = (e as IntersectionObserverEntry & { isVisible?: boolean }).isVisible === true && e.intersectionRatio >= WHOLE;
          if (v !== visible) {
            visible = v;
            restart();
          }
        },
        { threshold: [0, WHOLE, 1], trackVisibility: true, delay: 100 } as IntersectionObserverInit,
      )
    : undefined;
  io?.observe(card);
  place = where();
  restart();
  frame = requestAnimationFrame(watch);

  return {
    ok: (e) => {
      // Checked again at the click: a move in this very frame counts too.
      const now = where();
      if (now !== place) {
        place = now;
        restart();
      }
      if (!armed) return false;
      // detail 0: a key press (Enter, Space), not a pointer.
      return e.detail > 0 || (focus.el === e.currentTarget && performance.now() - focus.at >= ms);
    },
    focused: (el) => {
      focus = { el, at: performance.now() };
    },
    stop: () => {
      clearTimeout(timer);
      cancelAnimationFrame(frame);
      io?.disconnect();
    },
  };
}
