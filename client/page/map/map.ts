/**
 * The page map: walk → scope and occlusion → names and states (only for what may be listed)
 * → budget → refs → text. Reads the page, never writes to it.
 *
 * One job (`mapJob`) serves both calls: `buildMap` runs it in one go; `buildMapAsync` runs it in
 * slices, giving the page the thread between them (slicing.ts). Whatever the page removes
 * between slices is left out; refs are handed out at the end, in one slice.
 */
import { scrollCount } from '../settle/scrolls';
import { createDescriber, type Describer } from '../names/describe';
import { keepWalk, keepWalkAs, watchChanges } from './walk-reuse';
import { takeAhead, viewOf } from './walk-ahead';
import { cap, choose, quote, REF_SLOT, scrollText, statesText, type Counts, type GroupHeader, type Line } from './format';
import { clean } from './fence';
import { deepActiveElement } from '../dom/flat-tree';
import { hintFor } from './hints';
import { coverOf, layerOf } from './occlusion';
import { createTextPlacer, placement, type Place } from './place';
import { attachPopups } from './popups';
import { assignRef, refOf, rematch, remember, sweep } from './refs';
import { readStates } from '../names/state';
import { runNow, runSliced, sliceBudget, SLICE_MS, UNLIMITED, type Budget, type Sliced } from './slicing';
import { estimateTokens } from './tokens';
import type { ElementStates, MapOptions, MappedElement, PageMap, Rect, Ref } from '../page-types';
import { applyStandIn } from './widgets';
import { startWalk, type ElementItem, type Group, type Item } from './walk';
import { mergeRemote } from '../frames/merge';
import type { PageSettings, PageText, Zones } from '../settings';
import { refreshRemoteMaps, remoteFrameCount, remoteFrameMaps } from '../frames/parent';
import { stateClass } from './walk/target';
import { ownLine } from './walk/tree';
import { nodeTypeOf, nextSiblingOf, firstChildOf, attrOf, ownerDocumentOf } from '../dom/proto';

const NAME_MAX = 80;
const TEXT_MAX = 200;
const IMPLIED_TYPE: Record<string, string> = { searchbox: 'search', spinbutton: 'number', slider: 'range' };

/** The map in one synchronous call. */
export function buildMap(options: MapOptions, settings: PageSettings): PageMap {
  if (!settings.remoteFrames) return runNow(mapJob(options, settings, UNLIMITED));
  // Frames from other origins that take part: their last maps (mapAsync asks them afresh).
  const own = runNow(mapJob(withFrameShare(options, remoteFrameCount(settings)), settings, UNLIMITED));
  const merged = mergeRemote(own, remoteFrameMaps(settings), settings.fence);
  keepWalkAs(merged, own);
  return merged;
}

/** The page's own share of the budget when frames from other origins add their maps. */
function withFrameShare(options: MapOptions, frames: number): MapOptions {
  if (!frames) return options;
  const max = options.maxTokens ?? 3000;
  return { ...options, maxTokens: max - frameShare(max) };
}

/** Tokens all taking-part frames' maps may take together. */
const frameShare = (max: number): number => Math.min(1200, Math.floor(max / 3));

/**
 * The same map, built in slices of about SLICE_MS with the page running in between: no long
 * task however big the page. Equal to `buildMap`'s on a page that does not change meanwhile
 * (`stats.ms` is then the time from call to result).
 */
export async function buildMapAsync(options: MapOptions, settings: PageSettings): Promise<PageMap> {
  if (!settings.remoteFrames) {
    const budget = sliceBudget({ sliceMs: SLICE_MS });
    return runSliced(mapJob(options, settings, budget), budget);
  }
  const max = options.maxTokens ?? 3000;
  await refreshRemoteMaps(frameShare(max), settings);
  const budget = sliceBudget({ sliceMs: SLICE_MS });
  const own = await runSliced(mapJob(withFrameShare(options, remoteFrameCount(settings)), settings, budget), budget);
  const merged = mergeRemote(own, remoteFrameMaps(settings), settings.fence);
  keepWalkAs(merged, own);
  return merged;
}

/**
 * The map as a job that yields between slices. Boxes are read as the walk goes: when the
 * window scrolled or resized, or a scroller in the page scrolled, between slices they no longer
 * agree, and the job starts over
 * (`retries` times, then the map is taken as it is).
 */
function* mapJob(options: MapOptions, settings: PageSettings, budget: Budget, t0 = performance.now(), retries = 1): Sliced<PageMap> {
  const { zones } = settings;
  const maxTokens = options.maxTokens ?? 3000;
  const near = options.nearScreens ?? 1;
  const key = { text: options.text !== false, exactScreens: near + 1 };
  // The walk started ahead in the last action's settle wait, if the page is as it was then.
  const ahead = takeAhead(settings, key);
  const view = viewOf();
  const scrolls = scrollCount();
  sweep();
  const focused = deepActiveElement(document);
  // Watched from before the walk: the step's recording reuses the walk while nothing changed.
  const watch = ahead?.watch ?? watchChanges();
  const walker = ahead?.walk ?? startWalk(document, { focused, ...key, zones, entered: watch.enter });
  while (!walker.run(budget)) yield;
  // What follows the walk reads every item once (modal scope, suggestion lists): a fresh slice.
  yield;
  const w = walker.result();
  const W = window.innerWidth;
  const H = window.innerHeight;
  const describer = createDescriber(settings);
  const counts: Counts = { above: 0, below: 0, left: 0, right: 0, budget: 0, covered: new Map() };

  // A modal dialog makes everything behind it inert: only its content is offered (one the page
  // removed meanwhile no longer is).
  const modals = w.modals.filter((g) => inPage(g.el));
  const modal = modals.length ? modals[modals.length - 1]! : null;
  let items: Item[] = w.items;
  if (modal) {
    let behind = 0;
    items = items.filter((it) => {
      const inside = it.groups.includes(modal);
      if (!inside && it.kind === 'el' && !it.clippedBy) behind++;
      return inside;
    });
    counts.behindModal = { label: groupLabel({ ...modal, modal: false }, describer), count: behind };
  }

  // A control a label stands in for is listed once, at its label (even while it has the focus).
  const standIns = new Set<Element>();
  for (const it of items) if (it.kind === 'el' && it.standsFor) standIns.add(it.standsFor);
  if (standIns.size) items = items.filter((it) => it.kind !== 'el' || !standIns.has(it.el));

  // Suggestion lists rendered at the end of <body> read right after their field, as options.
  const popupOptions = attachPopups(items, focused);

  // Scope: viewport, then `near` screens around it; the rest is counted by direction.
  const scoped = new Map<ElementItem, Place>();
  const sx = window.scrollX;
  const sy = window.scrollY;
  for (const it of items) {
    if (budget.due()) yield;
    if (it.kind !== 'el' || it.clippedBy) continue;
    const r = it.rect;
    const d = placement(r, W, H);
    // The focused element is always offered, wherever it is (a drawer still sliding in).
    if (it.el === focused) {
      scoped.set(it, d);
      continue;
    }
    // Boxes beyond the document's origin can never be scrolled to: "visually hidden" tricks.
    if (r.x + r.width <= -sx || r.y + r.height <= -sy) continue;
    if (d.direction === 'view' || (d.direction !== 'left' && d.direction !== 'right' && d.distance < near)) {
      scoped.set(it, d);
    } else counts[d.direction as 'above' | 'below' | 'left' | 'right']++;
  }

  // Occlusion, only for in-view candidates and only when something can cover them.
  if (w.layered || modal) {
    for (const [it, d] of scoped) {
      if (budget.due()) yield;
      if (d.direction !== 'view' || it.el === focused || it.opaque) continue;
      if (!inPage(it.el)) continue; // gone meanwhile: left out below
      const cover = coverOf(it.el, it.rect, { width: W, height: H });
      if (!cover) continue;
      scoped.delete(it);
      const layer = layerOf(cover);
      const d2 = describer.describe(layer);
      const label = `${displayRole(d2.role, 'generic')}${d2.name ? ` ${quote(cap(d2.name, 40, settings), settings)}` : ''}`;
      counts.covered.set(label, (counts.covered.get(label) ?? 0) + 1);
    }
  }

  // Lines: names and states only for what may be listed.
  const headers = new Map<Group, GroupHeader>();
  const headerOf = (groups: readonly Group[]): GroupHeader[] =>
    groups.map((g) => {
      let h = headers.get(g);
      if (!h) headers.set(g, (h = { key: g, label: groupLabel(g, describer) }));
      return h;
    });
  // The first name builds the page's label and select indexes (~10 ms at 57k elements): a slice
  // of its own, so that it never adds to a slice already spent.
  yield;
  const focusForm = focused?.closest('form') ?? null;
  const lines: Line[] = [];
  const info = new Map<number, Described>();
  const names = new Set<string>();
  /** The element behind each line, to leave out lines whose element the page removed meanwhile. */
  const sources = new Map<Line, Element>();
  for (const it of items) {
    if (it.kind === 'el') {
      const d = scoped.get(it);
      if (!d) continue;
      if (budget.due()) yield;
      if (!inPage(it.el)) continue;
      const entry = safeDescribe(it, describer, focused, popupOptions.has(it));
      info.set(it.order, entry);
      if (entry.name) names.add(entry.name);
      const inDialog = it.groups.some((g) => g.kind === 'dialog');
      const priority = modal
        ? 0
        : it.el === focused || (focusForm && focusForm.contains(it.el))
          ? 1
          : d.direction === 'view'
            ? inDialog
              ? 2
              : 3
            : 5 + d.distance;
      const line: Line = {
        order: it.order,
        isElement: true,
        body: entry.display,
        groups: headerOf(it.groups),
        priority,
        direction: d.direction,
        block: it.block,
      };
      lines.push(line);
      sources.set(line, it.el);
    }
  }
  const textPlace = createTextPlacer(W, H);
  for (const it of items) {
    if (it.kind !== 'text') continue;
    if (budget.due()) yield;
    if (!inPage(it.el)) continue;
    const d = textPlace(it);
    if (!d || d.distance >= near) continue;
    if (names.has(it.text)) continue; // names are not repeated as text
    // Beyond the viewport only headings, to orient; the rest is read when scrolled to (or with read).
    if (d.direction !== 'view' && !it.heading) continue;
    const body = (it.heading ? `${'#'.repeat(Math.min(it.heading, 6))} ` : '') + cap(it.text, TEXT_MAX, settings);
    const line: Line = {
      order: it.order,
      isElement: false,
      body,
      groups: headerOf(it.groups),
      priority: d.direction === 'view' ? 4 : 7 + d.distance,
      direction: d.direction,
      block: it.block,
    };
    lines.push(line);
    sources.set(line, it.el);
  }

  // From here on, one fresh slice: what is listed is what is in the page now, and gets its refs.
  yield;
  // The window, or a scroller inside the page, moved: what was measured before no longer holds.
  if (retries > 0 && (viewOf() !== view || scrollCount() !== scrolls)) {
    watch.stop();
    return yield* mapJob(options, settings, budget, t0, retries - 1);
  }
  const present = lines.filter((l) => inPage(sources.get(l)!));
  present.sort((a, b) => a.order - b.order);

  const header = pageHeader(W, H, settings);
  const formatted = choose({ header, fence: settings.fence, lines: present, maxTokens, counts });

  // Refs for what is listed: its own, a re-matched one (replaced node), or a new one.
  const listed = [...info.values()].filter((e) => formatted.chosen.has(e.item.order));
  const fingerprints = fingerprintAll(listed);
  const fresh = listed.filter((e) => !refOf(e.item.el)).map((e) => ({ el: e.item.el, fingerprint: fingerprints.get(e.item)! }));
  const rematched = rematch(fresh);
  const refs = new Map<number, string>();
  const elements: MappedElement[] = [];
  for (const e of listed) {
    const { ref, isNew } = assignRef(e.item.el, e.item.frame?.id);
    remember(ref, e.item.el, e.role, e.name, fingerprints.get(e.item)!);
    refs.set(e.item.order, (isNew ? '*' : '') + ref);
    const wasRematched = rematched.has(e.item.el);
    // The entry says what the line shows; the spec role and name are what refs re-validate.
    elements.push({
      ref: ref as Ref,
      role: e.shownRole,
      name: e.shown,
      ...(e.hint ? { hint: e.hint } : {}),
      rect: roundRect(e.item.rect),
      states: e.states,
      tag: e.item.el.localName,
      ...(e.item.frame ? { frame: e.item.frame.id } : {}),
      isNew: isNew && !wasRematched,
    });
  }
  // The `*` mark goes before the bracket: `*[188]button "Archive"`.
  let text = formatted.render(refs);
  text = text.replace(/\[\*([^\]]+)\]/g, '*[$1]');
  const tokens = estimateTokens(text);
  const map: PageMap = {
    text,
    elements,
    stats: {
      visited: w.visited,
      candidates: w.candidates,
      listed: elements.length,
      more: {
        above: counts.above,
        below: counts.below,
        left: counts.left,
        right: counts.right,
        covered: [...counts.covered.values()].reduce((a, b) => a + b, 0),
      },
      tokens,
      ms: Math.round((performance.now() - t0) * 10) / 10,
    },
  };
  keepWalk(map, { walk: w, describer, settings }, watch);
  return map;
}

/**
 * Still in the page (the sliced map gives the page the thread between slices): connected, and
 * in a frame that is still there — a removed frame's nodes stay connected to its document.
 */
function inPage(el: Element): boolean {
  return el.isConnected && ownerDocumentOf(el).defaultView !== null;
}

/** One odd element (a throwing getter, a half-built custom element) must not sink the map. */
function safeDescribe(it: ElementItem, d: Describer, focused: Element | null, asOption: boolean): Described {
  try {
    return describeItem(it, d, focused, asOption);
  } catch {
    const shownRole = displayRole('', it.reason);
    return { item: it, role: 'generic', name: '', shownRole, shown: '', display: `${REF_SLOT}${shownRole}`, states: {} };
  }
}

interface Described {
  item: ElementItem;
  /** Role and accessible name by the specs (what refs re-validate against). */
  role: string;
  name: string;
  /** What the line shows: `clickable` for generic targets, a name from content, a hint. */
  shownRole: string;
  shown: string;
  hint?: string;
  display: string;
  states: ElementStates;
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

function describeItem(it: ElementItem, d: Describer, focused: Element | null, asOption: boolean): Described {
  const el = it.el;
  // Refs re-validate against the describer's role and name, as actions read them; an opaque
  // region only shows as its kind (a canvas as "canvas", never re-checked as one).
  let role = d.role(el);
  let name = d.name(el);
  // A label standing in for a hidden checkbox, radio or file input reads as that control.
  const control = it.standsFor;
  const controlRole = control ? d.role(control) : '';
  const { zones } = d.settings;
  const states = it.opaque ? {} : control ? readStates(control, controlRole, focused, zones) : readStates(el, role, focused, zones);
  // A custom select's visible stand-in reads as the hidden <select> it replaces (widgets.ts).
  const standIn = it.opaque ? undefined : applyStandIn(el, d, states);
  if (standIn) ({ role, name } = standIn);
  if (it.scroll) states.scroll = it.scroll;
  // A dropdown's box whose list of choices shows is open.
  if (it.holdsChoices && states.expanded === undefined) states.expanded = true;
  // A tree row without ARIA: open while its nested group shows; else a state class on the row
  // or its twisty ("collapsed", "is-expanded") says it.
  if (it.tree?.group && states.expanded === undefined) states.expanded = it.tree.group.getClientRects().length > 0;
  if (states.expanded === undefined && (it.reason === 'pointer' || it.reason === 'handler')) {
    const cls = stateClass(el);
    if (cls !== undefined) states.expanded = cls;
  }
  // The type is shown only when the role does not already say it.
  if (states.type && IMPLIED_TYPE[role] === states.type) delete states.type;
  // Generic clickables have no name by the spec (not even from aria-label); the model still
  // needs to know what they say, so they are named as the button they act as.
  // A tree node is named by its own line, not by the rows nested in it.
  let shown = it.opaque
    ? opaqueName(it, name)
    : control
      ? d.name(control)
      : it.tree?.ownLine
        ? ownLine(el, it.tree.group, (e) => (zones.excluded(e) ? '' : zones.textOutside(e, 200)))
        : name;
  if (!shown && (it.reason === 'pointer' || it.reason === 'handler' || it.reason === 'focus')) shown = d.nameAs(el, 'button');
  // A dropdown's box is named by what it shows, not by the choices it holds (listed apart).
  if (it.holdsChoices && !name) shown = textWithout(el, it.holdsChoices, zones);
  // An icon inside a row ("×", "⋮") is better told by its tooltip than by its glyph.
  if (it.iconIn && !LETTER_OR_DIGIT.test(shown)) shown = attrOf(el, 'title')?.trim() || shown;
  // Nameless (or glyph-only icon) targets get a hint, printed apart from the name.
  const hint = it.opaque || it.reason === 'scroll' || (shown && !(it.iconIn && !LETTER_OR_DIGIT.test(shown))) ? '' : hintFor(el, d.settings, it.iconIn, role);
  // An editor's content is its value (never what a deny zone inside it holds).
  if (it.reason === 'editable' && states.value === undefined) {
    const text = zones.textOutside(el, 2000).replace(/\s+/g, ' ').trim();
    if (text) states.value = text;
  }
  const shownRole = it.opaque
    ? it.opaque
    : control
      ? displayRole(controlRole, it.reason)
      : (asOption || it.choice) && (role === 'generic' || role === 'listitem' || role === 'none' || role === 'presentation')
        ? 'option'
        : displayRole(role, it.reason);
  const parts = [`${REF_SLOT}${shownRole}`];
  if (shown) parts.push(quote(cap(shown, NAME_MAX, d.settings), d.settings));
  // The hint's page words are cleaned where it quotes them; what else it holds is a class or id.
  if (hint) parts.push(`~${clean(hint, d.settings.fence)}`);
  if (it.opaque) {
    parts.push(`${Math.round(it.rect.width)}x${Math.round(it.rect.height)}`);
    parts.push(it.crossOrigin ? 'cross-origin, opaque: use click_at' : 'opaque: use click_at');
  }
  const st = statesText(states, d.settings);
  if (st) parts.push(st);
  if (it.hiddenInside) parts.push(`(${it.hiddenInside} more inside, scroll it)`);
  return { item: it, role, name, shownRole, shown, ...(hint ? { hint } : {}), display: parts.join(' '), states };
}

/** What an opaque region shows as its name: a canvas none (its fallback content is not what it draws), others theirs or their title. */
function opaqueName(it: ElementItem, name: string): string {
  return it.opaque === 'canvas' ? '' : name || (attrOf(it.el, 'title') ?? '');
}

/** The element's text outside one of its descendants (and outside deny zones), collapsed. */
function textWithout(el: Element, skip: Element, zones: Zones): string {
  let t = '';
  const add = (n: Node): void => {
    for (let c = firstChildOf(n); c && t.length < 500; c = nextSiblingOf(c)) {
      if (c === skip) continue;
      if (nodeTypeOf(c) === 3) t += (c as Text).data;
      else if (nodeTypeOf(c) === 1 && !zones.excluded(c as Element)) add(c);
    }
  };
  add(el);
  return t.replace(/\s+/g, ' ').trim();
}

function displayRole(role: string, reason: string): string {
  if (role === 'generic' || role === 'none' || role === 'presentation' || !role) return reason === 'scroll' ? 'scrollable' : 'clickable';
  return role;
}

function groupLabel(g: Group, d: Describer): string {
  const t = d.settings;
  if (g.kind === 'frame') {
    const f = g.el as HTMLIFrameElement;
    const title = f.title || f.name;
    return `frame ${g.frame!.id}${title ? ` ${quote(cap(title, 40, t), t)}` : ''}`;
  }
  const name = d.name(g.el);
  return `${g.kind}${name ? ` ${quote(cap(name, NAME_MAX, t), t)}` : ''}${g.modal ? ' modal' : ''}`;
}

function pageHeader(W: number, H: number, t: PageText): string {
  const se = document.scrollingElement ?? document.documentElement;
  const up = window.scrollY / H;
  const down = Math.max(0, se.scrollHeight - H - window.scrollY) / H;
  const left = window.scrollX / W;
  const right = Math.max(0, se.scrollWidth - W - window.scrollX) / W;
  const url = location.href.length > 200 ? `${location.href.slice(0, 200)}…` : location.href;
  return `page ${quote(cap(document.title, NAME_MAX, t), t)} ${clean(url, t.fence)}  viewport ${W}x${H}  ${scrollText({ up, down, left, right })} screens`;
}

/**
 * Fingerprint = role + name + landmark/heading context + position among equals, written
 * "i/n": a group of equals re-matches by position only while its size is unchanged, so a
 * removed row never hands its ref to its neighbour.
 */
function fingerprintAll(listed: Array<{ item: ElementItem; role: string; name: string }>): Map<ElementItem, string> {
  const groups = new Map<string, ElementItem[]>();
  for (const e of listed) {
    const base = `${e.item.frame?.id ?? ''}|${e.role}|${e.name}|${e.item.context}`;
    const g = groups.get(base);
    if (g) g.push(e.item);
    else groups.set(base, [e.item]);
  }
  const out = new Map<ElementItem, string>();
  for (const [base, items] of groups) items.forEach((it, i) => out.set(it, `${base}|${i}/${items.length}`));
  return out;
}

function roundRect(r: Rect): Rect {
  const q = (n: number) => Math.round(n * 10) / 10;
  return { x: q(r.x), y: q(r.y), width: q(r.width), height: q(r.height) };
}
