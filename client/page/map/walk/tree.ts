/**
 * Trees built without ARIA (file trees, nested menus), as others build them: nested lists
 * (`li` holding a `ul` of `li`), or nested elements sharing a class (`.node` holding a group of
 * `.node`), the toggle an icon, a `::before` glyph or the row itself, and often one click
 * listener on the tree or `cursor:pointer` on the whole of it. Inside such a clickable tree,
 * each row — a node's own line before its nested group, or a leaf's — is a target of its own
 * at every depth, named by its own line (not its children's) and read as expanded or collapsed
 * from its group. Reads only the DOM around the element; the walk calls it for elements
 * inside a clickable only.
 */

import { firstClass } from './first-class';
import { parentElementOf, nodeTypeOf, nextSiblingOf, firstChildOf } from '../../dom/proto';

/** A tree row: a node's (`group` is its nested group) or a leaf's (`group` null). */
export interface TreeRow {
  group: Element | null;
  /** The element is the node itself (its line is its own text, not a child element): it is named by that line only. */
  ownLine: boolean;
}

const SHORT_LINE = 80;
/** A tree's top level is told by a sibling that is a node among its first few. */
const MAX_SIBLINGS = 50;

/**
 * The group of like items a node holds: a `ul`/`ol` of `li` in an `li`; or a child holding
 * elements of the node's first class that is hidden (collapsed) or indented (nested layouts
 * sharing a utility class are neither).
 */
export function nestedGroup(node: Element): Element | null {
  const li = node.localName === 'li';
  const cls = li ? '' : firstClass(node);
  if (!li && !cls) return null;
  for (let c = node.firstElementChild; c; c = c.nextElementSibling) {
    const first = c.firstElementChild;
    if (!first) continue;
    if (li) {
      if ((c.localName === 'ul' || c.localName === 'ol') && first.localName === 'li') return c;
    } else if (first.classList.contains(cls) && (hidden(c) || indented(first, node))) return c;
  }
  return null;
}

function hidden(el: Element): boolean {
  return el.getClientRects().length === 0;
}

function indented(item: Element, node: Element): boolean {
  return item.getBoundingClientRect().left > node.getBoundingClientRect().left + 4;
}

/** The item sits in a tree: its parent is a node's nested group, or a sibling item is a node. */
function inTree(item: Element): boolean {
  const parent = parentElementOf(item);
  if (!parent) return false;
  const node = parentElementOf(parent);
  if (node && nestedGroup(node) === parent) return true;
  let n = 0;
  for (let s = parent.firstElementChild; s && n < MAX_SIBLINGS; s = s.nextElementSibling, n++) if (s !== item && nestedGroup(s)) return true;
  return false;
}

/** The first child element with text: an item's row element (null when its line is its own text). */
function rowElement(item: Element, group: Element | null): Element | null {
  for (let c = firstChildOf(item); c && c !== group; c = nextSiblingOf(c)) {
    if (nodeTypeOf(c) === 3 && (c as Text).data.trim()) return null;
    if (nodeTypeOf(c) === 1 && ((c as Element).textContent ?? '').trim()) return c as Element;
  }
  return null;
}

/** The element's line: its text without its nested group, whitespace collapsed. */
export function ownLine(el: Element, group: Element | null, textOf: (el: Element) => string): string {
  let t = '';
  for (let c = firstChildOf(el); c; c = nextSiblingOf(c)) {
    if (c === group) continue;
    if (nodeTypeOf(c) === 3) t += (c as Text).data;
    else if (nodeTypeOf(c) === 1) t += ` ${textOf(c as Element)} `;
  }
  return t.replace(/\s+/g, ' ').trim();
}

const shortText = (s: string): boolean => s.length > 0 && s.length <= SHORT_LINE;

/** The element is a row of a tree (see the module comment), or null. */
export function treeRow(el: Element, textOf: (el: Element) => string): TreeRow | null {
  const parent = parentElementOf(el);
  if (!parent) return null;
  // The row element of a node: before the node's group, the node's first element with text.
  const parentGroup = nestedGroup(parent);
  if (parentGroup && parentGroup !== el && rowElement(parent, parentGroup) === el) {
    return shortText(textOf(el).trim()) ? { group: parentGroup, ownLine: false } : null;
  }
  // A node whose line is its own text (an li with the folder's name, the caret its ::before).
  const group = nestedGroup(el);
  if (group) return !rowElement(el, group) && shortText(ownLine(el, group, textOf)) ? { group, ownLine: true } : null;
  // A leaf: its own text in a tree's group, or the row element of such a leaf.
  if (el.childElementCount <= 4 && inTree(el) && !rowElement(el, null)) return shortText(textOf(el).trim()) ? { group: null, ownLine: false } : null;
  if (!nestedGroup(parent) && inTree(parent) && rowElement(parent, null) === el) return shortText(textOf(el).trim()) ? { group: null, ownLine: false } : null;
  return null;
}
