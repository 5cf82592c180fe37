/**
 * Where a box sits relative to the viewport, in screens, and where a line of page text sits.
 *
 * Text is placed by its block's box (a paragraph, a list item), read once per block: the box
 * of an inline run inside a long paragraph is costly to compute (Chromium walks every line
 * fragment of the paragraph), a block's is not. A block taller than a screen says little about
 * where one of its lines is, so then the line's own holder element is asked.
 */
import type { Direction } from './format';
import type { Rect } from '../page-types';
import type { FrameInfo, TextItem } from './walk';

export interface Place {
  direction: Direction;
  /** Screens away from the viewport (0 in view). */
  distance: number;
}

export function placement(r: Rect, W: number, H: number): Place {
  const inX = r.x < W && r.x + r.width > 0;
  const inY = r.y < H && r.y + r.height > 0;
  if (inX && inY) return { direction: 'view', distance: 0 };
  if (!inY) {
    if (r.y + r.height <= 0) return { direction: 'above', distance: -(r.y + r.height) / H };
    return { direction: 'below', distance: (r.y - H) / H };
  }
  return r.x >= W ? { direction: 'right', distance: (r.x - W) / W } : { direction: 'left', distance: -(r.x + r.width) / W };
}

/** Places text items; one box read per element for the whole map call. */
export function createTextPlacer(W: number, H: number): (it: TextItem) => Place | null {
  const boxes = new Map<Element, Rect>();
  const box = (el: Element, frame: FrameInfo | null): Rect => {
    let r = boxes.get(el);
    if (!r) {
      const b = el.getBoundingClientRect();
      r = frame ? { x: b.x + frame.dx, y: b.y + frame.dy, width: b.width, height: b.height } : { x: b.x, y: b.y, width: b.width, height: b.height };
      boxes.set(el, r);
    }
    return r;
  };
  return (it) => {
    let r = it.block ? box(it.block, it.frame) : null;
    if (!r || r.height > H) r = box(it.el, it.frame);
    if (r.width === 0 && r.height === 0) return null;
    const c = it.clip;
    if (c && !(r.x < c.x + c.width && r.x + r.width > c.x && r.y < c.y + c.height && r.y + r.height > c.y)) return null;
    const p = placement(r, W, H);
    return p.direction === 'left' || p.direction === 'right' ? null : p;
  };
}
