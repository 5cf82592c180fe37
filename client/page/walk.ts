/**
 * One walk over the rendered (flat) tree: open and hook-revealed closed shadow roots, slots,
 * same-origin iframes. It collects interactive candidates (with their box), scroll containers,
 * opaque regions and the readable text, in document order. It only reads: styles once per
 * element, geometry only for candidates, clipping boxes and modal dialogs.
 *
 * What is "interactive" and "visible" follows DESIGN §2. Each concern lives in its own module:
 * what kind of target an element is (walk/target.ts), groups and modal scope (walk/groups.ts),
 * clipping and scrolling (walk/clip.ts), text (walk/text.ts). This file only sequences them.
 */
import { shadowRootOf } from './hooks';
import { isExcluded } from './own-ui';
import type { Rect } from './types';
import { clippedAway, intersect, NO_CLIP, overlaps, scrollAxes, scrollScreens } from './walk/clip';
import { groupKind, isOpenModal } from './walk/groups';
import { classify, firstRoleToken, LISTENER_MAX_HEIGHT } from './walk/target';
import { TextBuffer } from './walk/text';
import type { Ctx, ElementItem, FrameInfo, Group, Item, Reason, WalkOptions, WalkResult } from './walk/types';

export type { ElementItem, FrameInfo, Group, Item, Reason, TextItem, WalkOptions, WalkResult } from './walk/types';
export { firstRoleToken } from './walk/target';

// Containers whose content never reaches the map as text or elements.
const SKIP_TAGS = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'meta', 'link', 'option', 'optgroup', 'datalist']);
// Form fields' insides are their value, not content; svg and math are one picture each.
const LEAF_TAGS = new Set(['select', 'textarea', 'input', 'svg', 'math']);
const LANDMARKS = new Set(['nav', 'main', 'aside', 'header', 'footer', 'section', 'article', 'form']);

const frameIds = new WeakMap<Element, string>();
let frameCounter = 0;

export function walk(doc: Document, opts: WalkOptions): WalkResult {
  const items: Item[] = [];
  const modals: Group[] = [];
  let visited = 0;
  let candidates = 0;
  let layered = false;
  let order = 0;
  const text = new TextBuffer(items, () => order++);
  const topWin = doc.defaultView;
  const viewport = { width: topWin?.innerWidth ?? 0, height: topWin?.innerHeight ?? 0 };
  const exact = opts.exactScreens === undefined ? null : { top: -opts.exactScreens * viewport.height, bottom: (1 + opts.exactScreens) * viewport.height };
  const blockBoxes = new Map<Element, Rect>();

  const rectOf = (el: Element, ctx: Ctx): Rect => {
    const r = el.getBoundingClientRect();
    const f = ctx.frame;
    return f ? { x: r.x + f.dx, y: r.y + f.dy, width: r.width, height: r.height } : { x: r.x, y: r.y, width: r.width, height: r.height };
  };

  /** A candidate's box; an inline one in a block far from the viewport takes the block's. */
  const candidateRect = (el: Element, ctx: Ctx, inline: boolean): Rect => {
    const block = text.block;
    if (exact && inline && block) {
      let b = blockBoxes.get(block);
      if (!b) blockBoxes.set(block, (b = rectOf(block, ctx)));
      if (b.y > exact.bottom || b.y + b.height < exact.top) return b;
    }
    return rectOf(el, ctx);
  };

  const visitChildren = (parent: Element | ShadowRoot | DocumentFragment, ctx: Ctx): void => {
    const collect = ctx.collectText && ctx.visible && opts.text;
    for (let c = parent.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 1) visit(c as Element, ctx);
      else if (collect && c.nodeType === 3) text.add((c as Text).data, c.parentElement, ctx);
    }
  };

  const pushEl = (el: Element, reason: Reason, rect: Rect, ctx: Ctx): ElementItem => {
    text.flush();
    const item: ElementItem = {
      kind: 'el', el, order: order++, rect, reason, frame: ctx.frame, groups: ctx.groups, block: text.block,
      context: `${ctx.landmark}|${text.lastHeading}`,
    };
    if (ctx.clip !== NO_CLIP && !overlaps(rect, ctx.clip)) {
      item.clippedBy = ctx.scroller ?? 'hidden';
      if (ctx.scroller) ctx.scroller.hiddenInside = (ctx.scroller.hiddenInside ?? 0) + 1;
    }
    items.push(item);
    return item;
  };

  const visit = (el: Element, parentCtx: Ctx): void => {
    visited++;
    const tag = el.localName;
    if (SKIP_TAGS.has(tag) || isExcluded(el)) return;
    // Most elements of an article carry no attribute at all: one check spares the reads below.
    const attrs = el.hasAttributes();
    // Hidden subtrees: aria-hidden and inert remove everything below (DESIGN §2 Visibility).
    if (attrs && (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert'))) return;
    const win = el.ownerDocument.defaultView;
    if (!win) return;
    const cs = win.getComputedStyle(el);
    const display = cs.display;
    if (display === 'none') return;
    const focused = el === opts.focused;
    // Most elements of a text-heavy page are inline runs (links, emphasis, footnote marks). For
    // them the walk reads only what applies to inline boxes: an inline box is never absolutely
    // positioned or fixed (those are blockified), so neither `clip` nor the "visually hidden"
    // clip-path trick (used with position:absolute) nor overflow nor content-visibility apply.
    // (A sticky inline run is not taken for a layer: sticky headers are blocks.)
    const inline = display === 'inline';
    const position = inline ? 'static' : cs.position;

    // "Visually hidden" clipping hides the subtree. Transparent subtrees are invisible, except a
    // transparent form control stands for its visible label (custom checkboxes, file pickers).
    if (!focused && !inline && clippedAway(cs, position)) return;
    if (cs.opacity === '0' && !focused) {
      if ((tag === 'input' || tag === 'select') && parentCtx.visible) {
        const label = labelBoxFor(el);
        if (label) {
          candidates++;
          pushEl(el, 'native', rectOf(label, parentCtx), parentCtx);
        }
      }
      return;
    }

    const visibility = cs.visibility;
    const visible = visibility !== 'hidden' && visibility !== 'collapse';
    const pointer = cs.cursor === 'pointer';
    if (position === 'fixed' || position === 'sticky') layered = true;

    // Text: blocks break lines; table cells join with a bar; items of a flex row read as one line.
    const isBlock = display !== 'contents' && !display.startsWith('inline') && display !== 'table-cell' && !parentCtx.rowFlex;
    const rowFlex = (display === 'flex' || display === 'inline-flex') && cs.flexDirection.startsWith('row');
    const outer = isBlock ? text.enterBlock(el, tag) : null;
    if (!isBlock) {
      if (display === 'table-cell') text.separate(' | ');
      else if (parentCtx.rowFlex) text.separate(' ');
      else if (tag === 'br') text.separate(' ');
    }

    const roleAttr = attrs ? el.getAttribute('role') : null;
    const role = roleAttr ? firstRoleToken(roleAttr) : '';
    const target = visible ? classify(el, tag, role, pointer, focused, cs, parentCtx, attrs) : null;

    // Groups: dialogs and forms get a header and indentation; a really open modal scopes the map.
    let groups = parentCtx.groups;
    const kind = groupKind(el, tag, role);
    if (kind) {
      const modal = kind === 'dialog' && isOpenModal(el, tag, { visible, focused: opts.focused, viewport, rect: () => rectOf(el, parentCtx) });
      const g: Group = { kind, el, modal };
      groups = [...groups, g];
      if (modal) modals.push(g);
    }

    let item: ElementItem | null = null;
    if (target) {
      candidates++;
      const rect = candidateRect(el, parentCtx, inline);
      // Zero-size and 1px "visually hidden" boxes are hidden, unless focused. An icon target is
      // icon-sized; a listener-only target is not a container.
      const shown = (rect.width > 1 && rect.height > 1) || focused;
      const fits = target.icon ? rect.width <= target.icon && rect.height <= target.icon : target.listenerOnly ? rect.height <= LISTENER_MAX_HEIGHT : true;
      if (shown && fits) {
        item = pushEl(el, target.reason, rect, { ...parentCtx, groups });
        if (target.opaque) item.opaque = target.opaque;
        if (target.icon && parentCtx.clickable) item.iconIn = parentCtx.clickable;
      }
    }

    // Clipping: overflow other than visible clips descendants to this box; it may scroll.
    let clip = parentCtx.clip;
    let scroller = parentCtx.scroller;
    if (position === 'fixed') clip = parentCtx.frame ? parentCtx.clip : NO_CLIP;
    const ox = inline ? 'visible' : cs.overflowX;
    const oy = inline ? 'visible' : cs.overflowY;
    if ((ox !== 'visible' || oy !== 'visible') && tag !== 'html' && tag !== 'body') {
      const box = item?.rect ?? rectOf(el, parentCtx);
      clip = intersect(clip, box);
      const axes = scrollAxes(el, ox, oy);
      if ((axes.x || axes.y) && visible && box.width > 1 && box.height > 1) {
        if (!item) {
          candidates++;
          item = pushEl(el, 'scroll', box, { ...parentCtx, groups });
        }
        item.scroll = scrollScreens(el, axes.x, axes.y);
        scroller = item;
      }
    }

    // Frames: same-origin documents are walked in place; others are opaque.
    if (tag === 'iframe' || tag === 'frame') {
      if (visible) walkFrame(el as HTMLIFrameElement, parentCtx, groups, cs);
      if (outer) text.leaveBlock(outer);
      return;
    }

    const reason = item?.reason;
    const clickable = !!item && reason !== 'scroll' && reason !== 'opaque' && reason !== 'focus';
    const labelish = tag === 'label' || (!!item && reason !== 'scroll');
    const landmark = LANDMARKS.has(tag) ? tag : role === 'navigation' || role === 'main' ? role : parentCtx.landmark;
    let ctx = parentCtx;
    if (groups !== parentCtx.groups || clip !== parentCtx.clip || scroller !== parentCtx.scroller || clickable || rowFlex !== parentCtx.rowFlex ||
        pointer !== parentCtx.parentPointer || visible !== parentCtx.visible || labelish || landmark !== parentCtx.landmark) {
      ctx = {
        frame: parentCtx.frame,
        groups,
        clip,
        scroller,
        clickable: clickable ? el : parentCtx.clickable,
        // A page that sets cursor:pointer on <body> must not hide every clickable below it.
        parentPointer: pointer && tag !== 'body' && tag !== 'html',
        parentEditable: parentCtx.parentEditable || reason === 'editable',
        collectText: parentCtx.collectText && !labelish,
        visible,
        landmark,
        rowFlex,
      };
    }

    // Content that is not rendered: closed <details> shows only its summary; content-visibility
    // hidden skips the subtree; form fields' insides are their value, not content.
    if (LEAF_TAGS.has(tag) || (!inline && cs.contentVisibility === 'hidden')) {
      if (outer) text.leaveBlock(outer);
      return;
    }
    if (tag === 'details' && !(el as HTMLDetailsElement).open) {
      const summary = el.querySelector(':scope > summary');
      if (summary) visit(summary, ctx);
    } else {
      const root = shadowRootOf(el);
      if (root) visitChildren(root, ctx);
      else if (tag === 'slot') visitSlot(el as HTMLSlotElement, ctx);
      else visitChildren(el, ctx);
    }
    if (outer) text.leaveBlock(outer);
  };

  const visitSlot = (slot: HTMLSlotElement, ctx: Ctx): void => {
    const assigned = slot.assignedNodes({ flatten: true });
    if (!assigned.length) return visitChildren(slot, ctx);
    const collect = ctx.collectText && ctx.visible && opts.text;
    for (const n of assigned) {
      if (n.nodeType === 1) visit(n as Element, ctx);
      else if (collect && n.nodeType === 3) text.add((n as Text).data, slot, ctx);
    }
  };

  const walkFrame = (iframe: HTMLIFrameElement, ctx: Ctx, groups: readonly Group[], cs: CSSStyleDeclaration): void => {
    const box = rectOf(iframe, ctx);
    if (box.width <= 1 || box.height <= 1) return;
    let inner: Document | null = null;
    try {
      inner = iframe.contentDocument;
    } catch {
      inner = null;
    }
    if (!inner || !inner.documentElement) {
      candidates++;
      const item = pushEl(iframe, 'opaque', box, { ...ctx, groups });
      item.opaque = 'iframe';
      item.crossOrigin = true;
      return;
    }
    let id = frameIds.get(iframe);
    if (!id) frameIds.set(iframe, (id = `f${++frameCounter}`));
    const dx = box.x + iframe.clientLeft + (parseFloat(cs.paddingLeft) || 0);
    const dy = box.y + iframe.clientTop + (parseFloat(cs.paddingTop) || 0);
    const frame: FrameInfo = { id, doc: inner, dx, dy };
    const g: Group = { kind: 'frame', el: iframe, modal: false, frame };
    text.flush();
    const frameCtx: Ctx = {
      frame, groups: [...groups, g], clip: intersect(ctx.clip, box), scroller: ctx.scroller,
      clickable: null, parentPointer: false, parentEditable: false, collectText: true, visible: true, landmark: '', rowFlex: false,
    };
    if (inner.body) visit(inner.documentElement, frameCtx);
    text.flush();
  };

  const top: Ctx = {
    frame: null, groups: [], clip: NO_CLIP, scroller: null, clickable: null, parentPointer: false,
    parentEditable: false, collectText: true, visible: true, landmark: '', rowFlex: false,
  };
  if (doc.documentElement) visit(doc.documentElement, top);
  text.flush();
  return { items, visited, candidates, modals, layered };
}

/** The visible box that stands for a transparent control: its label, if it has one. */
function labelBoxFor(el: Element): Element | null {
  const root = el.getRootNode() as Document | ShadowRoot;
  const label = el.closest('label') ?? (el.id && root.querySelector ? root.querySelector(`label[for="${CSS.escape(el.id)}"]`) : null);
  if (!label) return null;
  const r = label.getBoundingClientRect();
  return r.width > 1 && r.height > 1 ? label : null;
}
