/**
 * The Markdown subset the panel shows in an answer, parsed to a small tree (pure: no DOM, so
 * it is unit-tested as text). What it knows: paragraphs (a line break stays one), headings
 * (shown as a bold line), bullet and numbered lists (nested by indent), fenced code, tables,
 * **bold**, *italics*, `code`, links and bare addresses — http(s) only — and refs (`[12]`,
 * `[f2:7]`), which the panel turns into "show me" buttons. Everything else stays the text it
 * was: HTML, images, `javascript:` or `data:` links are shown as their own characters, never
 * markup (the renderer makes elements only from this tree, never from HTML).
 */

/** The elements an answer may hold, named as the panel makes them; nothing else is ever made. */
export type Tag = 'p' | 'strong' | 'em' | 'code' | 'pre' | 'br' | 'ul' | 'ol' | 'li' | 'table' | 'thead' | 'tbody' | 'tr' | 'th' | 'td';

/**
 * One piece of an answer: text, an element of the subset (`start` for a numbered list, `align`
 * for a table cell), a link to an http(s) address, or a ref to an element of the page.
 */
export type Node = string | { t: Tag; c: Node[]; start?: number; align?: Align } | { t: 'a'; href: string; c: Node[] } | { t: 'ref'; ref: string };

export type Align = 'left' | 'center' | 'right' | undefined;

const el = (t: Tag, c: Node[] = [], more?: { start?: number; align?: Align }): Node => ({ t, c, ...more });

/** Deeper nesting than this is read as text (an answer has no need of it; a hostile one would recurse). */
const MAX_DEPTH = 8;
/** Past this many characters the answer is shown as plain paragraphs (bounds the parser's work). */
const MAX_CHARS = 20_000;

/** This module, as the panel holds it once loaded. */
export interface Markdown {
  parseMarkdown: typeof parseMarkdown;
  plainText: typeof plainText;
}

const FENCE = /^( {0,3})(`{3,}|~{3,})[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const ITEM = /^( *)([-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const DELIMITER_CELL = /^:?-+:?$/;
const blank = (l: string): boolean => !l.trim();
const indentOf = (l: string): number => /^ */.exec(l)![0].length;

/** A table row's cells: split on pipes that are not escaped (`\|`), the outer pipes dropped. */
function cells(line: string): string[] {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  const out: string[] = [];
  let cur = '';
  for (let k = 0; k < s.length; k++) {
    if (s[k] === '\\' && s[k + 1] === '|') cur += s[++k];
    else if (s[k] === '|') {
      out.push(cur.trim());
      cur = '';
    } else cur += s[k];
  }
  out.push(cur.trim());
  return out;
}

/** The delimiter row under a table's header, as alignments (undefined when it is not one). */
function delimiters(line: string | undefined): Align[] | undefined {
  if (line === undefined || !line.includes('-')) return undefined;
  const row = cells(line);
  if (!row.every((c) => DELIMITER_CELL.test(c))) return undefined;
  return row.map((c) => (c.startsWith(':') && c.endsWith(':') ? 'center' : c.endsWith(':') ? 'right' : c.startsWith(':') ? 'left' : undefined));
}

/** A header row and the delimiter row under it, with as many cells each. */
const tableAt = (lines: string[], i: number): Align[] | undefined => {
  const align = lines[i]!.includes('|') ? delimiters(lines[i + 1]) : undefined;
  return align && align.length === cells(lines[i]!).length ? align : undefined;
};

/** What ends a paragraph besides a blank line: another block starting. */
const startsBlock = (lines: string[], i: number): boolean => {
  const l = lines[i]!;
  return FENCE.test(l) || HEADING.test(l) || RULE.test(l) || (ITEM.test(l) && indentOf(l) < 4) || !!tableAt(lines, i);
};

/** The index of the first line at or after `i` with text on it (`lines.length` when none). */
const nextText = (lines: string[], i: number): number => {
  while (i < lines.length && blank(lines[i]!)) i++;
  return i;
};

export function parseMarkdown(text: string): Node[] {
  const src = text.replace(/\r\n?/g, '\n');
  if (src.length > MAX_CHARS) return src.split(/\n{2,}/).map((p) => el('p', [p]));
  return blocks(src.split('\n'), 0);
}

function blocks(lines: string[], depth: number): Node[] {
  const out: Node[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (blank(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const [, indent, mark] = fence;
      const body: string[] = [];
      for (i++; i < lines.length; i++) {
        const l = lines[i]!;
        if (l.trim().startsWith(mark!) && new RegExp(`^ {0,3}${mark![0] === '`' ? '`' : '~'}{${mark!.length},}\\s*$`).test(l)) {
          i++;
          break;
        }
        body.push(l.slice(Math.min(indentOf(l), indent!.length)));
      }
      out.push(el('pre', [el('code', [body.join('\n')])]));
      continue;
    }
    if (RULE.test(line)) {
      i++; // a separator line says nothing of its own
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      // Shown as a bold line: the panel's own headings keep their outline.
      out.push(el('p', [el('strong', inline(heading[2] ?? '', 0))]));
      i++;
      continue;
    }
    const align = tableAt(lines, i);
    if (align) {
      const row = (l: string, cell: 'th' | 'td'): Node => {
        const c = cells(l).slice(0, align.length);
        while (c.length < align.length) c.push('');
        return el(
          'tr',
          c.map((s, k) => el(cell, inline(s, 0), align[k] && { align: align[k] })),
        );
      };
      const rows: Node[] = [];
      for (i += 2; i < lines.length && !blank(lines[i]!) && lines[i]!.includes('|'); i++) rows.push(row(lines[i]!, 'td'));
      out.push(el('table', [el('thead', [row(line, 'th')]), el('tbody', rows)]));
      continue;
    }
    const item = ITEM.exec(line);
    if (item && indentOf(line) < 4 && depth < MAX_DEPTH) {
      i = list(lines, i, depth, out);
      continue;
    }
    // A paragraph: up to a blank line or the start of another block.
    const para = [line.trim()];
    for (i++; i < lines.length && !blank(lines[i]!) && !startsBlock(lines, i); i++) para.push(lines[i]!.trim());
    out.push(el('p', inline(para.join('\n'), 0)));
  }
  return out;
}

/** A list from line `i`: its items while they keep the first one's kind of marker; returns the next line. */
function list(lines: string[], i: number, depth: number, out: Node[]): number {
  const first = ITEM.exec(lines[i]!)!;
  const ordered = /\d/.test(first[2]!);
  const kind = ordered ? first[2]!.slice(-1) : first[2]!;
  const base = first[1]!.length;
  const items: Node[] = [];
  while (i < lines.length) {
    const m = ITEM.exec(lines[i]!);
    if (!m || m[1]!.length !== base || (ordered ? m[2]!.slice(-1) !== kind || !/\d/.test(m[2]!) : m[2] !== kind)) break;
    // Lines indented past the marker belong to the item (nested lists, more paragraphs); so does a
    // line that just goes on with its text.
    const content = base + m[2]!.length + 1;
    const body = [m[3] ?? ''];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const l = lines[j]!;
      if (blank(l)) {
        // Blank lines stay in the item when what follows them is indented under it.
        const next = nextText(lines, j);
        if (next === lines.length || indentOf(lines[next]!) < base + 2) break;
        for (; j < next; j++) body.push('');
        j--;
        continue;
      }
      if (indentOf(l) >= base + 2) body.push(l.slice(Math.min(indentOf(l), content)));
      else if (!blank(body[body.length - 1]!) && !startsBlock(lines, j)) body.push(l.trim());
      else break;
    }
    // The item's first paragraph sits in the item itself (a "tight" list).
    const inner = blocks(body, depth + 1);
    const head = inner[0];
    items.push(el('li', typeof head === 'object' && head.t === 'p' ? [...head.c, ...inner.slice(1)] : inner));
    i = j;
    // Blank lines between items keep the list going.
    const next = nextText(lines, i);
    if (next < lines.length && ITEM.exec(lines[next]!)?.[1]!.length === base) i = next;
  }
  out.push(ordered ? el('ol', items, { start: parseInt(first[2]!, 10) }) : el('ul', items));
  return i;
}

const PUNCT = /[!-/:-@[-`{-~]/;
const SPACE = /\s/;
const WORD = /[\p{L}\p{N}]/u;
// Sticky: matched where the scan stands, without copying the rest of the text.
const REF = /\[((?:f\d+:)?\d+)\]/y;
const BARE_URL = /https?:\/\/[^\s<>"'`]+/iy;
const ANGLE_URL = /<(https?:\/\/[^\s<>]+)>/iy;
const ENTITY = /&(#\d{1,7}|#x[\da-f]{1,6}|amp|lt|gt|quot|apos|nbsp);/iy;
const TICKS = /`+/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

const at = (re: RegExp, s: string, i: number): RegExpExecArray | null => ((re.lastIndex = i), re.exec(s));

/** An http(s) address as the browser reads it (host in punycode), or undefined for anything else. */
function httpUrl(raw: string): string | undefined {
  try {
    const u = new URL(raw.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/** `&amp;`, `&#60;`…: the character, as text (an entity never becomes markup). */
function entity(m: string): string {
  const name = m.slice(1, -1).toLowerCase();
  if (name[0] !== '#') return NAMED[name]!;
  const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
  return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
}

/** How far a link's text and address may reach (bounds the scan for each `[`). */
const LINK_CHARS = 2000;

/** `[text](dest)` at `i` (brackets and parentheses nested): its end, text and destination. */
function linkAt(s: string, i: number): { end: number; text: string; dest: string } | undefined {
  const end = Math.min(s.length, i + LINK_CHARS);
  let depth = 0;
  let k = i;
  for (; k < end; k++) {
    if (s[k] === '\\') k++;
    else if (s[k] === '[') depth++;
    else if (s[k] === ']' && --depth === 0) break;
  }
  const close = k;
  if (s[close + 1] !== '(') return undefined;
  for (k = close + 1; k < end; k++) {
    if (s[k] === '(') depth++;
    else if (s[k] === ')' && --depth === 0) {
      const dest = s
        .slice(close + 2, k)
        .trim()
        .replace(/\s+("[^"]*"|'[^']*')$/, '')
        .replace(/^<(.*)>$/, '$1');
      return { end: k + 1, text: s.slice(i + 1, close), dest };
    }
  }
  return undefined;
}

/** Inline markup of one paragraph, heading or cell. `noLinks` inside a link's text. */
function inline(s: string, depth: number, noLinks = false): Node[] {
  const out: Node[] = [];
  let text = '';
  const push = (node: Node): void => {
    if (text) out.push(text);
    text = '';
    out.push(node);
  };
  /** Where a delimiter run that opened before `from` closes: not after a space, not inside a longer run. */
  const failed: Record<string, number> = {};
  const closer = (d: string, from: number): number => {
    // A search that found nothing from some point finds nothing from any later one.
    if (from >= (failed[d] ?? Infinity)) return -1;
    const c = d[0]!;
    for (let j = s.indexOf(d, from); j >= 0; j = s.indexOf(d, j + 1)) {
      if (j === from || SPACE.test(s[j - 1]!)) continue;
      if (s[j - 1] === c || s[j + d.length] === c) {
        while (s[j + 1] === c) j++; // part of a longer run: step past it
        continue;
      }
      if (c !== '_' || !WORD.test(s[j + d.length] ?? '')) return j;
    }
    failed[d] = Math.min(from, failed[d] ?? Infinity);
    return -1;
  };
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    let m: RegExpExecArray | null;
    let link: ReturnType<typeof linkAt>;
    if (c === '\\' && PUNCT.test(s[i + 1] ?? '')) {
      text += s[i + 1];
      i += 2;
    } else if (c === '\n') {
      text = text.trimEnd();
      push(el('br'));
      for (i++; s[i] === ' '; i++);
    } else if (c === '`') {
      // A code span closes at the next run of exactly as many backticks.
      const run = at(TICKS, s, i)![0].length;
      while ((m = TICKS.exec(s)) && m[0].length !== run);
      if (m) {
        let v = s.slice(i + run, m.index).replace(/\n/g, ' ');
        if (v.length > 2 && v.startsWith(' ') && v.endsWith(' ')) v = v.slice(1, -1);
        push(el('code', [v]));
        i = m.index + run;
      } else {
        text += '`'.repeat(run);
        i += run;
      }
    } else if ((c === '*' || c === '_') && depth < MAX_DEPTH) {
      let run = 1;
      while (s[i + run] === c) run++;
      const opens = !SPACE.test(s[i + run] ?? ' ') && (c === '*' || !WORD.test(s[i - 1] ?? ''));
      // ***both***, then **strong**, then *em*.
      let n = opens ? Math.min(run, 3) : 0;
      let j = -1;
      for (; n > 0 && (j = closer(c.repeat(n), i + n)) < 0; n--);
      if (n > 0) {
        text += c.repeat(run - n);
        const inner = inline(s.slice(i + n, j), depth + 1, noLinks);
        push(n === 3 ? el('strong', [el('em', inner)]) : el(n === 2 ? 'strong' : 'em', inner));
        i = j + n;
      } else {
        text += c.repeat(run);
        i += run;
      }
    } else if (c === '[' && !noLinks && (m = at(REF, s, i)) && s[REF.lastIndex] !== '(') {
      push({ t: 'ref', ref: m[1]! });
      i = REF.lastIndex;
    } else if ((c === '[' || (c === '!' && s[i + 1] === '[')) && (link = linkAt(s, c === '!' ? i + 1 : i))) {
      const href = c === '[' && !noLinks ? httpUrl(link.dest) : undefined;
      if (href) push({ t: 'a', href, c: inline(link.text, depth + 1, true) });
      // An image is never loaded; a javascript:, data: or relative link is not followed: their text as written.
      else text += s.slice(i, link.end);
      i = link.end;
    } else if (c === '<' && !noLinks && (m = at(ANGLE_URL, s, i)) && httpUrl(m[1]!)) {
      push({ t: 'a', href: httpUrl(m[1]!)!, c: [m[1]!] });
      i += m[0].length;
    } else if ((c === 'h' || c === 'H') && !noLinks && !WORD.test(s[i - 1] ?? '') && s[i - 1] !== '/' && (m = at(BARE_URL, s, i))) {
      let url = m[0];
      // Trailing punctuation ends the sentence, not the address (a ")" only when unbalanced).
      const count = (ch: string): number => url.split(ch).length;
      while (/[.,;:!?'"\]}*_]$/.test(url) || (url.endsWith(')') && count('(') < count(')'))) url = url.slice(0, -1);
      const href = httpUrl(url);
      if (href) push({ t: 'a', href, c: [url] });
      else text += url;
      i += url.length;
    } else if (c === '&' && (m = at(ENTITY, s, i))) {
      text += entity(m[0]);
      i += m[0].length;
    } else {
      text += c;
      i++;
    }
  }
  if (text) out.push(text);
  return out;
}

const BLOCK: ReadonlySet<string> = new Set(['p', 'pre', 'ul', 'ol', 'table']);

/**
 * The answer as plain text (what Copy puts on the clipboard): the words without the markup,
 * a blank line between blocks, list items on lines of their own (marked `-` or `1.`), table
 * rows with their cells split by tabs, links followed by their address, refs left out.
 */
export const plainText = (nodes: Node[]): string => text(nodes, '').trim();

function text(nodes: Node[], indent: string): string {
  let out = '';
  let block = false;
  let ref = false;
  for (const n of nodes) {
    if (typeof n === 'string') {
      // A ref left out takes the space before it along.
      out += ref && out && !/^[\s.,;:!?)]/.test(n) ? ` ${n}` : n;
      ref = false;
      continue;
    }
    ref = n.t === 'ref';
    if (n.t === 'ref') {
      out = out.trimEnd();
      continue;
    }
    const isBlock = BLOCK.has(n.t);
    // Blocks stand apart from what is before them: a blank line at the top, a line break inside an item.
    if ((isBlock || block) && out) out = `${out.replace(/[ \t]+$/, '')}\n${indent ? '' : '\n'}${indent}`;
    block = isBlock;
    if (n.t === 'br') out += `\n${indent}`;
    else if (n.t === 'a') {
      const words = text(n.c, '');
      out += words === n.href || `${words}/` === n.href ? n.href : `${words} (${n.href})`;
    } else if (n.t === 'ul' || n.t === 'ol')
      out += n.c
        .map((li, k) => {
          const mark = n.t === 'ol' ? `${(n.start ?? 1) + k}. ` : '- ';
          return mark + text((li as { c: Node[] }).c, indent + ' '.repeat(mark.length)).trim();
        })
        .join(`\n${indent}`);
    else if (n.t === 'table')
      out += n.c
        .flatMap((part) => (part as { c: Node[] }).c.map((tr) => (tr as { c: Node[] }).c.map((td) => text((td as { c: Node[] }).c, '').trim()).join('\t')))
        .join(`\n${indent}`);
    else out += text(n.c, indent);
  }
  return out;
}
