/**
 * Turns map lines into the text the model reads, within a token budget (pure but for the masks
 * it is given, which may read the redacted elements).
 *
 * Lines are chosen by priority (modal dialog, focus, dialogs, viewport, then nearby), then
 * printed in document order: role first, indentation only inside dialogs, forms and frames.
 * What does not fit becomes counts per direction, never a line cut in the middle. Page
 * content sits between markers so the prompt can treat it as data, never as instructions.
 */
import { estimateTokens } from './tokens';
import type { ElementStates } from '../page-types';
import type { Masks } from '../settings';

export const CONTENT_START = '⟪page content⟫';
export const CONTENT_END = '⟪/page content⟫';

export type Direction = 'view' | 'above' | 'below' | 'left' | 'right';

export interface GroupHeader {
  /** Identity of the group (the same object for every line in it). */
  key: object;
  label: string;
}

export interface Line {
  order: number;
  isElement: boolean;
  /** Line content without indentation; its ref slot is written `[#]` until refs are known. */
  body: string;
  groups: readonly GroupHeader[];
  priority: number;
  direction: Direction;
  /** Lines sharing a block may be joined: trailing text goes on its element's line. */
  block: unknown;
}

export interface Counts {
  above: number;
  below: number;
  left: number;
  right: number;
  /** In view but left out by the budget. */
  budget: number;
  covered: Map<string, number>;
  behindModal?: { label: string; count: number };
}

const REF_SLOT = '[#]';
/** Refs are not known while choosing lines; budget as if each were this long. */
const REF_PLACEHOLDER = '[f99:999999]';

/**
 * Bracket-like characters, as they may stand around "page content" in a forged marker: every
 * Unicode opening/closing punctuation and quotation mark (⟪ ⟨ 〈 《 「 « ‹ …), and the angle
 * look-alikes that are letters or maths symbols (< ≪ ˂ ᐸ …). Fullwidth and compatibility forms
 * (＜ ﹤ 〈) are folded by NFKC first.
 */
const BRACKET = String.raw`[\p{Ps}\p{Pe}\p{Pi}\p{Pf}<>≪≫⋘⋙˂˃ᐸᐳ⊲⊳◁▷]`;
/** What may stand between a bracket and the words: spaces and slashes (/ ∕ ⁄ ⧸ ⟋ \\). */
const GAP = String.raw`[\s/\\∕⁄⧸⟋]*`;
/** "page content" in any case and spacing: p-a-g-e c-o-n-t-e-n-t with spaces, dots, dashes or
 *  underscores anywhere between the letters. */
const WORDS = [...'pagecontent'].join(String.raw`[\s_.\-·]*`);
/** A forged marker: the words with bracket-like characters on at least one side (checked in code). */
const FORGED = new RegExp(`(${BRACKET}+)?${GAP}${WORDS}${GAP}(${BRACKET}+)?`, 'gu');
/** Letters of "page content" from other scripts that read the same (Cyrillic, Greek…). */
const LOOKALIKES: Record<string, string> = {
  р: 'p',
  ρ: 'p',
  а: 'a',
  α: 'a',
  ɑ: 'a',
  ɡ: 'g',
  ց: 'g',
  е: 'e',
  ε: 'e',
  ё: 'e',
  с: 'c',
  ϲ: 'c',
  о: 'o',
  ο: 'o',
  օ: 'o',
  п: 'n',
  ո: 'n',
  т: 't',
  τ: 't',
};
/** Characters that show nothing (format controls, combining marks): ignored when matching. */
const INVISIBLE = /[\p{Cf}\p{Mn}\p{Me}]/gu;

/** One original character's folded form, for matching only: NFKC, invisibles dropped, lower case, look-alikes as Latin. */
function fold(ch: string): string {
  const n = ch.normalize('NFKC').replace(INVISIBLE, '').toLowerCase();
  let out = '';
  for (const c of n) out += LOOKALIKES[c] ?? c;
  return out;
}

/**
 * Makes a page string safe to put between the data markers: removes the markers' own
 * characters (⟪ ⟫) everywhere, and the brackets of anything that reads as a marker — "page
 * content" in any case or spacing, with a bracket-like character before or after it, in any
 * script or width (checked after NFKC): `⟨/page content⟩`, `〈page content〉`, `《/Page Content》`,
 * `<</page content>>`, `＜／ｐａｇｅ ｃｏｎｔｅｎｔ＞`. The words stay (`/page content`); only the
 * brackets go, so the text can never open or close a data block. The one function for every
 * page-derived string in a prompt.
 */
export function sanitize(s: string): string {
  let text = s.replace(/[⟪⟫]/g, '');
  // Removing brackets can bring another bracket next to the words ("(a) ⟨/page content⟩"):
  // again until nothing changes (each pass removes something, so this ends).
  for (let pass = 0; pass < 8; pass++) {
    const next = dropForgedBrackets(text);
    if (next === text) return text;
    text = next;
  }
  return text;
}

function dropForgedBrackets(text: string): string {
  // A cheap test on the whole string first: most strings hold nothing like a marker.
  FORGED.lastIndex = 0;
  if (!FORGED.test(foldAll(text))) return text;
  // Fold character by character, remembering which original character each folded one came
  // from, so that the brackets found in the folded text are removed from the original.
  const chars = [...text];
  let folded = '';
  const from: number[] = [];
  chars.forEach((ch, i) => {
    for (const c of fold(ch)) {
      folded += c;
      from.push(i);
    }
  });
  const drop = new Set<number>();
  FORGED.lastIndex = 0;
  for (let m = FORGED.exec(folded); m; m = FORGED.exec(folded)) {
    const before = m[1] ?? '';
    const after = m[2] ?? '';
    if (!before && !after) continue;
    const end = m.index + m[0].length;
    for (let k = m.index; k < m.index + before.length; k++) drop.add(from[k]!);
    for (let k = end - after.length; k < end; k++) drop.add(from[k]!);
  }
  return drop.size ? chars.filter((_, i) => !drop.has(i)).join('') : text;
}

/** The folded form of a whole string (for the cheap test; positions are not kept). */
function foldAll(s: string): string {
  let out = '';
  for (const c of s.normalize('NFKC').replace(INVISIBLE, '').toLowerCase()) out += LOOKALIKES[c] ?? c;
  return out;
}

/** Page-derived text as one data block: the markers on lines of their own around it, nothing
 *  inside that could close the block early, and no secret or redacted text (the masks it is given: client/safety/masks.ts). */
export function dataBlock(text: string, masks: Masks): string {
  return `${CONTENT_START}\n${sanitize(masks.text(text))}\n${CONTENT_END}`;
}

/** Caps a name at `max` characters on a word boundary (masked first: a cut value cannot be matched). */
export function cap(text: string, max: number, masks: Masks): string {
  const s = masks.text(text);
  if (s.length <= max) return s;
  const cut = s.slice(0, max);
  const sp = cut.lastIndexOf(' ');
  return `${(sp > max * 0.5 ? cut.slice(0, sp) : cut).trimEnd()}…`;
}

export const quote = (s: string, masks: Masks): string => JSON.stringify(sanitize(masks.text(s)));

const fmt1 = (n: number): string => (Math.round(n * 10) / 10).toFixed(1);

/** `scroll 0.0↑ 4.9↓ screens` (and ← → when it scrolls sideways). */
export function scrollText(s: { up: number; down: number; left: number; right: number }): string {
  let t = `scroll ${fmt1(s.up)}↑ ${fmt1(s.down)}↓`;
  if (s.left > 0.05 || s.right > 0.05) t += ` ${fmt1(s.left)}← ${fmt1(s.right)}→`;
  return t;
}

/** The states part of an element line, in a fixed order. */
export function statesText(s: ElementStates, masks: Masks): string {
  const out: string[] = [];
  if (s.level) out.push(`level=${s.level}`);
  if (s.type) out.push(`type=${s.type}`);
  if (s.value !== undefined) out.push(`value=${quote(cap(s.value, 60, masks), masks)}`);
  if (s.format) out.push(`format=${s.format}`);
  // Unchecked is the default a checkbox line implies; saying it costs a token per box.
  if (s.checked) out.push(s.checked === 'mixed' ? 'checked=mixed' : 'checked');
  if (s.pressed !== undefined) out.push(s.pressed === 'mixed' ? 'pressed=mixed' : s.pressed ? 'pressed' : 'not pressed');
  if (s.selected) out.push('selected');
  if (s.expanded !== undefined) out.push(s.expanded ? 'expanded' : 'collapsed');
  if (s.disabled) out.push('disabled');
  if (s.readonly) out.push('readonly');
  if (s.required) out.push('required');
  if (s.invalid) out.push('invalid');
  if (s.min !== undefined) out.push(`min=${s.min}`);
  if (s.max !== undefined) out.push(`max=${s.max}`);
  if (s.step !== undefined) out.push(`step=${s.step}`);
  if (s.options) {
    const rest = s.options.count - s.options.first.length;
    out.push(`options=${s.options.first.map((o) => cap(sanitize(o), 30, masks).replace(/\|/g, '/')).join('|')}${rest > 0 ? `|…${rest} more` : ''}`);
  }
  if (s.scroll) out.push(scrollText(s.scroll));
  if (s.focused) out.push('focused');
  return out.join(' ');
}

export interface FormatInput {
  header: string;
  lines: Line[];
  maxTokens: number;
  counts: Counts;
}

export interface Formatted {
  /** Orders of the lines that were printed. */
  chosen: Set<number>;
  /** Renders the text once refs are known (`refs.get(order)`). */
  render(refs: Map<number, string>): string;
  counts: Counts;
}

/** Chooses lines within the budget. Call `render` with the refs of the chosen element lines. */
export function choose(input: FormatInput): Formatted {
  const { header, lines, maxTokens } = input;
  const counts: Counts = { ...input.counts, covered: new Map(input.counts.covered) };
  // Reserve room for the header, markers and up to six count lines.
  let used = estimateTokens(header) + estimateTokens(`${CONTENT_START}\n${CONTENT_END}`) + 2 + 6 * 14;
  const openedGroups = new Set<object>();
  const chosen = new Set<number>();
  const byPriority = [...lines].sort((a, b) => a.priority - b.priority || a.order - b.order);
  for (const line of byPriority) {
    const body = line.isElement ? line.body.replace(REF_SLOT, REF_PLACEHOLDER) : line.body;
    let cost = estimateTokens(body) + 1 + line.groups.length; // newline + indentation
    for (const g of line.groups) if (!openedGroups.has(g.key)) cost += estimateTokens(g.label) + 1 + line.groups.length;
    if (used + cost > maxTokens) {
      if (line.isElement) {
        if (line.direction === 'view') counts.budget++;
        else counts[line.direction]++;
      }
      continue;
    }
    used += cost;
    chosen.add(line.order);
    for (const g of line.groups) openedGroups.add(g.key);
  }

  const render = (refs: Map<number, string>): string => {
    const out: string[] = [header, CONTENT_START];
    let open: readonly GroupHeader[] = [];
    let lastElement: { block: unknown; index: number } | null = null;
    for (const line of lines) {
      if (!chosen.has(line.order)) continue;
      // Open the groups this line is in (and close the ones it is not).
      let same = 0;
      while (same < open.length && same < line.groups.length && open[same]!.key === line.groups[same]!.key) same++;
      if (same < line.groups.length || same < open.length) lastElement = null;
      for (let i = same; i < line.groups.length; i++) out.push(`${'  '.repeat(i)}${line.groups[i]!.label}`);
      open = line.groups;
      const indent = '  '.repeat(line.groups.length);
      if (line.isElement) {
        out.push(indent + line.body.replace(REF_SLOT, `[${refs.get(line.order) ?? '?'}]`));
        lastElement = { block: line.block, index: out.length - 1 };
      } else if (lastElement && line.block === lastElement.block && line.block !== null) {
        out[lastElement.index] += `  ${line.body}`;
      } else {
        out.push(indent + line.body);
        lastElement = null;
      }
    }
    out.push(CONTENT_END);
    out.push(...countLines(counts));
    return out.join('\n');
  };
  return { chosen, render, counts };
}

export function countLines(c: Counts): string[] {
  const out: string[] = [];
  if (c.behindModal && c.behindModal.count) out.push(`… ${c.behindModal.count} interactive behind the modal ${c.behindModal.label} (inert until it closes)`);
  for (const [cover, n] of c.covered) out.push(`… ${n} interactive covered by ${cover}`);
  if (c.budget) out.push(`… ${c.budget} more interactive in view, left out for length (use read, or scroll)`);
  if (c.above) out.push(`… ${c.above} more interactive above (scroll up)`);
  if (c.below) out.push(`… ${c.below} more interactive below (scroll down)`);
  if (c.left) out.push(`… ${c.left} more interactive to the left (scroll left)`);
  if (c.right) out.push(`… ${c.right} more interactive to the right (scroll right)`);
  return out;
}

export { REF_SLOT };
