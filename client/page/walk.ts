/**
 * One walk over the rendered (flat) tree: open and hook-revealed closed shadow roots, slots,
 * same-origin iframes. It collects interactive candidates (with their box), scroll containers,
 * opaque regions and the readable text, in document order. It only reads: styles once per
 * element, geometry only for candidates, clipping boxes and text holders.
 *
 * What is "interactive" and "visible" follows DESIGN §2; the rules are spelled out at each step.
 */
import { hasClickListener, shadowRootOf } from './hooks';
import { isExcluded } from './own-ui';
import type { Rect } from './types';

/** A dialog, form or frame that encloses items; printed as a header with indented lines. */
export interface Group {
  kind: 'dialog' | 'form' | 'frame';
  el: Element;
  modal: boolean;
  frame?: FrameInfo;
}

export interface FrameInfo {
  /** "f1", "f2", … stable per iframe element for the session. */
  id: string;
  doc: Document;
  /** Offset of the frame's viewport in top-level viewport coordinates. */
  dx: number;
  dy: number;
}

export type Reason = 'native' | 'role' | 'pointer' | 'handler' | 'editable' | 'focus' | 'scroll' | 'opaque';

export interface ElementItem {
  kind: 'el';
  el: Element;
  order: number;
  rect: Rect;
  reason: Reason;
  frame: FrameInfo | null;
  groups: readonly Group[];
  block: Element | null;
  /** Landmark tag/role and the latest heading before it: context for the fingerprint. */
  context: string;
  /** Not visible where it is: clipped out of a scroll container (counted there) or hidden. */
  clippedBy?: ElementItem | 'hidden';
  /** Screens of content around a scroll container. */
  scroll?: { up: number; down: number; left: number; right: number };
  /** Opaque content the map can't see into (canvas, video, cross-origin frame). */
  opaque?: 'canvas' | 'video' | 'iframe' | 'embed';
  crossOrigin?: boolean;
  /** Elements clipped inside this scroll container, counted rather than listed. */
  hiddenInside?: number;
}

export interface TextItem {
  kind: 'text';
  text: string;
  order: number;
  /** The element whose box stands for the text's position. */
  el: Element;
  frame: FrameInfo | null;
  groups: readonly Group[];
  block: Element | null;
  heading?: number;
  /** The box of clipping ancestors (scroll containers, overflow:hidden); text outside is hidden. */
  clip?: Rect;
}

export type Item = ElementItem | TextItem;

export interface WalkResult {
  items: Item[];
  visited: number;
  candidates: number;
  modals: Group[];
  /** A fixed or sticky layer exists (occlusion is only checked then). */
  layered: boolean;
}

// ARIA widget roles that make an element a target for the model.
const INTERACTIVE_ROLES = new Set([
  'button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox',
  'menuitemradio', 'option', 'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton',
  'listbox', 'treeitem', 'gridcell', 'scrollbar',
]);
// Roles that give an element a cue of its own (for tabindex/handler-only elements).
const NON_CUE_ROLES = new Set(['none', 'presentation', 'generic']);
// Containers whose content never reaches the map as text or elements.
const SKIP_TAGS = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'meta', 'link', 'option', 'optgroup', 'datalist']);
const NATIVE_TAGS = new Set(['button', 'select', 'textarea']);
const LANDMARKS = new Set(['nav', 'main', 'aside', 'header', 'footer', 'section', 'article', 'form']);
const HEADING = /^h([1-6])$/;
const ZERO_CLIP = /^rect\(0px,? 0px,? 0px,? 0px\)$/;
const FULL_INSET = /^inset\((50|100)%\)$/;

// Finite, so that box arithmetic never meets Infinity - Infinity.
const NO_CLIP: Rect = { x: -1e9, y: -1e9, width: 2e9, height: 2e9 };

interface Ctx {
  frame: FrameInfo | null;
  groups: readonly Group[];
  /** Top-viewport box outside which content is clipped. */
  clip: Rect;
  /** The innermost scroll container item, to count clipped elements against. */
  scroller: ElementItem | null;
  /** Inside an element that is itself clickable (folding of pointer-only children). */
  inClickable: boolean;
  /** The parent's computed cursor is pointer. */
  parentPointer: boolean;
  parentEditable: boolean;
  /** Text is collected (not inside a candidate whose name covers it, nor a label). */
  collectText: boolean;
  visible: boolean;
  landmark: string;
  /** The parent lays its children out in a row (flex row): they read as one line. */
  rowFlex: boolean;
}

const frameIds = new WeakMap<Element, string>();
let frameCounter = 0;

export interface WalkOptions {
  focused: Element | null;
  text: boolean;
}

export function walk(doc: Document, opts: WalkOptions): WalkResult {
  const items: Item[] = [];
  const modals: Group[] = [];
  let visited = 0;
  let candidates = 0;
  let layered = false;
  let order = 0;
  let lastHeading = '';

  // Text is gathered per block: inline content joins into one line, blocks break lines.
  let buf = '';
  let bufEl: Element | null = null;
  let bufCtx: Ctx | null = null;
  let block: Element | null = null;
  let heading = 0;

  const flush = (): void => {
    const text = buf.replace(/\s+/g, ' ').trim();
    if (text && bufEl && bufCtx) {
      const clip = bufCtx.clip === NO_CLIP ? undefined : bufCtx.clip;
      items.push({ kind: 'text', text, order: order++, el: bufEl, frame: bufCtx.frame, groups: bufCtx.groups, block, heading: heading || undefined, clip });
      if (heading) lastHeading = text.slice(0, 40);
    }
    buf = '';
    bufEl = null;
    bufCtx = null;
  };

  const rectOf = (el: Element, ctx: Ctx): Rect => {
    const r = el.getBoundingClientRect();
    const f = ctx.frame;
    return f ? { x: r.x + f.dx, y: r.y + f.dy, width: r.width, height: r.height } : { x: r.x, y: r.y, width: r.width, height: r.height };
  };

  const visitChildren = (parent: Element | ShadowRoot | DocumentFragment, ctx: Ctx): void => {
    for (let c = parent.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 1) visit(c as Element, ctx);
      else if (c.nodeType === 3 && ctx.collectText && ctx.visible && opts.text) {
        const data = (c as Text).data;
        if (!bufEl) {
          if (!/\S/.test(data)) continue;
          bufEl = c.parentElement;
          bufCtx = ctx;
        }
        buf += data;
      }
    }
  };

  const visit = (el: Element, parentCtx: Ctx): void => {
    visited++;
    const tag = el.localName;
    if (SKIP_TAGS.has(tag) || isExcluded(el)) return;
    // Hidden subtrees: aria-hidden and inert remove everything below (DESIGN §2 Visibility).
    if (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert')) return;
    const win = el.ownerDocument.defaultView;
    if (!win) return;
    const cs = win.getComputedStyle(el);
    const display = cs.display;
    if (display === 'none') return;
    const focused = el === opts.focused;
    let ctx = parentCtx;

    // Transparent subtrees are invisible, except a transparent form control stands for its
    // visible label (custom checkboxes and file pickers): it is listed at the label's box.
    // "Visually hidden" clipping (clip: rect(0 0 0 0), clip-path: inset(50%)) hides the subtree.
    if (!focused && (ZERO_CLIP.test(cs.clip) || FULL_INSET.test(cs.clipPath))) return;
    if (cs.opacity === '0' && !focused) {
      if ((tag === 'input' || tag === 'select') && parentCtx.visible) {
        const label = labelBoxFor(el);
        if (label) {
          candidates++;
          pushEl(el, 'native', rectOf(label, ctx), ctx);
        }
      }
      return;
    }

    const visibility = cs.visibility;
    const visible = visibility !== 'hidden' && visibility !== 'collapse';
    const pointer = cs.cursor === 'pointer';
    const position = cs.position;
    if (position === 'fixed' || position === 'sticky') layered = true;

    // Blocks break text lines; table cells join with a bar; items of a flex row read as one
    // line, the way they sit side by side.
    const isBlock = display !== 'contents' && !display.startsWith('inline') && display !== 'table-cell' && !parentCtx.rowFlex;
    const rowFlex = (display === 'flex' || display === 'inline-flex') && cs.flexDirection.startsWith('row');
    if (isBlock) flush();
    else if (display === 'table-cell' && buf) buf += ' | ';
    else if (parentCtx.rowFlex && buf) buf += ' ';
    else if (tag === 'br') buf += ' ';
    const outerBlock = block;
    const outerHeading = heading;
    if (isBlock) {
      block = el;
      const h = HEADING.exec(tag);
      heading = h ? Number(h[1]) : el.getAttribute('role') === 'heading' ? Number(el.getAttribute('aria-level')) || 2 : 0;
    }

    // Which kind of target is this?
    let reason: Reason | null = null;
    let opaque: ElementItem['opaque'];
    const roleAttr = el.getAttribute('role');
    const role = roleAttr ? firstRoleToken(roleAttr) : '';
    if (visible) {
      reason = nativeReason(el, tag);
      if (!reason && role && INTERACTIVE_ROLES.has(role)) reason = 'role';
      if (!reason && el.hasAttribute('contenteditable') && !parentCtx.parentEditable && (el as HTMLElement).isContentEditable) reason = 'editable';
      if (!reason && (tag === 'canvas' || tag === 'video' || tag === 'embed' || tag === 'object')) {
        opaque = tag === 'object' ? 'embed' : (tag as 'canvas' | 'video' | 'embed');
        reason = 'opaque';
      }
      if (!reason && tag !== 'html' && tag !== 'body' && tag !== 'label') {
        // Weak signals (tabindex, on* handlers, listeners) count only with another cue.
        const tabbable = (el as HTMLElement).tabIndex >= 0 && el.hasAttribute('tabindex');
        const handler = hasHandler(el);
        const signals = (tabbable ? 1 : 0) + (handler ? 1 : 0);
        const outermostPointer = pointer && !parentCtx.parentPointer;
        const roleCue = !!role && !NON_CUE_ROLES.has(role);
        if (outermostPointer && !(parentCtx.inClickable && !handler && !roleCue && !el.hasAttribute('aria-label'))) reason = 'pointer';
        else if (signals > 0 && (signals > 1 || pointer || roleCue)) {
          reason = parentCtx.inClickable && !handler && !roleCue ? null : 'handler';
        }
      }
      if (!reason && focused && tag !== 'body' && tag !== 'html') reason = 'focus';
    }

    // Groups: dialogs, forms and frames get a header and indentation.
    let groups = parentCtx.groups;
    const isDialog = (tag === 'dialog' && (el as HTMLDialogElement).open) || role === 'dialog' || role === 'alertdialog';
    if (isDialog || tag === 'form') {
      const modal = isDialog && isModal(el, tag);
      const g: Group = { kind: isDialog ? 'dialog' : 'form', el, modal };
      groups = [...groups, g];
      if (modal) modals.push(g);
    }

    let item: ElementItem | null = null;
    if (reason) {
      candidates++;
      const rect = rectOf(el, parentCtx);
      // Zero-size and 1px "visually hidden" boxes are hidden, unless focused.
      if ((rect.width > 1 && rect.height > 1) || focused) {
        item = pushEl(el, reason, rect, { ...parentCtx, groups });
        if (opaque) item.opaque = opaque;
      }
    }

    // Clipping: overflow other than visible clips descendants to this box.
    let clip = parentCtx.clip;
    let scroller = parentCtx.scroller;
    if (position === 'fixed') clip = parentCtx.frame ? parentCtx.clip : NO_CLIP;
    const ox = cs.overflowX;
    const oy = cs.overflowY;
    if ((ox !== 'visible' || oy !== 'visible') && tag !== 'html' && tag !== 'body') {
      const box = item?.rect ?? rectOf(el, parentCtx);
      clip = intersect(clip, box);
      const scrollsY = (oy === 'auto' || oy === 'scroll') && el.scrollHeight > el.clientHeight + 1;
      const scrollsX = (ox === 'auto' || ox === 'scroll') && el.scrollWidth > el.clientWidth + 1;
      if ((scrollsY || scrollsX) && visible && box.width > 1 && box.height > 1) {
        if (!item) {
          candidates++;
          item = pushEl(el, 'scroll', box, { ...parentCtx, groups });
        }
        item.scroll = scrollScreens(el, scrollsX, scrollsY);
        scroller = item;
      }
    }

    // Frames: same-origin documents are walked in place; others are opaque.
    if (tag === 'iframe' || tag === 'frame') {
      walkFrame(el as HTMLIFrameElement, parentCtx, groups, visible, cs);
      restore(isBlock, outerBlock, outerHeading);
      return;
    }

    const clickable = !!item && reason !== 'scroll' && reason !== 'opaque' && reason !== 'focus';
    const labelish = tag === 'label' || (!!item && reason !== 'scroll');
    if (groups !== parentCtx.groups || clip !== parentCtx.clip || scroller !== parentCtx.scroller || clickable || rowFlex !== parentCtx.rowFlex ||
        pointer !== parentCtx.parentPointer || visible !== parentCtx.visible || labelish || LANDMARKS.has(tag) || role === 'navigation' || role === 'main') {
      ctx = {
        frame: parentCtx.frame,
        groups,
        clip,
        scroller,
        inClickable: parentCtx.inClickable || clickable,
        // A page that sets cursor:pointer on <body> must not hide every clickable below it.
        parentPointer: pointer && tag !== 'body' && tag !== 'html',
        parentEditable: parentCtx.parentEditable || reason === 'editable',
        collectText: parentCtx.collectText && !labelish,
        visible,
        landmark: LANDMARKS.has(tag) ? tag : role === 'navigation' || role === 'main' ? role : parentCtx.landmark,
        rowFlex,
      };
    }

    // Content that is not rendered: closed <details> shows only its summary; content-visibility
    // hidden skips the subtree; form fields' insides are their value, not content.
    if (tag === 'select' || tag === 'textarea' || tag === 'input' || tag === 'svg' || tag === 'math') {
      restore(isBlock, outerBlock, outerHeading);
      return;
    }
    if (cs.contentVisibility === 'hidden') {
      restore(isBlock, outerBlock, outerHeading);
      return;
    }
    if (tag === 'details' && !(el as HTMLDetailsElement).open) {
      const summary = el.querySelector(':scope > summary');
      if (summary) visit(summary, ctx);
      restore(isBlock, outerBlock, outerHeading);
      return;
    }

    const root = shadowRootOf(el);
    if (root) visitChildren(root, ctx);
    else if (tag === 'slot') {
      const assigned = (el as HTMLSlotElement).assignedNodes({ flatten: true });
      if (assigned.length) {
        for (const n of assigned) {
          if (n.nodeType === 1) visit(n as Element, ctx);
          else if (n.nodeType === 3 && ctx.collectText && ctx.visible && opts.text) {
            if (!bufEl) { bufEl = el; bufCtx = ctx; }
            buf += (n as Text).data;
          }
        }
      } else visitChildren(el, ctx);
    } else visitChildren(el, ctx);
    restore(isBlock, outerBlock, outerHeading);
  };

  const restore = (isBlock: boolean, outerBlock: Element | null, outerHeading: number): void => {
    if (!isBlock) return;
    flush();
    block = outerBlock;
    heading = outerHeading;
  };

  const pushEl = (el: Element, reason: Reason, rect: Rect, ctx: Ctx): ElementItem => {
    flush();
    const item: ElementItem = {
      kind: 'el', el, order: order++, rect, reason, frame: ctx.frame, groups: ctx.groups, block,
      context: `${ctx.landmark}|${lastHeading}`,
    };
    if (ctx.clip !== NO_CLIP && !overlaps(rect, ctx.clip)) {
      item.clippedBy = ctx.scroller ?? 'hidden';
      if (ctx.scroller) ctx.scroller.hiddenInside = (ctx.scroller.hiddenInside ?? 0) + 1;
    }
    items.push(item);
    return item;
  };

  const walkFrame = (iframe: HTMLIFrameElement, ctx: Ctx, groups: readonly Group[], visible: boolean, cs: CSSStyleDeclaration): void => {
    if (!visible) return;
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
    flush();
    const frameCtx: Ctx = {
      frame, groups: [...groups, g], clip: intersect(ctx.clip, box), scroller: ctx.scroller,
      inClickable: false, parentPointer: false, parentEditable: false, collectText: true, visible: true, landmark: '', rowFlex: false,
    };
    if (inner.body) visit(inner.documentElement, frameCtx);
    flush();
  };

  const top: Ctx = {
    frame: null, groups: [], clip: NO_CLIP, scroller: null, inClickable: false, parentPointer: false,
    parentEditable: false, collectText: true, visible: true, landmark: '', rowFlex: false,
  };
  if (doc.documentElement) visit(doc.documentElement, top);
  flush();
  return { items, visited, candidates, modals, layered };
}

function nativeReason(el: Element, tag: string): Reason | null {
  if (NATIVE_TAGS.has(tag)) return 'native';
  if (tag === 'a') return el.hasAttribute('href') ? 'native' : null;
  if (tag === 'input') return (el as HTMLInputElement).type === 'hidden' ? null : 'native';
  if (tag === 'summary') return el.parentElement?.localName === 'details' && el.parentElement.querySelector(':scope > summary') === el ? 'native' : null;
  if (tag === 'audio') return el.hasAttribute('controls') ? 'native' : null;
  return null;
}

function hasHandler(el: Element): boolean {
  const h = el as HTMLElement;
  return h.onclick != null || h.onmousedown != null || h.onpointerdown != null || h.onmouseup != null || hasClickListener(el);
}

/** First token of a role attribute that names a role we know (unknown tokens are skipped). */
export function firstRoleToken(value: string): string {
  for (const t of value.trim().toLowerCase().split(/\s+/)) if (t && KNOWN_ROLES.has(t)) return t;
  return '';
}

function isModal(el: Element, tag: string): boolean {
  if (tag === 'dialog') {
    try {
      return el.matches(':modal');
    } catch {
      return false;
    }
  }
  return el.getAttribute('aria-modal') === 'true';
}

/** The visible box that stands for a transparent control: its label, if it has one. */
function labelBoxFor(el: Element): Element | null {
  const root = el.getRootNode() as Document | ShadowRoot;
  const label = el.closest('label') ?? (el.id && root.querySelector ? root.querySelector(`label[for="${CSS.escape(el.id)}"]`) : null);
  if (!label) return null;
  const r = label.getBoundingClientRect();
  return r.width > 1 && r.height > 1 ? label : null;
}

function scrollScreens(el: Element, x: boolean, y: boolean): { up: number; down: number; left: number; right: number } {
  const h = el.clientHeight || 1;
  const w = el.clientWidth || 1;
  return {
    up: y ? el.scrollTop / h : 0,
    down: y ? Math.max(0, el.scrollHeight - h - el.scrollTop) / h : 0,
    left: x ? el.scrollLeft / w : 0,
    right: x ? Math.max(0, el.scrollWidth - w - el.scrollLeft) / w : 0,
  };
}

function intersect(a: Rect, b: Rect): Rect {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const r = Math.min(a.x + a.width, b.x + b.width);
  const btm = Math.min(a.y + a.height, b.y + b.height);
  return { x, y, width: Math.max(0, r - x), height: Math.max(0, btm - y) };
}

function overlaps(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && a.x + a.width > b.x && a.y < b.y + b.height && a.y + a.height > b.y;
}

// WAI-ARIA 1.2 roles (non-abstract), for "first valid token".
const KNOWN_ROLES = new Set(
  ('alert alertdialog application article banner blockquote button caption cell checkbox code columnheader combobox ' +
    'complementary contentinfo definition deletion dialog directory document emphasis feed figure form generic grid ' +
    'gridcell group heading img insertion link list listbox listitem log main marquee math menu menubar menuitem ' +
    'menuitemcheckbox menuitemradio meter navigation none note option paragraph presentation progressbar radio ' +
    'radiogroup region row rowgroup rowheader scrollbar search searchbox separator slider spinbutton status strong ' +
    'subscript superscript switch tab table tablist tabpanel term textbox time timer toolbar tooltip tree treegrid treeitem').split(' '),
);
