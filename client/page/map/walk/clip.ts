/** Clipping and scrolling: box arithmetic and what a scroll container reports (pure but for scrollScreens). */
import type { Rect } from '../../page-types';

// Finite, so that box arithmetic never meets Infinity - Infinity.
export const NO_CLIP: Rect = { x: -1e9, y: -1e9, width: 2e9, height: 2e9 };

const ZERO_CLIP = /^rect\(0px,? 0px,? 0px,? 0px\)$/;
const FULL_INSET = /^inset\((50|100)%\)$/;

/**
 * "Visually hidden" clipping hides the subtree: clip: rect(0 0 0 0) (which only applies to
 * absolutely positioned boxes, so it is read only for those) or clip-path: inset(50%).
 */
export function clippedAway(cs: CSSStyleDeclaration, position: string): boolean {
  if ((position === 'absolute' || position === 'fixed') && ZERO_CLIP.test(cs.clip)) return true;
  const cp = cs.clipPath;
  return cp !== 'none' && FULL_INSET.test(cp);
}

export function intersect(a: Rect, b: Rect): Rect {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const r = Math.min(a.x + a.width, b.x + b.width);
  const btm = Math.min(a.y + a.height, b.y + b.height);
  return { x, y, width: Math.max(0, r - x), height: Math.max(0, btm - y) };
}

export function overlaps(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && a.x + a.width > b.x && a.y < b.y + b.height && a.y + a.height > b.y;
}

/** Which axes of an element with non-visible overflow actually scroll (content exceeds the box). */
export function scrollAxes(el: Element, ox: string, oy: string): { x: boolean; y: boolean } {
  return {
    y: (oy === 'auto' || oy === 'scroll') && el.scrollHeight > el.clientHeight + 1,
    x: (ox === 'auto' || ox === 'scroll') && el.scrollWidth > el.clientWidth + 1,
  };
}

/** Screens of content around a scroll container's view, per direction. */
export function scrollScreens(el: Element, x: boolean, y: boolean): { up: number; down: number; left: number; right: number } {
  const h = el.clientHeight || 1;
  const w = el.clientWidth || 1;
  return {
    up: y ? el.scrollTop / h : 0,
    down: y ? Math.max(0, el.scrollHeight - h - el.scrollTop) / h : 0,
    left: x ? el.scrollLeft / w : 0,
    right: x ? Math.max(0, el.scrollWidth - w - el.scrollLeft) / w : 0,
  };
}
