/**
 * `select_option {ref, option}`.
 *
 * Native `<select>`: see native-select.ts. A custom select that hides its native select
 * (select2, Choices.js, chosen…): picked through the widget, see select-standin.ts.
 * ARIA comboboxes, listboxes and menu buttons, and role-less dropdowns: the list is opened with
 * a real click and searched only where it belongs to the target (popup.ts: what it points at,
 * its own subtree, what changed as it opened — never another widget's options). Its rows are
 * the rendered options, or the visible role-less rows of a virtualised list; an option not
 * there yet is typed to filter when the widget has an input that accepts text, else the list is
 * wheeled until it shows. Several options are picked one by one, the list found again after
 * each pick (multi-selects close or re-render it). The result reports what the widget shows.
 */
import type { ToolArgs } from './args';
import { waitActionable } from './actionability';
import type { ActionContext, Handler } from './context';
import { ActionError, fieldValue, isDisabled, isHTML, isValueField, tag } from './dom';
import { clearField } from './editing';
import { typeChars } from './type';
import { clickAt } from './pointer';
import { matchOption, optionList, type Choice, type MatchResult } from './match';
import { nativeSelectOf, quoteList, selectNative } from './native-select';
import { openList, ownContainers, refind, widgetParts, type OpenList } from './open-list';
import { isShown, listScroller, wheelScroll, watchChanges, type Row } from './popup';
import { selectViaStandIn } from './select-standin';
import { standInFor } from '../map/widgets';
import type { Zones } from '../settings';
import { hasAttrOf, parentElementOf, ownerDocumentOf, attrOf } from '../dom/proto';

/** A text input of the widget that accepts typing (never a read-only one: it only looks like a field). */
function editableInput(el: Element): HTMLInputElement | undefined {
  for (const p of widgetParts(el)) {
    if (tag(p) === 'input' && isValueField(p) && !(p as HTMLInputElement).readOnly && !isDisabled(p)) return p as HTMLInputElement;
  }
  return undefined;
}

const MAX_WHEELS = 60;
/** How far up from the target a custom select's stand-in may be (search field → list → selection). */
const STAND_IN_DEPTH = 4;

const toChoices = (rows: Row[]) => rows.map((r) => ({ label: r.label, value: attrOf(r.el, 'data-value') ?? undefined, disabled: isDisabled(r.el), r }));

/**
 * An option a virtualised list has not rendered yet: wheel the list down (it handles wheel
 * itself and hides its overflow) until the option shows or the list stops moving.
 */
async function scrollToOption(list: OpenList, el: Element, w: string, seen: Map<string, Row>, ctx: ActionContext, own: () => Element[]) {
  for (let i = 0; i < MAX_WHEELS; i++) {
    const scroller = listScroller(list.rows);
    if (!scroller) break;
    const changes = watchChanges(ownerDocumentOf(el));
    const moved = await wheelScroll(scroller, Math.max(40, scroller.clientHeight * 0.8));
    list = refind(list, el, changes(), ctx, own);
    for (const r of list.rows) if (!seen.has(r.label)) seen.set(r.label, r);
    const m = matchOption(toChoices(list.rows), w);
    if (m.ok || m.reason === 'ambiguous') return { list, m };
    if (!moved) break;
  }
  return { list, m: undefined };
}

async function selectAria(el: Element, wanted: string[], subject: string, ctx: ActionContext) {
  const role = ctx.describer.role(el);
  const label = ctx.label(el);
  const what = subject.replace(/^Element \[[^\]]+\] /, '');
  const own = () => ownContainers(el, role);
  ctx.begin(el);
  const input = editableInput(el);
  const chosen: string[] = [];
  let list: OpenList | undefined;
  for (const w of wanted) {
    // A multi-select re-renders (or closes) its menu after each pick: find it again.
    if (!list || !list.rows.every((r) => r.el.isConnected && isShown(r.el))) list = await openList(el, role, subject, ctx, own);
    const seen = new Map(list.rows.map((r) => [r.label, r] as const));
    let m: MatchResult<Choice & { r: Row }> = matchOption(toChoices(list.rows), w);
    let typed = false;
    if (!m.ok && m.reason === 'none' && input) {
      // An autocomplete: type to filter, wait for its results, look again.
      const changes = watchChanges(ownerDocumentOf(el));
      input.focus({ preventScroll: true });
      clearField(input);
      await typeChars(input, w);
      typed = true;
      await ctx.settle();
      list = refind(list, el, changes(), ctx, own);
      for (const r of list.rows) if (!seen.has(r.label)) seen.set(r.label, r);
      m = matchOption(toChoices(list.rows), w);
    } else if (!m.ok && m.reason === 'none' && list.rows.length) {
      const found = await scrollToOption(list, el, w, seen, ctx, own);
      list = found.list;
      if (found.m) m = found.m;
    }
    if (!m.ok) {
      // Leave the field as it was: the model's text did not pick anything.
      if (typed && input) clearField(input);
      if (!seen.size) {
        throw new ActionError(
          `${subject} showed no list of its own to choose from (after opening it${typed ? ` and typing "${w}"` : ''}); its options may be elsewhere on the page.`,
        );
      }
      const labels = m.reason === 'ambiguous' ? m.candidates.map((c) => c.label) : [...seen.keys()];
      throw new ActionError(
        m.reason === 'ambiguous'
          ? `"${w}" matches several options in ${what}: ${optionList(labels)}. Use the full label.`
          : `No option matching "${w}" in ${what}; options: ${optionList(labels)}.`,
      );
    }
    if (m.item.disabled) throw new ActionError(`The option "${m.item.label}" is disabled in ${what}.`);
    const opt = m.item.r.el;
    const optSubject = `The option "${m.item.label}"`;
    const p = await waitActionable(opt, { timeout: ctx.options.actionTimeout, describer: ctx.describer, subject: optSubject, pointer: true });
    clickAt(p!.target, { local: p!.local, root: p!.root });
    chosen.push(m.item.label);
    if (wanted.length > 1) await ctx.settle();
  }
  return {
    message: `Selected ${quoteList(chosen)} in ${label}.`,
    after: () => {
      const shown = shownValue(el, input, ctx.settings.zones);
      const ok = chosen.every((c) => shown.toLowerCase().includes(c.toLowerCase()));
      return {
        changes: { value: shown.length > 100 ? `${shown.slice(0, 97)}…` : shown },
        message: ok || !shown ? undefined : `It now shows "${shown.slice(0, 80)}".`,
      };
    },
  };
}

/**
 * What the widget shows as its value: the field's text, else the text of the control around it
 * (react-select draws its chips beside an empty input), else its own text.
 */
function shownValue(el: Element, input: HTMLInputElement | undefined, zones: Zones): string {
  const clean = (s: string) =>
    s
      .split(/\n+/)
      .map((x) => x.replace(/\s+/g, ' ').trim())
      .filter(Boolean)
      .join(', ');
  if (input?.value) return clean(input.value);
  const field = input ?? el;
  for (let n: Element | null = field, i = 0; n && i < 4; n = parentElementOf(n), i++) {
    // innerText keeps the chips' line breaks, but reads a deny zone's words too.
    const text = clean(zones.holds(n) ? zones.textOutside(n, 2000) : isHTML(n) ? n.innerText : (n.textContent ?? ''));
    if (text) return text;
  }
  return clean(fieldValue(el, zones) ?? zones.textOutside(el, 2000));
}

export const selectOption: Handler<ToolArgs['select_option']> = async ({ ref, option }, ctx) => {
  const el = ctx.resolve(ref);
  const subject = ctx.subject(ref, el);
  const native = nativeSelectOf(el);
  if (native) return selectNative(native, option, subject, ctx);
  // The stand-in itself, or one of its parts (the search field inside a select2 or Choices.js multi-select).
  for (let a: Element | null = el, i = 0; a && i < STAND_IN_DEPTH; a = parentElementOf(a), i++) {
    const standIn = standInFor(a, ctx.describer);
    if (standIn) return selectViaStandIn(standIn, option, a === el ? subject : ctx.subject(ref, a), ctx);
  }
  if (tag(el) === 'input' && !hasAttrOf(el, 'role') && !hasAttrOf(el, 'list') && !el.closest('[role=combobox]')) {
    throw new ActionError(`${subject} is a text field, not a list; use type instead.`);
  }
  return selectAria(el, option, subject, ctx);
};
