/**
 * The viewport filter for html-to-image: which nodes the clone keeps.
 *
 * html-to-image copies every computed style of every node it clones, so cloning a whole page
 * costs seconds (6 s at 3k elements, 140 s at 30k). Only what can show in the viewport is
 * needed, and it is decided per element from its box, at the top of a subtree, so an
 * off-screen subtree is never visited:
 *   on screen (or no box of its own)  → kept, its children decide for themselves;
 *   off screen, out of flow           → dropped: nothing else moves without it;
 *   after the viewport in flow order  → dropped: only later (also off-screen) content moves
 *                                       (block, grid and flex flow, a table's rows);
 *   otherwise (above, left, odd flow) → kept hollow: its box keeps its size (the cloned
 *                                       width and height are its used ones), its content goes.
 * Our own UI, content the site keeps from the agent (`data-pagehand="off"`, deny selectors),
 * and non-rendered tags never make it in.

 */
import { UI_ATTR } from '../ui-attr';
import { ownerDocumentOf, nodeTypeOf, parentNodeOf, hasAttrOf } from '../dom/proto';

/** Tags that never paint, or paint only through what we copy (styles are inlined). */
const SKIP = new Set(['head', 'script', 'style', 'link', 'meta', 'template', 'noscript', 'title']);
/** Slack around the viewport, so borders and shadows at the edges survive. */
const MARGIN = 8;

export interface View {
  width: number;
  height: number;
}

export function viewportFilter(view: View, cancelled: () => boolean, denied: (el: Element) => boolean): (node: Node) => boolean {
  const hollow = new WeakSet<Node>();
  const forward = new WeakMap<Element, boolean>();
  const flowsForward = (parent: Element): boolean => {
    let f = forward.get(parent);
    if (f === undefined) forward.set(parent, (f = isForwardFlow(getComputedStyle(parent))));
    return f;
  };

  return (node: Node): boolean => {
    if (cancelled()) return false;
    const parent = parentOf(node);
    if (parent && hollow.has(parent)) return false;
    if (nodeTypeOf(node) !== Node.ELEMENT_NODE) return true;
    const el = node as Element;
    if (SKIP.has(el.localName) || hasAttrOf(el, UI_ATTR)) return false;
    // Content a site keeps from the agent: its box stays (nothing moves), its content does not.
    if (denied(el)) {
      hollow.add(el);
      return true;
    }
    // A frame's document is small and its coordinates are the frame's own: kept whole.
    if (ownerDocumentOf(el) !== document) return true;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return true;
    if (r.right > -MARGIN && r.left < view.width + MARGIN && r.bottom > -MARGIN && r.top < view.height + MARGIN) return true;
    const position = getComputedStyle(el).position;
    if (position === 'absolute' || position === 'fixed') return false;
    if ((r.top >= view.height || r.left >= view.width) && parent && flowsForward(parent)) return false;
    hollow.add(el);
    return true;
  };
}

/** The element whose clone receives this node's clone (a shadow root's host, a frame for its body). */
function parentOf(node: Node): Element | null {
  const p = parentNodeOf(node);
  if (!p) return null;
  if (nodeTypeOf(p) === Node.DOCUMENT_FRAGMENT_NODE) return (p as ShadowRoot).host ?? null;
  if (nodeTypeOf(p) === Node.ELEMENT_NODE) {
    const el = p as Element;
    // html-to-image clones a same-origin frame's body under the frame element.
    if (el.localName === 'body' && ownerDocumentOf(el) !== document) {
      try {
        return ownerDocumentOf(el).defaultView?.frameElement ?? el;
      } catch {
        return el;
      }
    }
    return el;
  }
  return null;
}

/**
 * Whether children are laid out in DOM order from the start edge, so dropping the ones after
 * the viewport cannot move the ones before it (block flow, grid without dense packing, flex
 * packed at the start).
 */
function isForwardFlow(s: CSSStyleDeclaration): boolean {
  const d = s.display;
  // A table's sections and a section's rows stack in DOM order (a header group shows first
  // wherever it is, so only what lies after the viewport is dropped); the clone lets the
  // table's height follow its kept rows (clone.ts).
  if (d === 'table-row-group' || d === 'table-header-group' || d === 'table-footer-group' || d === 'table' || d === 'inline-table') return true;
  if (d === 'block' || d === 'flow-root' || d === 'list-item' || d === 'inline-block') return !s.columnCount || s.columnCount === 'auto';
  if (d === 'grid' || d === 'inline-grid') return !s.gridAutoFlow.includes('dense');
  if (d === 'flex' || d === 'inline-flex') {
    if (s.flexDirection.endsWith('reverse') || s.flexWrap === 'wrap-reverse') return false;
    const j = s.justifyContent;
    return j === 'normal' || j === 'flex-start' || j === 'start' || j === 'stretch' || j === 'left';
  }
  return false;
}
