/**
 * `select_option` on a custom select that hides its native `<select>` (select2, Choices.js,
 * chosen, jQuery UI selectmenu, the selectric pattern): the option is matched against the
 * select's own options, then picked through the widget as a user would — open it, click the row
 * showing that label in the widget's own list — so the widget's display and state follow.
 *
 * The hidden select must end up with the value and a `change` event. Many plugins announce the
 * change only through jQuery's `trigger` (no DOM event) or through their own event; when neither
 * a DOM nor a jQuery `change` reached the select, one is dispatched, as the page would see from
 * a native select. If the widget's list never showed the row, the option is set on the select
 * directly, and the result says so.
 *
 * On a multiple select the asked options are added (already chosen ones are left as they are).
 */
import type { StandIn } from '../map/widgets';
import { selectedLabels } from '../map/widgets';
import { waitActionable } from './actionability';
import type { ActionContext, Outcome } from './context';
import { isValueField, tag, winOf } from './dom';
import { clearField, fireChange, fireInput } from './editing';
import { pickNativeOptions, quoteList } from './native-select';
import { openList, optionLabel, ownContainers, widgetParts, type OpenList } from './open-list';
import { isShown, popupCandidates, rowsIn, watchChanges, type Row } from './popup';
import { typeChars } from './type';
import { clickAt } from './pointer';
import { ownerDocumentOf } from '../dom/proto';

const norm = (s: string): string => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** Whether a `change` reached the select, as a DOM event or through jQuery's trigger. */
function watchChangeEvents(sel: HTMLSelectElement): { seen(): boolean; stop(): void } {
  let seen = false;
  const mark = () => {
    seen = true;
  };
  sel.addEventListener('change', mark, true);
  type JQ = ((el: Element) => { on(t: string, f: () => void): void; off(t: string, f: () => void): void }) & { fn?: unknown };
  const jq = (winOf(sel) as unknown as { jQuery?: JQ }).jQuery;
  const wrapped = typeof jq === 'function' && jq.fn ? jq(sel) : undefined;
  wrapped?.on('change', mark);
  return {
    seen: () => seen,
    stop: () => {
      sel.removeEventListener('change', mark, true);
      wrapped?.off('change', mark);
    },
  };
}

/** The row showing exactly `label`; several are told apart by being closest to the trigger. */
function rowFor(rows: Row[], label: string, trigger: Element): Row | undefined {
  const hits = rows.filter((r) => norm(r.label) === norm(label));
  if (hits.length <= 1) return hits[0];
  const t = trigger.getBoundingClientRect();
  const dist = (r: Row) => {
    const b = r.el.getBoundingClientRect();
    return Math.hypot(b.x + b.width / 2 - (t.x + t.width / 2), b.y + b.height / 2 - (t.y + t.height / 2));
  };
  return hits.sort((a, b) => dist(a) - dist(b))[0];
}

/**
 * A widget that did not open (chosen keeps a focused multi-select shut on click) or that has not
 * rendered the row: type the label into its search field, as a user would, and look again.
 */
async function typeToFilter(trigger: Element, label: string, ctx: ActionContext, own: () => Element[]): Promise<Row | undefined> {
  const input = widgetParts(trigger).find(
    (p): p is HTMLInputElement => tag(p) === 'input' && isValueField(p) && !(p as HTMLInputElement).readOnly && isShown(p),
  );
  if (!input) return undefined;
  const changes = watchChanges(ownerDocumentOf(input));
  input.focus({ preventScroll: true });
  input.select();
  clearField(input);
  await typeChars(input, label);
  await ctx.settle();
  const containers = [...own(), ...popupCandidates(changes(), trigger)];
  const row = rowFor(
    rowsIn(containers, ctx.settings.zones, (o) => optionLabel(o, ctx), trigger),
    label,
    trigger,
  );
  if (!row) clearField(input);
  return row;
}

export async function selectViaStandIn(s: StandIn, wanted: string[], subject: string, ctx: ActionContext): Promise<Outcome> {
  const { select: sel, trigger } = s;
  const picked = pickNativeOptions(sel, wanted, subject, ctx.settings.zones);
  const label = ctx.label(trigger);
  const todo = picked.filter((p) => !p.o.selected);
  if (!todo.length) return { message: `${quoteList(picked.map((p) => p.label))} was already selected in ${label}.` };
  ctx.begin(trigger);
  const before = [...sel.selectedOptions];
  const events = watchChangeEvents(sel);
  const direct: string[] = [];
  // The widget's list may be what the trigger or its parts (a search field) point at.
  const own = () => widgetParts(trigger).flatMap((p) => ownContainers(p, ''));
  try {
    let list: OpenList | undefined;
    for (const p of todo) {
      // A multi-select may keep its list open (re-rendered) after a pick: look there first.
      const still = list
        ? rowsIn(
            list.containers.filter((c) => c.isConnected),
            ctx.settings.zones,
            (o) => optionLabel(o, ctx),
            trigger,
          )
        : [];
      list = still.length ? { rows: still, containers: list!.containers } : await openList(trigger, 'combobox', subject, ctx, own);
      let row = rowFor(list.rows, p.label, trigger);
      if (!row) row = await typeToFilter(trigger, p.label, ctx, own);
      if (row) {
        const at = await waitActionable(row.el, {
          timeout: ctx.options.actionTimeout,
          describer: ctx.describer,
          subject: `The option "${p.label}"`,
          pointer: true,
        });
        clickAt(at!.target, { local: at!.local, root: at!.root });
        await ctx.settle();
      }
      if (!p.o.selected) {
        // The widget did not take it (no list found, or the click went nowhere): set the select.
        p.o.selected = true;
        direct.push(p.label);
      }
    }
    const changed = sel.multiple ? [...sel.selectedOptions].some((o) => !before.includes(o)) : sel.selectedOptions[0] !== before[0];
    // Set directly, or picked through a widget that announces nothing: the page hears it now.
    if (direct.length || (changed && !events.seen())) {
      fireInput(sel, 'insertReplacementText', null);
      fireChange(sel);
    }
  } finally {
    events.stop();
  }
  const note = direct.length
    ? ` The widget's list did not show ${quoteList(direct)}, so it was set on the underlying select directly; the widget may not show it.`
    : '';
  return {
    message: `Selected ${quoteList(todo.map((p) => p.label))} in ${label}.${note}`,
    after: () => ({ changes: { value: selectedLabels(sel).join(', ') } }),
  };
}
