/**
 * `read {url, page?}`: another page of this site, read without leaving this one. Fetched by
 * ../same-origin.ts (GET, the user's cookies, never another origin), parsed with DOMParser into
 * a document that has no window: no script of it runs, nothing it links to loads. Its text goes
 * through the reader `read` uses (text.ts), with the site's deny zones (`data-pagehand="off"`,
 * `init({ deny })`), its redaction (selectors matched in the fetched document) and the run's
 * secrets and marker value applied, then cut into the same pages. A plain text file is read as it
 * is, masked the same way.
 *
 * The document has no layout, so what shows is judged from the HTML itself: the browser's
 * default display of each element, `hidden`, and an inline `display: none` or `visibility:
 * hidden`. What the site hides through its style sheets is read.
 */
import type { PageSettings } from '../settings';
import { fetchSameOrigin } from '../same-origin';
import { clean } from '../map/fence';
import { CHUNK_CHARS, chunkText } from './chunks';
import { ActionError } from './dom';
import { readableText, type TextStyle } from './text';

/** The most text kept of one page (30 pages of `read`). */
const MAX_CHARS = 30 * CHUNK_CHARS;
/** A page that does not answer within this is given up. */
const TIMEOUT_MS = 15_000;

/** Elements laid out inline by the browser's own style sheet (everything else is a block or a table part). */
const INLINE = new Set(
  'a abbr acronym b bdi bdo big cite code data del dfn em font i ins kbd label mark nobr q rp rt ruby s samp small span strike strong sub sup time tt u var wbr'.split(
    ' ',
  ),
);
const INLINE_BLOCK = new Set(['button', 'meter', 'progress', 'output', 'select', 'img']);
const TABLE: Record<string, string> = {
  table: 'table',
  tr: 'table-row',
  td: 'table-cell',
  th: 'table-cell',
  thead: 'table-header-group',
  tbody: 'table-row-group',
  tfoot: 'table-footer-group',
  caption: 'table-caption',
};
const PRE = new Set(['pre', 'listing', 'xmp', 'plaintext', 'textarea']);

/** An element's style as the HTML alone says it (no style sheet applies in a document with no window). */
export function htmlStyle(el: Element): TextStyle {
  const t = el.localName;
  const inline = (el as HTMLElement).style as CSSStyleDeclaration | undefined;
  const closedDialog = t === 'dialog' && !el.hasAttribute('open');
  let display = TABLE[t] ?? (INLINE.has(t) ? 'inline' : INLINE_BLOCK.has(t) ? 'inline-block' : 'block');
  if (el.hasAttribute('hidden') || closedDialog || inline?.display === 'none') display = 'none';
  const v = inline?.visibility;
  return {
    display,
    visibility: v === 'hidden' || v === 'collapse' || v === 'visible' ? v : '',
    whiteSpace: inline?.whiteSpace || (PRE.has(t) ? 'pre' : 'normal'),
    flexWrap: '',
    flexDirection: '',
  };
}

/** The path and query a URL names on this site, for messages. */
const where = (url: string): string => {
  const u = new URL(url);
  return u.pathname + u.search;
};

/** Reads `url` (on this page's origin) as `read` reads a page: its text, page `page` of it. */
export async function readUrl(
  url: string,
  page: number,
  settings: PageSettings,
): Promise<{ message: string; changes: { chunk: { page: number; pages: number } } }> {
  const got = await fetchSameOrigin(url, AbortSignal.timeout(TIMEOUT_MS));
  if (!got.ok) throw new ActionError(`read did not read it: ${got.message}`);
  const { zones, masks, fence } = settings;
  let text: string;
  let title = '';
  if (/html|xml/.test(got.type) || (!got.type && /^\s*</.test(got.text))) {
    const doc = new DOMParser().parseFromString(got.text, got.type === 'application/xhtml+xml' ? 'application/xhtml+xml' : 'text/html');
    const root = doc.body ?? doc.documentElement;
    // Redacted elements are looked for in this document too; the run's secrets and patterns as everywhere.
    const here = { zones, masks: masks.within?.(doc) ?? masks, fence };
    text = zones.inside(doc.documentElement) ? '' : readableText(root, here, htmlStyle);
    title = clean(here.masks.text(doc.title.replace(/\s+/g, ' ').trim()), fence);
  } else {
    text = clean(masks.text(got.text.replace(/\r\n?/g, '\n')), fence);
  }
  const cut = got.cut || text.length > MAX_CHARS;
  const chunks = chunkText(text.slice(0, MAX_CHARS), CHUNK_CHARS);
  const what = `${clean(where(got.url), fence)}${title ? ` ("${title}")` : ''}`;
  if (!chunks.length) return { message: `${what} has no readable text.`, changes: { chunk: { page: 1, pages: 0 } } };
  if (page > chunks.length) throw new ActionError(`There is no page ${page}: the text of ${what} has ${chunks.length} page${chunks.length === 1 ? '' : 's'}.`);
  const last = page === chunks.length;
  const more = !last
    ? `\n[Page ${page} of ${chunks.length}. For more, read with this url and page ${page + 1}.]`
    : cut
      ? `\n[The page is longer: its text was cut here, after ${chunks.length} pages.]`
      : chunks.length > 1
        ? `\n[End of text: page ${page} of ${chunks.length}.]`
        : '';
  return {
    message: `Text of ${what}, read without leaving this page${chunks.length > 1 ? ` (page ${page} of ${chunks.length})` : ''}:\n${chunks[page - 1]}${more}`,
    changes: { chunk: { page, pages: chunks.length } },
  };
}
