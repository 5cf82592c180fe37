/**
 * What must not leave the page, masked wherever page text becomes text for the model:
 *
 * - the run's secrets (`run(task, { secrets })`): each value, wherever it shows in page text or
 *   in a field, reads `<secret:NAME>`;
 * - the site's `redact` rules (`init({ redact })`): CSS selectors — the text and field values of
 *   matching elements (and of what they hold) read `[redacted]` —, and patterns (`/…/flags`
 *   strings or RegExp objects) whose matches in page text read `[redacted]`.
 *
 * The page layer applies them at its choke points (client/page/map/format.ts: `cap` and `quote`, which every name,
 * text line and value of the map and of find go through, and `dataBlock`, which every piece of
 * page data in a prompt goes through; actions/text.ts: `readableText`, before `read` cuts it
 * into pages), so a value is masked before anything shortens, escapes or splits it.
 *
 * Matching is literal (and on the whitespace-collapsed form, as the map prints text); values
 * shorter than four characters are masked only where they stand alone (not inside a longer
 * word or number), so a three-digit code does not blank every number that contains it.
 */
import { frameDocument } from '../page/dom/flat-tree';
import { shadowRootOf } from '../page/dom/flat-tree';
import type { Masks } from '../page/settings';
import { ownerDocumentOf } from '../page/dom/proto';

export type { Masks };

export const REDACTED = '[redacted]';

/** What the model reads in place of a secret's value. */
export const secretPlaceholder = (name: string): string => `<secret:${name}>`;

/** `init({ redact })`, parsed: selectors of elements and patterns of text. */
export interface Redaction {
  selectors: string[];
  patterns: RegExp[];
}

/** A literal to mask and what replaces it. */
type Literal = [text: string, replacement: string];

/** Nothing configured: text stays as it is. */
export const NO_MASKS: Masks = Object.freeze({ any: false, text: (t: string) => t });

const SHORT = 4;
const EDGE = '\\p{L}\\p{N}';
const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** The forms a value may take in page text and in our own output (raw, collapsed, JSON-escaped). */
function forms(value: string): string[] {
  const out = new Set<string>();
  for (const v of [value, collapse(value)]) {
    if (!v) continue;
    out.add(v);
    out.add(JSON.stringify(v).slice(1, -1));
  }
  return [...out];
}

/**
 * The masks of the site's redaction rules (`init({ redact })`; selectors must parse: init checks)
 * and a run's secrets (name → value).
 */
export function createMasks(rules: Redaction | undefined, secrets: Record<string, string> | undefined, doc?: Document): Masks {
  const secretLiterals: Literal[] = [];
  for (const [name, value] of Object.entries(secrets ?? {})) {
    if (typeof value !== 'string' || !value) continue;
    for (const f of forms(value)) secretLiterals.push([f, secretPlaceholder(name)]);
  }
  const selector = (rules?.selectors ?? []).join(',');
  const patterns = (rules?.patterns ?? []).map((re) => new RegExp(re.source, re.flags.replace(/[gy]/g, '') + 'g'));
  if (!secretLiterals.length && !selector && !patterns.length) return NO_MASKS;
  /** The redacted elements' strings, gathered at most once per task (a map runs many `cap`s). */
  let gathered: { at: number; literals: Literal[] } | undefined;
  let matcher: { key: Literal[]; long?: RegExp; short?: RegExp; table: Map<string, string> } | undefined;

  const none: Literal[] = [];
  const elementLiterals = (): Literal[] => {
    if (!selector) return none;
    const now = Date.now();
    // Fresh for each task: between two slices of a map the page may have changed.
    if (gathered && now - gathered.at < 20) return gathered.literals;
    gathered = { at: now, literals: redactedStrings(selector, doc ?? document) };
    return gathered.literals;
  };

  const currentMatcher = (): NonNullable<typeof matcher> => {
    const element = elementLiterals();
    if (matcher && matcher.key === element) return matcher;
    const table = new Map<string, string>();
    // Secrets first: a value that is both a secret and in a redacted element reads as the secret.
    for (const [text, replacement] of [...secretLiterals, ...element]) if (!table.has(text)) table.set(text, replacement);
    const all = [...table.keys()].sort((a, b) => b.length - a.length);
    const long = all.filter((t) => [...t].length >= SHORT);
    const short = all.filter((t) => [...t].length < SHORT);
    matcher = {
      key: element,
      table,
      long: long.length ? new RegExp(long.map(escapeRe).join('|'), 'gu') : undefined,
      short: short.length ? new RegExp(`(^|[^${EDGE}])(${short.map(escapeRe).join('|')})(?![${EDGE}])`, 'gu') : undefined,
    };
    return matcher;
  };

  return Object.freeze({
    any: true,
    within: (other: Document): Masks => createMasks(rules, secrets, other),
    text: (text: string): string => {
      if (!text) return text;
      const m = currentMatcher();
      let out = text;
      const swap = (found: string): string => m.table.get(found) ?? REDACTED;
      if (m.long) out = out.replace(m.long, swap);
      if (m.short) out = out.replace(m.short, (_all, before: string, found: string) => before + swap(found));
      for (const re of patterns) out = out.replace(re, REDACTED);
      return out;
    },
  });
}

/** The strings the redacted elements of `doc` hold now: each text piece, their whole text, field values. */
function redactedStrings(selector: string, doc: Document): Literal[] {
  const strings = new Set<string>();
  const add = (s: string | null | undefined): void => {
    if (s && s.trim()) for (const f of forms(s)) strings.add(f);
  };
  const take = (el: Element): void => {
    add(el.textContent);
    const fields = [el, ...Array.from(el.querySelectorAll('input, textarea, select'))];
    // By tag name, not instanceof: an element of a same-origin frame has that frame's classes.
    for (const f of fields) {
      if (f.localName === 'input' || f.localName === 'textarea') add((f as HTMLInputElement).value);
      else if (f.localName === 'select')
        for (const o of Array.from((f as HTMLSelectElement).selectedOptions)) {
          add(o.value);
          add(o.text);
        }
    }
    const walker = (ownerDocumentOf(el) ?? document).createTreeWalker(el, 4 /* NodeFilter.SHOW_TEXT */);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) add((n as Text).data);
    const shadow = shadowRootOf(el);
    if (shadow) for (const c of Array.from(shadow.children)) take(c);
  };
  eachRoot(doc, (root) => {
    try {
      for (const el of Array.from(root.querySelectorAll(selector))) take(el);
    } catch {
      /* a selector this root cannot run: init checked it parses */
    }
  });
  return [...strings].map((s) => [s, REDACTED]);
}

/** The document, its open and hooked closed shadow roots, and its same-origin frames. */
function eachRoot(doc: Document | ShadowRoot, fn: (root: Document | ShadowRoot) => void): void {
  fn(doc);
  for (const el of Array.from(doc.querySelectorAll('*'))) {
    const shadow = shadowRootOf(el);
    if (shadow) eachRoot(shadow, fn);
    if (el.localName === 'iframe' || el.localName === 'frame') {
      const inner = frameDocument(el);
      if (inner) eachRoot(inner, fn);
    }
  }
}

/** A `redact` entry: a pattern (`/source/flags` or a RegExp), else a CSS selector. */
export function redactionEntry(entry: string | RegExp): { pattern: RegExp } | { selector: string } {
  if (entry instanceof RegExp) return { pattern: entry };
  const m = /^\/(.+)\/([a-z]*)$/s.exec(entry.trim());
  return m ? { pattern: new RegExp(m[1]!, m[2]) } : { selector: entry.trim() };
}

/** Why a pattern cannot be used (it matches empty text, or a flag makes it stateful), or undefined. */
export function patternProblem(re: RegExp): string | undefined {
  if (new RegExp(re.source, re.flags.replace(/[gy]/g, '')).test('')) return 'matches empty text (it would mask nothing and loop)';
  return undefined;
}
