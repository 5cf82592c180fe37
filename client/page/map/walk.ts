/**
 * One walk over the rendered (flat) tree: open and hook-revealed closed shadow roots, slots,
 * same-origin iframes. It collects interactive candidates (with their box), scroll containers,
 * opaque regions and the readable text, in document order. It only reads: styles once per
 * element, geometry only for candidates, clipping boxes and modal dialogs.
 *
 * Interactive: native controls, interactive ARIA roles, click cues only with another sign.
 * Visible: hidden, inert and invisible subtrees are left out. Each concern lives in its own module:
 * what kind of target an element is (walk/target.ts), groups and modal scope (walk/groups.ts),
 * clipping and scrolling (walk/clip.ts), text (walk/text.ts). This file only sequences them.
 *
 * The walk keeps its place on an explicit stack (walk/frames.ts), not the call stack, so that it
 * can stop when its slice of time is used up and go on later (client/page/map/slicing.ts).
 */
import { shadowRootOf } from '../dom/flat-tree';
import { firstValidRole } from '../names/role';
import { UNLIMITED, type Budget } from './slicing';
import type { Rect } from '../page-types';
import { clippedAway, intersect, NO_CLIP, overlaps, scrollAxes, scrollScreens } from './walk/clip';
import { childrenOf, listOf, nextChild, resync, type Frame } from './walk/frames';
import { groupKind, isOpenModal } from './walk/groups';
import { classify, LISTENER_MAX_HEIGHT } from './walk/target';
import { TextBuffer, type BlockState } from './walk/text';
import { nestedGroup } from './walk/tree';
import { isChoiceList } from './walk/choices';
import { iconInText } from './icon-name';
import type { Ctx, ElementItem, FrameInfo, Group, Item, Reason, WalkOptions, WalkResult } from './walk/items';
import { frameDocument } from '../dom/flat-tree';
import { parentElementOf, nodeTypeOf, attrOf, ownerDocumentOf, hasAttrOf, hasAttrsOf } from '../dom/proto';

export type { ElementItem, FrameInfo, Group, Item, TextItem, WalkOptions, WalkResult } from './walk/items';

// Containers whose content never reaches the map as text or elements.
const SKIP_TAGS = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'meta', 'link', 'option', 'optgroup', 'datalist']);
// Form fields' insides are their value, not content; svg and math are one picture each.
const LEAF_TAGS = new Set(['select', 'textarea', 'input', 'svg', 'math']);
const LANDMARKS = new Set(['nav', 'main', 'aside', 'header', 'footer', 'section', 'article', 'form']);
/** Tags an icon is drawn with inside a line of text (an icon font's glyph, a ligature, an SVG). */
const ICON_TAGS = new Set(['i', 'span', 'svg']);

const frameIds = new WeakMap<Element, string>();
let frameCounter = 0;

/** The frame's id (`f2`), the prefix of its elements' refs: the same for a frame for as long as it lives. */
export function frameIdOf(frame: Element): string {
  let id = frameIds.get(frame);
  if (!id) frameIds.set(frame, (id = `f${++frameCounter}`));
  return id;
}

const sameBox = (a: Rect, b: Rect): boolean =>
  Math.abs(a.x - b.x) < 1 && Math.abs(a.y - b.y) < 1 && Math.abs(a.width - b.width) < 1 && Math.abs(a.height - b.height) < 1;

/** The whole walk in one go. */
export function walk(doc: Document, opts: WalkOptions): WalkResult {
  const w = startWalk(doc, opts);
  w.run(UNLIMITED);
  return w.result();
}

/** A walk that can stop when its budget is due and go on later. */
export interface Walk {
  /** Walks until done (true) or until `budget` is due (false: call again later). */
  run(budget: Budget): boolean;
  /** What was collected; call once `run` returned true. */
  result(): WalkResult;
}

export function startWalk(doc: Document, opts: WalkOptions): Walk {
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

  /** Whether the last candidate's box was its block's (see candidateRect). */
  let approximated = false;
  /** A candidate's box; an inline one in a block far from the viewport takes the block's. */
  const candidateRect = (el: Element, ctx: Ctx, inline: boolean): Rect => {
    const block = text.block;
    approximated = false;
    if (exact && inline && block) {
      let b = blockBoxes.get(block);
      if (!b) blockBoxes.set(block, (b = rectOf(block, ctx)));
      if (b.y > exact.bottom || b.y + b.height < exact.top) {
        approximated = true;
        return b;
      }
    }
    return rectOf(el, ctx);
  };

  /** Clickable items by element (a dropdown's box is named without the choices it holds), and the last one listed. */
  const clickables = new Map<Element, ElementItem>();
  let lastClickable: Element | null = null;

  const pushEl = (el: Element, reason: Reason, rect: Rect, ctx: Ctx): ElementItem => {
    text.flush();
    const item: ElementItem = {
      kind: 'el',
      el,
      order: order++,
      rect,
      reason,
      frame: ctx.frame,
      groups: ctx.groups,
      block: text.block,
      context: `${ctx.landmark}|${text.lastHeading}`,
    };
    if (ctx.clip !== NO_CLIP && !overlaps(rect, ctx.clip)) {
      item.clippedBy = ctx.scroller ?? 'hidden';
      if (ctx.scroller) ctx.scroller.hiddenInside = (ctx.scroller.hiddenInside ?? 0) + 1;
    }
    items.push(item);
    if (reason !== 'scroll' && reason !== 'opaque' && reason !== 'focus') {
      clickables.set(el, item);
      lastClickable = el;
    }
    return item;
  };

  /** Text nodes are collected in this context: the text of visible, non-labelled content. */
  const collects = (ctx: Ctx): boolean => ctx.collectText && ctx.visible && opts.text;

  /**
   * Everything about an element before its children: returns the frame of children to walk next,
   * or null when there are none (its block, if any, is then already left).
   */
  const open = (el: Element, parentCtx: Ctx): Frame | null => {
    visited++;
    const tag = el.localName;
    // Most elements of an article carry no attribute at all: one check spares the reads below.
    const attrs = hasAttrsOf(el);
    if (SKIP_TAGS.has(tag) || (attrs ? opts.zones.excluded(el) : opts.zones.deniedBySelector(el))) return null;
    // Hidden subtrees: aria-hidden and inert remove everything below.
    if (attrs && (attrOf(el, 'aria-hidden') === 'true' || hasAttrOf(el, 'inert'))) return null;
    const win = ownerDocumentOf(el).defaultView;
    if (!win) return null;
    const cs = win.getComputedStyle(el);
    const display = cs.display;
    if (display === 'none') return null;
    const focused = el === opts.focused;
    // Most elements of a text-heavy page are inline runs (links, emphasis, footnote marks). For
    // them the walk reads only what applies to inline boxes: an inline box is never absolutely
    // positioned or fixed (those are blockified), so neither `clip` nor the "visually hidden"
    // clip-path trick (used with position:absolute) nor overflow nor content-visibility apply.
    // (A sticky inline run is not taken for a layer: sticky headers are blocks.)
    const inline = display === 'inline';
    const position = inline ? 'static' : cs.position;

    // "Visually hidden" clipping hides the subtree. Transparent subtrees are invisible, except a
    // transparent form control stands for its visible label (custom checkboxes, file pickers),
    // or with no label, is a control laid over what shows it ("Choose a file" under the input).
    if (!focused && !inline && clippedAway(cs, position)) return null;
    if (cs.opacity === '0' && !focused) {
      if ((tag === 'input' || tag === 'select') && parentCtx.visible && (el as HTMLInputElement).type !== 'hidden') {
        const label = labelBoxFor(el);
        const box = label ? rectOf(label, parentCtx) : rectOf(el, parentCtx);
        if (box.width > 1 && box.height > 1) {
          candidates++;
          pushEl(el, 'native', box, parentCtx);
        }
      }
      return null;
    }

    const visibility = cs.visibility;
    const visible = visibility !== 'hidden' && visibility !== 'collapse';
    // A grab/move cursor or draggable="true" says "drag me" as cursor:pointer says "click me".
    // Each read of a computed style is a call into the engine that makes a string: once each.
    const cursor = cs.cursor;
    // `context-menu` says "right-click me" (a page's own menu on that area).
    const pointer =
      cursor === 'pointer' || cursor === 'grab' || cursor === 'move' || cursor === 'context-menu' || (attrs && attrOf(el, 'draggable') === 'true');
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

    const roleAttr = attrs ? attrOf(el, 'role') : null;
    // The same first valid token role.ts takes (ARIA's roles, DPUB's, `image` read as `img`).
    const role = firstValidRole(roleAttr) ?? '';
    // A dropdown's list of choices: its items are targets; the list itself is no listener target.
    const choiceList =
      visible &&
      el.childElementCount >= 2 &&
      !LEAF_TAGS.has(tag) &&
      isChoiceList(el, parentCtx.clickable !== null && (position === 'absolute' || position === 'fixed'), lastClickable);
    let target = visible ? classify(el, tag, role, pointer, focused, cs, parentCtx, opts.zones, attrs) : null;
    if (choiceList) {
      if (target?.listenerOnly) target = null;
      const box = parentCtx.clickable && clickables.get(parentCtx.clickable);
      if (box) box.holdsChoices = el;
    }

    // An icon in a line of text reads as its name there (`Click ~trash to remove`): a text-only
    // model sees nothing of a glyph. Its insides (a ligature's word) are not read again.
    if (!target && visible && attrs && ICON_TAGS.has(tag) && collects(parentCtx)) {
      const word = iconInText(el, tag);
      if (word) {
        text.add(` ~${word} `, el, parentCtx);
        if (outer) text.leaveBlock(outer);
        return null;
      }
    }

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
      // A handler filling the clickable it sits in (Selectric's box in its pointer wrapper) is
      // that one target: a click on either lands on both.
      const outer = target.reason === 'handler' && parentCtx.clickable ? clickables.get(parentCtx.clickable) : undefined;
      if (shown && fits && !(outer && sameBox(outer.rect, rect))) {
        item = pushEl(el, target.reason, rect, { ...parentCtx, groups });
        if (approximated) item.approx = true;
        if (target.opaque) item.opaque = target.opaque;
        if (target.standsFor) item.standsFor = target.standsFor;
        if (target.choice) item.choice = true;
        if (target.tree) item.tree = target.tree;
        else if (target.reason === 'pointer' || target.reason === 'handler') {
          // A clickable tree node whose line is its own text (an li holding its nested list).
          const group = nestedGroup(el);
          if (group) item.tree = { group, ownLine: true };
        }
        if (target.icon && parentCtx.clickable) item.iconIn = parentCtx.clickable;
      }
    }

    // Clipping: overflow other than visible clips descendants to this box; it may scroll.
    let clip = parentCtx.clip;
    let scroller = parentCtx.scroller;
    if (position === 'fixed') clip = parentCtx.frame ? parentCtx.clip : NO_CLIP;
    // Most boxes do not clip: the shorthand says so in one read ("visible" only when both axes are).
    const both = inline ? 'visible' : cs.overflow;
    const ox = both === 'visible' ? both : cs.overflowX;
    const oy = both === 'visible' ? both : cs.overflowY;
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
      const inner = visible ? openFrame(el as HTMLIFrameElement, parentCtx, groups, cs, outer) : null;
      if (!inner && outer) text.leaveBlock(outer);
      return inner;
    }

    const reason = item?.reason;
    const clickable = !!item && reason !== 'scroll' && reason !== 'opaque' && reason !== 'focus';
    const labelish = tag === 'label' || (!!item && reason !== 'scroll');
    const landmark = LANDMARKS.has(tag) ? tag : role === 'navigation' || role === 'main' ? role : parentCtx.landmark;
    let ctx = parentCtx;
    if (
      groups !== parentCtx.groups ||
      clip !== parentCtx.clip ||
      scroller !== parentCtx.scroller ||
      clickable ||
      rowFlex !== parentCtx.rowFlex ||
      pointer !== parentCtx.parentPointer ||
      visible !== parentCtx.visible ||
      labelish ||
      landmark !== parentCtx.landmark ||
      choiceList
    ) {
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
        choices: choiceList ? el : parentCtx.choices,
      };
    }

    // Content that is not rendered: closed <details> shows only its summary; content-visibility
    // hidden skips the subtree; form fields' insides are their value, not content. An element
    // with nothing below it has no subtree to skip: its content-visibility is not read.
    const leaf = LEAF_TAGS.has(tag);
    const root = leaf ? null : shadowRootOf(el);
    const empty = !root && el.firstChild === null && tag !== 'details' && tag !== 'slot';
    if (leaf || empty || (!inline && cs.contentVisibility === 'hidden')) {
      if (outer) text.leaveBlock(outer);
      return null;
    }
    if (tag === 'details' && !(el as HTMLDetailsElement).open) {
      const summary = el.querySelector(':scope > summary');
      return listOf(el, summary ? [summary] : [], ctx, false, el, outer, false);
    }
    if (root) {
      opts.entered?.(root);
      return childrenOf(root, ctx, collects(ctx), outer);
    }
    if (tag === 'slot') {
      // A slot shows what is assigned to it; its text reads at the slot's place.
      const assigned = (el as HTMLSlotElement).assignedNodes({ flatten: true });
      if (assigned.length) return listOf(el, assigned, ctx, collects(ctx), el, outer, false);
    }
    return childrenOf(el, ctx, collects(ctx), outer);
  };

  /** A same-origin frame's document is walked in place (its frame of one child); others are opaque. */
  const openFrame = (iframe: HTMLIFrameElement, ctx: Ctx, groups: readonly Group[], cs: CSSStyleDeclaration, outer: BlockState | null): Frame | null => {
    const box = rectOf(iframe, ctx);
    if (box.width <= 1 || box.height <= 1) return null;
    const inner = frameDocument(iframe);
    if (!inner || !inner.documentElement) {
      candidates++;
      const item = pushEl(iframe, 'opaque', box, { ...ctx, groups });
      item.opaque = 'iframe';
      item.crossOrigin = true;
      return null;
    }
    opts.entered?.(inner);
    const id = frameIdOf(iframe);
    const dx = box.x + iframe.clientLeft + (parseFloat(cs.paddingLeft) || 0);
    const dy = box.y + iframe.clientTop + (parseFloat(cs.paddingTop) || 0);
    const frame: FrameInfo = { id, doc: inner, dx, dy };
    const g: Group = { kind: 'frame', el: iframe, modal: false, frame };
    text.flush();
    // A frame's document starts as a page does, inside the frame's groups, clip and scroller.
    const frameCtx: Ctx = { ...documentCtx(), frame, groups: [...groups, g], clip: intersect(ctx.clip, box), scroller: ctx.scroller };
    // The frame's text never joins the lines around it: flushed on entering and on leaving.
    return listOf(iframe, inner.body ? [inner.documentElement] : [], frameCtx, false, null, outer, true);
  };

  const top: Ctx = documentCtx();
  const stack: Frame[] = doc.documentElement ? [listOf(doc, [doc.documentElement], top, false, null, null, false)] : [];
  let done = false;
  let resumed = false;

  const leave = (f: Frame): void => {
    if (f.flushOnLeave) text.flush();
    if (f.outer) text.leaveBlock(f.outer);
  };

  return {
    run(budget) {
      if (done) return true;
      // The page ran between slices: drop what was removed meanwhile, keep the place.
      if (resumed) resync(stack);
      resumed = true;
      while (stack.length) {
        if (budget.due()) return false;
        const f = stack[stack.length - 1]!;
        const c = nextChild(f);
        if (!c) {
          stack.pop();
          leave(f);
        } else if (nodeTypeOf(c) === 1) {
          const inner = open(c as Element, f.ctx);
          if (inner) stack.push(inner);
        } else if (f.collect && nodeTypeOf(c) === 3) text.add((c as Text).data, f.textHolder ?? parentElementOf(c), f.ctx);
      }
      text.flush();
      done = true;
      return true;
    },
    result: () => ({ items, visited, candidates, modals, layered }),
  };
}

/** The visible box that stands for a transparent control: its label, if it has one. */
function labelBoxFor(el: Element): Element | null {
  const root = el.getRootNode() as Document | ShadowRoot;
  const label = el.closest('label') ?? (el.id && root.querySelector ? root.querySelector(`label[for="${CSS.escape(el.id)}"]`) : null);
  if (!label) return null;
  const r = label.getBoundingClientRect();
  return r.width > 1 && r.height > 1 ? label : null;
}

/** The context at the root of a document: nothing inherited yet. */
function documentCtx(): Ctx {
  return {
    frame: null,
    groups: [],
    clip: NO_CLIP,
    scroller: null,
    clickable: null,
    parentPointer: false,
    parentEditable: false,
    collectText: true,
    visible: true,
    landmark: '',
    rowFlex: false,
    choices: null,
  };
}
