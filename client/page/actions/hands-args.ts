/**
 * Arguments of the pointer and file tools (pure; no DOM): `drag`, `double_click`,
 * `right_click`, `upload`, and `click`'s `hold_ms`. Same rules as the other tools: harmless
 * slips (a ref as a number, a number as a string, one file name instead of a list) pass;
 * anything that would change the meaning is a clear error naming the tool and the fix.
 */
import { ArgError, numArg, refArg, show, type Args } from './arg-check';
import type { Ref } from '../page-types';

/** Where a drag presses: an element's centre (`ref`), or a point as fractions of the viewport (`x`, `y`, as click_at). */
export type DragFrom = { ref: Ref; x?: undefined; y?: undefined } | { ref?: undefined; x: number; y: number };
/** Where it lets go: an element's centre (`to_ref`), a point (`to_x`, `to_y`: fractions), or an offset in px (`dx`, `dy`). */
export type DragTo =
  | { to_ref: Ref; to_x?: undefined; to_y?: undefined; dx?: undefined; dy?: undefined }
  | { to_ref?: undefined; to_x: number; to_y: number; dx?: undefined; dy?: undefined }
  | { to_ref?: undefined; to_x?: undefined; to_y?: undefined; dx: number; dy: number };
export type DragArgs = DragFrom & DragTo;

/** How long `click` holds the button down (see holdMs). */
export interface Hold {
  ms: number;
  /** The call asked for longer than the longest hold. */
  capped: boolean;
}

export interface HandsArgs {
  drag: DragArgs;
  double_click: { ref: Ref };
  right_click: { ref: Ref };
  upload: { ref: Ref; files: string[] };
}

/** The longest press `click {hold_ms}` makes; longer asks are held this long. */
export const MAX_HOLD_MS = 10_000;
/** How far `drag {dx, dy}` may go, in CSS pixels each way. */
export const MAX_DRAG_PX = 10_000;
/** Files per `upload` call. */
export const MAX_UPLOAD_FILES = 20;

export const handsParsers: { [K in keyof HandsArgs]: (a: Args) => HandsArgs[K] } = {
  drag: (a) => {
    const from = dragFrom(a);
    return { ...from, ...dragTo(a, from) } as DragArgs;
  },
  double_click: (a) => ({ ref: refArg('double_click', a, 'ref', true) }),
  right_click: (a) => ({ ref: refArg('right_click', a, 'ref', true) }),
  upload: (a) => {
    const ref = refArg('upload', a, 'ref', true);
    const v = a.files ?? a.file;
    const list = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
    if (!list.length) throw new ArgError('upload needs "files": the names of attached files, e.g. {"ref": "7", "files": ["cv.pdf"]}.');
    if (list.length > MAX_UPLOAD_FILES) throw new ArgError(`upload: at most ${MAX_UPLOAD_FILES} files at once, got ${list.length}.`);
    const files = list.map((f) => {
      if (typeof f !== 'string' || !f.trim()) throw new ArgError(`upload: "files" must be file names (strings), got ${show(f)}.`);
      return f.trim();
    });
    return { ref, files: [...new Set(files)] };
  },
};

/** Where a drag lets go, and where it presses, as the errors say it. */
const DRAG_ENDS = '"to_ref" (the element to drop on), "to_x"/"to_y" (a point, as fractions of the viewport) or "dx"/"dy" (pixels to move)';
const DRAG_USE = `It presses on "ref" or at "x"/"y" (fractions of the viewport, as click_at), e.g. {"ref": "4", "to_ref": "9"} or {"x": 0.3, "y": 0.4, "dx": 120, "dy": 0}.`;

/** A point of the viewport as fractions, both or neither given; undefined when neither is. */
function fractionPair(a: Args, kx: string, ky: string): { x: number; y: number } | undefined {
  const x = numArg('drag', a, kx);
  const y = numArg('drag', a, ky);
  if (x === undefined && y === undefined) return undefined;
  if (x === undefined || y === undefined) throw new ArgError(`drag: "${kx}" and "${ky}" go together (a point, as fractions of the viewport). ${DRAG_USE}`);
  if (x < 0 || x > 1 || y < 0 || y > 1)
    throw new ArgError(`drag: "${kx}" and "${ky}" are fractions of the viewport from 0 (left/top) to 1 (right/bottom), got ${kx}=${x}, ${ky}=${y}.`);
  return { x, y };
}

function dragFrom(a: Args): DragFrom {
  const ref = refArg('drag', a, 'ref', false);
  const at = fractionPair(a, 'x', 'y');
  if (ref !== undefined && at) throw new ArgError(`drag presses on "ref" or at "x"/"y", not both. ${DRAG_USE}`);
  if (ref !== undefined) return { ref };
  if (!at) throw new ArgError(`drag needs "ref" (the element to press on) or "x"/"y" (a point to press at). ${DRAG_USE}`);
  return at;
}

function dragTo(a: Args, from: DragFrom): DragTo {
  const to = refArg('drag', a, 'to_ref', false);
  const point = fractionPair(a, 'to_x', 'to_y');
  const dx = numArg('drag', a, 'dx');
  const dy = numArg('drag', a, 'dy');
  const by = dx !== undefined || dy !== undefined;
  if ([to !== undefined, !!point, by].filter(Boolean).length > 1) throw new ArgError(`drag takes either ${DRAG_ENDS}, not both.`);
  if (to !== undefined) {
    if (to === from.ref) throw new ArgError(`drag: "to_ref" is the dragged element itself (${to}); give the element to drop it on.`);
    return { to_ref: to };
  }
  if (point) {
    if (point.x === from.x && point.y === from.y) throw new ArgError('drag: "to_x"/"to_y" is where it presses, so nothing would move.');
    return { to_x: point.x, to_y: point.y };
  }
  if (!by) throw new ArgError(`drag needs ${DRAG_ENDS}. ${DRAG_USE}`);
  const x = dx ?? 0;
  const y = dy ?? 0;
  if (x === 0 && y === 0) throw new ArgError('drag: "dx" and "dy" are both 0, so nothing would move.');
  if (Math.abs(x) > MAX_DRAG_PX || Math.abs(y) > MAX_DRAG_PX)
    throw new ArgError(`drag: "dx" and "dy" are pixels, at most ${MAX_DRAG_PX} each way; got dx=${x}, dy=${y}.`);
  return { dx: x, dy: y };
}

/** `click`'s `hold_ms`: undefined for a plain click; a press length in ms, capped at MAX_HOLD_MS. */
export function holdMs(a: Args): Hold | undefined {
  const ms = numArg('click', a, 'hold_ms');
  if (ms === undefined || ms === 0) return undefined;
  if (ms < 0) throw new ArgError(`click: "hold_ms" is how long to hold the button down, in milliseconds (up to ${MAX_HOLD_MS}); got ${ms}.`);
  return ms > MAX_HOLD_MS ? { ms: MAX_HOLD_MS, capped: true } : { ms: Math.round(ms), capped: false };
}

/** `read`'s `download`: the name of a file the page handed out, or undefined to read the page. */
export function downloadArg(a: Args): string | undefined {
  const v = a.download;
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string' || !v.trim()) throw new ArgError(`read: "download" must be the name of a downloaded file, got ${show(v)}.`);
  if (a.ref !== undefined && a.ref !== null && a.ref !== '')
    throw new ArgError('read takes "download" (a downloaded file) or "ref" (a part of the page), not both.');
  return v.trim();
}
