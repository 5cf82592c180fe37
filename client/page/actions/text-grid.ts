/**
 * Tables and grids for `read`: one line per row, each cell with its column's header ("Tu: 17",
 * "Price: $5"), so that a calendar or a data grid keeps which column a cell belongs to (empty
 * leading cells and virtual rows no longer shift it). Headers come from the markup where there
 * is any — `<th>`/`<thead>`, ARIA `columnheader`/`rowheader` (rows split in parts, as pinned
 * columns do, join by `aria-rowindex`) — and otherwise from layout: in a CSS grid or a wrapping
 * flex row of short items, a first row styled apart from the rest, or a row of short labels
 * just above whose boxes line up with the columns (a calendar's weekday strip).
 *
 * Tables without any header and grids of long items read as before (text.ts).
 */
import { winOf } from './dom';
import type { Zones } from '../settings';
import { parentElementOf, nodeTypeOf, ownerDocumentOf, attrOf } from '../dom/proto';

export const TABLE_ROLES = new Set(['table', 'grid', 'treegrid']);
const CELL_SELECTOR = '[role=cell],[role=gridcell],[role=columnheader],[role=rowheader]';
/** A grid item longer than this (or on several lines) is content, not a cell: no row lines. */
const ITEM_MAX = 60;
/** Raw text beyond which an item is not even read as a cell (layout grids bail out cheaply). */
const ITEM_RAW_MAX = 400;
/** A header label is at most this long. */
const HEADER_MAX = 24;
const MAX_ITEMS = 3000;

/** An element's readable text (text.ts), lines kept. */
export type TextOf = (el: Element) => string;

interface Cell {
  el: Element;
  col: number;
  span: number;
  header: 'col' | 'row' | null;
}
interface Row {
  el: Element;
  cells: Cell[];
  head: boolean;
}

/**
 * A table's lines (`<table>` or role table/grid/treegrid), or null when it has no column
 * header (then it reads as plain rows of cells).
 */
export function tableLines(table: Element, textOf: TextOf, zones: Zones, rendered?: (row: Element) => boolean): string[] | null {
  const rows = table.localName === 'table' ? htmlRows(table as HTMLTableElement) : ariaRows(table);
  const known = new Map<Element, string>();
  const text = (el: Element): string => {
    let t = known.get(el);
    if (t === undefined) known.set(el, (t = textOf(el).replace(/\n+/g, ' ').trim()));
    return t;
  };
  const shownRows = rows.filter((r) => shown(r.el, table, zones, rendered));
  const heads = new Map<number, string>();
  for (const row of shownRows) {
    if (!row.head) continue;
    for (const c of row.cells) {
      const t = text(c.el);
      if (!t) continue;
      for (let k = c.col; k < c.col + c.span; k++) {
        const prev = heads.get(k);
        heads.set(k, prev && prev !== t ? `${prev} ${t}` : t);
      }
    }
  }
  if (!heads.size) return null;
  const lines: string[] = [];
  const caption = table.localName === 'table' ? (table as HTMLTableElement).caption : null;
  if (caption) {
    const t = text(caption);
    if (t) lines.push(t);
  }
  for (const row of shownRows) {
    const parts: string[] = [];
    for (const c of row.cells) {
      const t = text(c.el);
      if (!t) continue;
      let h = '';
      if (!row.head && !c.header) for (let k = c.col; k < c.col + c.span && !h; k++) h = heads.get(k) ?? '';
      parts.push(h && h !== t ? `${h}: ${t}` : t);
    }
    if (parts.length) lines.push(parts.join(' | '));
  }
  return lines;
}

/** Rows of a `<table>` with each cell's column (colspan and rowspan counted). */
function htmlRows(table: HTMLTableElement): Row[] {
  const out: Row[] = [];
  const taken = new Map<number, Set<number>>();
  let seenData = false;
  Array.from(table.rows).forEach((tr, r) => {
    const used = taken.get(r);
    const cells: Cell[] = [];
    let col = 0;
    for (const td of Array.from(tr.cells)) {
      while (used?.has(col)) col++;
      const span = clampSpan(td.colSpan);
      for (let k = 1; k < clampSpan(td.rowSpan); k++) {
        let s = taken.get(r + k);
        if (!s) taken.set(r + k, (s = new Set()));
        for (let c = col; c < col + span; c++) s.add(c);
      }
      cells.push({ el: td, col, span, header: td.localName === 'th' ? 'col' : null });
      col += span;
    }
    const head = parentElementOf(tr)?.localName === 'thead' || (!seenData && cells.length > 0 && cells.every((c) => c.header));
    if (head) for (const c of cells) c.header = 'col';
    else {
      seenData = true;
      for (const c of cells) if (c.header || attrOf(c.el, 'scope') === 'row') c.header = 'row';
    }
    out.push({ el: tr, cells, head });
  });
  return out;
}

/** Rows of an ARIA table or grid: its own rows (not a nested table's), parts of one row joined. */
function ariaRows(root: Element): Row[] {
  const owner = (n: Element): Element | null => {
    for (let p = parentElementOf(n); p; p = parentElementOf(p)) if (p === root || p.localName === 'table' || TABLE_ROLES.has(attrOf(p, 'role') ?? '')) return p;
    return null;
  };
  const rows: Row[] = [];
  const byIndex = new Map<string, Row>();
  for (const tr of Array.from(root.querySelectorAll('[role=row]'))) {
    if (owner(tr) !== root) continue;
    let col = 0;
    const cells: Cell[] = [];
    for (const c of Array.from(tr.querySelectorAll(CELL_SELECTOR))) {
      if (c.closest('[role=row]') !== tr) continue;
      const idx = Number(attrOf(c, 'aria-colindex'));
      if (idx >= 1) col = idx - 1;
      const span = clampSpan(Number(attrOf(c, 'aria-colspan')));
      const role = attrOf(c, 'role');
      cells.push({ el: c, col, span, header: role === 'columnheader' ? 'col' : role === 'rowheader' ? 'row' : null });
      col += span;
    }
    const index = attrOf(tr, 'aria-rowindex');
    const same = index ? byIndex.get(index) : undefined;
    if (same) {
      same.cells.push(...cells);
      same.cells.sort((a, b) => a.col - b.col);
      same.head &&= cells.every((c) => c.header === 'col');
      continue;
    }
    const row: Row = { el: tr, cells, head: cells.length > 0 && cells.every((c) => c.header === 'col') };
    if (index) byIndex.set(index, row);
    rows.push(row);
  }
  return rows;
}

function clampSpan(n: number): number {
  return n >= 1 ? Math.min(Math.floor(n), 100) : 1;
}

/** A row is rendered (`rendered`: in a document with no layout) and lies in no deny zone between it and its table. */
function shown(row: Element, table: Element, zones: Zones, rendered?: (row: Element) => boolean): boolean {
  for (let n: Element | null = row; n && n !== table; n = parentElementOf(n)) if (zones.excluded(n) || rendered?.(n) === false) return false;
  if (rendered) return true;
  const h = row as HTMLElement & { checkVisibility?: () => boolean };
  return typeof h.checkVisibility === 'function' ? h.checkVisibility() : row.getClientRects().length > 0;
}

/** A CSS grid, or a flex row that wraps: its items may form rows and columns. */
export function isGridLike(cs: Pick<CSSStyleDeclaration, 'display' | 'flexWrap' | 'flexDirection'>): boolean {
  const d = cs.display;
  if (d === 'grid' || d === 'inline-grid') return true;
  return (d === 'flex' || d === 'inline-flex') && cs.flexWrap.startsWith('wrap') && cs.flexDirection.startsWith('row');
}

interface Item {
  el: Element;
  rect: DOMRect;
  text: string;
}

/**
 * A grid of short items, one line per visual row; items take their column's header when one
 * is found by markup or layout. Null when an item is long, on several lines, or the items do
 * not form rows of two or more (a layout grid, a stack).
 */
export function gridLines(container: Element, textOf: TextOf, zones: Zones): string[] | null {
  const items = gridItems(container, textOf, ITEM_MAX, zones);
  if (!items) return null;
  const rows = visualRows(items);
  if (!rows.some((r) => r.length > 1)) return null;
  // A wrapping flex row on one line is a row of chips or links, not a grid.
  if (rows.length === 1 && !winOf(container).getComputedStyle(container).display.endsWith('grid')) return null;
  let header: Item[] | null = null;
  let body = rows;
  if (rows.length > 1 && isHeaderRow(rows[0]!, rows.slice(1), zones)) {
    header = rows[0]!;
    body = rows.slice(1);
  } else {
    header = labelsAbove(container, textOf, Math.max(...rows.map((r) => r.length)), zones);
    // Labels that do not line up with the columns are not their headers.
    const labelled = rows.flat().filter((i) => i.text);
    if (header && labelled.filter((i) => columnOf(i, header!)).length < labelled.length * 0.8) header = null;
  }
  const lines: string[] = [];
  if (header && body !== rows)
    lines.push(
      header
        .filter((i) => i.text)
        .map((i) => i.text)
        .join(' | '),
    );
  for (const row of body) {
    const parts = row
      .filter((i) => i.text)
      .map((i) => {
        const h = header ? columnOf(i, header) : '';
        return h && h !== i.text ? `${h}: ${i.text}` : i.text;
      });
    if (parts.length) lines.push(parts.join(' | '));
  }
  return lines;
}

/** The container's items (through display:contents) with box and text; null past `max` chars. */
function gridItems(container: Element, textOf: TextOf, max: number, zones: Zones): Item[] | null {
  const out: Item[] = [];
  const add = (parent: Element, depth: number): boolean => {
    for (let c = parent.firstElementChild; c; c = c.nextElementSibling) {
      if (zones.excluded(c)) continue;
      const cs = winOf(c).getComputedStyle(c);
      if (cs.display === 'none' || cs.position === 'absolute' || cs.position === 'fixed') continue;
      if (cs.display === 'contents') {
        if (depth > 2 || !add(c, depth + 1)) return false;
        continue;
      }
      if ((c.textContent ?? '').length > ITEM_RAW_MAX || out.length >= MAX_ITEMS) return false;
      const rect = c.getBoundingClientRect();
      if (rect.width < 1 || rect.height < 1) continue;
      const text = textOf(c);
      if (text.length > max || text.includes('\n')) return false;
      out.push({ el: c, rect, text });
    }
    return true;
  };
  return add(container, 0) && out.length > 1 ? out : null;
}

/** Items grouped into rows by their boxes' tops, each row left to right. */
function visualRows(items: Item[]): Item[][] {
  const sorted = [...items].sort((a, b) => a.rect.top - b.rect.top || a.rect.left - b.rect.left);
  const rows: Item[][] = [];
  let top = -Infinity;
  let half = 0;
  for (const it of sorted) {
    if (!rows.length || it.rect.top >= top + half) {
      rows.push([it]);
      top = it.rect.top;
      half = it.rect.height / 2;
    } else {
      rows[rows.length - 1]!.push(it);
      half = Math.min(half, it.rect.height / 2);
    }
  }
  for (const r of rows) r.sort((a, b) => a.rect.left - b.rect.left);
  return rows;
}

/**
 * The first row heads the others: its items are header cells by markup, or its labels share a
 * style (weight, size, colour, case) that no item below has.
 */
function isHeaderRow(first: Item[], rest: Item[][], zones: Zones): boolean {
  const labelled = first.filter((i) => i.text);
  if (labelled.length < 2 || labelled.some((i) => i.text.length > HEADER_MAX)) return false;
  if (labelled.every((i) => i.el.localName === 'th' || attrOf(i.el, 'role') === 'columnheader')) return true;
  const sig = styleOf(labelled[0]!.el, zones);
  if (!sig || labelled.some((i) => styleOf(i.el, zones) !== sig)) return false;
  const below = rest.flat().filter((i) => i.text);
  return below.length > 1 && below.every((i) => styleOf(i.el, zones) !== sig);
}

/** The look of an item's first text: weight, size, colour and case. */
function styleOf(el: Element, zones: Zones): string {
  const doc = ownerDocumentOf(el);
  // Text in a deny zone says nothing, not even by its look.
  const walker = doc.createTreeWalker(el, 1 | 4, { acceptNode: (n) => (nodeTypeOf(n) === 1 && zones.excluded(n as Element) ? 2 : 1) });
  let holder: Element | null = null;
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (nodeTypeOf(n) === 3 && (n as Text).data.trim()) {
      holder = parentElementOf(n);
      break;
    }
  }
  if (!holder) return '';
  const cs = winOf(holder).getComputedStyle(holder);
  return `${cs.fontWeight}|${cs.fontSize}|${cs.color}|${cs.textTransform}`;
}

/**
 * A row of short labels right above the grid (its previous sibling, or its parent's when the
 * grid is an only child), at least as many as the grid's widest row, all on one line: a weekday strip
 * drawn apart from the days.
 */
function labelsAbove(container: Element, textOf: TextOf, columns: number, zones: Zones): Item[] | null {
  let n: Element = container;
  let prev: Element | null = null;
  for (let i = 0; i < 3 && n; i++) {
    prev = n.previousElementSibling;
    while (prev && zones.excluded(prev)) prev = prev.previousElementSibling;
    const up = parentElementOf(n);
    if (prev || !up || up.childElementCount !== 1) break;
    n = up;
  }
  for (let i = 0; prev && prev.childElementCount === 1 && i < 3; i++) prev = prev.firstElementChild;
  if (!prev || zones.excluded(prev)) return null;
  const items = gridItems(prev, textOf, HEADER_MAX, zones);
  if (!items || items.length < columns) return null;
  const rows = visualRows(items);
  return rows.length === 1 && items.every((i) => i.text) ? rows[0]! : null;
}

/** The header whose column holds the item's centre (or the nearest, within half a column). */
function columnOf(item: Item, header: Item[]): string {
  const cx = item.rect.left + item.rect.width / 2;
  let best: Item | null = null;
  let dist = Infinity;
  for (const h of header) {
    if (cx >= h.rect.left - 1 && cx <= h.rect.right + 1) return h.text;
    const d = Math.abs(h.rect.left + h.rect.width / 2 - cx);
    if (d < dist) {
      dist = d;
      best = h;
    }
  }
  return best && dist <= Math.max(best.rect.width, item.rect.width) / 2 ? best.text : '';
}
