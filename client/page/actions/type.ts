/**
 * `type {ref, text, replace?, submit?}` and `clear {ref}`.
 *
 * Text fields get the text character by character, as a keyboard would: keydown, keypress,
 * beforeinput, the value set through the native setter, input, keyup — so React/Vue
 * controlled inputs, input masks and keyup-driven autocompletes all see it — then one
 * `change`. `replace` defaults to true (the field ends up holding exactly `text`; models mean
 * "fill"); `replace: false` appends at the end. `maxlength` is honoured like a browser does
 * (extra characters are dropped, and the result says so). Date/time/number/range/colour
 * inputs take a normalised value in one step (see values.ts). Contenteditable editors get the
 * text through execCommand('insertText') / beforeinput, and the text is verified to have
 * landed. A trailing line break, or `submit: true`, presses Enter afterwards (`typingPlan`), in
 * every kind of field; other line breaks are spaces in a single-line field and lines in a text
 * area or editor, typed with no Enter key event.
 */
import type { Ref } from '../page-types';
import type { ToolArgs } from './args';
import { waitActionable } from './actionability';
import type { ActionContext, Handler, Outcome } from './context';
import { ActionError, editingHost, fieldValue, inputType, isHTML, isTextField, isValueField, isVisible, tag } from './dom';
import {
  clearField,
  deleteInEditable,
  editableText,
  fireChange,
  fireInput,
  insertAtCaret,
  insertIntoEditable,
  roomLeft,
  selectEditable,
  setCaret,
  setNativeValue,
} from './editing';
import { fireKey } from './keyevents';
import { nextTask } from './task';
import { keyForChar, parseKeyCombo } from './keys';
import { pressOn } from './press';
import { FORMAT_HINT, FORMATTED_TYPES, normaliseInputValue } from './values';
import type { Zones } from '../settings';
import { ownerDocumentOf, openShadowOf } from '../dom/proto';

type Field = HTMLInputElement | HTMLTextAreaElement;

const quote = (s: string): string => `"${s.length > 80 ? `${s.slice(0, 77)}…` : s}"`;

/** The element to type into: the target, its label's control, or its only editable descendant. Throws ActionError when there is none. */
export function editableTarget(el: Element, subject: string): Element {
  if (isValueField(el) || editingHost(el)) return el;
  const t = tag(el);
  if (t === 'label' && (el as HTMLLabelElement).control) return editableTarget((el as HTMLLabelElement).control!, subject);
  if (t === 'select') throw new ActionError(`${subject} is a drop-down; use select_option to choose from it.`);
  if (t === 'input') {
    const it = inputType(el);
    if (it === 'checkbox' || it === 'radio') throw new ActionError(`${subject} is a ${it}; use click to change it.`);
    if (it === 'file') throw new ActionError(`${subject} is a file upload: use upload with the names of files the user attached.`);
    throw new ActionError(`${subject} is a ${it} button, not a text field.`);
  }
  const scope: ParentNode[] = [el];
  const open = openShadowOf(el);
  if (open) scope.push(open);
  const inner = scope
    .flatMap((s) => [...s.querySelectorAll('input,textarea,[contenteditable]:not([contenteditable=false])')])
    .filter((c) => (isValueField(c) || editingHost(c) === c) && isVisible(c));
  if (inner.length === 1) return inner[0]!;
  throw new ActionError(`${subject} is not a text field; type works on inputs, text areas and editable areas.`);
}

const TRAILING_BREAK = /(?:\r\n|\r|\n)$/;

/**
 * What a `type` call will send to `field` (the element editableTarget chose): `body` is the
 * text typed; `enter` says whether Enter is pressed on the field afterwards: `submit`, or a line
 * break at the end of the text — in any field, a text area and an editor too, where pages send
 * what they hold on Enter (the risk check judges that Enter). Line breaks inside the text are
 * typed as line breaks, with no Enter key event a page could take for "send". The one decision
 * behind both the action and the risk check.
 */
export function typingPlan(text: string, submit: boolean): { body: string; enter: boolean } {
  if (TRAILING_BREAK.test(text)) return { body: text.replace(TRAILING_BREAK, ''), enter: true };
  return { body: text, enter: submit };
}

/**
 * Types `text` into a text field character by character, each key's events a task apart from
 * the last (task.ts). Returns how many characters landed.
 */
export async function typeChars(el: Field, text: string): Promise<{ typed: number; blocked: number; truncated: number }> {
  let typed = 0;
  let blocked = 0;
  let truncated = 0;
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (roomLeft(el) < ch.length) {
      truncated = chars.length - i;
      break;
    }
    // A line break is put in as a line break (beforeinput and input, as a paste's would be): no
    // Enter key, which a page could take for "send what this holds" (typingPlan).
    if (ch === '\n') {
      if (insertAtCaret(el, ch, 'insertLineBreak')) typed++;
      else blocked++;
      if (!el.isConnected) break;
      continue;
    }
    const def = keyForChar(ch);
    const mods = { ctrl: false, shift: !!def.shifted, alt: false, meta: false };
    if (i > 0) await nextTask();
    let ok = fireKey(el, 'keydown', def, mods);
    if (ok) ok = fireKey(el, 'keypress', def, mods);
    if (ok) ok = insertAtCaret(el, ch, 'insertText');
    if (ok) typed++;
    else blocked++;
    await nextTask();
    if (el.isConnected) fireKey(el, 'keyup', def, mods);
    else break;
  }
  return { typed, blocked, truncated };
}

async function typeIntoField(el: Field, text: string, replace: boolean, subject: string): Promise<string[]> {
  const notes: string[] = [];
  const type = inputType(el);
  if (FORMATTED_TYPES.has(type)) {
    const n = normaliseInputValue(type, text, { min: (el as HTMLInputElement).min, max: (el as HTMLInputElement).max });
    if (!n.ok) throw new ActionError(`${subject}: ${n.error}`);
    setNativeValue(el, n.value);
    fireInput(el, 'insertReplacementText', n.value);
    fireChange(el);
    if (n.value !== '' && el.value === '') throw new ActionError(`${subject} rejected ${quote(n.value)}. Use ${FORMAT_HINT[type] ?? 'a valid value'}.`);
    if (el.value !== n.value && type === 'range') notes.push(`The slider moved to ${el.value} (its nearest step).`);
    else if (n.value !== text.trim()) notes.push(`Entered as ${quote(el.value)}.`);
    return notes;
  }
  const single = tag(el) === 'input';
  // A single-line field gets no Enter from a line break (a lone \r too): only typingPlan's Enter submits.
  const clean = single ? text.replace(/\r\n|\r|\n/g, ' ') : text.replace(/\r\n?/g, '\n');
  if (replace) {
    try {
      el.select();
    } catch {
      /* no selection API */
    }
    if (clean === '' || fieldSelectionIsPartial(el)) clearField(el);
  } else {
    setCaret(el, el.value.length);
  }
  const r = await typeChars(el, clean);
  if (r.truncated) notes.push(`Only ${r.typed} characters fit (maxlength ${el.maxLength}); the last ${r.truncated} were dropped.`);
  if (r.blocked) notes.push(`The page blocked ${r.blocked} of the characters.`);
  if (el.isConnected) fireChange(el);
  return notes;
}

/** Types without a selection API (email, number) cannot select all: clear first instead. */
function fieldSelectionIsPartial(el: Field): boolean {
  try {
    return el.selectionStart === null || el.selectionEnd! - el.selectionStart! !== el.value.length;
  } catch {
    return true;
  }
}

async function typeIntoEditable(host: HTMLElement, text: string, replace: boolean, subject: string, ctx: ActionContext): Promise<string[]> {
  selectEditable(host, replace);
  if (replace && text === '') {
    deleteInEditable(host, false);
    return [];
  }
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  for (const [i, line] of lines.entries()) {
    if (i > 0) {
      insertIntoEditable(host, '\n');
      await nextTask();
    }
    for (const ch of [...line]) {
      const def = keyForChar(ch);
      const mods = { ctrl: false, shift: !!def.shifted, alt: false, meta: false };
      // Each key's down and up a task apart, as from a keyboard (task.ts): editors that apply a
      // cancelled beforeinput later (Lexical, in a microtask) see every character.
      if (fireKey(host, 'keydown', def, mods) && fireKey(host, 'keypress', def, mods)) insertIntoEditable(host, ch);
      await nextTask();
      fireKey(host, 'keyup', def, mods);
      await nextTask();
    }
  }
  const want = text.replace(/\s+/g, ' ').trim();
  const landed = () => editableText(host).replace(/\s+/g, ' ');
  // Editors that render from their model (Slate on React) show the text a render later.
  if (want && !landed().includes(want)) await ctx.settle();
  if (want && !landed().includes(want)) {
    throw new ActionError(
      `Typed into ${subject.replace(/^Element \[[^\]]+\] /, '')}, but the text did not appear in it (the editor may need a click first). It now shows ${quote(fieldValue(host, ctx.settings.zones) ?? '')}.`,
    );
  }
  return [];
}

function focusField(el: Element): void {
  const active = ownerDocumentOf(el).activeElement;
  if (active !== el && isHTML(el)) el.focus({ preventScroll: true });
}

async function prepare(ref: Ref, ctx: ActionContext): Promise<{ field: Element; subject: string; label: string }> {
  const el = ctx.resolve(ref);
  const subject0 = ctx.subject(ref, el);
  const field = editableTarget(el, subject0);
  const subject = field === el ? subject0 : ctx.subject(ref, field);
  ctx.begin(field);
  await waitActionable(field, { timeout: ctx.options.actionTimeout, describer: ctx.describer, subject, pointer: false, editable: true });
  return { field, subject, label: ctx.label(el) };
}

function report(field: Element, intended: string | undefined, zones: Zones): Outcome['after'] {
  return () => {
    if (!field.isConnected) return;
    const value = fieldValue(field, zones) ?? '';
    const masked = inputType(field) === 'password';
    const out = { changes: { value } };
    if (intended !== undefined && !masked && value !== intended) return { ...out, message: `The field now shows ${quote(value)}.` };
    return out;
  };
}

export const typeText: Handler<ToolArgs['type']> = async ({ ref, text, replace, submit }, ctx) => {
  const { field, subject, label } = await prepare(ref, ctx);
  const { body, enter } = typingPlan(text, submit);
  focusField(field);
  const host = editingHost(field);
  const notes = host ? await typeIntoEditable(host, body, replace, subject, ctx) : await typeIntoField(field as Field, body, replace, subject);
  const shown = inputType(field) === 'password' ? `${[...body].length} characters` : quote(body);
  const parts = [`Typed ${shown} into ${label}.`, ...notes];
  if (enter && field.isConnected) parts.push(await pressOn(field, parseKeyCombo('Enter'), ctx));
  const intended = host || FORMATTED_TYPES.has(inputType(field)) || notes.length || enter ? undefined : replace ? body : undefined;
  return { message: parts.join(' '), after: report(field, intended, ctx.settings.zones) };
};

export const clear: Handler<ToolArgs['clear']> = async ({ ref }, ctx) => {
  const { field, label } = await prepare(ref, ctx);
  focusField(field);
  const host = editingHost(field);
  if (host) {
    selectEditable(host, true);
    deleteInEditable(host, false);
  } else if (isTextField(field) || isValueField(field)) {
    if (!clearField(field)) throw new ActionError(`The page refused to clear ${label}.`);
    fireChange(field);
  }
  return { message: `Cleared ${label}.`, after: report(field, '', ctx.settings.zones) };
};
