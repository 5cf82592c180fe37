/**
 * Set-of-Marks: each ref's box and number drawn over the rendered viewport, so a vision model
 * can name what it sees by the same refs the map lists. Boxes come from the map's rects (top
 * viewport CSS pixels) times the image scale, so they line up with what the map says.
 *
 * Labels sit just outside the box's top-left corner when there is room, and move to the next
 * free corner when another label is already there; colours cycle through a palette of
 * saturated, mutually distinct colours so neighbours differ.
 */
import type { Rect, Ref } from '../page-types';
import type { Mark } from './capture-types';

/** Distinct on white and on each other; all dark enough for white text. */
export const PALETTE = ['#e6194b', '#1f9e3a', '#4363d8', '#e86a00', '#911eb4', '#008c8c', '#d4148c', '#8a5a00', '#800000', '#1a237e', '#5c6b00', '#c2185b'];

const LINE = 2;
const FONT_PX = 12;
const PAD = 3;

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export function drawMarks(
  ctx: CanvasRenderingContext2D,
  items: ReadonlyArray<{ ref: Ref; rect: Rect }>,
  scale: number,
  image: { width: number; height: number },
): Mark[] {
  const marks: Mark[] = [];
  const boxes: Array<{ ref: Ref; box: Box; color: string }> = [];
  items.forEach((it, i) => {
    const x0 = Math.max(0, it.rect.x * scale);
    const y0 = Math.max(0, it.rect.y * scale);
    const x1 = Math.min(image.width, (it.rect.x + it.rect.width) * scale);
    const y1 = Math.min(image.height, (it.rect.y + it.rect.height) * scale);
    if (x1 - x0 < 1 || y1 - y0 < 1) return; // not in the viewport
    const box = { x: Math.round(x0), y: Math.round(y0), w: Math.round(x1 - x0), h: Math.round(y1 - y0) };
    boxes.push({ ref: it.ref, box, color: PALETTE[i % PALETTE.length]! });
    marks.push({ ref: it.ref, x: box.x, y: box.y, width: box.w, height: box.h });
  });

  ctx.save();
  ctx.lineWidth = LINE;
  for (const b of boxes) {
    ctx.strokeStyle = b.color;
    // The stroke sits inside the box, so it never covers the element's neighbour.
    ctx.strokeRect(b.box.x + LINE / 2, b.box.y + LINE / 2, Math.max(0, b.box.w - LINE), Math.max(0, b.box.h - LINE));
  }
  ctx.font = `bold ${FONT_PX}px sans-serif`;
  ctx.textBaseline = 'middle';
  const placed: Box[] = [];
  for (const b of boxes) {
    const text = String(b.ref);
    const label = placeLabel(b.box, Math.ceil(ctx.measureText(text).width) + 2 * PAD, FONT_PX + 2 * PAD - 1, placed, image);
    placed.push(label);
    ctx.fillStyle = b.color;
    ctx.fillRect(label.x, label.y, label.w, label.h);
    ctx.fillStyle = '#fff';
    ctx.fillText(text, label.x + PAD, label.y + label.h / 2 + 0.5);
  }
  ctx.restore();
  return marks;
}

/** The first candidate corner that overlaps no label placed so far; else the least covered. */
export function placeLabel(box: Box, w: number, h: number, placed: readonly Box[], image: { width: number; height: number }): Box {
  const candidates: Array<[number, number]> = [
    [box.x, box.y - h], // above, left
    [box.x + box.w - w, box.y - h], // above, right
    [box.x, box.y + box.h], // below, left
    [box.x, box.y], // inside, top left
    [box.x + box.w - w, box.y], // inside, top right
    [box.x - w, box.y], // left of the box
    [box.x + box.w, box.y], // right of the box
  ];
  let best: Box | undefined;
  let bestOverlap = Infinity;
  for (const [cx, cy] of candidates) {
    const c = {
      x: Math.min(Math.max(0, Math.round(cx)), image.width - w),
      y: Math.min(Math.max(0, Math.round(cy)), image.height - h),
      w,
      h,
    };
    const overlap = placed.reduce((sum, p) => sum + intersection(c, p), 0);
    if (overlap === 0) return c;
    if (overlap < bestOverlap) {
      best = c;
      bestOverlap = overlap;
    }
  }
  return best!;
}

function intersection(a: Box, b: Box): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}
