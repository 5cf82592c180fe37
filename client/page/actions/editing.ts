/**
 * Text editing primitives shared by `type`, `clear` and `press_key`: setting a field's value
 * through the prototype's native setter (so React's value tracker sees a change), firing
 * beforeinput/input/change, caret handling, and inserting into contenteditable editors.
 */
import { tag, winOf, type Win } from './dom';
import { ownerDocumentOf } from '../dom/proto';

type Field = HTMLInputElement | HTMLTextAreaElement;

/** Sets `value` with the setter from the element's own prototype (bypassing instance hooks). */
export function setNativeValue(el: Field, value: string): void {
  const win = winOf(el);
  const proto = tag(el) === 'textarea' ? win.HTMLTextAreaElement.prototype : win.HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  if (setter) setter.call(el, value);
  else el.value = value;
}

function inputEvent(win: Win, type: string, inputType: string, data: string | null, cancelable: boolean): Event {
  if (typeof win.InputEvent === 'function') {
    return new win.InputEvent(type, { bubbles: true, cancelable, composed: true, inputType, data });
  }
  return new win.Event(type, { bubbles: true, cancelable, composed: true });
}

/** Fires `beforeinput`; false if the page cancelled it. */
export function fireBeforeInput(el: Element, type: string, data: string | null): boolean {
  return el.dispatchEvent(inputEvent(winOf(el), 'beforeinput', type, data, true));
}

export function fireInput(el: Element, type: string, data: string | null): void {
  el.dispatchEvent(inputEvent(winOf(el), 'input', type, data, false));
}

export function fireChange(el: Element): void {
  const win = winOf(el);
  el.dispatchEvent(new win.Event('change', { bubbles: true }));
}

/** Selection range in a field, or the end for types without one (email, number). */
export function fieldSelection(el: Field): [number, number] {
  try {
    const s = el.selectionStart;
    const e = el.selectionEnd;
    if (s !== null && e !== null) return [s, e];
  } catch {
    /* no selection API for this type */
  }
  return [el.value.length, el.value.length];
}

export function setCaret(el: Field, start: number, end = start): void {
  try {
    el.setSelectionRange(start, end);
  } catch {
    /* no selection API for this type */
  }
}

/** Room left under maxlength, given the current selection is replaced. Infinity if none. */
export function roomLeft(el: Field): number {
  const max = el.maxLength;
  if (!(max >= 0)) return Infinity;
  const [s, e] = fieldSelection(el);
  return Math.max(0, max - (el.value.length - (e - s)));
}

/** Inserts `text` at the caret (replacing the selection), as one input step. */
export function insertAtCaret(el: Field, text: string, kind = 'insertText'): boolean {
  if (!fireBeforeInput(el, kind, kind === 'insertLineBreak' ? null : text)) return false;
  const [s, e] = fieldSelection(el);
  const v = el.value;
  setNativeValue(el, v.slice(0, s) + text + v.slice(e));
  setCaret(el, s + text.length);
  fireInput(el, kind, kind === 'insertLineBreak' ? null : text);
  return true;
}

/** Deletes the selection, or one character before/after the caret. */
export function deleteAtCaret(el: Field, forward: boolean): boolean {
  const kind = forward ? 'deleteContentForward' : 'deleteContentBackward';
  let [s, e] = fieldSelection(el);
  if (s === e) {
    if (forward) e = Math.min(el.value.length, e + 1);
    else s = Math.max(0, s - 1);
  }
  if (s === e) return false;
  if (!fireBeforeInput(el, kind, null)) return false;
  const v = el.value;
  setNativeValue(el, v.slice(0, s) + v.slice(e));
  setCaret(el, s);
  fireInput(el, kind, null);
  return true;
}

/** Empties a field as one deletion step (select all + delete). */
export function clearField(el: Field): boolean {
  if (el.value === '') return true;
  if (!fireBeforeInput(el, 'deleteContentBackward', null)) return false;
  setNativeValue(el, '');
  fireInput(el, 'deleteContentBackward', null);
  return true;
}

/** Places the selection over all of an editing host's content, or collapses it at the end. */
export function selectEditable(host: HTMLElement, all: boolean): void {
  const doc = ownerDocumentOf(host);
  const sel = doc.getSelection();
  if (!sel) return;
  const range = doc.createRange();
  range.selectNodeContents(host);
  if (!all) range.collapse(false);
  sel.removeAllRanges();
  sel.addRange(range);
}

/**
 * Inserts text into a contenteditable editor at the selection, as a browser does: a cancellable
 * `beforeinput` first — model-based editors (Lexical, Slate, ProseMirror) cancel it and apply
 * the edit themselves — and only if nobody cancelled it, the DOM edit with its `input` event,
 * through `execCommand('insertText')` (undo stack, trusted input event) or, where that is
 * unavailable, a direct insertion.
 */
export function insertIntoEditable(host: HTMLElement, text: string): void {
  const doc = ownerDocumentOf(host);
  const kind = text === '\n' ? 'insertParagraph' : 'insertText';
  const data = kind === 'insertText' ? text : null;
  if (!fireBeforeInput(host, kind, data)) return; // the editor handled it
  let done: boolean;
  try {
    done = kind === 'insertParagraph' ? doc.execCommand('insertParagraph') : doc.execCommand('insertText', false, text);
  } catch {
    done = false;
  }
  if (done) return;
  const sel = doc.getSelection();
  if (!sel || !sel.rangeCount) return;
  const range = sel.getRangeAt(0);
  range.deleteContents();
  const node = kind === 'insertParagraph' ? doc.createElement('br') : doc.createTextNode(text);
  range.insertNode(node);
  range.setStartAfter(node);
  range.collapse(true);
  sel.removeAllRanges();
  sel.addRange(range);
  fireInput(host, kind, data);
}

/** Deletes in a contenteditable editor (selection, or one character); beforeinput first. */
export function deleteInEditable(host: HTMLElement, forward: boolean): void {
  const doc = ownerDocumentOf(host);
  const kind = forward ? 'deleteContentForward' : 'deleteContentBackward';
  if (!fireBeforeInput(host, kind, null)) return;
  let done: boolean;
  try {
    done = doc.execCommand(forward ? 'forwardDelete' : 'delete');
  } catch {
    done = false;
  }
  if (done) return;
  const sel = doc.getSelection();
  if (!sel || !sel.rangeCount) return;
  if (sel.isCollapsed) sel.modify?.('extend', forward ? 'forward' : 'backward', 'character');
  sel.getRangeAt(0).deleteContents();
  fireInput(host, kind, null);
}

/** Text of an editing host as a user reads it (for verifying what landed). */
export function editableText(host: HTMLElement): string {
  return (host.innerText ?? host.textContent ?? '').replace(/\u00a0/g, ' ');
}
