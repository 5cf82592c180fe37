/**
 * `scroll {direction, ref?, pages?}` and `scroll_to {ref}`.
 *
 * Without a ref the page scrolls — or, when the document itself does not scroll (app layouts
 * with a full-height inner pane), the scroll container under the middle of the viewport. With
 * a ref, the container is that element if it scrolls, else its nearest scrolling ancestor.
 * A page is 90% of the container's height (a little overlap keeps the line at the edge in
 * view). The report comes after the page settles, so an infinite list that loaded more shows
 * the new length.
 */
import type { Direction, ToolArgs } from './args';
import type { Handler } from './context';
import { ActionError, flatParent, isElement, nextFrame, viewportSize, winOf } from './dom';
import { deepHit } from './hit';
import { describeScroll } from './messages';
import type { ScrollReport } from './contract';
import type { Zones } from '../settings';
import { ownerDocumentOf } from '../dom/proto';

const PAGE_FRACTION = 0.9;
/** labelOf's answer for an element without a role: a bare tag, maybe with a name. */
const ROLELESS_TAG = /^(div|span|ul|ol|section)\b/;

type Axis = 'x' | 'y';
const axisOf = (d: Direction): Axis => (d === 'up' || d === 'down' ? 'y' : 'x');

function isRoot(el: Element): boolean {
  const doc = ownerDocumentOf(el);
  return el === doc.scrollingElement || el === doc.documentElement || el === doc.body;
}

function canScroll(el: Element, axis: Axis): boolean {
  if (isRoot(el)) {
    const se = ownerDocumentOf(el).scrollingElement ?? ownerDocumentOf(el).documentElement;
    const vp = viewportSize(winOf(el));
    const cs = winOf(el).getComputedStyle(ownerDocumentOf(el).documentElement);
    const bs = ownerDocumentOf(el).body ? winOf(el).getComputedStyle(ownerDocumentOf(el).body) : cs;
    const hidden = (axis === 'y' ? [cs.overflowY, bs.overflowY] : [cs.overflowX, bs.overflowX]).includes('hidden');
    return !hidden && (axis === 'y' ? se.scrollHeight > vp.height + 1 : se.scrollWidth > vp.width + 1);
  }
  const cs = winOf(el).getComputedStyle(el);
  const o = axis === 'y' ? cs.overflowY : cs.overflowX;
  if (o !== 'auto' && o !== 'scroll' && o !== 'overlay') return false;
  return axis === 'y' ? el.scrollHeight > el.clientHeight + 1 : el.scrollWidth > el.clientWidth + 1;
}

function rootScroller(doc: Document): Element {
  return doc.scrollingElement ?? doc.documentElement;
}

/** The element that scrolls for `from` along `axis` (itself, an ancestor, or the page) — never
 *  one in a deny zone: a scroll there would move what the site keeps from the agent (the
 *  middle of the viewport may well lie in a zone). */
function scrollerFor(from: Element, axis: Axis, zones: Zones): Element | undefined {
  for (let n: Node | null = from; n && isElement(n); n = flatParent(n)) {
    const el = n as Element;
    if (isRoot(el)) break;
    if (canScroll(el, axis) && !zones.inside(el)) return el;
  }
  const root = rootScroller(ownerDocumentOf(from));
  return canScroll(root, axis) ? root : undefined;
}

function pageScroller(axis: Axis, zones: Zones): Element | undefined {
  const root = rootScroller(document);
  if (canScroll(root, axis)) return root;
  const vp = viewportSize();
  const hit = deepHit(vp.width / 2, vp.height / 2);
  return hit ? scrollerFor(hit.el, axis, zones) : undefined;
}

/** Where a scroller is, in px and %, and whether it is at either end. */
export function scrollReport(el: Element, target: string): ScrollReport {
  const root = isRoot(el);
  const vp = viewportSize(winOf(el));
  const se = root ? rootScroller(ownerDocumentOf(el)) : el;
  const h = root ? vp.height : el.clientHeight;
  const w = root ? vp.width : el.clientWidth;
  const maxY = Math.max(0, se.scrollHeight - h);
  const maxX = Math.max(0, se.scrollWidth - w);
  const y = se.scrollTop;
  const x = se.scrollLeft;
  return {
    target,
    x: Math.round(x),
    y: Math.round(y),
    percentY: maxY ? Math.round((y / maxY) * 100) : 0,
    percentX: maxX ? Math.round((x / maxX) * 100) : 0,
    atTop: y <= 1,
    atBottom: y >= maxY - 2,
  };
}

function position(r: ScrollReport, axis: Axis): string {
  if (axis === 'y') return describeScroll(r);
  return r.percentX === 0 ? 'at the left edge' : r.percentX === 100 ? 'at the right edge' : `${r.percentX}% across`;
}

/** The nearest ancestor-or-self that has more content than it shows but hides the overflow. */
function hiddenOverflow(from: Element, axis: Axis, stop: Element | undefined): Element | undefined {
  for (let n: Node | null = from; n && isElement(n) && n !== stop; n = flatParent(n)) {
    const el = n as Element;
    if (isRoot(el)) break;
    const more = axis === 'y' ? el.scrollHeight > el.clientHeight + 1 : el.scrollWidth > el.clientWidth + 1;
    const o = winOf(el).getComputedStyle(el)[axis === 'y' ? 'overflowY' : 'overflowX'];
    if (more && (o === 'hidden' || o === 'clip')) return el;
  }
  return undefined;
}

/**
 * A wheel over the element, as a user's wheel sends first. Virtualised lists (Ant Design's
 * Select, rc-virtual-list) hide their overflow and move themselves on wheel, cancelling it; then
 * their own movement is the scroll. Returns undefined when nobody took the wheel.
 */
async function wheelOver(el: Element, axis: Axis, direction: Direction, pages: number, scroller: Element | undefined, ctx: Parameters<Handler<unknown>>[1]) {
  const list = hiddenOverflow(el, axis, scroller);
  if (!list) return undefined;
  const size = axis === 'y' ? list.clientHeight : list.clientWidth;
  const delta = Math.round(size * PAGE_FRACTION * pages) * (direction === 'up' || direction === 'left' ? -1 : 1);
  const win = winOf(el);
  const r = el.getBoundingClientRect();
  const pos = () => (axis === 'y' ? list.scrollTop : list.scrollLeft);
  const firstBox = () => list.firstElementChild?.firstElementChild?.getBoundingClientRect()[axis] ?? 0;
  const before = [pos(), firstBox()];
  ctx.begin(el);
  const wheel = new win.WheelEvent('wheel', {
    bubbles: true,
    cancelable: true,
    composed: true,
    view: win,
    deltaMode: 0,
    deltaX: axis === 'x' ? delta : 0,
    deltaY: axis === 'y' ? delta : 0,
    clientX: r.left + r.width / 2,
    clientY: r.top + r.height / 2,
  });
  if (el.dispatchEvent(wheel)) return undefined; // not taken: scroll natively
  // Wheel handlers commonly apply the offset on the next frame.
  await nextFrame(win);
  await nextFrame(win);
  const moved = pos() !== before[0] || firstBox() !== before[1];
  return { list, moved };
}

export const scroll: Handler<ToolArgs['scroll']> = async ({ direction, ref, pages }, ctx) => {
  const axis = axisOf(direction);
  let scroller: Element | undefined;
  if (ref) {
    const el = ctx.resolve(ref);
    scroller = scrollerFor(el, axis, ctx.settings.zones);
    const wheeled = await wheelOver(el, axis, direction, pages, scroller, ctx);
    if (wheeled) {
      // A role-less list is named by the row the model pointed at.
      const own = ctx.label(wheeled.list);
      const name = ROLELESS_TAG.test(own) ? `the list around ${ctx.label(el)}` : own;
      const amount = pages === 1 ? '1 page' : `${pages} pages`;
      return {
        message: wheeled.moved
          ? `Scrolled ${name} ${direction} by ${amount} (it moves itself on the wheel).`
          : `${name[0]!.toUpperCase()}${name.slice(1)} did not move: it is already ${direction === 'down' ? 'at the bottom' : direction === 'up' ? 'at the top' : `at the ${direction} edge`}.`,
        after: () => ({ changes: { scroll: scrollReport(wheeled.list, name) } }),
      };
    }
    if (!scroller) throw new ActionError(`Neither ${ctx.subject(ref, el).replace(/^Element /, 'element ')} nor the page around it can scroll ${direction}.`);
  } else {
    scroller = pageScroller(axis, ctx.settings.zones);
    if (!scroller) throw new ActionError(`The page does not scroll ${axis === 'y' ? 'vertically' : 'horizontally'}; everything is already in view.`);
  }
  const el = scroller;
  const name = isRoot(el) ? (ownerDocumentOf(el) === document ? 'the page' : 'the frame') : ctx.label(el);
  const target = isRoot(el) ? 'page' : name;
  const root = isRoot(el);
  const se = root ? rootScroller(ownerDocumentOf(el)) : el;
  const size = axis === 'y' ? (root ? viewportSize(winOf(el)).height : el.clientHeight) : root ? viewportSize(winOf(el)).width : el.clientWidth;
  const delta = Math.round(size * PAGE_FRACTION * pages) * (direction === 'up' || direction === 'left' ? -1 : 1);
  const before = axis === 'y' ? se.scrollTop : se.scrollLeft;
  ctx.begin(el);
  se.scrollBy({ [axis === 'y' ? 'top' : 'left']: delta, behavior: 'instant' as ScrollBehavior } as ScrollToOptions);
  const moved = (axis === 'y' ? se.scrollTop : se.scrollLeft) !== before;
  const amount = pages === 1 ? '1 page' : `${pages} pages`;
  return {
    message: moved
      ? `Scrolled ${name} ${direction} by ${amount}.`
      : `${name[0]!.toUpperCase()}${name.slice(1)} did not move: it is already ${direction === 'down' ? 'at the bottom' : direction === 'up' ? 'at the top' : `at the ${direction} edge`}.`,
    after: () => {
      const r = scrollReport(el, target);
      return { message: moved ? `Now ${position(r, axis)}.` : undefined, changes: { scroll: r } };
    },
  };
};

export const scrollTo: Handler<ToolArgs['scroll_to']> = async ({ ref }, ctx) => {
  const el = ctx.resolve(ref);
  ctx.begin(el);
  el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' as ScrollBehavior });
  const label = ctx.label(el);
  return {
    message: `Scrolled to ${label}.`,
    after: () => {
      const r = el.getBoundingClientRect();
      const vp = viewportSize(winOf(el));
      const inView = r.bottom > 0 && r.top < vp.height && r.right > 0 && r.left < vp.width;
      return {
        message: inView ? 'It is in view.' : 'It is still out of view (it may be hidden or inside a closed section).',
        changes: { scroll: scrollReport(rootScroller(document), 'page') },
      };
    },
  };
};
