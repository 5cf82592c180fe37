/**
 * `drag {ref, to_ref}` and `drag {ref, dx, dy}`: press on the element, move with the button
 * held (intermediate moves, a frame apart) and let go on the other element's centre or at the
 * offset. Sortable lists, kanban boards, sliders, drop zones, map pans — whether the page uses
 * native drag and drop or follows the pointer itself (see gesture.ts). The result says what
 * moved (drag-report.ts).
 */
import { waitActionable } from './actionability';
import type { Handler } from './context';
import { ActionError, viewportSize, visibleBox, type Point } from './dom';
import { dragPath, dropPoint } from './drag-path';
import { watchPlace } from './drag-report';
import { dragAlong } from './gesture';
import type { DragArgs } from './hands-args';
import { deepHit } from './hit';
import { dragTouches, zoneGateMessage } from './touches';
import { ZoneRefusal } from './zones';
import { ownerDocumentOf } from '../dom/proto';

/** The centre of the part of `el` in view, in root-viewport pixels; undefined when none is. */
function visibleCentre(el: Element): Point | undefined {
  const { box } = visibleBox(el);
  if (!box) return undefined;
  return { x: (box.left + box.right) / 2, y: (box.top + box.bottom) / 2 };
}

export const drag: Handler<DragArgs> = async (args, ctx) => {
  const el = ctx.resolve(args.ref);
  const subject = ctx.subject(args.ref, el);
  const toEl = args.to_ref !== undefined ? ctx.resolve(args.to_ref) : undefined;
  if (toEl && ownerDocumentOf(toEl) !== ownerDocumentOf(el)) {
    throw new ActionError(`${subject} and ${ctx.subject(args.to_ref!, toEl)} are in different frames; a drag stays within one page or frame.`);
  }
  ctx.begin(el);
  const from = (await waitActionable(el, { timeout: ctx.options.actionTimeout, describer: ctx.describer, subject, pointer: true }))!;
  const vp = viewportSize();
  let to: Point;
  let clamped = false;
  if (toEl) {
    let centre = visibleCentre(toEl);
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
    if (again.x !== from.root.x || again.y !== from.root.y) {
      // The page scrolled: press where the source is now.
      const re = (await waitActionable(el, { timeout: ctx.options.actionTimeout, describer: ctx.describer, subject, pointer: true }))!;
      Object.assign(from, re);
    }
  } else {
    ({ to, clamped } = dropPoint(from.root, args.dx!, args.dy!, vp));
  }
  // The gate saw the path from the elements' centres; this is the path the hand really takes.
  const inZone = ctx.settings.zones.check();
  const crossed = dragTouches(from.root, to).find((t) => t.el && inZone(t.el));
  if (crossed) throw new ZoneRefusal(zoneGateMessage('drag', crossed.what));
  const landing = deepHit(to.x, to.y);
  if (landing?.crossOriginFrame) throw new ActionError('The place to drop on is inside a frame from another site; pagehand cannot drag into it.');
  const label = ctx.label(el);
  const place = watchPlace(el, ctx.describer, label);
  const out = await dragAlong(from.target, { local: from.local, root: from.root }, dragPath(from.root, to));
  const where = toEl ? `onto ${ctx.label(toEl)}` : `by ${Math.round(to.x - from.root.x)}, ${Math.round(to.y - from.root.y)} px`;
  const how = out.mode === 'native' ? (out.droppedOn ? '' : ' The page did not accept the drop there.') : '';
  const edge = clamped ? ' (the pointer stopped at the edge of the viewport)' : '';
  return {
    message: `Dragged ${label} ${where}${edge}.${how}`,
    after: () => {
      const moved = place.after();
      const value = place.value();
      return { message: moved, ...(value !== undefined ? { changes: { value } } : {}) };
    },
  };
};
