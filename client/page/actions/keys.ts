/**
 * Key names → KeyboardEvent fields (pure). A US layout is assumed for `code`/`keyCode`, which
 * is what most sites' legacy handlers (keyCode === 13) expect. Accepts the names models use:
 * "Enter", "esc", "Ctrl+A", "Shift+Tab", "ArrowDown", "F5", "Space", "NumpadEnter", single characters.
 */

export interface KeyDef {
  /** KeyboardEvent.key, e.g. "Enter", "a", "A", "!". */
  key: string;
  /** KeyboardEvent.code, e.g. "Enter", "KeyA", "Digit1" ("" for characters off the US layout). */
  code: string;
  /** Legacy keyCode/which for keydown/keyup. */
  keyCode: number;
  /** 1 = left (modifiers get the left variant), 0 = standard. */
  location: number;
  /** The character the key types, if any (Enter types "\r" for keypress only). */
  text?: string;
  /** Shift is part of how this character is typed (uppercase, "!"). */
  shifted?: boolean;
}

export interface Modifiers {
  ctrl: boolean;
  shift: boolean;
  alt: boolean;
  meta: boolean;
}

export interface KeyCombo {
  def: KeyDef;
  /** Every modifier state the key is pressed with (the given ones, Shift for "!", the key itself if it is one). */
  modifiers: Modifiers;
  /** The modifier keys given before the key, in the order given: each is pressed down before it and released after it, as on a keyboard. */
  held: Array<keyof Modifiers>;
}

type Named = [key: string, code: string, keyCode: number, location?: number];

/** Named keys by lower-cased name. Most have `code` equal to `key`; the modifiers are the
 *  left-hand keys (code "ShiftLeft", location 1); Space's key is " ". */
const named: Record<string, Named> = {
  space: [' ', 'Space', 32],
  // The keypad's Enter is Enter to every page (same key and keyCode), only its code differs.
  numpadenter: ['Enter', 'NumpadEnter', 13, 3],
};
for (const [key, keyCode] of Object.entries({
  Enter: 13,
  Tab: 9,
  Escape: 27,
  Backspace: 8,
  Delete: 46,
  Insert: 45,
  Home: 36,
  End: 35,
  PageUp: 33,
  PageDown: 34,
  ArrowLeft: 37,
  ArrowUp: 38,
  ArrowRight: 39,
  ArrowDown: 40,
  CapsLock: 20,
  ContextMenu: 93,
})) {
  named[key.toLowerCase()] = [key, key, keyCode];
}
for (const [key, keyCode] of Object.entries({ Shift: 16, Control: 17, Alt: 18, Meta: 91 })) {
  named[key.toLowerCase()] = [key, `${key}Left`, keyCode, 1];
}

const aliases: Record<string, string> = {
  esc: 'escape',
  return: 'enter',
  del: 'delete',
  ins: 'insert',
  spacebar: 'space',
  up: 'arrowup',
  down: 'arrowdown',
  left: 'arrowleft',
  right: 'arrowright',
  pgup: 'pageup',
  pgdn: 'pagedown',
  ctrl: 'control',
  cmd: 'meta',
  command: 'meta',
  win: 'meta',
  super: 'meta',
  os: 'meta',
  option: 'alt',
  opt: 'alt',
  bksp: 'backspace',
};

const modifierOf: Record<string, keyof Modifiers> = { control: 'ctrl', shift: 'shift', alt: 'alt', meta: 'meta' };

/** US-layout punctuation: character → [code, keyCode, shifted]. */
const punctuation: Record<string, [string, number, boolean]> = {};
// Each key: its character, its character with Shift, its code and keyCode.
for (const [chars, code, keyCode] of [
  ['-_', 'Minus', 189],
  ['=+', 'Equal', 187],
  ['[{', 'BracketLeft', 219],
  [']}', 'BracketRight', 221],
  ['\\|', 'Backslash', 220],
  [';:', 'Semicolon', 186],
  ['\'"', 'Quote', 222],
  [',<', 'Comma', 188],
  ['.>', 'Period', 190],
  ['/?', 'Slash', 191],
  ['`~', 'Backquote', 192],
] as const) {
  punctuation[chars[0]] = [code, keyCode, false];
  punctuation[chars[1]] = [code, keyCode, true];
}
const shiftedDigits = ')!@#$%^&*(';

/** The key event fields for typing one character. */
export function keyForChar(ch: string): KeyDef {
  if (ch === '\n' || ch === '\r') return { key: 'Enter', code: 'Enter', keyCode: 13, location: 0, text: '\r' };
  if (ch === '\t') return { key: 'Tab', code: 'Tab', keyCode: 9, location: 0 };
  if (ch === ' ') return { key: ' ', code: 'Space', keyCode: 32, location: 0, text: ' ' };
  if (/^[a-z]$/i.test(ch)) {
    const up = ch.toUpperCase();
    return { key: ch, code: `Key${up}`, keyCode: up.charCodeAt(0), location: 0, text: ch, shifted: ch === up };
  }
  if (/^[0-9]$/.test(ch)) return { key: ch, code: `Digit${ch}`, keyCode: ch.charCodeAt(0), location: 0, text: ch };
  const sd = shiftedDigits.indexOf(ch);
  if (sd >= 0) return { key: ch, code: `Digit${sd}`, keyCode: 48 + sd, location: 0, text: ch, shifted: true };
  const p = punctuation[ch];
  if (p) return { key: ch, code: p[0], keyCode: p[1], location: 0, text: ch, shifted: p[2] };
  // Characters off the US layout (é, ß, 中, emoji): key is the character; no physical code.
  return { key: ch, code: '', keyCode: 0, location: 0, text: ch };
}

/** The definition of one key name (no modifiers), or undefined. */
export function keyByName(name: string): KeyDef | undefined {
  if ([...name].length === 1) return keyForChar(name);
  const lower = name.trim().toLowerCase();
  const id = aliases[lower] ?? lower;
  const n = named[id];
  if (n) return { key: n[0], code: n[1], keyCode: n[2], location: n[3] ?? 0, text: n[0] === ' ' ? ' ' : n[0] === 'Enter' ? '\r' : undefined };
  const f = /^f([1-9]|1[0-9]|2[0-4])$/.exec(id);
  if (f) {
    const k = `F${f[1]}`;
    return { key: k, code: k, keyCode: 111 + Number(f[1]), location: 0 };
  }
  // "KeyA" / "Digit1" as models sometimes copy `code` values.
  const code = /^(?:key([a-z])|digit([0-9]))$/.exec(lower);
  if (code) return keyForChar(code[1] ?? code[2]!);
  return undefined;
}

/** Parses "Control+Shift+a", "Shift+Tab", "Ctrl++", "Enter". Throws a readable Error if unknown. */
export function parseKeyCombo(input: string): KeyCombo {
  const s = input === ' ' ? ' ' : input.trim();
  let parts: string[];
  if (s === '+' || s === ' ') parts = [s];
  else if (s.endsWith('++')) parts = [...s.slice(0, -2).split('+'), '+'];
  else parts = s.split('+');
  parts = parts.map((p) => (p === ' ' ? p : p.trim()));
  if (parts.some((p) => p === ''))
    throw new Error(`"${input}" is not a key. Use names like "Enter", "Escape", "ArrowDown", "a" or combinations like "Control+a".`);
  const modifiers: Modifiers = { ctrl: false, shift: false, alt: false, meta: false };
  const held: Array<keyof Modifiers> = [];
  const last = parts.pop()!;
  for (const p of parts) {
    const lower = p.toLowerCase();
    const m = modifierOf[aliases[lower] ?? lower];
    if (!m) throw new Error(`"${p}" in "${input}" is not a modifier. Modifiers are Control, Shift, Alt and Meta.`);
    modifiers[m] = true;
    if (!held.includes(m)) held.push(m);
  }
  const def = keyByName(last);
  if (!def) {
    throw new Error(
      `Unknown key "${last}". Use a character or one of: Enter, NumpadEnter, Tab, Escape, Backspace, Delete, Home, End, PageUp, PageDown, ArrowUp/Down/Left/Right, Space, F1–F12 (with modifiers like "Control+a", "Shift+Tab").`,
    );
  }
  const lastMod = modifierOf[aliases[last.toLowerCase()] ?? last.toLowerCase()];
  if (lastMod) {
    modifiers[lastMod] = true;
    // "Shift+Shift" is one Shift key.
    if (held.includes(lastMod)) held.splice(held.indexOf(lastMod), 1);
  }
  // "Shift+a" types "A": key follows the shift state for letters, as on a real keyboard.
  if (modifiers.shift && def.text && /^[a-z]$/.test(def.key)) {
    return { def: { ...def, key: def.key.toUpperCase(), text: def.key.toUpperCase(), shifted: true }, modifiers, held };
  }
  if (def.shifted) modifiers.shift = true;
  return { def, modifiers, held };
}

/** The key event fields of a modifier key itself (the left-hand one). */
export function modifierKey(m: keyof Modifiers): KeyDef {
  return keyByName(({ ctrl: 'Control', shift: 'Shift', alt: 'Alt', meta: 'Meta' } as const)[m])!;
}

/** A combo types text only when no command modifier is held (Shift is fine). */
export function typedText(combo: KeyCombo): string | undefined {
  const { ctrl, alt, meta } = combo.modifiers;
  if (ctrl || alt || meta) return undefined;
  return combo.def.text === '\r' ? undefined : combo.def.text;
}

const MODIFIER_NAMES: Record<keyof Modifiers, string> = { ctrl: 'Control', shift: 'Shift', alt: 'Alt', meta: 'Meta' };

/**
 * Human form for messages, the combo as given with each key's own name: "Control+a",
 * "Control+Shift+Y", "Shift+Tab", "A", "Space" (a Shift that only a character implies, as in
 * "!", is not named).
 */
export function comboLabel(combo: KeyCombo): string {
  const parts = combo.held.map((m) => MODIFIER_NAMES[m]);
  parts.push(combo.def.key === ' ' ? 'Space' : combo.def.key);
  return parts.join('+');
}

/**
 * The key that presses what has focus, whatever the modifiers: `Enter` (from "Return",
 * "NumpadEnter", "Shift+Enter", …) or `' '` (Space, "spacebar", " "). Undefined for other keys.
 * Modifiers are not looked at: the default action ignores some, but a page's own handler may
 * act on any (Control+Enter sends in many editors).
 */
export function activatingKey(combo: KeyCombo): 'Enter' | ' ' | undefined {
  const k = combo.def.key;
  return k === 'Enter' || k === ' ' ? k : undefined;
}
