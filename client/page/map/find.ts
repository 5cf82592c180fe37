/**
 * `find {query}`: searches the whole page — beyond the map's viewport and token budget — for
 * elements whose name, role or surrounding text match the query, and hands out refs for them
 * so the model can act at once (actions scroll their target into view).
 *
 * Cheap first: one walk, then words matched against each candidate's block text; names are
 * computed only for candidates whose text or attributes could match.
 */
import { createDescriber, type Describer } from '../names/describe';
import { deepActiveElement } from '../dom/flat-tree';
import { cap, quote } from './format';
import { clean } from './fence';
import type { Masks, PageSettings, Zones } from '../settings';
import { assignRef, remember } from './refs';
import { hintFor } from './hints';
import type { FindResult, FoundElement, Ref } from '../page-types';

export type { FindResult } from '../page-types';
import { walk, type ElementItem } from './walk';
import { attrOf } from '../dom/proto';

const MAX_ELEMENTS = 12;
const MAX_TEXTS = 5;
const STOP = new Set(['the', 'a', 'an', 'of', 'to', 'in', 'on', 'for', 'and', 'or', 'with', 'button', 'link', 'el', 'la', 'de', 'y']);

/** Lower-cased words of at least two characters, minus filler words. */
export function queryWords(query: string): string[] {
  const words = query
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 2 || /\d/.test(w));
  const kept = words.filter((w) => !STOP.has(w));
  return kept.length ? kept : words;
}

const fold = (s: string): string =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '');

/** Share of the query's words found in `hay` (0–1), with a bonus for the exact phrase. */
export function matchScore(words: string[], phrase: string, hay: string, masks: Masks): number {
  if (!words.length) return 0;
  // Masked text does not match its own words: find must not tell whether a secret is there.
  const h = fold(masks.text(hay));
  let hits = 0;
  for (const w of words) if (h.includes(w)) hits++;
  const score = hits / words.length;
  return score + (phrase.length > 2 && h.includes(phrase) ? 0.5 : 0);
}

export function find(query: string, settings: PageSettings): FindResult {
  const { zones, masks } = settings;
  const q = query.trim();
  const words = queryWords(q);
  const phrase = fold(q);
  const w = walk(document, { focused: deepActiveElement(document), text: true, zones });
  const describer = createDescriber(settings);
  const H = window.innerHeight;

  // Text per block, so a row's button is found by the row's words.
  const blockText = new Map<Element | null, string>();
  for (const it of w.items) if (it.kind === 'text') blockText.set(it.block, `${blockText.get(it.block) ?? ''} ${it.text}`);

  const scored: Array<{ it: ElementItem; score: number; role: string; name: string; hint: string }> = [];
  for (const it of w.items) {
    if (it.kind !== 'el' || it.clippedBy === 'hidden') continue;
    const around = blockText.get(it.block) ?? '';
    const attrs = ['aria-label', 'title', 'placeholder', 'alt', 'value', 'name'].map((a) => attrOf(it.el, a) ?? '').join(' ');
    // The element's own text, but never what a deny zone inside it holds: a match there would
    // tell the model the zone's words are on the page.
    const own = zones.textOutside(it.el, 300);
    // Names from every source, not only text and own attributes: labels pointed to, what its
    // insides are called, and for a wordless one the hint the map shows (an icon's name).
    const sources = `${attrs} ${namedBy(it.el, zones)} ${/[\p{L}\p{N}]/u.test(own) ? '' : hintOf(it.el, settings)}`;
    const cheap = `${around} ${sources} ${own}`;
    if (matchScore(words, phrase, cheap, masks) === 0 && !words.some((x) => it.el.localName.includes(x))) continue;
    let role: string;
    let name: string;
    try {
      ({ role, name } = describer.describe(it.el));
      if (!name && (role === 'generic' || role === 'none')) name = describer.nameAs(it.el, 'button');
    } catch {
      continue;
    }
    const shownRole = role === 'generic' || role === 'none' || role === 'presentation' ? 'clickable' : role;
    // The element's own name counts double: "Open" in a row about Quantum beats the row's text.
    const score = matchScore(words, phrase, `${name} ${shownRole}`, masks) * 2 + matchScore(words, phrase, `${around} ${sources}`, masks);
    if (score >= 1 || (words.length <= 2 && score > 0.5)) scored.push({ it, score, role: shownRole, name, hint: name ? '' : hintOf(it.el, settings) });
  }
  scored.sort((a, b) => b.score - a.score || a.it.order - b.it.order);

  const elements: FoundElement[] = [];
  const hints = new Map<string, string>();
  for (const s of scored.slice(0, MAX_ELEMENTS)) {
    const ref = refFor(s.it, describer);
    if (s.hint) hints.set(ref, s.hint);
    const around = (blockText.get(s.it.block) ?? '').replace(/\s+/g, ' ').trim();
    elements.push({
      ref,
      role: s.role,
      name: s.name,
      context: around === s.name ? '' : cap(around, 120, settings),
      where: whereOf(s.it.rect.y, s.it.rect.height, H),
    });
  }

  // Text lines that match, tied to the first element after them (the thing to click near it).
  const texts: FindResult['texts'] = [];
  let textMatches = 0;
  const elsInOrder = w.items.filter((it): it is ElementItem => it.kind === 'el' && it.clippedBy !== 'hidden');
  for (const it of w.items) {
    if (it.kind !== 'text' || matchScore(words, phrase, it.text, masks) < 1) continue;
    textMatches++;
    if (texts.length >= MAX_TEXTS) continue;
    const next = elsInOrder.find((e) => e.order > it.order);
    texts.push({ text: cap(it.text.replace(/\s+/g, ' ').trim(), 160, settings), near: next ? refFor(next, describer) : undefined });
  }

  const more = Math.max(0, scored.length - elements.length) + Math.max(0, textMatches - texts.length);
  const lines = [
    `find ${quote(q, settings)}: ${elements.length} element${elements.length === 1 ? '' : 's'}, ${texts.length} text match${texts.length === 1 ? '' : 'es'} on the whole page`,
  ];
  for (const e of elements)
    lines.push(
      `[${e.ref}]${e.role}${e.name ? ` ${quote(cap(e.name, 80, settings), settings)}` : hints.has(e.ref) ? ` ~${clean(hints.get(e.ref)!, settings.fence)}` : ''}  (${e.where})${e.context ? `  in: ${e.context}` : ''}`,
    );
  for (const t of texts) lines.push(`text: ${quote(t.text, settings)}${t.near ? ` (next element [${t.near}])` : ''}`);
  if (more) lines.push(`… ${more} more matches; refine the query`);
  if (!elements.length && !texts.length) lines.push('Nothing matches. Content may not be loaded yet: scroll to load more, wait, or try other words.');
  return { query: q, elements, texts, more, text: lines.join('\n') };
}

/**
 * What names an element from elsewhere than its own text and attributes: the elements its
 * aria-labelledby points to, its labels, and its insides' alt, aria-label, title and SVG titles
 * (never what a deny zone holds).
 */
function namedBy(el: Element, zones: Zones): string {
  const parts: string[] = [];
  const root = el.getRootNode() as Document | ShadowRoot;
  for (const id of (attrOf(el, 'aria-labelledby') ?? '').split(/\s+/).slice(0, 4)) {
    const by = id ? root.getElementById?.(id) : null;
    if (by && !zones.excluded(by)) parts.push(zones.textOutside(by, 200));
  }
  const labels = (el as HTMLInputElement).labels;
  if (labels) for (const l of [...labels].slice(0, 2)) if (!zones.excluded(l)) parts.push(zones.textOutside(l, 200));
  const inner = [...el.querySelectorAll('[alt], [aria-label], [title], svg > title')].slice(0, 6);
  for (const c of inner) {
    if (zones.inside(c)) continue;
    parts.push(c.localName === 'title' ? (c.textContent ?? '') : `${attrOf(c, 'alt') ?? ''} ${attrOf(c, 'aria-label') ?? ''} ${attrOf(c, 'title') ?? ''}`);
  }
  return parts.join(' ');
}

/** The map's hint for an element, or nothing when it cannot be read. */
function hintOf(el: Element, settings: PageSettings): string {
  try {
    return hintFor(el, settings);
  } catch {
    return '';
  }
}

/** A ref the actions can resolve: recorded with the spec role and name, as the map records it. */
function refFor(it: ElementItem, describer: Describer): Ref {
  const { ref } = assignRef(it.el, it.frame?.id);
  try {
    const d = describer.describe(it.el);
    remember(ref, it.el, d.role, d.name, `${it.frame?.id ?? ''}|${d.role}|${d.name}|${it.context}|find`);
  } catch {
    /* an element that cannot be described keeps no entry; acting on it reports "unknown" */
  }
  return ref;
}

function whereOf(y: number, h: number, H: number): string {
  if (y + h > 0 && y < H) return 'in view';
  const screens = y >= H ? (y - H) / H : -(y + h) / H;
  return `${(Math.round(screens * 10) / 10).toFixed(1)} screens ${y >= H ? 'below' : 'above'}`;
}
