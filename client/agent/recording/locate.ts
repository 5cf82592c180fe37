/**
 * Recorded targets on the live page: describing the element a step acts on (when a run is
 * recorded) and finding it again (when it is replayed), both from one walk over the whole page
 * — the same walk `find` makes, so what one side writes the other side reads the same way.
 * Reads only through the page layer; deny zones are never walked.
 *
 * Names and the text around are compared as the model reads them (a run's secrets and the
 * site's redaction masked), so a recording never needs a secret's value to find its target.
 *
 * Found again by role and accessible name; when several match, by the text of the row or card
 * around it, its landmark and the heading before it; only then by its place among equals — and
 * only while the number of equals is what it was. Anything else is "missing" or "ambiguous",
 * never a guess.
 */
import { createDescriber, type Describer } from '../../page/names/describe';
import { deepActiveElement } from '../../page/dom/flat-tree';
import { dialogName, takeSnapshot } from '../../page/actions/observe';
import type { Masks, PageSettings } from '../../page/settings';
import { assignRef, remember } from '../../page/map/refs';
import type { Ref } from '../../page/page-types';
import { walk, type ElementItem, type TextItem, type WalkResult } from '../../page/map/walk';
import { walkBehind } from '../../page/map/walk-reuse';
import type { PageMap } from '../../page/page-types';
import type { RecordedExpectation, RecordedTarget } from '../public-types';
import { urlMatches } from './recording';

/** One element of the page, with what describes it. */
export interface Candidate {
  item: ElementItem;
  role: string;
  name: string;
  heading: string;
  /** The text of the block it sits in, its own name left out. */
  near: string;
}

const NEAR_MAX = 80;
const clean = (s: string): string => s.replace(/\s+/g, ' ').trim();
/** The landmark roles a target is placed by (a region or form only with a name). */
const LANDMARKS = new Set(['banner', 'navigation', 'main', 'contentinfo', 'complementary', 'search', 'dialog', 'alertdialog', 'region', 'form']);

/** The role a candidate is listed under: generic elements the map shows as `clickable`. */
const shownRole = (role: string): string => (role === 'generic' || role === 'none' || role === 'presentation' ? 'clickable' : role);

/**
 * Every interactive element on the page (the whole page, not the map's window), in document
 * order; with `role`, only those listed under that role (names are the costly part: a
 * recorded step needs only its target's equals).
 */
export function pageCandidates(describer: Describer, role?: string): Candidate[] {
  return candidatesOf(walk(document, { focused: deepActiveElement(document), text: true, zones: describer.settings.zones }), describer, role);
}

/** `pageCandidates` from a walk already made. */
function candidatesOf(w: WalkResult, describer: Describer, role?: string): Candidate[] {
  const { masks } = describer.settings;
  // A block's text is joined only for the blocks a listed candidate sits in (reading a line's
  // text collapses its whitespace: most lines of a page are never needed).
  const blockLines = new Map<Element | null, TextItem[]>();
  for (const it of w.items) {
    if (it.kind !== 'text') continue;
    const lines = blockLines.get(it.block);
    if (lines) lines.push(it);
    else blockLines.set(it.block, [it]);
  }
  const blockText = new Map<Element | null, string>();
  const textOf = (block: Element | null): string => {
    let t = blockText.get(block);
    if (t === undefined) {
      t = '';
      for (const line of blockLines.get(block) ?? []) t = `${t} ${line.text}`;
      blockText.set(block, t);
    }
    return t;
  };
  const out: Candidate[] = [];
  for (const it of w.items) {
    if (it.kind !== 'el' || it.clippedBy === 'hidden') continue;
    let own: string;
    let name: string;
    try {
      own = describer.role(it.el);
      if (role !== undefined && shownRole(own) !== role) continue;
      name = describer.name(it.el);
      if (!name && (own === 'generic' || own === 'none')) name = describer.nameAs(it.el, 'button');
    } catch {
      continue;
    }
    // As the model reads them: a secret's value, or redacted text, never in a name or beside one.
    name = masks.text(clean(name));
    out.push(new PageCandidate(it, shownRole(own), name, textOf, masks));
  }
  return out;
}

/**
 * A candidate whose heading and nearby text are read when first asked for: a recorded step
 * compares them only among its target's equals (same role and name), most of a page's
 * candidates never.
 */
class PageCandidate implements Candidate {
  private nearText: string | undefined;
  private headingText: string | undefined;

  constructor(
    readonly item: ElementItem,
    readonly role: string,
    readonly name: string,
    private readonly textOf: (block: Element | null) => string,
    private readonly masks: Masks,
  ) {}

  get heading(): string {
    return (this.headingText ??= clean(this.item.context.split('|').slice(1).join('|')));
  }

  get near(): string {
    if (this.nearText === undefined) {
      const name = this.name;
      let near = this.masks.text(clean(this.textOf(this.item.block)));
      if (name && near.startsWith(name)) near = near.slice(name.length).trim();
      else if (name && near.endsWith(name)) near = near.slice(0, -name.length).trim();
      this.nearText = near.slice(0, NEAR_MAX);
    }
    return this.nearText;
  }
}

/** The nearest landmark around `el`, as `role "name"` (or the role alone). */
function landmarkOf(el: Element, describer: Describer): string | undefined {
  for (let a = el.parentElement; a; a = a.parentElement) {
    let role: string;
    try {
      role = describer.role(a);
    } catch {
      continue;
    }
    if (!LANDMARKS.has(role)) continue;
    let name = '';
    try {
      name = clean(describer.name(a));
    } catch {
      /* unnamed */
    }
    if ((role === 'region' || role === 'form') && !name) continue;
    return name && name.length <= 60 ? `${role} ${JSON.stringify(name)}` : role;
  }
  return undefined;
}

const same = (a: string | undefined, b: string | undefined): boolean => (a ?? '') === (b ?? '');

/**
 * `describeTarget` from the walk behind the step's map, when the page has not changed since it
 * was made: the same candidates a fresh walk gives, without walking the page again. A fresh
 * walk still decides when the kept one cannot: the element is not in it, its role or name reads
 * otherwise now (a change the watch cannot see, inside a shadow root), or an equal of it lies
 * far away where the map's walk read boxes only roughly (whether it shows is not known exactly).
 */
export function describeTargetIn(map: PageMap | undefined, el: Element, describer: Describer): RecordedTarget | undefined {
  const kept = walkBehind(map, describer.settings);
  if (kept) {
    try {
      const role = shownRole(kept.describer.role(el));
      const cands = candidatesOf(kept.walk, kept.describer, role);
      const c = cands.find((x) => x.item.el === el);
      if (c && !cands.some((x) => x.item.approx && x.name === c.name) && sameNow(c, el, describer)) return describeTarget(el, cands, kept.describer);
    } catch {
      /* the fresh walk below */
    }
  }
  return describeTarget(el, undefined, describer);
}

/** The candidate's role and name read the same on the page now (as `candidatesOf` reads them). */
function sameNow(c: Candidate, el: Element, describer: Describer): boolean {
  const own = describer.role(el);
  let name = describer.name(el);
  if (!name && (own === 'generic' || own === 'none')) name = describer.nameAs(el, 'button');
  return shownRole(own) === c.role && describer.settings.masks.text(clean(name)) === c.name;
}

/** The target description of `el`, or undefined when the walk does not list it (hidden, in a zone). */
export function describeTarget(el: Element, cands: Candidate[] | undefined, describer: Describer): RecordedTarget | undefined {
  if (!cands) {
    // Its equals share its role: only those are named.
    let role: string;
    try {
      role = shownRole(describer.role(el));
    } catch {
      return undefined;
    }
    cands = pageCandidates(describer, role);
  }
  const c = cands.find((x) => x.item.el === el);
  if (!c) return undefined;
  const landmark = landmarkOf(el, describer);
  const t: RecordedTarget = { role: c.role, name: c.name };
  if (landmark) t.landmark = landmark;
  if (c.heading) t.heading = c.heading;
  if (c.near) t.near = c.near;
  const equals = cands.filter(
    (x) => x.role === c.role && x.name === c.name && x.near === c.near && x.heading === c.heading && same(landmarkOf(x.item.el, describer), landmark),
  );
  if (equals.length > 1) {
    t.nth = equals.indexOf(c) + 1;
    t.of = equals.length;
  }
  return t;
}

export type Located = { ok: true; el: Element; ref: Ref; candidate: Candidate } | { ok: false; problem: 'missing' | 'ambiguous'; why: string };

/** Finds a recorded target on the live page and gives it a ref `pagehand.act` can use. */
export function locate(t: RecordedTarget, cands: Candidate[], describer: Describer): Located {
  const what = `${t.role}${t.name ? ` ${JSON.stringify(t.name)}` : ''}`;
  const want = clean(t.name);
  let found = cands.filter((c) => c.role === t.role && c.name === want);
  // Only the case or the spacing changed: still the same control.
  if (!found.length) found = cands.filter((c) => c.role === t.role && c.name.toLowerCase() === want.toLowerCase());
  if (!found.length) return { ok: false, problem: 'missing', why: `no ${what} is on the page now` };
  // Narrow by what is around it, each only while something is left.
  const narrow = (keep: (c: Candidate) => boolean): void => {
    if (found.length < 2) return;
    const n = found.filter(keep);
    if (n.length) found = n;
  };
  if (t.near !== undefined) narrow((c) => c.near === t.near);
  if (t.landmark !== undefined) narrow((c) => landmarkOf(c.item.el, describer) === t.landmark);
  if (t.heading !== undefined) narrow((c) => c.heading === t.heading);
  let hit: Candidate | undefined;
  if (found.length === 1) hit = found[0];
  else if (t.nth && t.of === found.length) hit = found[t.nth - 1];
  if (!hit)
    return {
      ok: false,
      problem: 'ambiguous',
      why: `${found.length} elements match ${what}${t.near ? ` near ${JSON.stringify(t.near)}` : ''} and nothing tells them apart`,
    };
  return { ok: true, el: hit.item.el, ref: refFor(hit.item, describer), candidate: hit };
}

/** A ref the actions can resolve, recorded with the spec role and name (as `find` records one). */
function refFor(it: ElementItem, describer: Describer): Ref {
  const { ref } = assignRef(it.el, it.frame?.id);
  try {
    const d = describer.describe(it.el);
    remember(ref, it.el, d.role, d.name, `${it.frame?.id ?? ''}|${d.role}|${d.name}|${it.context}|replay`);
  } catch {
    /* acting on it reports it as unknown */
  }
  return ref;
}

/** Whether what a step expected shows on the page now. */
export function expectationHolds(e: RecordedExpectation, settings: PageSettings, cands?: () => Candidate[]): { ok: true } | { ok: false; why: string } {
  if (e.url !== undefined && !urlMatches(e.url, location.href, location.origin))
    return { ok: false, why: `the page is ${location.pathname}${location.search}, not ${e.url}` };
  if (e.dialog !== undefined) {
    const describer = createDescriber(settings);
    const open = [...takeSnapshot(document, settings.zones).dialogs].map((d) => settings.masks.text(dialogName(d, describer)));
    if (!open.includes(e.dialog)) return { ok: false, why: `no dialog ${JSON.stringify(e.dialog)} opened` };
  }
  if (e.visible !== undefined) {
    const v = e.visible;
    if (!(cands ?? (() => pageCandidates(createDescriber(settings))))().some((c) => c.role === v.role && c.name === clean(v.name)))
      return { ok: false, why: `${v.role} ${JSON.stringify(v.name)} did not appear` };
  }
  return { ok: true };
}
