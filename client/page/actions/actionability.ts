/**
 * Playwright-style actionability: before acting, the element must be attached, visible, have a
 * stable box (the same across two animation frames), be enabled (and editable when typing),
 * and receive the pointer at the chosen point (hit-test). Each check is retried on animation
 * frames until `timeout`; the error names the first check that still fails — and for a cover,
 * what covers it.
 */
import type { Describer } from '../names/describe';
import {
  ActionError,
  invisibilityReason,
  isDisabled,
  isReadOnly,
  isVisible,
  nextFrame,
  scrollIntoViewIfNeeded,
  visibleBox,
  winOf,
  type Box,
  type Point,
} from './dom';
import { deepHit, describeCover, hitReaches, labelOf } from './hit';
import { nextTask } from './task';
import type { Said } from '../../../common/said';

export interface ActionabilityOptions {
  timeout: number;
  describer: Describer;
  /** How the element is named in errors, e.g. `Element [12] button "Save"`. */
  subject: string;
  /** Require a successful hit-test (pointer actions). */
  pointer: boolean;
  /** Require enabled (default true). */
  enabled?: boolean;
  /** Require not read-only (typing). */
  editable?: boolean;
}

export interface ActionPoint {
  /** Where to dispatch: the deepest element at the point, inside the target or its label. */
  target: Element;
  /** The point in the target's own viewport. */
  local: Point;
  /** The point in the root viewport. */
  root: Point;
}

type Check = { ok: true; point?: ActionPoint } | { ok: false; reason: string; said: Said; fatal?: boolean };

const sameRect = (a: DOMRect, b: DOMRect): boolean => a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;

/** Candidate points inside the visible box: centre first, then inner points. */
function candidatePoints(box: Box): Point[] {
  const cx = (box.left + box.right) / 2;
  const cy = (box.top + box.bottom) / 2;
  const w = box.right - box.left;
  const h = box.bottom - box.top;
  const pts = [{ x: cx, y: cy }];
  if (w > 8 && h > 8) {
    for (const [fx, fy] of [
      [0.25, 0.5],
      [0.75, 0.5],
      [0.5, 0.25],
      [0.5, 0.75],
    ] as const) {
      pts.push({ x: box.left + w * fx, y: box.top + h * fy });
    }
  }
  return pts.map((p) => ({ x: Math.floor(p.x * 100) / 100, y: Math.floor(p.y * 100) / 100 }));
}

function hitTest(el: Element, box: Box, o: ActionabilityOptions): Check {
  let firstCover: Element | undefined;
  for (const p of candidatePoints(box)) {
    const hit = deepHit(p.x, p.y);
    if (hit && !hit.crossOriginFrame && hitReaches(hit.el, el)) {
      // Dispatch where a real pointer lands: on the deepest element (inside the target, or on
      // its label — whose activation then clicks the control exactly once).
      return { ok: true, point: { target: hit.el, local: hit.local, root: p } };
    }
    firstCover ??= hit?.el;
  }
  if (winOf(el).getComputedStyle(el).pointerEvents === 'none') {
    return { ok: false, reason: `${o.subject} does not accept clicks (pointer-events: none).`, said: { code: 'unreachable' } };
  }
  if (!firstCover)
    return { ok: false, reason: `${o.subject} is not under the pointer at its position (off-screen or clipped).`, said: { code: 'unreachable' } };
  const cover = describeCover(firstCover, el, o.describer);
  return { ok: false, reason: `${o.subject} is covered by ${cover.cover}. Close or dismiss that first, then try again.`, said: { code: 'covered', ...cover } };
}

function check(el: Element, last: DOMRect | undefined, o: ActionabilityOptions): Check & { rect?: DOMRect } {
  if (!el.isConnected) return { ok: false, reason: `${o.subject} is no longer on the page. Observe again.`, said: { code: 'gone' }, fatal: true };
  if (!isVisible(el)) return { ok: false, reason: `${o.subject} is not visible: ${invisibilityReason(el)}.`, said: { code: 'notVisible' } };
  if (o.enabled !== false && isDisabled(el)) return { ok: false, reason: `${o.subject} is disabled.`, said: { code: 'disabled' } };
  if (o.editable && isReadOnly(el)) return { ok: false, reason: `${o.subject} is read-only.`, said: { code: 'readOnly' }, fatal: true };
  const { rect, box } = visibleBox(el);
  if (!last || !sameRect(rect, last)) return { ok: false, reason: `${o.subject} is still moving (animating).`, said: { code: 'moving' }, rect };
  if (!box) return { ok: false, reason: `${o.subject} is outside the visible area and could not be scrolled into view.`, said: { code: 'unreachable' }, rect };
  if (!o.pointer) return { ok: true, rect };
  return { ...hitTest(el, box, o), rect };
}

/**
 * Scrolls `el` into view if needed and waits (on animation frames, up to `timeout`) until it
 * is actionable. Returns the point to act at (for pointer actions). Throws ActionError.
 */
export async function waitActionable(el: Element, o: ActionabilityOptions): Promise<ActionPoint | undefined> {
  const deadline = performance.now() + o.timeout;
  let last: DOMRect | undefined;
  let scrolled = false;
  for (;;) {
    if (!scrolled && el.isConnected && isVisible(el)) {
      scrollIntoViewIfNeeded(el);
      scrolled = true;
    }
    const c = check(el, last, o);
    if (c.ok) return c.point;
    if (c.fatal || performance.now() >= deadline) throw new ActionError(c.reason, c.said);
    last = c.rect ?? last;
    // Checked and acted on in a task after the frame, as input arrives: not inside its
    // animation-frame callbacks, where what the action changes would be rendered before its
    // next event (a key's up) could be sent.
    await nextFrame(winOf(el));
    await nextTask();
  }
}

/** `Element [12] button "Save"` — how actions name their target in errors. */
export function subjectOf(ref: string, el: Element, describer: Describer): string {
  return `Element [${ref}] ${labelOf(el, describer)}`;
}
