/**
 * The page map: walk → scope and occlusion → names and states (only for what may be listed)
 * → budget → refs → text. Reads the page, never writes to it.
 */
import { createDescriber, type Describer } from './describe';
import { cap, choose, quote, REF_SLOT, sanitize, scrollText, statesText, type Counts, type Direction, type GroupHeader, type Line } from './format';
import { deepActiveElement } from './flat-tree';
import { coverOf, layerOf } from './occlusion';
import { assignRef, refOf, rematch, remember, sweep } from './refs';
import { readStates } from './state';
import { estimateTokens } from './tokens';
import type { MapOptions, MappedElement, PageMap, Rect, Ref } from './types';
import { walk, type ElementItem, type Group, type Item, type TextItem } from './walk';

const NAME_MAX = 80;
const TEXT_MAX = 200;
const IMPLIED_TYPE: Record<string, string> = { searchbox: 'search', spinbutton: 'number', slider: 'range' };

interface Place {
  direction: Direction;
  /** Screens away from the viewport (0 in view). */
  distance: number;
}

export function buildMap(options: MapOptions = {}): PageMap {
  const t0 = performance.now();
  sweep();
  const maxTokens = options.maxTokens ?? 3000;
  const near = options.nearScreens ?? 1;
  const focused = deepActiveElement(document);
  const w = walk(document, { focused, text: options.text !== false });
  const W = window.innerWidth;
  const H = window.innerHeight;
  const describer = createDescriber();
  const counts: Counts = { above: 0, below: 0, left: 0, right: 0, budget: 0, covered: new Map() };

  // A modal dialog makes everything behind it inert: only its content is offered.
  const modal = w.modals.length ? w.modals[w.modals.length - 1]! : null;
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

  // Scope: viewport, then `near` screens around it; the rest is counted by direction.
  const scoped = new Map<ElementItem, Place>();
  const sx = window.scrollX;
  const sy = window.scrollY;
  for (const it of items) {
    if (it.kind !== 'el' || it.clippedBy) continue;
    const r = it.rect;
    // Boxes beyond the document's origin can never be scrolled to: "visually hidden" tricks.
    if (r.x + r.width <= -sx || r.y + r.height <= -sy) continue;
    const d = placement(r, W, H);
    if (d.direction === 'view' || (d.direction !== 'left' && d.direction !== 'right' && d.distance < near)) {
      scoped.set(it, d);
    } else counts[d.direction as 'above' | 'below' | 'left' | 'right']++;
  }

  // Occlusion, only for in-view candidates and only when something can cover them.
  if (w.layered || modal) {
    for (const [it, d] of scoped) {
      if (d.direction !== 'view' || it.el === focused || it.opaque) continue;
      const cover = coverOf(it.el, it.rect, { width: W, height: H });
      if (!cover) continue;
      scoped.delete(it);
      const layer = layerOf(cover);
      const d2 = describer.describe(layer);
      const label = `${displayRole(d2.role, 'generic')}${d2.name ? ` ${quote(cap(d2.name, 40))}` : ''}`;
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
  const focusForm = focused?.closest('form') ?? null;
  const lines: Line[] = [];
  const info = new Map<number, { item: ElementItem; role: string; name: string; display: string; states: ReturnType<typeof readStates> }>();
  const names = new Set<string>();
  for (const it of items) {
    if (it.kind === 'el') {
      const d = scoped.get(it);
      if (!d) continue;
      const entry = safeDescribe(it, describer, focused);
      info.set(it.order, entry);
      if (entry.name) names.add(entry.name);
      const inDialog = it.groups.some((g) => g.kind === 'dialog');
      const priority = modal
        ? 0
        : it.el === focused || (focusForm && focusForm.contains(it.el))
          ? 1
          : d.direction === 'view'
            ? inDialog ? 2 : 3
            : 5 + d.distance;
      lines.push({ order: it.order, isElement: true, body: entry.display, groups: headerOf(it.groups), priority, direction: d.direction, block: it.block });
    }
  }
  for (const it of items) {
    if (it.kind !== 'text') continue;
    const d = textPlacement(it, W, H);
    if (!d || d.distance >= near) continue;
    if (names.has(it.text)) continue; // names are not repeated as text
    // Beyond the viewport only headings, to orient; the rest is read when scrolled to (or with read).
    if (d.direction !== 'view' && !it.heading) continue;
    const body = (it.heading ? `${'#'.repeat(Math.min(it.heading, 6))} ` : '') + cap(sanitize(it.text), TEXT_MAX);
    lines.push({ order: it.order, isElement: false, body, groups: headerOf(it.groups), priority: d.direction === 'view' ? 4 : 7 + d.distance, direction: d.direction, block: it.block });
  }
  lines.sort((a, b) => a.order - b.order);

  const header = pageHeader(W, H);
  const formatted = choose({ header, lines, maxTokens, counts });

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
    elements.push({
      ref: ref as Ref,
      role: e.role,
      name: e.name,
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
  return {
    text,
    elements,
    stats: {
      visited: w.visited,
      candidates: w.candidates,
      listed: elements.length,
      more: { above: counts.above, below: counts.below, left: counts.left, right: counts.right, covered: [...counts.covered.values()].reduce((a, b) => a + b, 0) },
      tokens,
      ms: Math.round((performance.now() - t0) * 10) / 10,
    },
  };
}

function placement(r: Rect, W: number, H: number): Place {
  const inX = r.x < W && r.x + r.width > 0;
  const inY = r.y < H && r.y + r.height > 0;
  if (inX && inY) return { direction: 'view', distance: 0 };
  if (!inY) {
    if (r.y + r.height <= 0) return { direction: 'above', distance: -(r.y + r.height) / H };
    return { direction: 'below', distance: (r.y - H) / H };
  }
  return r.x >= W ? { direction: 'right', distance: (r.x - W) / W } : { direction: 'left', distance: -(r.x + r.width) / W };
}

function textPlacement(it: TextItem, W: number, H: number): Place | null {
  const r0 = it.el.getBoundingClientRect();
  const r = it.frame ? { x: r0.x + it.frame.dx, y: r0.y + it.frame.dy, width: r0.width, height: r0.height } : r0;
  if (r.width === 0 && r.height === 0) return null;
  if (it.clip && !(r.x < it.clip.x + it.clip.width && r.x + r.width > it.clip.x && r.y < it.clip.y + it.clip.height && r.y + r.height > it.clip.y)) return null;
  const p = placement(r, W, H);
  return p.direction === 'left' || p.direction === 'right' ? null : p;
}

/** One odd element (a throwing getter, a half-built custom element) must not sink the map. */
function safeDescribe(it: ElementItem, d: Describer, focused: Element | null): ReturnType<typeof describeItem> {
  try {
    return describeItem(it, d, focused);
  } catch {
    return { item: it, role: 'generic', name: '', display: `${REF_SLOT}${displayRole('', it.reason)}`, states: {} };
  }
}

function describeItem(it: ElementItem, d: Describer, focused: Element | null) {
  const el = it.el;
  let role: string;
  if (it.opaque) role = it.opaque;
  else role = d.role(el);
  const name = it.opaque === 'canvas' ? '' : d.name(el) || (it.opaque ? el.getAttribute('title') ?? '' : '');
  const states = it.opaque ? {} : readStates(el, role, focused);
  if (it.scroll) states.scroll = it.scroll;
  // The type is shown only when the role does not already say it.
  if (states.type && IMPLIED_TYPE[role] === states.type) delete states.type;
  // Generic clickables have no name by the spec (not even from aria-label); the model still
  // needs to know what they say, so they are named as the button they act as.
  let shown = name;
  if (!shown && (it.reason === 'pointer' || it.reason === 'handler' || it.reason === 'focus')) shown = d.nameAs(el, 'button');
  // An editor's content is its value.
  if (it.reason === 'editable' && states.value === undefined) {
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (text) states.value = text;
  }
  const parts = [`${REF_SLOT}${displayRole(role, it.reason)}`];
  if (shown) parts.push(quote(cap(shown, NAME_MAX)));
  if (it.opaque) {
    parts.push(`${Math.round(it.rect.width)}x${Math.round(it.rect.height)}`);
    parts.push(it.crossOrigin ? 'cross-origin, opaque: use click_at' : 'opaque: use click_at');
  }
  const st = statesText(states);
  if (st) parts.push(st);
  if (it.hiddenInside) parts.push(`(${it.hiddenInside} more inside, scroll it)`);
  return { item: it, role, name, display: parts.join(' '), states };
}

function displayRole(role: string, reason: string): string {
  if (role === 'generic' || role === 'none' || role === 'presentation' || !role) return reason === 'scroll' ? 'scrollable' : 'clickable';
  return role;
}

function groupLabel(g: Group, d: Describer): string {
  if (g.kind === 'frame') {
    const f = g.el as HTMLIFrameElement;
    const title = f.title || f.name;
    return `frame ${g.frame!.id}${title ? ` ${quote(cap(title, 40))}` : ''}`;
  }
  const name = d.name(g.el);
  return `${g.kind}${name ? ` ${quote(cap(name, NAME_MAX))}` : ''}${g.modal ? ' modal' : ''}`;
}

function pageHeader(W: number, H: number): string {
  const se = document.scrollingElement ?? document.documentElement;
  const up = window.scrollY / H;
  const down = Math.max(0, se.scrollHeight - H - window.scrollY) / H;
  const left = window.scrollX / W;
  const right = Math.max(0, se.scrollWidth - W - window.scrollX) / W;
  const url = location.href.length > 200 ? `${location.href.slice(0, 200)}…` : location.href;
  return `page ${quote(cap(document.title, NAME_MAX))} ${sanitize(url)}  viewport ${W}x${H}  ${scrollText({ up, down, left, right })} screens`;
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
