/**
 * `drag`: press on an element's centre (`ref`) or at a point of the viewport (`x`, `y`, as
 * click_at: a block drawn on a canvas, a handle inside a chart), move with the button held
 * (intermediate moves, a frame apart) and let go on another element's centre (`to_ref`), at a
 * point (`to_x`, `to_y`) or at an offset (`dx`, `dy`). Sortable lists, kanban boards, sliders,
 * drop zones, map pans, drawing — whether the page uses native drag and drop or follows the
 * pointer itself (see gesture.ts). The result says what moved (drag-report.ts).
 */
import { waitActionable, type ActionPoint } from './actionability';
import { clickAtTarget, viewportPoint } from './click-at';
import type { ActionContext, Handler } from './context';
import { ActionError, viewportSize, visibleBox, type Point } from './dom';
import { dragPath, dropPoint } from './drag-path';
import { watchPlace } from './drag-report';
import { dragAlong } from './gesture';
import type { DragArgs } from './hands-args';
import { deepHit, selectorOf } from './hit';
import { dragTouches, zoneGateMessage } from './touches';
import { ZoneRefusal } from './zones';
import { ownerDocumentOf } from '../dom/proto';

/** The centre of the part of `el` in view, in root-viewport pixels; undefined when none is. */
function visibleCentre(el: Element): Point | undefined {
  const { box } = visibleBox(el);
  if (!box) return undefined;
  return { x: (box.left + box.right) / 2, y: (box.top + box.bottom) / 2 };
}

/** Where the drag presses: the element (or what is at the point), how it is named, and the press point once actionable. */
interface Start {
  el: Element;
  subject: string;
  /** How the message names where it pressed. */
  label: string;
  /** A point stays where it was asked: the page must not scroll under it. */
  fixed: boolean;
  press: () => Promise<ActionPoint>;
}

function startOf(args: DragArgs, ctx: ActionContext): Start {
  if (args.ref !== undefined) {
    const el = ctx.resolve(args.ref);
    const subject = ctx.subject(args.ref, el);
    const press = async () => (await waitActionable(el, { timeout: ctx.options.actionTimeout, describer: ctx.describer, subject, pointer: true }))!;
    return { el, subject, label: ctx.label(el), fixed: false, press };
  }
  const where = `(${args.x}, ${args.y}) of the viewport`;
  const { root, hit } = clickAtTarget(args.x, args.y);
  if (!hit) throw new ActionError(`Nothing is at ${where} to press on.`);
  if (hit.crossOriginFrame)
    throw new ActionError(`The point ${where} is inside a frame from another site (${selectorOf(hit.crossOriginFrame)}); pagehand cannot drag inside it.`);
  const point = { target: hit.el, local: hit.local, root };
  return { el: hit.el, subject: `The point ${where}`, label: `from ${where} (${ctx.label(hit.el)})`, fixed: true, press: () => Promise.resolve(point) };
}

export const drag: Handler<DragArgs> = async (args, ctx) => {
  const start = startOf(args, ctx);
  const { el, subject } = start;
  const toEl = args.to_ref !== undefined ? ctx.resolve(args.to_ref) : undefined;
  if (toEl && ownerDocumentOf(toEl) !== ownerDocumentOf(el)) {
    throw new ActionError(`${subject} and ${ctx.subject(args.to_ref!, toEl)} are in different frames; a drag stays within one page or frame.`);
  }
  ctx.begin(el);
  const from = await start.press();
  const vp = viewportSize();
  let to: Point;
  let clamped = false;
  if (toEl) {
    let centre = visibleCentre(toEl);
    if (!centre && start.fixed) throw new ActionError(`${ctx.subject(args.to_ref!, toEl)} is out of view; scroll so it shows, then drag again.`);
    if (!centre) {
      // Out of view: bring it in, then the source must still be in view to press it.
      toEl.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' as ScrollBehavior });
      centre = visibleCentre(toEl);
    }
    const again = centre && visibleCentre(el);
    if (!centre || !again)
      throw new ActionError(
        `${subject} and ${ctx.subject(args.to_ref!, toEl)} cannot both be in view at once, so one drag cannot reach. Scroll so both show, or drag by dx/dy in steps.`,
      );
    to = centre;
    if (!start.fixed && (again.x !== from.root.x || again.y !== from.root.y)) {
      // The page scrolled: press where the source is now.
      Object.assign(from, await start.press());
    }
  } else if (args.to_x !== undefined) {
    to = viewportPoint(args.to_x, args.to_y!);
  } else {
    ({ to, clamped } = dropPoint(from.root, args.dx!, args.dy!, vp));
  }
  // The gate saw the path from the elements' centres; this is the path the hand really takes.
  const inZone = ctx.settings.zones.check();
  const crossed = [{ el: from.target, what: 'the element it presses' }, ...dragTouches(from.root, to)].find((t) => t.el && inZone(t.el));
  if (crossed) throw new ZoneRefusal(zoneGateMessage('drag', crossed.what));
  const landing = deepHit(to.x, to.y);
  if (landing?.crossOriginFrame) throw new ActionError('The place to drop on is inside a frame from another site; pagehand cannot drag into it.');
  const place = watchPlace(el, ctx.describer, ctx.label(el));
  const out = await dragAlong(from.target, { local: from.local, root: from.root }, dragPath(from.root, to));
  const where = toEl
    ? `onto ${ctx.label(toEl)}`
    : args.to_x !== undefined
      ? `to (${args.to_x}, ${args.to_y}) of the viewport`
      : `by ${Math.round(to.x - from.root.x)}, ${Math.round(to.y - from.root.y)} px`;
  const how = out.mode === 'native' ? (out.droppedOn ? '' : ' The page did not accept the drop there.') : '';
  const edge = clamped ? ' (the pointer stopped at the edge of the viewport)' : '';
  return {
    message: `Dragged ${start.label} ${where}${edge}.${how}`,
    after: () => {
      const moved = place.after();
      const value = place.value();
      return { message: moved, ...(value !== undefined ? { changes: { value } } : {}) };
    },
  };
};
