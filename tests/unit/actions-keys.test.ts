import { describe, expect, it } from 'vitest';
import { activatingKey, comboLabel, keyByName, keyForChar, modifierKey, parseKeyCombo, typedText } from '../../client/page/actions/keys';

describe('key table', () => {
  it('maps named keys to key/code/keyCode', () => {
    const cases: Array<[string, string, string, number]> = [
      ['Enter', 'Enter', 'Enter', 13],
      ['Tab', 'Tab', 'Tab', 9],
      ['Escape', 'Escape', 'Escape', 27],
      ['esc', 'Escape', 'Escape', 27],
      ['Backspace', 'Backspace', 'Backspace', 8],
      ['Delete', 'Delete', 'Delete', 46],
      ['Home', 'Home', 'Home', 36],
      ['End', 'End', 'End', 35],
      ['PageUp', 'PageUp', 'PageUp', 33],
      ['PageDown', 'PageDown', 'PageDown', 34],
      ['ArrowLeft', 'ArrowLeft', 'ArrowLeft', 37],
      ['ArrowUp', 'ArrowUp', 'ArrowUp', 38],
      ['ArrowRight', 'ArrowRight', 'ArrowRight', 39],
      ['ArrowDown', 'ArrowDown', 'ArrowDown', 40],
      ['down', 'ArrowDown', 'ArrowDown', 40],
      ['Space', ' ', 'Space', 32],
      ['F1', 'F1', 'F1', 112],
      ['F5', 'F5', 'F5', 116],
      ['F12', 'F12', 'F12', 123],
      ['Return', 'Enter', 'Enter', 13],
    ];
    for (const [name, key, code, keyCode] of cases) expect(keyByName(name), name).toMatchObject({ key, code, keyCode });
  });

  it('maps letters, digits and punctuation on a US layout', () => {
    expect(keyForChar('a')).toMatchObject({ key: 'a', code: 'KeyA', keyCode: 65, text: 'a', shifted: false });
    expect(keyForChar('Z')).toMatchObject({ key: 'Z', code: 'KeyZ', keyCode: 90, shifted: true });
    expect(keyForChar('7')).toMatchObject({ key: '7', code: 'Digit7', keyCode: 55 });
    expect(keyForChar('!')).toMatchObject({ key: '!', code: 'Digit1', keyCode: 49, shifted: true });
    expect(keyForChar('@')).toMatchObject({ code: 'Digit2', shifted: true });
    expect(keyForChar('.')).toMatchObject({ code: 'Period', keyCode: 190 });
    expect(keyForChar('?')).toMatchObject({ code: 'Slash', keyCode: 191, shifted: true });
    expect(keyForChar('é')).toMatchObject({ key: 'é', code: '', keyCode: 0, text: 'é' });
    expect(keyForChar('\n')).toMatchObject({ key: 'Enter', keyCode: 13 });
  });

  it('parses modifier combinations', () => {
    expect(parseKeyCombo('Control+a')).toMatchObject({ def: { key: 'a', code: 'KeyA' }, modifiers: { ctrl: true, shift: false, alt: false, meta: false } });
    expect(parseKeyCombo('ctrl+shift+Z').modifiers).toEqual({ ctrl: true, shift: true, alt: false, meta: false });
    expect(parseKeyCombo('Shift+Tab')).toMatchObject({ def: { key: 'Tab' }, modifiers: { shift: true } });
    expect(parseKeyCombo('Cmd+Enter').modifiers.meta).toBe(true);
    expect(parseKeyCombo('Alt + ArrowDown')).toMatchObject({ def: { key: 'ArrowDown' }, modifiers: { alt: true } });
    expect(parseKeyCombo('Control++')).toMatchObject({ def: { key: '+', code: 'Equal' }, modifiers: { ctrl: true, shift: true } });
    expect(parseKeyCombo('+').def.key).toBe('+');
    expect(parseKeyCombo(' ').def).toMatchObject({ key: ' ', code: 'Space' });
    // Shift+letter types the capital, as a keyboard does.
    expect(parseKeyCombo('Shift+a').def).toMatchObject({ key: 'A', code: 'KeyA', text: 'A' });
    // A modifier alone is a key too.
    expect(parseKeyCombo('Shift')).toMatchObject({ def: { key: 'Shift', code: 'ShiftLeft', keyCode: 16, location: 1 }, modifiers: { shift: true }, held: [] });
    // The modifier keys pressed before the key, in the order given; a Shift only "!" implies is not one.
    expect(parseKeyCombo('Control+Shift+Y').held).toEqual(['ctrl', 'shift']);
    expect(parseKeyCombo('Alt+Control+Delete').held).toEqual(['alt', 'ctrl']);
    expect(parseKeyCombo('Control+!')).toMatchObject({ held: ['ctrl'], modifiers: { ctrl: true, shift: true } });
    expect(parseKeyCombo('Control+Shift').held).toEqual(['ctrl']);
    expect(modifierKey('ctrl')).toMatchObject({ key: 'Control', code: 'ControlLeft', keyCode: 17, location: 1 });
  });

  it('rejects unknown keys and non-modifiers with a helpful message', () => {
    expect(() => parseKeyCombo('Foo')).toThrow(/Unknown key "Foo".*Enter, Tab, Escape/);
    expect(() => parseKeyCombo('a+b')).toThrow(/"a" in "a\+b" is not a modifier/);
    expect(() => parseKeyCombo('Control+')).toThrow(/is not a key/);
  });

  it('knows which combos type text, and labels them for messages', () => {
    expect(typedText(parseKeyCombo('a'))).toBe('a');
    expect(typedText(parseKeyCombo('Shift+a'))).toBe('A');
    expect(typedText(parseKeyCombo('Control+a'))).toBeUndefined();
    expect(typedText(parseKeyCombo('Enter'))).toBeUndefined();
    expect(typedText(parseKeyCombo('Space'))).toBe(' ');
    expect(comboLabel(parseKeyCombo('ctrl+a'))).toBe('Control+a');
    expect(comboLabel(parseKeyCombo('shift+tab'))).toBe('Shift+Tab');
    // The combo as given, in its order, with each key's own name.
    expect(comboLabel(parseKeyCombo('Shift+a'))).toBe('Shift+A');
    expect(comboLabel(parseKeyCombo('Control+Shift+Y'))).toBe('Control+Shift+Y');
    expect(comboLabel(parseKeyCombo('shift+ctrl+y'))).toBe('Shift+Control+Y');
    expect(comboLabel(parseKeyCombo('!'))).toBe('!');
    expect(comboLabel(parseKeyCombo('Control+Shift'))).toBe('Control+Shift');
    expect(comboLabel(parseKeyCombo('Shift'))).toBe('Shift');
    expect(comboLabel(parseKeyCombo(' '))).toBe('Space');
  });
});

describe('keys that press what has focus', () => {
  it('NumpadEnter is Enter to the page (its own code and location), and types no text', () => {
    expect(keyByName('NumpadEnter')).toEqual({ key: 'Enter', code: 'NumpadEnter', keyCode: 13, location: 3, text: '\r' });
    expect(parseKeyCombo('Shift+NumpadEnter')).toMatchObject({ def: { key: 'Enter', code: 'NumpadEnter' }, modifiers: { shift: true } });
    expect(typedText(parseKeyCombo('NumpadEnter'))).toBeUndefined();
    expect(comboLabel(parseKeyCombo('numpadenter'))).toBe('Enter');
  });

  it('every spelling of Enter and Space is one of the two, whatever the modifiers', () => {
    for (const k of ['Enter', 'enter', 'ENTER', 'Return', ' Enter', 'Enter ', 'Shift+Enter', 'Control+Return', 'NumpadEnter'])
      expect(activatingKey(parseKeyCombo(k)), k).toBe('Enter');
    for (const k of ['Space', 'space', ' ', 'spacebar', 'Shift+Space', 'Control+Space']) expect(activatingKey(parseKeyCombo(k)), k).toBe(' ');
    for (const k of ['Tab', 'Escape', 'a', 'Shift+Tab', 'ArrowDown', 'Control+a', 'F5']) expect(activatingKey(parseKeyCombo(k)), k).toBeUndefined();
  });
});
