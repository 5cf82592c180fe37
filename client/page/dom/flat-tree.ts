/**
 * The flat tree, as the user sees and the pointer reaches it: through shadow roots (open, and
 * closed ones the document-start hooks saw), slots and same-origin frames. Shared by the map
 * (occlusion) and the actions (actionability, click_at), so both agree on what is hit.
 */
import { closedRootOf } from './hooks';
import { UI_ATTR } from '../ui-attr';
import { activeElementOf, assignedSlotOf, firstChildOf, localNameOf, nextSiblingOf, nodeTypeOf, openShadowOf, ownerDocumentOf, parentNodeOf } from './proto';

export interface Point {
  x: number;
  y: number;
}

/**
 * The element's shadow root, open or (if the hooks saw it attached) closed. In the runner's
 * isolated world the page world attached closed roots open: the native getter sees them. Read
 * through the prototype: a form's field named "shadowRoot" shadows the form's own.
 */
export function shadowRootOf(el: Element): ShadowRoot | null {
  return openShadowOf(el) ?? closedRootOf(el);
}

/** The parent in the flat tree: a slotted node's slot, a shadow root's host. */
export function flatParent(n: Node): Node | null {
  const slot = assignedSlotOf(n);
  if (slot) return slot;
  const p = parentNodeOf(n);
  if (p && nodeTypeOf(p) === 11 && (p as ShadowRoot).host) return (p as ShadowRoot).host;
  return p;
}

/** `ancestor` is `node` or contains it in the flat tree. */
export function flatContains(ancestor: Node, node: Node | null): boolean {
  for (let n: Node | null = node; n; n = flatParent(n)) if (n === ancestor) return true;
  return false;
}

/** A frame's document, or null when it is another origin's (or not loaded). */
export function frameDocument(frame: Element): Document | null {
  try {
    return (frame as HTMLIFrameElement).contentDocument;
  } catch {
    return null; // cross-origin
  }
}

/** The focused element, looking into shadow roots and same-origin frames. */
export function deepActiveElement(doc: Document = document): Element | null {
  let a: Element | null = activeElementOf(doc);
  for (let i = 0; a && i < 32; i++) {
    const root = shadowRootOf(a);
    if (root?.activeElement) {
      a = root.activeElement;
      continue;
    }
    const t = a.localName;
    if (t !== 'iframe' && t !== 'frame') break;
    const inner = frameDocument(a);
    const focused = inner && activeElementOf(inner);
    if (!focused || focused === inner.body) break;
    a = focused;
  }
  return a;
}

/** Where an iframe's content viewport starts, in its owner's viewport coordinates. */
export function contentOrigin(frame: Element): Point {
  const r = frame.getBoundingClientRect();
  const cs = ownerDocumentOf(frame).defaultView!.getComputedStyle(frame);
  return {
    x: r.left + (frame as HTMLElement).clientLeft + (parseFloat(cs.paddingLeft) || 0),
    y: r.top + (frame as HTMLElement).clientTop + (parseFloat(cs.paddingTop) || 0),
  };
}

export interface Hit {
  /** The deepest element at the point. */
  el: Element;
  /** The point in `el`'s own viewport (client) coordinates. */
  local: Point;
  /** Set when the point is inside a frame whose document cannot be reached. */
  crossOriginFrame?: Element;
}

/** The topmost element at a point of `doc`, looking through the agent's own UI (mask, overlay). */
export function pageElementAt(doc: Document, x: number, y: number): Element | null {
  const el = doc.elementFromPoint(x, y);
  if (!el || !el.closest(`[${UI_ATTR}]`)) return el;
  return doc.elementsFromPoint(x, y).find((e) => !e.closest(`[${UI_ATTR}]`)) ?? null;
}

/**
 * A shadow host's own text drawn at the point through a slot (`<x-host>Delete</x-host>` into a
 * root's `<button><slot></slot></button>`): the pointer reaches the slot, so the button around
 * it, while `elementFromPoint` names the host (the text's parent in the light tree).
 */
function slotOfTextAt(host: Element, x: number, y: number): Element | undefined {
  if (!shadowRootOf(host)) return undefined;
  let range: Range | undefined;
  for (let c = firstChildOf(host); c; c = nextSiblingOf(c)) {
    const slot = nodeTypeOf(c) === 3 ? assignedSlotOf(c) : null;
    if (!slot) continue;
    range ??= ownerDocumentOf(host).createRange();
    range.selectNodeContents(c);
    for (const r of range.getClientRects()) if (x >= r.left && x < r.right && y >= r.top && y < r.bottom) return slot;
  }
  return undefined;
}

/** The element a pointer at (x, y) of the root viewport would hit. */
export function deepHit(x: number, y: number, root: Document = document): Hit | undefined {
  let doc = root;
  let lx = x;
  let ly = y;
  for (let depth = 0; depth < 32; depth++) {
    const top = pageElementAt(doc, lx, ly);
    if (!top) return undefined;
    let el: Element = top;
    for (let i = 0; i < 32; i++) {
      const deeper: Element | null | undefined = shadowRootOf(el)?.elementFromPoint(lx, ly);
      if (!deeper || deeper === el) {
        el = slotOfTextAt(el, lx, ly) ?? el;
        break;
      }
      el = deeper;
    }
    const t = localNameOf(el);
    if (t !== 'iframe' && t !== 'frame') return { el, local: { x: lx, y: ly } };
    const inner = frameDocument(el);
    if (!inner) return { el, local: { x: lx, y: ly }, crossOriginFrame: el };
    const o = contentOrigin(el);
    // On the frame's border/padding rather than its content: the frame element itself is hit.
    const w = (el as HTMLIFrameElement).clientWidth;
    const h = (el as HTMLIFrameElement).clientHeight;
    if (lx < o.x || ly < o.y || lx >= o.x + w || ly >= o.y + h) return { el, local: { x: lx, y: ly } };
    lx -= o.x;
    ly -= o.y;
    doc = inner;
  }
  return undefined;
}
