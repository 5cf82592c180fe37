/**
 * Opening a widget's list and finding its rows, for select_option: the widget's own parts (an
 * inner input, an outer combobox) and what they point at; else a real click on the widget and
 * the popup that appeared (popup.ts), never another widget's list.
 */
import { waitActionable } from './actionability';
import type { ActionContext } from './context';
import { clickAt } from './pointer';
import { popupCandidates, renderedContainer, rowsIn, shownAround, watchChanges, type Row } from './popup';
import { ownerDocumentOf, parentElementOf, attrOf } from '../dom/proto';

function idRefs(el: Element, attrs: string[]): Element[] {
  const root = el.getRootNode() as Document | ShadowRoot;
  const doc = ownerDocumentOf(el);
  const out: Element[] = [];
  for (const a of attrs) {
    for (const id of (attrOf(el, a) ?? '').split(/\s+/).filter(Boolean)) {
      const t = ('getElementById' in root ? root.getElementById(id) : null) ?? doc.getElementById(id);
      if (t) out.push(t);
    }
  }
  return out;
}

/** The combobox's own parts: itself, an inner input, or an outer [role=combobox]. */
export function widgetParts(el: Element): Element[] {
  const parts = [el];
  const outer = parentElementOf(el)?.closest('[role=combobox]');
  if (outer) parts.push(outer);
  parts.push(...el.querySelectorAll('input,[role=combobox],[role=textbox],[role=searchbox],[aria-controls],[aria-owns]'));
  return parts;
}

/** Where the widget's own list is: itself (a listbox, menu or tree), or what it points at. */
export function ownContainers(el: Element, role: string): Element[] {
  const out = role === 'listbox' || role === 'menu' || role === 'tree' ? [el] : [];
  for (const p of widgetParts(el)) out.push(...idRefs(p, ['aria-controls', 'aria-owns']).map(renderedContainer));
  return out;
}

export function optionLabel(o: Element, ctx: ActionContext): string {
  let name: string;
  try {
    name = ctx.describer.name(o);
  } catch {
    name = '';
  }
  return (name || ctx.settings.zones.textOutside(o, 2000)).replace(/\s+/g, ' ').trim();
}

export interface OpenList {
  rows: Row[];
  containers: Element[];
}

/**
 * The rows of the list `el` opens: its own list if already shown, else after a real click, in
 * what it points at or what changed while it opened. Never rows of another widget.
 */
export async function openList(el: Element, role: string, subject: string, ctx: ActionContext, own: () => Element[]): Promise<OpenList> {
  const label = (o: Element) => optionLabel(o, ctx);
  let containers = own();
  let rows = rowsIn(containers, ctx.settings.zones, label, el);
  if (rows.length) return { rows, containers };
  // A second click covers a list that was already open without saying so: the first closed it.
  for (let attempt = 0; attempt < 2; attempt++) {
    const point = await waitActionable(el, { timeout: ctx.options.actionTimeout, describer: ctx.describer, subject, pointer: true });
    const before = shownAround(el, ctx.settings.zones);
    const changes = watchChanges(ownerDocumentOf(el));
    clickAt(point!.target, { local: point!.local, root: point!.root });
    await ctx.settle();
    const changed = changes();
    containers = own();
    rows = rowsIn(containers, ctx.settings.zones, label, el);
    if (rows.length) return { rows, containers };
    for (const c of popupCandidates(changed, el)) {
      rows = rowsIn([c], ctx.settings.zones, label, el).filter((r) => !before.has(r.el));
      if (rows.length) return { rows, containers: [c] };
    }
    if (!changed.length) break; // the click changed nothing: no list to find
  }
  return { rows: [], containers: [] };
}

/** Rows again after the list re-rendered (filtered, scrolled): same containers, or where it changed. */
export function refind(list: OpenList, el: Element, changed: Element[], ctx: ActionContext, own: () => Element[]): OpenList {
  const label = (o: Element) => optionLabel(o, ctx);
  for (const cs of [own(), list.containers.filter((c) => c.isConnected), ...popupCandidates(changed, el).map((c) => [c])]) {
    const rows = rowsIn(cs, ctx.settings.zones, label, el);
    if (rows.length) return { rows, containers: cs };
  }
  return { rows: [], containers: [] };
}
