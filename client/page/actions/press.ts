/**
 * `press_key {key, ref?}`: keydown → keypress (for keys that type) → default action → keyup,
 * on the focused element (or `ref`, focused first).
 *
 * Synthetic key events have no default actions in browsers, so the ones pages rely on are
 * emulated when keydown was not cancelled:
 * - Enter: implicit form submission as HTML specifies (the form's default button is clicked;
 *   with no submit button and exactly one blocking field, `requestSubmit()`); activates a
 *   focused button/link/summary; new line in text areas and editors.
 * - Space: activates buttons, checkboxes, radios, summary; scrolls the page elsewhere.
 * - Tab / Shift+Tab: focus moves to the next/previous tabbable element (tabindex order,
 *   open shadow roots, radio groups, inside an open modal dialog).
 * - Escape: closes an open modal `<dialog>` (via a cancellable `cancel` event) or the top
 *   open popover; custom modals close through their own keydown handlers.
 * - Arrows, Home, End, PageUp/Down: radio groups move the checked radio; single-line
 *   `<select>` changes its option; range and number inputs step; text fields and editors move
 *   the caret; otherwise the page (or the focused scroll container) scrolls.
 * - Backspace/Delete: delete in text fields and editors. Control/Meta+A: select all.
 * - Printable characters type into the focused field.
 * Clipboard shortcuts (copy/paste) are not emulated.
 */
import type { ToolArgs } from './args';
import type { ActionContext, Handler } from './context';
import {
  ActionError,
  deepActiveElement,
  editingHost,
  flatParent,
  inputType,
  isDisabled,
  isElement,
  isHTML,
  isTextField,
  isVisible,
  tag,
  viewportSize,
  winOf,
} from './dom';
import { deleteAtCaret, deleteInEditable, fireChange, fireInput, insertAtCaret, insertIntoEditable, roomLeft, setCaret } from './editing';
import { fireKey, NO_MODIFIERS } from './keyevents';
import { nextTask } from './task';
import { focusOrder } from './focus-order';
import { closestOf, controlsOf, formOf, typeOf, ownerDocumentOf, attrOf, hasAttrOf } from '../dom/proto';
import { comboLabel, modifierKey, parseKeyCombo, typedText, type KeyCombo, type KeyDef, type Modifiers } from './keys';

type Field = HTMLInputElement | HTMLTextAreaElement;

/** Input types that block implicit submission when a form has no submit button (HTML §4.10.21.2). */
const BLOCKING = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'date', 'month', 'week', 'time', 'datetime-local', 'number']);
const BUTTON_TYPES = new Set(['submit', 'reset', 'button', 'image']);

function isSubmitButton(el: Element): boolean {
  const t = tag(el);
  if (t === 'button') return typeOf(el) === 'submit';
  return t === 'input' && (inputType(el) === 'submit' || inputType(el) === 'image');
}

/** The button implicit submission clicks: the form's first submit button (HTML's "default button"). */
export function defaultButton(form: HTMLFormElement): HTMLButtonElement | HTMLInputElement | undefined {
  return controlsOf(form).find(isSubmitButton) as HTMLButtonElement | HTMLInputElement | undefined;
}

/**
 * What Enter or Space does by default to the element that receives it (keydown not
 * cancelled, no Control/Alt/Meta): the one decision behind both the action and the risk
 * check, so the two cannot disagree.
 * - `submit`: Enter in a field of a form submits it (through `button`, its default button);
 * - `activate`: the key clicks `el` (Enter: buttons, links, summary; Space: buttons,
 *   checkboxes, radios, summary);
 * - `newline`: Enter in a text area or editor adds a line (`form` is the form around it —
 *   pages often send on Enter there themselves);
 * - `none`: nothing that presses anything (Space in a field types, elsewhere it scrolls).
 */
export type KeyEffect =
  | { does: 'submit'; form: HTMLFormElement; button?: HTMLButtonElement | HTMLInputElement }
  | { does: 'activate'; el: HTMLElement }
  | { does: 'newline'; form?: HTMLFormElement }
  | { does: 'none' };

export function keyEffect(target: Element, key: 'Enter' | ' '): KeyEffect {
  const t = tag(target);
  const type = inputType(target);
  const host = editingHost(target);
  const formAround = (el: Element): HTMLFormElement | undefined => formOf(el) ?? (closestOf(el, 'form') as HTMLFormElement | null) ?? undefined;
  if (key === 'Enter') {
    if (t === 'textarea' || host) return { does: 'newline', form: formAround(target) };
    if (t === 'input' && !BUTTON_TYPES.has(type)) {
      const form = formOf(target);
      return form ? { does: 'submit', form, button: defaultButton(form) } : { does: 'none' };
    }
    if ((t === 'button' || (t === 'input' && BUTTON_TYPES.has(type)) || (t === 'a' && hasAttrOf(target, 'href')) || t === 'summary') && isHTML(target)) {
      return { does: 'activate', el: target };
    }
    return { does: 'none' };
  }
  if (
    !isTextField(target) &&
    !host &&
    (t === 'button' || (t === 'input' && (BUTTON_TYPES.has(type) || type === 'checkbox' || type === 'radio')) || t === 'summary') &&
    isHTML(target)
  ) {
    return { does: 'activate', el: target };
  }
  return { does: 'none' };
}

/** Implicit submission from a field in a form. Returns a sentence, or '' when nothing happens. */
export function implicitSubmit(field: Element, label: (el: Element) => string): string {
  const form = formOf(field);
  if (!form) return '';
  const controls = controlsOf(form);
  const button = defaultButton(form);
  if (button) {
    if (button.matches(':disabled')) return 'The form was not submitted: its submit button is disabled.';
    button.click();
    return `This submitted the form (its default button is ${label(button)}).`;
  }
  const blocking = controls.filter((c) => tag(c) === 'input' && BLOCKING.has(inputType(c)));
  if (blocking.length > 1) return 'The form has several fields and no submit button, so Enter does not submit it.';
  if (typeof form.requestSubmit === 'function') form.requestSubmit();
  else if (form.dispatchEvent(new (winOf(form).Event)('submit', { bubbles: true, cancelable: true }))) form.submit();
  return 'This submitted the form.';
}

/** A radio group has one stop: its checked radio, else the first (last when going back). */
function radioStop(radio: HTMLInputElement, back: boolean): boolean {
  if (!radio.name) return true;
  const scope: ParentNode = radio.form ?? (radio.getRootNode() as ParentNode);
  const group = [...scope.querySelectorAll('input[type=radio]')].filter(
    (r) => (r as HTMLInputElement).name === radio.name && (r as HTMLInputElement).form === radio.form && !isDisabled(r) && isVisible(r),
  ) as HTMLInputElement[];
  const checked = group.find((r) => r.checked);
  if (checked) return checked === radio;
  return (back ? group[group.length - 1] : group[0]) === radio;
}

function isTabStop(el: HTMLElement, back: boolean): boolean {
  if (isDisabled(el) || el.closest('[inert]') || !isVisible(el)) return false;
  if (tag(el) === 'input' && inputType(el) === 'radio') return radioStop(el as HTMLInputElement, back);
  return true;
}

/**
 * The element Tab (Shift+Tab when `back`) moves focus to from `from`: the tab order of
 * `focusOrder`, continued from the nearest tabbable ancestor or the element's place in the
 * document; undefined when nothing else can take focus. The deny-zone guard asks it too.
 */
export function nextTabStop(from: Element | null, back: boolean): HTMLElement | undefined {
  const doc = from ? ownerDocumentOf(from) : document;
  const order = focusOrder(doc);
  if (!order.length) return undefined;
  let i = from ? order.indexOf(from as HTMLElement) : -1;
  if (i < 0 && from && from !== doc.body) {
    // Focus inside a composite widget (or on a non-tabbable element): continue from the nearest
    // tabbable ancestor, or from the element's position in the document.
    for (let n = flatParent(from); n && isElement(n); n = flatParent(n)) {
      i = order.indexOf(n as HTMLElement);
      if (i >= 0) break;
    }
    if (i < 0) {
      const after = order.findIndex((e) => from.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING);
      i = after < 0 ? order.length : after;
      if (!back) i -= 1;
    }
  } else if (i < 0 && back) {
    i = order.length;
  }
  const n = order.length;
  for (let step = 1; step <= n; step++) {
    const next = order[(((back ? i - step : i + step) % n) + n) % n]!;
    if (next !== from && isTabStop(next, back)) return next;
  }
  return undefined;
}

function moveFocus(from: Element | null, back: boolean, ctx: ActionContext): string {
  const doc = from ? ownerDocumentOf(from) : document;
  if (!focusOrder(doc).length) return 'Nothing on the page can take focus.';
  const next = nextTabStop(from, back);
  if (next) {
    next.focus();
    if (isTextField(next) && tag(next) === 'input') {
      try {
        next.select();
      } catch {
        /* no selection API */
      }
    }
    return `Focus moved to ${ctx.label(next)}.`;
  }
  return 'Nothing else on the page can take focus.';
}

function closeTopLayer(target: Element): string {
  const doc = ownerDocumentOf(target);
  let modal: HTMLDialogElement | null;
  try {
    modal = (target.closest('dialog:modal') ?? doc.querySelector('dialog:modal')) as HTMLDialogElement | null;
  } catch {
    modal = null;
  }
  if (modal) {
    if (modal.dispatchEvent(new (winOf(modal).Event)('cancel', { cancelable: true }))) {
      modal.close();
      return 'The dialog closed.';
    }
    return 'The dialog refused to close.';
  }
  let popovers: Element[];
  try {
    popovers = [...doc.querySelectorAll(':popover-open')].filter((p) => attrOf(p, 'popover') !== 'manual');
  } catch {
    popovers = [];
  }
  const top = popovers[popovers.length - 1] as HTMLElement | undefined;
  if (top && typeof top.hidePopover === 'function') {
    top.hidePopover();
    return 'The popover closed.';
  }
  return '';
}

/** The option an arrow, Home, End or Page key moves a single-line select to (undefined: none). */
export function selectStep(sel: HTMLSelectElement, key: string): HTMLOptionElement | undefined {
  if (sel.multiple || sel.size > 1) return undefined;
  const opts = [...sel.options];
  const enabled = opts.filter((o) => !o.disabled);
  if (!enabled.length) return undefined;
  const cur = sel.selectedIndex;
  let next: HTMLOptionElement | undefined;
  if (key === 'Home' || key === 'PageUp') next = enabled[0];
  else if (key === 'End' || key === 'PageDown') next = enabled[enabled.length - 1];
  else if (key === 'ArrowDown' || key === 'ArrowRight') next = opts.slice(cur + 1).find((o) => !o.disabled);
  else
    next = opts
      .slice(0, Math.max(0, cur))
      .reverse()
      .find((o) => !o.disabled);
  return next && next.index !== cur ? next : undefined;
}

function stepSelect(sel: HTMLSelectElement, key: string): string {
  const next = selectStep(sel, key);
  if (!next) return '';
  sel.selectedIndex = next.index;
  fireInput(sel, 'insertReplacementText', null);
  fireChange(sel);
  return `Selected "${next.label || next.text}".`;
}

/** The radio an arrow key moves to (and checks) from `radio`, in its group (undefined: none). */
export function radioStep(radio: HTMLInputElement, key: string): HTMLInputElement | undefined {
  const name = radio.name;
  const scope: ParentNode = radio.form ?? (radio.getRootNode() as ParentNode);
  const group = name
    ? [...scope.querySelectorAll(`input[type=radio]`)].filter((r) => (r as HTMLInputElement).name === name && !isDisabled(r) && isVisible(r))
    : [radio];
  const i = group.indexOf(radio);
  if (group.length < 2 || i < 0) return undefined;
  const back = key === 'ArrowUp' || key === 'ArrowLeft';
  return group[(i + (back ? -1 : 1) + group.length) % group.length] as HTMLInputElement;
}

function stepRadio(radio: HTMLInputElement, key: string, ctx: ActionContext): string {
  const next = radioStep(radio, key);
  if (!next) return '';
  next.focus();
  if (!next.checked) next.click();
  return `Selected ${ctx.label(next)}.`;
}

function stepRange(input: HTMLInputElement, key: string): string {
  const before = input.value;
  const min = input.min === '' ? 0 : Number(input.min);
  const max = input.max === '' ? 100 : Number(input.max);
  if (key === 'Home') input.value = String(min);
  else if (key === 'End') input.value = String(max);
  else {
    const up = key === 'ArrowUp' || key === 'ArrowRight' || key === 'PageUp';
    const big = key === 'PageUp' || key === 'PageDown';
    const times = big ? Math.max(1, Math.round((max - min) / 10 / (Number(input.step) || 1))) : 1;
    try {
      if (up) input.stepUp(times);
      else input.stepDown(times);
    } catch {
      return '';
    }
  }
  if (input.value === before) return '';
  fireInput(input, 'insertReplacementText', null);
  fireChange(input);
  return `The value is now ${input.value}.`;
}

function scrollPage(from: Element | null, key: string, shift: boolean): string {
  let scroller: Element | null = null;
  for (let n: Node | null = from; n && isElement(n); n = flatParent(n)) {
    const el = n as Element;
    if (el === ownerDocumentOf(el).documentElement || el === ownerDocumentOf(el).body) break;
    const oy = winOf(el).getComputedStyle(el).overflowY;
    if ((oy === 'auto' || oy === 'scroll') && el.scrollHeight > el.clientHeight + 1) {
      scroller = el;
      break;
    }
  }
  const doc = from ? ownerDocumentOf(from) : document;
  const target = scroller ?? doc.scrollingElement ?? doc.documentElement;
  const page = (scroller ? scroller.clientHeight : viewportSize(winOf(target)).height) * 0.875;
  const before = target.scrollTop;
  const delta: Record<string, number> = { ArrowDown: 40, ArrowUp: -40, PageDown: page, PageUp: -page, ' ': shift ? -page : page };
  if (key === 'Home') target.scrollTop = 0;
  else if (key === 'End') target.scrollTop = target.scrollHeight;
  else target.scrollBy({ top: delta[key] ?? 0, behavior: 'instant' as ScrollBehavior });
  return target.scrollTop !== before ? `The ${scroller ? 'container' : 'page'} scrolled.` : '';
}

/** The default action of a key on `target` (keydown not cancelled). Returns a sentence. */
function defaultAction(target: Element, combo: KeyCombo, ctx: ActionContext): string {
  const { key } = combo.def;
  const m = combo.modifiers;
  const host = editingHost(target);
  const field = isTextField(target) ? (target as Field) : undefined;
  const t = tag(target);
  const type = inputType(target);
  const command = m.ctrl || m.meta;

  if (command && key.toLowerCase() === 'a') {
    if (field) field.select();
    else if (host) ownerDocumentOf(host).getSelection()?.selectAllChildren(host);
    else ownerDocumentOf(target).getSelection()?.selectAllChildren(ownerDocumentOf(target).body);
    return 'Selected all.';
  }
  if (key === 'Tab' && !command && !m.alt) return moveFocus(deepActiveElement(ownerDocumentOf(target)) ?? target, m.shift, ctx);
  if (key === 'Escape') return closeTopLayer(target);
  if (command || m.alt) return '';

  // Space in a field or editor types (below); everywhere else both keys do what keyEffect says.
  if (key === 'Enter' || (key === ' ' && !field && !host)) {
    const effect = keyEffect(target, key);
    if (effect.does === 'activate') {
      effect.el.click();
      return `This activated ${ctx.label(effect.el)}.`;
    }
    if (effect.does === 'submit') return implicitSubmit(target, ctx.label);
    if (effect.does === 'newline') {
      if (t === 'textarea') {
        if (roomLeft(target as Field) >= 1) insertAtCaret(target as Field, '\n', 'insertLineBreak');
      } else if (host) insertIntoEditable(host, '\n');
      return '';
    }
    if (key === ' ' && t !== 'select') return scrollPage(target, key, m.shift);
    return '';
  }
  if (key === 'Backspace' || key === 'Delete') {
    if (field) deleteAtCaret(field, key === 'Delete');
    else if (host) deleteInEditable(host, key === 'Delete');
    return '';
  }
  const nav = ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown'];
  if (nav.includes(key)) {
    if (t === 'input' && type === 'radio') return stepRadio(target as HTMLInputElement, key, ctx);
    if (t === 'select') return stepSelect(target as HTMLSelectElement, key);
    if (t === 'input' && type === 'range') return stepRange(target as HTMLInputElement, key);
    if (t === 'input' && type === 'number' && (key === 'ArrowUp' || key === 'ArrowDown')) {
      try {
        if (key === 'ArrowUp') (target as HTMLInputElement).stepUp();
        else (target as HTMLInputElement).stepDown();
      } catch {
        return '';
      }
      fireInput(target, 'insertReplacementText', null);
      fireChange(target);
      return `The value is now ${(target as HTMLInputElement).value}.`;
    }
    if (field) {
      if (key === 'Home') setCaret(field, 0);
      else if (key === 'End') setCaret(field, field.value.length);
      else if (key === 'ArrowLeft' || key === 'ArrowRight') {
        const pos = field.selectionStart ?? field.value.length;
        setCaret(field, Math.max(0, Math.min(field.value.length, pos + (key === 'ArrowLeft' ? -1 : 1))));
      }
      return '';
    }
    if (host) {
      const sel = ownerDocumentOf(host).getSelection();
      const dir = key === 'ArrowLeft' || key === 'ArrowUp' || key === 'Home' || key === 'PageUp' ? 'backward' : 'forward';
      const unit = key === 'Home' || key === 'End' ? 'lineboundary' : key === 'ArrowUp' || key === 'ArrowDown' ? 'line' : 'character';
      sel?.modify?.('move', dir, unit);
      return '';
    }
    if (key === 'ArrowLeft' || key === 'ArrowRight') return '';
    return scrollPage(target, key, m.shift);
  }
  const text = typedText(combo);
  if (text && field && roomLeft(field) >= text.length) insertAtCaret(field, text);
  else if (text && host) insertIntoEditable(host, text);
  return '';
}

/**
 * Presses a key on `target` (already focused as needed). Returns the message.
 *
 * As a keyboard sends a combo: each given modifier goes down first, in the order given, its
 * flag set from its own keydown on (Control's keydown already has ctrlKey); then the key;
 * then the modifiers come up in reverse order, each flag cleared on its own keyup. Pages that
 * listen for the modifier keys themselves (shortcut recorders, games, editors) see them.
 */
export async function pressOn(target: Element, combo: KeyCombo, ctx: ActionContext): Promise<string> {
  const name = comboLabel(combo);
  const doc = ownerDocumentOf(target);
  const mods: Modifiers = { ...NO_MODIFIERS };
  // Each key event is a task of its own, as from a keyboard (task.ts).
  for (const m of combo.held) {
    mods[m] = true;
    // A cancelled modifier keydown does not stop the key that follows, on a keyboard either.
    if (target.isConnected) fireKey(target, 'keydown', modifierKey(m), { ...mods });
    await nextTask();
  }
  const down = target.isConnected ? fireKey(target, 'keydown', combo.def, combo.modifiers) : false;
  let effect = '';
  if (down) {
    const types = combo.def.text !== undefined && !combo.modifiers.ctrl && !combo.modifiers.meta && !combo.modifiers.alt;
    const press = types ? fireKey(target, 'keypress', combo.def, combo.modifiers) : true;
    if (press) effect = defaultAction(target, combo, ctx);
  }
  await nextTask();
  // keyup goes to whatever has focus now (Tab moved it, Enter may have re-rendered).
  const upTarget = target.isConnected ? (combo.def.key === 'Tab' ? (deepActiveElement(doc) ?? target) : target) : (deepActiveElement(doc) ?? doc.body);
  // A modifier key's own flag is off on its keyup.
  const self = selfModifier(combo.def);
  fireKey(upTarget, 'keyup', combo.def, self ? { ...combo.modifiers, [self]: false } : combo.modifiers);
  for (const m of [...combo.held].reverse()) {
    await nextTask();
    mods[m] = false;
    fireKey(upTarget.isConnected ? upTarget : (deepActiveElement(doc) ?? doc.body), 'keyup', modifierKey(m), { ...mods });
  }
  const where = target === doc.body || target === doc.documentElement ? 'on the page' : `in ${ctx.label(target)}`;
  return [`Pressed ${name} ${where}.`, down ? effect : 'The page handled the key itself.'].filter(Boolean).join(' ');
}

/** The modifier a key is itself (Shift, Control, Alt, Meta), if it is one. */
function selfModifier(def: KeyDef): keyof Modifiers | undefined {
  return ({ Control: 'ctrl', Shift: 'shift', Alt: 'alt', Meta: 'meta' } as const)[def.key as 'Control'];
}

export const pressKey: Handler<ToolArgs['press_key']> = async ({ key, ref }, ctx) => {
  let combo: KeyCombo;
  try {
    combo = parseKeyCombo(key);
  } catch (e) {
    throw new ActionError((e as Error).message);
  }
  let target: Element;
  if (ref) {
    const el = ctx.resolve(ref);
    if (!el.isConnected) throw new ActionError(`${ctx.subject(ref, el)} is no longer on the page.`);
    if (isDisabled(el)) throw new ActionError(`${ctx.subject(ref, el)} is disabled.`);
    ctx.begin(el);
    if (isHTML(el) && deepActiveElement(ownerDocumentOf(el)) !== el) el.focus({ preventScroll: false });
    target = el;
  } else {
    ctx.begin();
    target = deepActiveElement(document) ?? document.body;
  }
  const focusBefore = deepActiveElement(document);
  return {
    message: await pressOn(target, combo, ctx),
    after: () => {
      const now = deepActiveElement(document);
      if (!now || now === focusBefore || now === ownerDocumentOf(now).body) return;
      return { changes: { focused: ctx.label(now) } };
    },
  };
};
