/**
 * Readable text of a subtree, the way a person sees it: rendered text only (display:none and
 * visibility:hidden skipped), block elements on their own lines, a blank line where the page
 * shows one (`<br><br>`, an editor's empty line, pre-formatted text), side-by-side boxes (inline
 * blocks) apart, table cells separated by " | " — with their column's header where the table
 * has one (text-grid.ts) — image alt text in brackets; and, unlike `innerText`, through open
 * shadow roots, slots and same-origin iframes. Deny zones and the agent's own UI are left out.
 */
import type { PageSettings } from '../settings';
import { isElement, tag, winOf } from './dom';
import { gridLines, isGridLike, tableLines, TABLE_ROLES } from './text-grid';
import { frameDocument } from '../dom/flat-tree';
import { clean } from '../map/fence';
import { openShadowOf, attrOf, nodeTypeOf, nextSiblingOf, firstChildOf } from '../dom/proto';

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'meta', 'link', 'svg', 'canvas', 'object', 'embed', 'audio', 'video', 'map']);
/** Between table cells of the plain path; trimmed at a line's ends (empty edge cells say nothing). */
const CELL = '\u0001';
/** Boxes laid out side by side inside a line: apart, even with no space between them in the source. */
const SIDE_BY_SIDE = new Set(['inline-block', 'inline-flex', 'inline-grid', 'inline-table']);

/** The parts of an element's style the reader uses. */
export type TextStyle = Pick<CSSStyleDeclaration, 'display' | 'visibility' | 'whiteSpace' | 'flexWrap' | 'flexDirection'>;

/** The computed style, in a document the browser lays out. */
const computed = (el: Element): TextStyle => winOf(el).getComputedStyle(el);

/**
 * @param styleOf how an element is styled: computed by default; a document with no layout (one
 *   fetched and parsed apart, read-url.ts) passes the HTML's defaults instead.
 */
export function readableText(root: Element, settings: Pick<PageSettings, 'zones' | 'masks' | 'fence'>, styleOf = computed): string {
  return asPageData(renderedText(root, settings.zones, styleOf), settings);
}

/**
 * Rendered text made fit to hand the model: secrets masked and the page's look-alike markers
 * cleaned (map/fence.ts), on the whole string before `read` cuts it into pages — a secret split
 * at a page's end would not match.
 */
export function asPageData(text: string, { masks, fence }: Pick<PageSettings, 'masks' | 'fence'>): string {
  return clean(masks.text(text), fence);
}

/**
 * The text as rendered, before secrets are masked and the page's look-alike markers cleaned
 * (`readableText` does both): what may be kept while the page stays as it was (read-text.ts).
 * @param inner told of each shadow root and frame document the walk enters.
 */
export function renderedText(root: Element, zones: PageSettings['zones'], styleOf = computed, inner?: (root: ShadowRoot | Document) => void): string {
  let out: string[] = [];

  /** At least `n` line breaks end the text so far (1: a new line; 2: a blank line). */
  const breaks = (n: number): void => {
    let have = 0;
    for (let i = out.length - 1; i >= 0 && have < n; i--) {
      const t = out[i]!;
      if (/[^\s\u0001]/.test(t)) {
        // Text before: count the breaks it already ends with.
        have += (/[\s\u0001]*$/.exec(t)![0].match(/\n/g) ?? []).length;
        break;
      }
      have += (t.match(/\n/g) ?? []).length;
    }
    for (; have < n; have++) out.push('\n');
  };

  /** The text of one element apart (a table cell, a grid item): on one line. */
  const textOf = (el: Element): string => {
    const saved = out;
    out = [];
    walk(el, true, false);
    const s = finish(out).replace(/\n+/g, ' ').trim();
    out = saved;
    return s;
  };

  const walkChildren = (parent: Node, visible: boolean, pre: boolean): void => {
    for (let c = firstChildOf(parent); c; c = nextSiblingOf(c)) walk(c, visible, pre);
  };

  const walk = (node: Node, visible: boolean, pre: boolean): void => {
    if (nodeTypeOf(node) === 3) {
      if (visible) {
        const t = (node as Text).data;
        if (pre) out.push(t.replace(/\r\n?/g, '\n'));
        else if (t.trim()) out.push(t.replace(/\s+/g, ' '));
        else if (t.length) out.push(' ');
      }
      return;
    }
    if (!isElement(node)) return;
    const el = node;
    const t = tag(el);
    // The site's deny zones and our own UI are not the agent's to read.
    if (SKIP.has(t) || zones.excluded(el)) return;
    const cs = styleOf(el);
    const d = cs.display;
    if (d === 'none') return;
    const vis = cs.visibility === 'visible' ? true : cs.visibility === 'hidden' || cs.visibility === 'collapse' ? false : visible;
    if (t === 'br') return void out.push('\n');
    if (t === 'img') {
      const alt = attrOf(el, 'alt')?.trim();
      if (vis && alt) out.push(` [${alt}] `);
      return;
    }
    if (t === 'input' || t === 'textarea' || t === 'select') return;
    const ws = cs.whiteSpace;
    const isPre = ws === 'pre' || ws === 'pre-wrap' || ws === 'pre-line' || ws === 'break-spaces';
    const cell = d === 'table-cell';
    const block = !cell && !d.startsWith('inline') && d !== 'contents';
    const side = SIDE_BY_SIDE.has(d);
    if (block) breaks(1);
    else if (side) out.push(' ');
    if (t === 'iframe' || t === 'frame') {
      // From the frame's root element, so that a zone mark on its <html> counts too.
      const doc = frameDocument(el);
      if (doc) inner?.(doc);
      if (doc?.documentElement) walk(doc.documentElement, true, false);
      breaks(1);
      return;
    }
    // Tables with headers, and grids of short items laid out in rows: one line per row.
    const role = attrOf(el, 'role') ?? '';
    const rows =
      vis && (t === 'table' || TABLE_ROLES.has(role))
        ? tableLines(el, textOf, zones, styleOf === computed ? undefined : (row) => styleOf(row).display !== 'none')
        : vis && isGridLike(cs)
          ? gridLines(el, textOf, zones)
          : null;
    if (rows) {
      breaks(1);
      out.push(rows.join('\n'));
      breaks(1);
      return;
    }
    if (t === 'slot') {
      const assigned = (el as HTMLSlotElement).assignedNodes({ flatten: true });
      if (assigned.length) for (const a of assigned) walk(a, vis, isPre);
      else walkChildren(el, vis, isPre);
    } else if (openShadowOf(el)) {
      const shadow = openShadowOf(el)!;
      inner?.(shadow);
      walkChildren(shadow, vis, isPre);
    } else {
      walkChildren(el, vis, isPre);
    }
    if (cell) out.push(CELL);
    if (block) breaks(1);
    else if (side) out.push(' ');
  };

  walk(root, true, false);
  return finish(out);
}

/** Lines trimmed, cells joined with " | ", at most one blank line in a row, none at the ends. */
function finish(out: readonly string[]): string {
  const lines: string[] = [];
  for (const raw of out.join('').split('\n')) {
    const l = raw
      .replace(/^[\s\u0001]+|[\s\u0001]+$/g, '')
      .replace(/\s*\u0001[\s\u0001]*/g, ' | ')
      .replace(/\s+/g, ' ');
    if (l || (lines.length && lines[lines.length - 1] !== '')) lines.push(l);
  }
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n');
}
