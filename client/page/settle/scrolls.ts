/**
 * Counts scrolls in the top document — the window's or any element's (a capture listener on
 * the window sees them all) — so the sliced map can tell that the page moved between its
 * slices. The agent's own UI scrolling its log does not count. Installed on first use.
 */
import { UI_ATTR } from '../ui-attr';

let count = 0;
let installed = false;

export function scrollCount(): number {
  if (!installed) {
    installed = true;
    const onScroll = (e: Event): void => {
      const t = e.target;
      // Inside the overlay's shadow root the event reaches the window retargeted to its host.
      if (t instanceof Element && t.closest(`[${UI_ATTR}]`)) return;
      count++;
    };
    addEventListener('scroll', onScroll, { capture: true, passive: true });
  }
  return count;
}
