/**
 * `select_option {ref, option}`.
 *
 * Native `<select>`: the option is found by label, value, case-insensitive label or a unique
 * partial label; selected; `input` and `change` fire (no events when it was already chosen).
 * ARIA comboboxes, listboxes and menu buttons: the popup is opened with a real click, the
 * options are found where the widget points (aria-controls/aria-owns) or wherever new ones
 * appeared (portals at the end of body); an editable combobox with no options yet gets the
 * text typed to filter (and waits for its request to finish). The option is clicked, and the
 * result reports what the widget shows afterwards.
 */
import type { ToolArgs } from './args';
import { waitActionable } from './actionability';
import type { ActionContext, Handler } from './context';
import { ActionError, editingHost, fieldValue, isDisabled, isHTML, isValueField, isVisible, tag } from './dom';
import { clearField, fireChange, fireInput } from './editing';
import { typeChars } from './type';
import { clickAt } from './pointer';
import { matchOption, optionList, type Choice } from './match';

const OPTION_ROLES = '[role=option],[role=menuitem],[role=menuitemradio],[role=menuitemcheckbox],[role=treeitem]';

function nativeSelectOf(el: Element): HTMLSelectElement | undefined {
  const t = tag(el);
  if (t === 'select') return el as HTMLSelectElement;
  if (t === 'option' || t === 'optgroup') return (el.closest('select') as HTMLSelectElement | null) ?? undefined;
  if (t === 'label' && (el as HTMLLabelElement).control && tag((el as HTMLLabelElement).control!) === 'select') {
    return (el as HTMLLabelElement).control as HTMLSelectElement;
  }
  return undefined;
}

const quoteList = (xs: string[]): string => xs.map((x) => `"${x}"`).join(', ');

async function selectNative(sel: HTMLSelectElement, wanted: string[], subject: string, ctx: ActionContext) {
  ctx.begin(sel);
  await waitActionable(sel, { timeout: ctx.options.actionTimeout, describer: ctx.describer, subject, pointer: false });
  const options = [...sel.options];
  const choices = options.map((o) => ({ label: o.label || o.text, value: o.value, disabled: o.disabled || isDisabled(o), o }));
  if (wanted.length > 1 && !sel.multiple) throw new ActionError(`${subject} takes only one option; got ${wanted.length}.`);
  const picked: typeof choices = [];
  for (const w of wanted) {
    const m = matchOption(choices, w);
    if (!m.ok) {
      const labels = (m.reason === 'ambiguous' ? m.candidates : choices).map((c) => c.label);
      throw new ActionError(
        m.reason === 'ambiguous'
          ? `"${w}" matches several options in ${subject.replace(/^Element \[[^\]]+\] /, '')}: ${optionList(labels)}. Use the full label.`
          : `No option matching "${w}" in ${subject.replace(/^Element \[[^\]]+\] /, '')}; options: ${optionList(labels)}.`,
      );
    }
    if (m.item.disabled) throw new ActionError(`The option "${m.item.label}" is disabled in ${subject.replace(/^Element \[[^\]]+\] /, '')}.`);
    picked.push(m.item);
  }
  const label = ctx.label(sel);
  const already = sel.multiple
    ? options.every((o) => o.selected === picked.some((p) => p.o === o))
    : picked[0]!.o.selected;
  if (isHTML(sel) && sel.ownerDocument.activeElement !== sel) sel.focus({ preventScroll: true });
  if (already) return { message: `${quoteList(picked.map((p) => p.label))} was already selected in ${label}.` };
  if (sel.multiple) for (const o of options) o.selected = picked.some((p) => p.o === o);
  else picked[0]!.o.selected = true;
  fireInput(sel, 'insertReplacementText', null);
  fireChange(sel);
  return {
    message: `Selected ${quoteList(picked.map((p) => p.label))} in ${label}.`,
    after: () => ({ changes: { value: fieldValue(sel) ?? '' } }),
  };
}

/** Options inside `containers`, or visible options anywhere that were not visible before. */
function visibleOptions(doc: Document): Set<Element> {
  const out = new Set<Element>();
  for (const o of doc.querySelectorAll(OPTION_ROLES)) if (isVisible(o)) out.add(o);
  return out;
}

function idRefs(el: Element, attrs: string[]): Element[] {
  const root = el.getRootNode() as Document | ShadowRoot;
  const doc = el.ownerDocument;
  const out: Element[] = [];
  for (const a of attrs) {
    for (const id of (el.getAttribute(a) ?? '').split(/\s+/).filter(Boolean)) {
      const t = ('getElementById' in root ? root.getElementById(id) : null) ?? doc.getElementById(id);
      if (t) out.push(t);
    }
  }
  return out;
}

/** The combobox's own parts: itself, an inner input, or an outer [role=combobox]. */
function widgetParts(el: Element): Element[] {
  const parts = [el];
  const outer = el.parentElement?.closest('[role=combobox]');
  if (outer) parts.push(outer);
  const inner = el.querySelector('input,[role=combobox],[role=textbox],[aria-controls],[aria-owns]');
  if (inner) parts.push(inner);
  return parts;
}

function optionsNear(el: Element, role: string): Element[] {
  const containers = role === 'listbox' || role === 'menu' || role === 'tree' ? [el] : [];
  for (const p of widgetParts(el)) containers.push(...idRefs(p, ['aria-controls', 'aria-owns']));
  const opts = new Set<Element>();
  for (const c of containers) {
    if (c.matches(OPTION_ROLES)) opts.add(c);
    for (const o of c.querySelectorAll(OPTION_ROLES)) opts.add(o);
  }
  return [...opts].filter(isVisible);
}

function editableInput(el: Element): HTMLInputElement | undefined {
  for (const p of widgetParts(el)) if (tag(p) === 'input' && isValueField(p)) return p as HTMLInputElement;
  return undefined;
}

async function openAndFind(el: Element, role: string, subject: string, ctx: ActionContext): Promise<Element[]> {
  let opts = optionsNear(el, role);
  if (opts.length) return opts;
  const before = visibleOptions(el.ownerDocument);
  const point = await waitActionable(el, { timeout: ctx.options.actionTimeout, describer: ctx.describer, subject, pointer: true });
  clickAt(point!.target, { local: point!.local, root: point!.root });
  await ctx.settle();
  opts = optionsNear(el, role);
  if (opts.length) return opts;
  const after = visibleOptions(el.ownerDocument);
  const appeared = [...after].filter((o) => !before.has(o));
  return appeared.length ? appeared : [...after];
}

function optionLabel(o: Element, ctx: ActionContext): string {
  let name = '';
  try {
    name = ctx.describer.name(o);
  } catch {
    name = '';
  }
  return (name || o.textContent || '').replace(/\s+/g, ' ').trim();
}

async function selectAria(el: Element, wanted: string[], subject: string, ctx: ActionContext) {
  const role = ctx.describer.role(el);
  const label = ctx.label(el);
  const what = subject.replace(/^Element \[[^\]]+\] /, '');
  ctx.begin(el);
  let opts = await openAndFind(el, role, subject, ctx);
  const input = editableInput(el);
  const findIn = (list: Element[], w: string) => {
    const choices = list.map((o) => ({ label: optionLabel(o, ctx), value: o.getAttribute('data-value') ?? undefined, disabled: isDisabled(o), o }));
    return { choices, m: matchOption<Choice & { o: Element }>(choices, w) };
  };
  const chosen: string[] = [];
  for (const w of wanted) {
    let { choices, m } = findIn(opts, w);
    const seen = choices;
    let typed = false;
    if (!m.ok && input && !isDisabled(input)) {
      // An autocomplete: type to filter, wait for its results, look again.
      const before = visibleOptions(el.ownerDocument);
      input.focus({ preventScroll: true });
      clearField(input);
      typeChars(input, w);
      typed = true;
      await ctx.settle();
      const near = optionsNear(el, role);
      const fresh = [...visibleOptions(el.ownerDocument)].filter((o) => !before.has(o));
      opts = near.length ? near : fresh.length ? fresh : [...visibleOptions(el.ownerDocument)];
      ({ choices, m } = findIn(opts, w));
    }
    if (!m.ok) {
      // Leave the field as it was: the model's text did not pick anything.
      if (typed && input) clearField(input);
      const known = choices.length ? choices : seen;
      if (!known.length) throw new ActionError(`${subject} showed no options to choose from (after opening it${typed ? ` and typing "${w}"` : ''}).`);
      const labels = (m.reason === 'ambiguous' ? m.candidates : known).map((c) => c.label);
      throw new ActionError(
        m.reason === 'ambiguous'
          ? `"${w}" matches several options in ${what}: ${optionList(labels)}. Use the full label.`
          : `No option matching "${w}" in ${what}; options: ${optionList(labels)}.`,
      );
    }
    if (m.item.disabled) throw new ActionError(`The option "${m.item.label}" is disabled in ${what}.`);
    const opt = m.item.o;
    const optSubject = `The option "${m.item.label}"`;
    const p = await waitActionable(opt, { timeout: ctx.options.actionTimeout, describer: ctx.describer, subject: optSubject, pointer: true });
    clickAt(p!.target, { local: p!.local, root: p!.root });
    chosen.push(m.item.label);
    if (wanted.length > 1) await ctx.settle();
  }
  return {
    message: `Selected ${quoteList(chosen)} in ${label}.`,
    after: () => {
      const shown = (input ? input.value : fieldValue(el) ?? editingHost(el)?.innerText ?? (el.textContent ?? '')).replace(/\s+/g, ' ').trim();
      const ok = chosen.every((c) => shown.toLowerCase().includes(c.toLowerCase()));
      return {
        changes: { value: shown.length > 100 ? `${shown.slice(0, 97)}…` : shown },
        message: ok || !shown ? undefined : `It now shows "${shown.slice(0, 80)}".`,
      };
    },
  };
}

export const selectOption: Handler<ToolArgs['select_option']> = async ({ ref, option }, ctx) => {
  const el = ctx.resolve(ref);
  const subject = ctx.subject(ref, el);
  const native = nativeSelectOf(el);
  if (native) return selectNative(native, option, subject, ctx);
  if (tag(el) === 'input' && !el.hasAttribute('role') && !el.hasAttribute('list') && !el.closest('[role=combobox]')) {
    throw new ActionError(`${subject} is a text field, not a list; use type instead.`);
  }
  return selectAria(el, option, subject, ctx);
};
