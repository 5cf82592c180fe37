import type { Zones } from '../settings';
import { parentElementOf, nodeTypeOf, ownerDocumentOf } from '../dom/proto';
/**
 * The text a form field sits by when nothing links them: "Name" right before an input with no
 * `for` and no wrapping label, a table cell or a flex cell to the left, a line above, the text
 * after a checkbox, the "Choose a file" under a transparent file input laid over it. A person
 * reads these as the field's label; the accessible name (accname) does not, so this is never a
 * name — the map prints it as a hint (`~after "Name"`) and only for a field with no name.
 *
 * Found by layout, near the field: text nodes of the field's close ancestors (up to
 * LEVELS up), outside deny zones, other controls and labels of other controls, whose box lies
 * left of the field on its line, just above it, over it, or (checkboxes, radios, switches)
 * right after it. The nearest wins; the first level with any candidate decides.
 */

const LEVELS = 3;
const MAX_TEXT = 60;
/** How far (px) a label may sit: left of the field on its line, above it, right of a checkbox. */
const LEFT_GAP = 240;
const ABOVE_GAP = 40;
const RIGHT_GAP = 40;
const FIELD_TYPES_WITHOUT_LABEL = new Set(['hidden', 'submit', 'button', 'reset', 'image']);
const CHECKABLE = new Set(['checkbox', 'radio', 'switch']);
const FIELD_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'listbox', 'spinbutton', 'slider', 'checkbox', 'radio', 'switch']);
/** Text inside these is their own content, not a label of a field beside them. */
const NOT_LABEL = 'input,select,textarea,button,a[href],option,script,style,[role=button],[role=link],[role=option]';

export type NearWhere = 'after' | 'before' | 'over';

export interface NearLabel {
  text: string;
  /** The field's place by the text: after it (left or above), before it (right), over it. */
  where: NearWhere;
}

/** A field that a label names: text fields, selects, checkable inputs, their ARIA forms. */
export function isLabelableField(el: Element, role: string): boolean {
  const tag = el.localName;
  if (tag === 'input') return !FIELD_TYPES_WITHOUT_LABEL.has((el as HTMLInputElement).type);
  return tag === 'select' || tag === 'textarea' || FIELD_ROLES.has(role);
}

/** The nearest unlinked text that labels `el` by layout, or null. */
export function nearLabel(el: Element, role: string, zones: Zones): NearLabel | null {
  const box = el.getBoundingClientRect();
  if (box.width < 1 || box.height < 1) return null;
  const checkable =
    CHECKABLE.has(role) || (el.localName === 'input' && ((el as HTMLInputElement).type === 'checkbox' || (el as HTMLInputElement).type === 'radio'));
  let scope = parentElementOf(el);
  for (let level = 0; scope && level < LEVELS; level++, scope = parentElementOf(scope)) {
    if (zones.excluded(scope) || scope.localName === 'body' || scope.localName === 'html') break;
    const found = nearestIn(scope, el, box, checkable, zones);
    if (found) return found;
  }
  return null;
}

interface Candidate {
  node: Text;
  where: NearWhere;
  /** Lower is nearer; the kind of place weighs in (over < beside < above). */
  score: number;
}

function nearestIn(scope: Element, field: Element, box: DOMRect, checkable: boolean, zones: Zones): NearLabel | null {
  const doc = ownerDocumentOf(scope);
  const walker = doc.createTreeWalker(scope, 1 | 4, {
    acceptNode: (n) => {
      if (nodeTypeOf(n) === 3) return (n as Text).data.trim() ? 1 : 3;
      const e = n as Element;
      if (e === field || zones.excluded(e) || e.matches(NOT_LABEL)) return 2;
      // A label of another control names that control.
      if (e.localName === 'label') {
        const c = (e as HTMLLabelElement).control;
        if (c && c !== field) return 2;
      }
      return 3;
    },
  });
  const range = doc.createRange();
  let best: Candidate | null = null;
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (nodeTypeOf(n) !== 3) continue;
    const t = n as Text;
    range.selectNodeContents(t);
    const r = range.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    const c = place(t, r, box, checkable);
    if (c && (!best || c.score < best.score)) best = c;
  }
  if (!best) return null;
  const text = labelText(best.node, scope, field, zones);
  return text ? { text, where: best.where } : null;
}

/** Where the text's box `r` lies by the field's box, if it may label it. */
function place(node: Text, r: DOMRect, box: DOMRect, checkable: boolean): Candidate | null {
  const cx = r.left + r.width / 2;
  const cy = r.top + r.height / 2;
  if (cx >= box.left && cx <= box.right && cy >= box.top && cy <= box.bottom) return { node, where: 'over', score: 0 };
  const sameLine = r.top < box.bottom && r.bottom > box.top;
  if (sameLine && r.right <= box.left + 2 && box.left - r.right <= LEFT_GAP) return { node, where: 'after', score: box.left - r.right + (checkable ? 100 : 0) };
  if (sameLine && r.left >= box.right - 2 && r.left - box.right <= RIGHT_GAP)
    return { node, where: 'before', score: r.left - box.right + (checkable ? 0 : 200) };
  if (r.bottom <= box.top + 2 && box.top - r.bottom <= ABOVE_GAP && r.left < box.right && r.right > box.left - 20)
    return { node, where: 'after', score: 50 + (box.top - r.bottom) };
  return null;
}

/** The text and its close inline kin ("First <b>name</b>"), without a trailing colon or star. */
function labelText(node: Text, scope: Element, field: Element, zones: Zones): string {
  let text = (node.data ?? '').replace(/\s+/g, ' ').trim();
  for (let n = parentElementOf(node); n && n !== scope; n = parentElementOf(n)) {
    if (n.contains(field) || n.querySelector(NOT_LABEL)) break;
    const t = zones
      .textOutside(n, MAX_TEXT + 1)
      .replace(/\s+/g, ' ')
      .trim();
    if (t.length > MAX_TEXT) break;
    text = t;
  }
  text = text.replace(/[\s:：*]+$/, '').trim();
  return text.length > MAX_TEXT ? '' : text;
}
