/**
 * A `DataTransfer` for synthetic drag and drop. Browsers ignore writes to `dropEffect` and
 * `effectAllowed` of one made with `new DataTransfer()` (it belongs to no drag), so a page
 * that says "this drop moves" in its dragstart/dragover handlers would not be heard; here the
 * two are kept on the object itself, with the values the specification allows.
 */
import type { Win } from './dom';

const DROP_EFFECTS = ['none', 'copy', 'link', 'move'];
const ALLOWED_EFFECTS = ['none', 'copy', 'copyLink', 'copyMove', 'link', 'linkMove', 'move', 'all', 'uninitialized'];

export function dataTransfer(win: Win, files: readonly File[] = []): DataTransfer {
  const dt = new win.DataTransfer();
  for (const f of files) dt.items.add(f);
  let drop = 'none';
  let allowed = 'uninitialized';
  try {
    Object.defineProperty(dt, 'dropEffect', {
      configurable: true,
      get: () => drop,
      set: (v: unknown) => void (DROP_EFFECTS.includes(String(v)) && (drop = String(v))),
    });
    Object.defineProperty(dt, 'effectAllowed', {
      configurable: true,
      get: () => allowed,
      set: (v: unknown) => void (ALLOWED_EFFECTS.includes(String(v)) && (allowed = String(v))),
    });
  } catch {
    /* a browser that lets these be written already */
  }
  return dt;
}

/** The effect a dragover starts with, from what the source allows (HTML's drag-and-drop model). */
export function initialDropEffect(allowed: string): DataTransfer['dropEffect'] {
  if (allowed === 'none') return 'none';
  if (allowed === 'link' || allowed === 'linkMove') return 'link';
  if (allowed === 'move') return 'move';
  return 'copy';
}
