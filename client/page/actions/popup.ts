/**
 * The list a widget opened, and the rows a user can pick in it.
 *
 * Only the target's own list is searched: the elements it points at (aria-controls/aria-owns,
 * or the nearest rendered box around a zero-size accessibility listbox), its own subtree, and
 * what changed on the page while it opened (a portal at the end of body, a class flip that
 * shows a hidden `<ul>`). Rows are ARIA options that are really rendered, plus role-less rows
 * (virtualised lists, jQuery plugins): list items and the outermost `cursor:pointer` elements
 * with short text of their own.
 */
import { pageElementAt } from '../dom/flat-tree';
import { likeItems } from '../map/walk/choices';
import { clipByScrollers, isElement, isVisible, nextFrame, tag, winOf } from './dom';
import type { Zones } from '../settings';
import { parentElementOf, ownerDocumentOf } from '../dom/proto';

export const OPTION_ROLES = '[role=option],[role=menuitem],[role=menuitemradio],[role=menuitemcheckbox],[role=treeitem]';
const ROW_TEXT_MAX = 120;
/** A changed ancestor of the trigger counts as its popup only this close to it (a widget wrapper)… */
const WRAPPER_LEVELS = 3;
/** …and only this small: larger wrappers are page sections. */
const SCOPE_MAX = 600;

export interface Row {
  el: Element;
  label: string;
}

const norm = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** Rendered, with a box that is not clipped away by an ancestor that hides overflow. */
export function isShown(el: Element): boolean {
  if (!isVisible(el)) return false;
  const r = el.getBoundingClientRect();
  if (r.width < 1 || r.height < 1) return false;
  // Parked beyond the document's origin (chosen's closed drop at left:-9999px): never reachable.
  const win = winOf(el);
  if (r.right + win.scrollX <= 0 || r.bottom + win.scrollY <= 0) return false;
  if (!clipByScrollers(el, { left: r.left, top: r.top, right: r.right, bottom: r.bottom })) return false;
  // Hidden by clip / clip-path (chosen's closed drop) or drawn under something: the pointer
  // at its centre, when that is in the viewport, must land on it.
  const x = r.left + r.width / 2;
  const y = r.top + r.height / 2;
  if (x < 0 || y < 0 || x >= win.innerWidth || y >= win.innerHeight) return true;
  // Through the agent's own mask: while a run is active it covers the whole page.
  const hit = pageElementAt(ownerDocumentOf(el), x, y);
  return !hit || el.contains(hit) || hit.contains(el) || isInShadowOf(hit, el);
}

/** The hit is a shadow host's retargeted answer for something inside `el` (or the reverse). */
function isInShadowOf(hit: Element, el: Element): boolean {
  const root = el.getRootNode();
  return root !== ownerDocumentOf(el) && (root as ShadowRoot).host === hit;
}

/** Records the subtrees the page changes during one step: where a popup appears. */
export function watchChanges(doc: Document): () => Element[] {
  const touched = new Set<Element>();
  const take = (recs: MutationRecord[]) => {
    for (const r of recs) {
      // A list filled in place is its parent; a portal added to body is the added node itself.
      const t = r.target;
      if (r.type === 'childList' && isElement(t) && (tag(t) === 'body' || tag(t) === 'html')) {
        for (const n of r.addedNodes) if (isElement(n)) touched.add(n);
      } else if (isElement(t)) touched.add(t);
    }
  };
  const mo = new (winOf(doc.documentElement).MutationObserver)(take);
  mo.observe(doc, { subtree: true, childList: true, attributes: true, attributeFilter: ['class', 'style', 'hidden', 'open', 'aria-hidden'] });
  return () => {
    take(mo.takeRecords());
    mo.disconnect();
    return [...touched].filter((e) => e.isConnected && tag(e) !== 'html' && tag(e) !== 'body');
  };
}

/** Changed subtrees that may be the target's popup: apart from it, or a close wrapper of it. */
/**
 * Changed subtrees that may be the target's popup, most specific first: inside it (a widget
 * that holds its own list), a close wrapper of it (a class flip on the widget's root shows its
 * list), then subtrees apart from it (portals, a sibling list), nearest first — a popup opens
 * beside its trigger, and a neighbour widget that merely lost focus is farther away.
 */
export function popupCandidates(changed: Element[], target: Element): Element[] {
  const apart: Element[] = [];
  const inside: Element[] = [];
  const wrappers: Element[] = [];
  const near = new Set<Element>([target]);
  for (let a = parentElementOf(target), i = 0; a && i < WRAPPER_LEVELS; a = parentElementOf(a), i++) near.add(a);
  for (const c of outermost(changed)) {
    if (c.contains(target)) {
      // A big section whose class flipped is a page state, not this widget's popup.
      if (near.has(c) && c.getElementsByTagName('*').length <= SCOPE_MAX) wrappers.push(c);
    } else if (target.contains(c)) inside.push(c);
    else apart.push(c);
  }
  const t = target.getBoundingClientRect();
  const gap = (c: Element) => {
    const r = c.getBoundingClientRect();
    return Math.max(0, r.left - t.right, t.left - r.right) + Math.max(0, r.top - t.bottom, t.top - r.bottom);
  };
  apart.sort((a, b) => gap(a) - gap(b));
  return [...inside, ...wrappers, ...apart];
}

/**
 * What is shown around the trigger before it opens (its close wrapper, without reaching the
 * body): a list that the widget shows by a class flip on its wrapper is told apart from what
 * was already there (the current value, chips, arrows).
 */
export function shownAround(target: Element, zones: Zones): Set<Element> {
  let scope: Element = target;
  for (let a = parentElementOf(target), i = 0; a && i < WRAPPER_LEVELS; a = parentElementOf(a), i++) {
    if (tag(a) === 'body' || tag(a) === 'html' || a.getElementsByTagName('*').length > SCOPE_MAX) break;
    scope = a;
  }
  // Only what could be a row matters, and rowsIn checks just those for being shown.
  return new Set(rowsIn([scope], zones, () => '', undefined, true).map((r) => r.el));
}

function outermost(els: Element[]): Element[] {
  const set = new Set(els);
  return els.filter((e) => {
    for (let p = parentElementOf(e); p; p = parentElementOf(p)) if (set.has(p)) return false;
    return true;
  });
}

/** A container the widget points at; a zero-size accessibility list stands for its rendered box. */
export function renderedContainer(c: Element): Element {
  // A closed list (not rendered at all) stays itself: nothing to pick in it yet.
  if (!isVisible(c) && !c.checkVisibility?.()) return c;
  let n: Element | null = c;
  for (let i = 0; n && i < 3 && tag(n) !== 'body' && tag(n) !== 'html'; i++, n = parentElementOf(n)) if (isShown(n)) return n;
  return c;
}

/** Pickable rows inside the containers, in document order, deduplicated. */
export function rowsIn(containers: Element[], zones: Zones, labelOf: (el: Element) => string, trigger?: Element, bothKinds = false): Row[] {
  const out = new Map<Element, Row>();
  const isTrigger = (e: Element) => !!trigger && e.contains(trigger);
  for (const c of outermost(containers)) {
    const aria = [...(c.matches(OPTION_ROLES) ? [c] : []), ...c.querySelectorAll(OPTION_ROLES)].filter((o) => !isTrigger(o) && isShown(o) && !zones.inside(o));
    for (const o of aria) out.set(o, { el: o, label: labelOf(o) });
    // Role-less rows, unless this list has rendered ARIA options (then those are the rows).
    if (aria.length && !bothKinds) continue;
    const win = winOf(c);
    const pointer = (e: Element) => win.getComputedStyle(e).cursor === 'pointer';
    for (const e of c.querySelectorAll('*')) {
      const up = parentElementOf(e);
      const isRow = tag(e) === 'li' || (pointer(e) && !(up && pointer(up) && c.contains(up)));
      if (!isRow || isTrigger(e) || [...out.keys()].some((k) => k.contains(e)) || zones.inside(e)) continue;
      // A deny zone's words are never a row's label (nor is a row inside one a choice).
      const text = norm(zones.textOutside(e, ROW_TEXT_MAX * 4));
      if (!text || text.length > ROW_TEXT_MAX || !isShown(e)) continue;
      if (tag(e) === 'li' && e.querySelector('li')) continue; // a nested list's parent item
      out.set(e, { el: e, label: text });
    }
    // A list of like items with no cursor of their own (classless divs under one delegated
    // listener, or inheriting the box's pointer): each item is a row, as the map lists it.
    for (const list of [c, ...c.querySelectorAll('*')]) {
      if (list.childElementCount < 2 || zones.inside(list) || !likeItems(list)) continue;
      for (const e of Array.from(list.children)) {
        if (out.has(e) || isTrigger(e) || [...out.keys()].some((k) => k.contains(e) || e.contains(k)) || zones.inside(e)) continue;
        const text = norm(zones.textOutside(e, ROW_TEXT_MAX * 4));
        if (text && text.length <= ROW_TEXT_MAX && isShown(e)) out.set(e, { el: e, label: text });
      }
    }
  }
  return [...out.values()].sort((a, b) => (a.el.compareDocumentPosition(b.el) & 2 ? 1 : -1));
}

/** The element that holds the rows and has more of them than it shows. */
export function listScroller(rows: Row[]): Element | undefined {
  const first = rows[0]?.el;
  for (let n = first ? parentElementOf(first) : undefined; n && tag(n) !== 'body'; n = parentElementOf(n)) {
    if (n.scrollHeight > n.clientHeight + 1 && rows.every((r) => n!.contains(r.el))) return n;
  }
  return undefined;
}

/**
 * Scrolls by wheel, as a user's wheel over it would: a `wheel` event first (virtualised lists
 * hide their overflow and move themselves on wheel); if the page did not take it, the native
 * scroll. True when the element or its content moved.
 */
export async function wheelScroll(el: Element, deltaY: number, deltaX = 0): Promise<boolean> {
  const win = winOf(el);
  const r = el.getBoundingClientRect();
  const before = el.scrollTop + el.scrollLeft * 1e6;
  const firstChild = el.firstElementChild?.getBoundingClientRect();
  const taken = !el.dispatchEvent(
    new win.WheelEvent('wheel', {
      bubbles: true,
      cancelable: true,
      composed: true,
      deltaX,
      deltaY,
      deltaMode: 0,
      clientX: r.left + r.width / 2,
      clientY: r.top + r.height / 2,
      view: win,
    }),
  );
  if (!taken) el.scrollBy({ top: deltaY, left: deltaX, behavior: 'instant' as ScrollBehavior });
  // Wheel handlers commonly apply the offset on the next frame.
  await nextFrame(win);
  await nextFrame(win);
  const after = el.firstElementChild?.getBoundingClientRect();
  return el.scrollTop + el.scrollLeft * 1e6 !== before || (!!firstChild && !!after && (firstChild.top !== after.top || firstChild.left !== after.left));
}
