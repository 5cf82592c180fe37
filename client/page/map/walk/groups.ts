/**
 * Groups and scope: dialogs and forms enclose their items (a header with indented lines), and
 * a modal dialog scopes the whole map — but only while it is really open. Shop themes keep
 * closed drawers in the DOM marked `aria-modal="true"`, parked off-screen or at zero size;
 * treating those as open would hide the whole page behind a dialog no one can see.
 */
import { flatContains } from '../../dom/flat-tree';
import type { Rect } from '../../page-types';
import type { Group } from './items';
import { attrOf } from '../../dom/proto';

/** The group `el` opens, if any: an open <dialog>, a role=dialog/alertdialog, or a <form>. */
export function groupKind(el: Element, tag: string, role: string): Group['kind'] | null {
  if ((tag === 'dialog' && (el as HTMLDialogElement).open) || role === 'dialog' || role === 'alertdialog') return 'dialog';
  return tag === 'form' ? 'form' : null;
}

export interface OpenCheck {
  /** The element is visibility:visible (the walk already skipped display:none and opacity:0). */
  visible: boolean;
  focused: Element | null;
  viewport: { width: number; height: number };
  /** The dialog's box in top-viewport coordinates (read only when needed). */
  rect: () => Rect;
}

/**
 * A dialog scopes the map when it is a `<dialog>` opened with showModal() (the browser makes
 * the rest inert), or an `aria-modal="true"` dialog that is rendered, has a box and either
 * intersects the viewport or holds the focus.
 */
export function isOpenModal(el: Element, tag: string, check: OpenCheck): boolean {
  if (tag === 'dialog') {
    try {
      if (el.matches(':modal')) return true;
    } catch {
      // :modal unsupported: fall through to the attribute
    }
  }
  if (attrOf(el, 'aria-modal') !== 'true' || !check.visible) return false;
  if (check.focused && flatContains(el, check.focused)) return true;
  const r = check.rect();
  if (r.width <= 1 || r.height <= 1) return false;
  return r.x < check.viewport.width && r.x + r.width > 0 && r.y < check.viewport.height && r.y + r.height > 0;
}
