/**
 * Native `<select>`: the option is found by label, value, case-insensitive label or a unique
 * partial label; selected; `input` and `change` fire (no events when it was already chosen).
 */
import { waitActionable } from './actionability';
import type { ActionContext } from './context';
import { ActionError, fieldValue, isDisabled, isHTML, tag } from './dom';
import { fireChange, fireInput } from './editing';
import { matchOption, optionList } from './match';
import type { Zones } from '../settings';
import { ownerDocumentOf } from '../dom/proto';

export interface NativeChoice {
  label: string;
  value: string;
  disabled: boolean;
  o: HTMLOptionElement;
}

/**
 * The options the model asked for, matched against the select's own options (throws with the
 * list). An option in a deny zone is no choice: not matched, not listed.
 */
export function pickNativeOptions(sel: HTMLSelectElement, wanted: string[], subject: string, zones: Zones): NativeChoice[] {
  const what = subject.replace(/^Element \[[^\]]+\] /, '');
  const inZone = zones.check();
  const choices: NativeChoice[] = [...sel.options]
    .filter((o) => !inZone(o))
    .map((o) => ({
      label: (o.label || o.text).replace(/\s+/g, ' ').trim(),
      value: o.value,
      disabled: o.disabled || isDisabled(o),
      o,
    }));
  if (wanted.length > 1 && !sel.multiple) throw new ActionError(`${subject} takes only one option; got ${wanted.length}.`);
  const picked: NativeChoice[] = [];
  for (const w of wanted) {
    const m = matchOption(choices, w);
    if (!m.ok) {
      const labels = (m.reason === 'ambiguous' ? m.candidates : choices).map((c) => c.label);
      throw new ActionError(
        m.reason === 'ambiguous'
          ? `"${w}" matches several options in ${what}: ${optionList(labels)}. Use the full label.`
          : `No option matching "${w}" in ${what}; options: ${optionList(labels)}.`,
      );
    }
    if (m.item.disabled) throw new ActionError(`The option "${m.item.label}" is disabled in ${what}.`);
    picked.push(m.item);
  }
  return picked;
}

export function nativeSelectOf(el: Element): HTMLSelectElement | undefined {
  const t = tag(el);
  if (t === 'select') return el as HTMLSelectElement;
  if (t === 'option' || t === 'optgroup') return (el.closest('select') as HTMLSelectElement | null) ?? undefined;
  if (t === 'label' && (el as HTMLLabelElement).control && tag((el as HTMLLabelElement).control!) === 'select') {
    return (el as HTMLLabelElement).control as HTMLSelectElement;
  }
  return undefined;
}

export const quoteList = (xs: string[]): string => xs.map((x) => `"${x}"`).join(', ');

/**
 * What a change handler makes the page do is only known once it ran: when that was refused, the
 * previous options are selected again — with no events, which would run the handler again
 * outside the action's gate. Left alone if the page changed the selection itself meanwhile.
 */
function undoChoice(
  sel: HTMLSelectElement,
  options: HTMLOptionElement[],
  was: boolean[],
  chose: boolean[],
  picked: NativeChoice[],
  label: string,
  zones: Zones,
) {
  const now = [...sel.options];
  if (now.length !== options.length || now.some((o, i) => o !== options[i] || o.selected !== chose[i])) return undefined;
  // Unselected first: a single select left with none selected would select its first option again.
  options.forEach((o, i) => !was[i] && (o.selected = false));
  options.forEach((o, i) => was[i] && (o.selected = true));
  // An option in a deny zone is put back but not named.
  const inZone = zones.check();
  const back = options.filter((o, i) => was[i]);
  const named = back.some(inZone)
    ? 'the option it had before'
    : back.length
      ? quoteList(back.map((o) => (o.label || o.text).replace(/\s+/g, ' ').trim()))
      : 'no option';
  return (
    `Chose ${quoteList(picked.map((p) => p.label))} in ${label}, then put back ${named}: ` +
    `what the choice made the page do was refused (the page's scripts saw the change; putting it back sent no events).`
  );
}

export async function selectNative(sel: HTMLSelectElement, wanted: string[], subject: string, ctx: ActionContext) {
  ctx.begin(sel);
  await waitActionable(sel, { timeout: ctx.options.actionTimeout, describer: ctx.describer, subject, pointer: false });
  const options = [...sel.options];
  const picked = pickNativeOptions(sel, wanted, subject, ctx.settings.zones);
  const label = ctx.label(sel);
  const already = sel.multiple ? options.every((o) => o.selected === picked.some((p) => p.o === o)) : picked[0]!.o.selected;
  if (isHTML(sel) && ownerDocumentOf(sel).activeElement !== sel) sel.focus({ preventScroll: true });
  if (already) return { message: `${quoteList(picked.map((p) => p.label))} was already selected in ${label}.` };
  const was = options.map((o) => o.selected);
  if (sel.multiple) for (const o of options) o.selected = picked.some((p) => p.o === o);
  else picked[0]!.o.selected = true;
  const chose = options.map((o) => o.selected);
  fireInput(sel, 'insertReplacementText', null);
  fireChange(sel);
  return {
    message: `Selected ${quoteList(picked.map((p) => p.label))} in ${label}.`,
    undo: () => undoChoice(sel, options, was, chose, picked, label, ctx.settings.zones),
    after: () => ({ changes: { value: fieldValue(sel, ctx.settings.zones) ?? '' } }),
  };
}
