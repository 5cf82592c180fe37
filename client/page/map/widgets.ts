/**
 * Custom selects that hide the native `<select>` and draw a stand-in (select2, Choices.js,
 * chosen, jQuery UI selectmenu, the selectric pattern, Tom Select, nice-select…).
 *
 * The page's `<label for>` points at the hidden select, so the visible stand-in has no name of
 * its own (or only its current text). The stand-in is found next to the select: the select's
 * own widget-role ancestor (Choices wraps it), else the first visible sibling that follows the
 * select or one of its close ancestors (select2, chosen, selectric insert it right after). Inside
 * that sibling the trigger is, in order: a combobox/popup element, a focusable one, the
 * outermost `cursor:pointer` one. The stand-in then reads as a combobox named like the select,
 * whose value is built from the select's selected options.
 *
 * Reads only; one index per root node and describer (that is, per map call or per action), the
 * document's shared while the page has not changed.
 */
import type { Describer } from '../names/describe';
import type { ElementStates } from '../page-types';
import { attrOf, hasAttrOf, parentElementOf, ownerDocumentOf, nodeTypeOf } from '../dom/proto';
import { watchChanges, type ChangeWatch } from './walk-reuse';

/** A visible stand-in and the hidden native select it speaks for. */
export interface StandIn {
  trigger: Element;
  select: HTMLSelectElement;
}

/** How far up from the select the stand-in may sit (selectric: select > hide-wrapper > widget). */
const LEVELS = 3;
const WIDGET_ROLES = new Set(['combobox', 'listbox', 'button']);
const POPUP = '[role=combobox],[aria-haspopup]:not([aria-haspopup=false])';
const FOCUSABLE = 'a,button,input:not([type=hidden]),textarea,[tabindex]:not([tabindex="-1"])';

const indexes = new WeakMap<Describer, WeakMap<Node, Map<Element, HTMLSelectElement>>>();

function styleOf(el: Element): CSSStyleDeclaration | undefined {
  return ownerDocumentOf(el).defaultView?.getComputedStyle(el);
}

/** Rendered with a box a reader can see (not display:none, visibility:hidden or 0 opacity). */
function shows(el: Element): boolean {
  const r = el.getBoundingClientRect();
  if (r.width < 2 || r.height < 2) return false;
  return el.checkVisibility?.({ opacityProperty: true, visibilityProperty: true }) ?? true;
}

/**
 * The select alone is out of sight — not rendered, 1px-clipped, or in a zero-size clipping
 * wrapper — while the place it sits in is shown. A select inside a hidden section is just
 * hidden, not replaced.
 */
function isHiddenSelect(sel: Element): boolean {
  const parent = parentElementOf(sel);
  if (!parent) return false;
  if (!shows(sel)) return shows(parent) || clippedToNothing(parent);
  for (let n: Element | null = parent, i = 0; n && i < LEVELS; i++, n = parentElementOf(n)) {
    if (clippedToNothing(n)) {
      const up = parentElementOf(n);
      return !!up && shows(up);
    }
  }
  return false;
}

/** A zero-size box that hides its overflow (the selectric pattern's hiding wrapper). */
function clippedToNothing(el: Element): boolean {
  const r = el.getBoundingClientRect();
  return (r.width < 2 || r.height < 2) && styleOf(el)?.overflow !== 'visible' && el.checkVisibility?.() !== false;
}

function roleOf(el: Element, d: Describer): string {
  try {
    return d.role(el);
  } catch {
    return '';
  }
}

/** The trigger inside a stand-in subtree: popup element, else focusable, else outermost pointer. */
function triggerIn(root: Element): Element | undefined {
  if (root.matches(POPUP) || root.matches(FOCUSABLE)) return root;
  const visible = (sel: string) => [...root.querySelectorAll(sel)].find((e) => shows(e) && !e.closest('select'));
  const found = visible(POPUP) ?? visible(FOCUSABLE);
  if (found) return found;
  if (styleOf(root)?.cursor === 'pointer') return outermostPointer(root);
  for (const e of root.querySelectorAll('*')) if (styleOf(e)?.cursor === 'pointer' && shows(e)) return e;
  return undefined;
}

/**
 * The map lists the outermost `cursor:pointer` element of a cluster: a pointer stand-in inside a
 * pointer wrapper that holds only this select (Selectric's) is that wrapper.
 */
function outermostPointer(el: Element): Element {
  for (let up = parentElementOf(el), i = 0; up && i < LEVELS; i++, up = parentElementOf(up)) {
    if (up.localName === 'body' || styleOf(up)?.cursor !== 'pointer' || up.querySelectorAll('select').length !== 1) break;
    el = up;
  }
  return el;
}

/**
 * A following sibling is taken for the select's stand-in only when it shows so: a popup role,
 * the select's current label or placeholder, or (an empty multi-select) a search field. A hidden
 * select followed by an unrelated button stays apart from it.
 */
function looksLikeStandIn(root: Element, sel: HTMLSelectElement): boolean {
  if (root.matches(POPUP) || root.querySelector(POPUP)) return true;
  const inputs = [...root.querySelectorAll('input')];
  const text = [root.textContent ?? '', ...inputs.map((i) => `${i.value} ${i.placeholder}`)].join(' ').replace(/\s+/g, ' ');
  const shown = [...selectedLabels(sel), attrOf(sel, 'data-placeholder') ?? ''].filter(Boolean);
  if (shown.some((l) => text.includes(l))) return true;
  return sel.multiple && sel.selectedOptions.length === 0 && inputs.length > 0;
}

/** The stand-in for one hidden select, if it has one. */
function standInOf(sel: HTMLSelectElement, d: Describer): Element | undefined {
  // Choices.js and similar wrap the select in their own widget element.
  let a: Element | null = parentElementOf(sel);
  for (let i = 0; a && i < LEVELS; i++, a = parentElementOf(a)) {
    if ((WIDGET_ROLES.has(roleOf(a, d)) || a.matches(POPUP)) && shows(a)) return a;
  }
  // Otherwise the widget follows the select (or the select's hiding wrapper).
  let from: Element | null = sel;
  for (let i = 0; from && i < LEVELS; i++, from = parentElementOf(from)) {
    for (let s = from.nextElementSibling; s; s = s.nextElementSibling) {
      if (s.localName === 'label' || s.localName === 'select' || s.querySelector('select,label')) return undefined;
      if (!shows(s)) continue;
      return looksLikeStandIn(s, sel) ? triggerIn(s) : undefined;
    }
    if (parentElementOf(from)?.querySelectorAll('select').length !== 1) return undefined;
  }
  return undefined;
}

/**
 * Each document's index (the page's, a same-origin frame's), shared by the describers that
 * follow (a step's map, its action, its recording) while it has not changed since it was built:
 * the walk's change watch.
 */
const shared = new WeakMap<Document, { watch: ChangeWatch; idx: Map<Element, HTMLSelectElement> }>();

function indexFor(root: Node, d: Describer): Map<Element, HTMLSelectElement> {
  let perRoot = indexes.get(d);
  if (!perRoot) indexes.set(d, (perRoot = new WeakMap()));
  let idx = perRoot.get(root);
  if (idx) return idx;
  // Only a document's: what changes inside a shadow root is not watched.
  const doc = nodeTypeOf(root) === 9 ? (root as Document) : null;
  const kept = doc && shared.get(doc);
  if (kept && !kept.watch.changed()) idx = kept.idx;
  else {
    idx = new Map();
    for (const sel of (root as ParentNode).querySelectorAll('select')) {
      if (!isHiddenSelect(sel)) continue;
      const t = standInOf(sel, d);
      if (t && !idx.has(t)) idx.set(t, sel);
    }
    if (doc?.defaultView) {
      if (kept) kept.watch.stop();
      shared.set(doc, { watch: watchChanges(doc), idx });
    }
  }
  perRoot.set(root, idx);
  return idx;
}

/** The hidden select `el` stands in for, if `el` is a custom select's visible trigger. */
export function standInFor(el: Element, d: Describer): StandIn | undefined {
  const sel = indexFor(el.getRootNode(), d).get(el);
  return sel ? { trigger: el, select: sel } : undefined;
}

/** Labels of the select's selected options, as a reader sees them in the widget. */
export function selectedLabels(sel: HTMLSelectElement): string[] {
  return [...sel.selectedOptions].map((o) => (o.label || o.text).replace(/\s+/g, ' ').trim()).filter(Boolean);
}

/** The select's name: its labels (accname), else a label pointing at the stand-in, else the stand-in's own label. */
export function standInName(s: StandIn, d: Describer): string {
  const own = d.name(s.select);
  if (own) return own;
  const id = s.trigger.id;
  if (id) {
    const root = s.trigger.getRootNode() as ParentNode;
    const label = root.querySelector(`label[for="${CSS.escape(id)}"]`);
    const text = label && !d.settings.zones.inside(label) ? d.settings.zones.textOutside(label, 500).replace(/\s+/g, ' ').trim() : '';
    if (text) return text;
  }
  const labelled = hasAttrOf(s.trigger, 'aria-label') ? d.name(s.trigger) : '';
  if (labelled && !selectedLabels(s.select).includes(labelled)) return labelled;
  return attrOf(s.select, 'data-placeholder') ?? '';
}

/** Role and name a stand-in reads as: a combobox named like its select. */
export function describeStandIn(el: Element, d: Describer): { role: string; name: string } | undefined {
  const s = standInFor(el, d);
  return s ? { role: 'combobox', name: standInName(s, d) } : undefined;
}

/**
 * For the map: when `el` stands in for a hidden select, its role and name become the select's,
 * and `states` get the select's current value (the stand-in's own text is chips, arrows, "×").
 */
export function applyStandIn(el: Element, d: Describer, states: ElementStates): { role: string; name: string } | undefined {
  const s = standInFor(el, d);
  if (!s) return undefined;
  const value = selectedLabels(s.select).join(', ');
  if (value) states.value = value;
  else delete states.value;
  delete states.options;
  delete states.readonly;
  delete states.selected;
  if (s.select.disabled) states.disabled = true;
  return { role: 'combobox', name: standInName(s, d) };
}

/** A describer that reads stand-ins as their selects, for actions (ref checks, messages). */
export function withStandIns(d: Describer): Describer {
  const role = (el: Element) => describeStandIn(el, d)?.role ?? d.role(el);
  const name = (el: Element) => describeStandIn(el, d)?.name ?? d.name(el);
  return { ...d, role, name, describe: (el) => describeStandIn(el, d) ?? d.describe(el) };
}
