/**
 * `click_at {x, y}`: a click at normalised viewport coordinates (0–1), for canvases, maps and
 * the vision fallback. The point is hit-tested through open shadow roots and same-origin
 * frames; events carry exactly that point, so `offsetX`/`clientX` handlers see it.
 */
import type { ToolArgs } from './args';
import type { Handler } from './context';
import { ActionError, viewportSize, type Point } from './dom';
import { activatedBy, deepHit, labelOf, selectorOf, type Hit } from './hit';
import { clickAt } from './pointer';

export interface ClickAtTarget {
  /** The point in root-viewport pixels, clamped inside the viewport. */
  root: Point;
  /** What is at the point (undefined: nothing). */
  hit?: Hit;
  /** The element the click activates (see activatedBy): what the risk check judges. */
  activates?: Element;
}

/**
 * Where `click_at {x, y}` lands and what it activates: the one computation behind both the
 * action and the risk check (the same viewport size, the same clamping).
 */
export function clickAtTarget(x: number, y: number): ClickAtTarget {
  return pointTarget(viewportPoint(x, y));
}

/** A point given as fractions of the viewport, in root-viewport pixels inside it. */
export function viewportPoint(x: number, y: number): Point {
  const vp = viewportSize();
  // Keep the point inside the viewport: 1.0 would be one pixel past the last column.
  return { x: Math.max(0, Math.min(x * vp.width, vp.width - 1)), y: Math.max(0, Math.min(y * vp.height, vp.height - 1)) };
}

/** What is at a root-viewport point and what a press there activates (click_at's and a drag's points). */
export function pointTarget(root: Point): ClickAtTarget {
  const hit = deepHit(root.x, root.y);
  if (!hit) return { root };
  return { root, hit, activates: hit.crossOriginFrame ? undefined : activatedBy(hit.el) };
}

export const clickAtPoint: Handler<ToolArgs['click_at']> = async ({ x, y }, ctx) => {
  const { root, hit, activates } = clickAtTarget(x, y);
  const where = `(${x}, ${y})`;
  if (!hit) throw new ActionError(`Nothing is at ${where} of the viewport.`);
  if (hit.crossOriginFrame) {
    throw new ActionError(`The point ${where} is inside a frame from another site (${selectorOf(hit.crossOriginFrame)}); pagehand cannot click inside it.`);
  }
  ctx.begin(hit.el);
  clickAt(hit.el, { local: hit.local, root });
  const label = labelOf(hit.el, ctx.describer);
  const r = hit.el.getBoundingClientRect();
  const inside = `${Math.round(hit.local.x - r.left)}, ${Math.round(hit.local.y - r.top)}`;
  const within = activates && activates !== hit.el ? ` (it activates ${labelOf(activates, ctx.describer)})` : '';
  return { message: `Clicked ${label} at ${where} of the viewport (${inside} px inside it)${within}.` };
};
