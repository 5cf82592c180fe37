/**
 * The walk's place in the tree: one frame per parent whose children are being walked — a
 * sibling chain (an element's or shadow root's children) or a fixed list (a slot's assigned
 * nodes, a closed <details>' summary, a frame's document). Between slices the page may change
 * under it; `resync` keeps the place without walking what was removed.
 */
import type { Ctx } from './items';
import type { BlockState } from './text';
import { nextSiblingOf, parentNodeOf, firstChildOf } from '../../dom/proto';

export interface Frame {
  /** Whose children these are; when it leaves the document, so does the rest of the frame. */
  readonly parent: Node;
  /** Sibling chain: the next child to walk (null at the end) and the one walked last. */
  next: Node | null;
  prev: Node | null;
  /** Fixed list instead of a sibling chain, and the index of its next entry. */
  list: readonly Node[] | null;
  index: number;
  readonly ctx: Ctx;
  /** Text nodes here are page text. */
  readonly collect: boolean;
  /** The element that holds this frame's text (a slot's assigned text reads at the slot); null: the text node's parent. */
  readonly textHolder: Element | null;
  /** The block to leave when done (the element's own, if it is a block). */
  readonly outer: BlockState | null;
  /** End the text line on leaving (a frame's document: its text never joins the lines around it). */
  readonly flushOnLeave: boolean;
}

export function childrenOf(parent: Node, ctx: Ctx, collect: boolean, outer: BlockState | null): Frame {
  return { parent, next: firstChildOf(parent), prev: null, list: null, index: 0, ctx, collect, textHolder: null, outer, flushOnLeave: false };
}

export function listOf(
  parent: Node,
  list: readonly Node[],
  ctx: Ctx,
  collect: boolean,
  textHolder: Element | null,
  outer: BlockState | null,
  flushOnLeave: boolean,
): Frame {
  return { parent, next: null, prev: null, list, index: 0, ctx, collect, textHolder, outer, flushOnLeave };
}

/** The frame's next child, or null when it is done. */
export function nextChild(f: Frame): Node | null {
  if (f.list) return f.index < f.list.length ? f.list[f.index++]! : null;
  const c = f.next;
  if (c) {
    f.prev = c;
    f.next = nextSiblingOf(c);
  }
  return c;
}

/**
 * After the page ran: a frame whose parent left the document is done (and so is every frame
 * above it, its descendants); a chain whose next child was removed goes on after the child
 * walked last if that one is still there, else it ends; list entries no longer in the page
 * are dropped.
 */
export function resync(stack: readonly Frame[]): void {
  let gone = false;
  for (const f of stack) {
    gone ||= !f.parent.isConnected;
    if (gone) {
      f.next = null;
      if (f.list) f.index = f.list.length;
    } else if (f.list) {
      f.list = f.list.slice(f.index).filter((n) => n.isConnected);
      f.index = 0;
    } else if (f.next && parentNodeOf(f.next) !== f.parent) {
      f.next = f.prev && parentNodeOf(f.prev) === f.parent ? nextSiblingOf(f.prev) : null;
    }
  }
}
