/**
 * Arguments of the pointer and file tools (pure; no DOM): `drag`, `double_click`,
 * `right_click`, `upload`, and `click`'s `hold_ms`. Same rules as the other tools: harmless
 * slips (a ref as a number, a number as a string, one file name instead of a list) pass;
 * anything that would change the meaning is a clear error naming the tool and the fix.
 */
import { ArgError, numArg, refArg, show, type Args } from './arg-check';
import type { Ref } from '../page-types';

export type DragArgs = { ref: Ref; to_ref: Ref; dx?: undefined; dy?: undefined } | { ref: Ref; to_ref?: undefined; dx: number; dy: number };

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
    const ref = refArg('drag', a, 'ref', true);
    const to = refArg('drag', a, 'to_ref', false);
    const dx = numArg('drag', a, 'dx');
    const dy = numArg('drag', a, 'dy');
    if (to !== undefined) {
      if (dx !== undefined || dy !== undefined)
        throw new ArgError('drag takes either "to_ref" (drop on that element) or "dx"/"dy" (move by pixels), not both.');
      if (to === ref) throw new ArgError(`drag: "to_ref" is the dragged element itself (${ref}); give the element to drop it on.`);
      return { ref, to_ref: to };
    }
    if (dx === undefined && dy === undefined) {
      throw new ArgError(
        'drag needs "to_ref" (the element to drop on, e.g. {"ref": "4", "to_ref": "9"}) or "dx"/"dy" (pixels to move, e.g. {"ref": "4", "dx": 120, "dy": 0}).',
      );
    }
    const x = dx ?? 0;
    const y = dy ?? 0;
    if (x === 0 && y === 0) throw new ArgError('drag: "dx" and "dy" are both 0, so nothing would move.');
    if (Math.abs(x) > MAX_DRAG_PX || Math.abs(y) > MAX_DRAG_PX)
      throw new ArgError(`drag: "dx" and "dy" are pixels, at most ${MAX_DRAG_PX} each way; got dx=${x}, dy=${y}.`);
    return { ref, dx: x, dy: y };
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
