/**
 * The points a drag passes through (pure): a first small step that gets past the libraries'
 * activation distance (dnd-kit, SortableJS's fallback tolerance, a few pixels), then even steps
 * to the end, then the end again a few times, as a hand that stops before letting go (libraries
 * throttle their drag-over handling and a last move may land while they animate).
 */
import type { Point } from './dom';

/** Pixels of the first step (more than the usual 3–8 px activation distances). */
export const FIRST_STEP = 10;
/** Pixels between intermediate points, about. */
export const STEP = 24;
export const MAX_STEPS = 30;
/** Moves at the end point before letting go. */
export const REST_MOVES = 3;

/**
 * Where `drag {dx, dy}` lets go, from the point it presses: the offset, kept inside the viewport.
 * The one computation behind the action and the risk check's judgement of the drop.
 */
export function dropPoint(from: Point, dx: number, dy: number, vp: { width: number; height: number }): { to: Point; clamped: boolean } {
  const want = { x: from.x + dx, y: from.y + dy };
  const to = { x: Math.max(0, Math.min(vp.width - 1, want.x)), y: Math.max(0, Math.min(vp.height - 1, want.y)) };
  return { to, clamped: to.x !== want.x || to.y !== want.y };
}

export function dragPath(from: Point, to: Point): Point[] {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const dist = Math.hypot(dx, dy);
  const out: Point[] = [];
  if (dist > FIRST_STEP) out.push({ x: from.x + (dx / dist) * FIRST_STEP, y: from.y + (dy / dist) * FIRST_STEP });
  const steps = Math.max(1, Math.min(MAX_STEPS, Math.ceil(dist / STEP)));
  for (let k = 1; k <= steps; k++) out.push({ x: from.x + (dx * k) / steps, y: from.y + (dy * k) / steps });
  for (let k = 0; k < REST_MOVES; k++) out.push({ ...to });
  return out.map((p) => ({ x: Math.round(p.x * 100) / 100, y: Math.round(p.y * 100) / 100 }));
}
