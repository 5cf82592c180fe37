/**
 * Turns map lines into the text the model reads, within a token budget (pure but for the masks
 * it is given, which may read the redacted elements).
 *
 * Lines are chosen by priority (modal dialog, focus, dialogs, viewport, then nearby), then
 * printed in document order: role first, indentation only inside dialogs, forms and frames.
 * What does not fit becomes counts per direction, never a line cut in the middle. Page
 * content sits between markers (fence.ts) so the prompt can treat it as data, never as
 * instructions; every page string is cleaned (`cap`, `quote`) before it joins our syntax.
 */
import { estimateTokens } from './tokens';
import type { ElementStates } from '../page-types';
import { clean, markers } from './fence';
import type { PageText } from '../settings';

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
 * Lines of data as one block, between the run's markers on lines of their own. Each page string
 * in them was cleaned before it was joined to our syntax (`cap`, `quote`, or the caller), so
 * nothing inside can close the block early; the block is masked once more (the run's secrets,
 * the site's redaction: client/safety/masks.ts).
 */
export function dataBlock(lines: readonly string[], t: PageText): string {
  const { start, end } = markers(t.fence);
  return `${start}\n${t.masks.text(lines.join('\n'))}\n${end}`;
}

/** Caps a page string at `max` characters on a word boundary (masked and cleaned first: a cut value cannot be matched). */
export function cap(text: string, max: number, t: PageText): string {
  const s = clean(t.masks.text(text), t.fence);
  if (s.length <= max) return s;
  const cut = s.slice(0, max);
  const sp = cut.lastIndexOf(' ');
  return `${(sp > max * 0.5 ? cut.slice(0, sp) : cut).trimEnd()}…`;
}

/** A page string in quotes, masked and cleaned, escaped as JSON (so no line break survives). */
export const quote = (s: string, t: PageText): string => JSON.stringify(clean(t.masks.text(s), t.fence));

const fmt1 = (n: number): string => (Math.round(n * 10) / 10).toFixed(1);

/** `scroll 0.0↑ 4.9↓ screens` (and ← → when it scrolls sideways). */
export function scrollText(s: { up: number; down: number; left: number; right: number }): string {
  let t = `scroll ${fmt1(s.up)}↑ ${fmt1(s.down)}↓`;
  if (s.left > 0.05 || s.right > 0.05) t += ` ${fmt1(s.left)}← ${fmt1(s.right)}→`;
  return t;
}

/** The states part of an element line, in a fixed order. */
export function statesText(s: ElementStates, t: PageText): string {
  const out: string[] = [];
  if (s.level) out.push(`level=${s.level}`);
  if (s.type) out.push(`type=${s.type}`);
  if (s.value !== undefined) out.push(`value=${quote(cap(s.value, 60, t), t)}`);
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
    out.push(`options=${s.options.first.map((o) => cap(o, 30, t).replace(/\|/g, '/')).join('|')}${rest > 0 ? `|…${rest} more` : ''}`);
  }
  if (s.scroll) out.push(scrollText(s.scroll));
  if (s.focused) out.push('focused');
  return out.join(' ');
}

export interface FormatInput {
  header: string;
  /** The value the markers carry (the run's), if any. */
  fence?: string;
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
  const { start, end } = markers(input.fence);
  const counts: Counts = { ...input.counts, covered: new Map(input.counts.covered) };
  // Reserve room for the header, markers and up to six count lines.
  let used = estimateTokens(header) + estimateTokens(`${start}\n${end}`) + 2 + 6 * 14;
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
    const out: string[] = [header, start];
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
    out.push(end);
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
