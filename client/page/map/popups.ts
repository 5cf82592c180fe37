/**
 * Suggestion lists: an autocomplete popup is usually rendered at the end of <body>, far from its
 * field in document order. Its items are moved right after the field they belong to — the list
 * the field names (aria-controls / aria-owns), else, for a focused or expanded field, the
 * positioned box that opens just below it — and read as options.
 */
import { flatContains } from '../dom/flat-tree';
import type { ElementItem, Item } from './walk';
import { attrOf, ownerDocumentOf, parentElementOf, hasAttrOf } from '../dom/proto';

const TEXT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel']);
const FIELD_ROLES = new Set(['combobox', 'searchbox', 'textbox']);
/** How far below the field's bottom edge a popup may open (CSS px). */
const GAP = 48;

function isTextField(el: Element): boolean {
  const tag = el.localName;
  if (tag === 'input') return TEXT_TYPES.has((el as HTMLInputElement).type);
  if (tag === 'textarea') return true;
  const role = attrOf(el, 'role');
  return !!role && FIELD_ROLES.has(role);
}

/**
 * The list a field names by aria-controls / aria-owns — only for a field that says it has a
 * popup (a combobox, autocomplete): a filter box may name the whole results table it controls.
 */
function linkedPopup(field: Element): Element | null {
  const ids = attrOf(field, 'aria-controls') || attrOf(field, 'aria-owns');
  if (!ids) return null;
  const popupField =
    attrOf(field, 'role') === 'combobox' || hasAttrOf(field, 'aria-autocomplete') || hasAttrOf(field, 'aria-haspopup') || hasAttrOf(field, 'aria-expanded');
  if (!popupField) return null;
  const root = field.getRootNode() as Document | ShadowRoot;
  if (typeof root.getElementById !== 'function') return null;
  for (const id of ids.split(/\s+/)) {
    const el = id ? root.getElementById(id) : null;
    if (el) return el;
  }
  return null;
}

/** The absolutely/fixed positioned box whose top sits just under the field, holding a target. */
function popupBelow(field: ElementItem, els: readonly ElementItem[]): Element | null {
  const f = field.rect;
  const bottom = f.y + f.height;
  for (const it of els) {
    if (it.order <= field.order || it.clippedBy) continue;
    const r = it.rect;
    if (r.y < bottom - 4 || r.y > bottom + GAP || r.x >= f.x + f.width || r.x + r.width <= f.x) continue;
    for (let n: Element | null = it.el, i = 0; n && i < 6 && n.localName !== 'body'; n = parentElementOf(n), i++) {
      const cs = ownerDocumentOf(n).defaultView?.getComputedStyle(n);
      if (!cs || (cs.position !== 'absolute' && cs.position !== 'fixed')) continue;
      const top = n.getBoundingClientRect().y + (it.frame?.dy ?? 0);
      if (top >= bottom - 4 && top <= bottom + GAP && !n.contains(field.el)) return n;
      break;
    }
  }
  return null;
}

/**
 * Moves the items of each field's open suggestion list right after the field (mutating their
 * order and groups; `items` is re-sorted) and returns the element items to show as options.
 */
export function attachPopups(items: Item[], focused: Element | null): Set<ElementItem> {
  const options = new Set<ElementItem>();
  const els = items.filter((it): it is ElementItem => it.kind === 'el');
  let moved = false;
  for (const field of els) {
    // Fields are native controls or ARIA widgets; most items (links, buttons) are ruled out by tag.
    if (field.clippedBy || (field.reason !== 'native' && field.reason !== 'role') || !isTextField(field.el)) continue;
    let popup = linkedPopup(field.el);
    if (!popup && (field.el === focused || attrOf(field.el, 'aria-expanded') === 'true')) popup = popupBelow(field, els);
    if (!popup || flatContains(popup, field.el)) continue;
    let k = 0;
    for (const it of items) {
      if (it === field || k >= 1000 || !flatContains(popup, it.el)) continue;
      // Orders stay unique: the field's own plus a fraction, before the next integer.
      it.order = field.order + ++k / 1024;
      it.groups = field.groups;
      if (it.kind === 'el' && it.reason !== 'scroll') options.add(it);
    }
    if (k) moved = true;
  }
  if (moved) items.sort((a, b) => a.order - b.order);
  return options;
}
