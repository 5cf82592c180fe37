/** Dispatches KeyboardEvents with key/code/keyCode/which/charCode set the way browsers do. */
import { winOf } from './dom';
import type { KeyDef, Modifiers } from './keys';

export const NO_MODIFIERS: Modifiers = { ctrl: false, shift: false, alt: false, meta: false };

/** Fires keydown/keypress/keyup on `target`; returns false if the page cancelled it. */
export function fireKey(target: Element, type: 'keydown' | 'keypress' | 'keyup', def: KeyDef, mods: Modifiers = NO_MODIFIERS): boolean {
  const win = winOf(target);
  // keypress carries the character code in keyCode/charCode/which; keydown/up the key code.
  const charCode = type === 'keypress' ? (def.text ?? '').charCodeAt(0) || 0 : 0;
  const keyCode = type === 'keypress' ? charCode : def.keyCode;
  const init: KeyboardEventInit & { keyCode: number; which: number; charCode: number } = {
    key: def.key,
    code: def.code,
    location: def.location,
    ctrlKey: mods.ctrl,
    shiftKey: mods.shift,
    altKey: mods.alt,
    metaKey: mods.meta,
    repeat: false,
    bubbles: true,
    cancelable: true,
    composed: true,
    view: win,
    keyCode,
    which: keyCode,
    charCode,
  };
  const e = new win.KeyboardEvent(type, init);
  // Engines that ignore the legacy fields in the init dictionary get them as own getters.
  for (const [k, v] of [
    ['keyCode', keyCode],
    ['which', keyCode],
    ['charCode', charCode],
  ] as const) {
    if ((e as unknown as Record<string, number>)[k] !== v) Object.defineProperty(e, k, { get: () => v });
  }
  return target.dispatchEvent(e);
}
