import { describe, expect, it } from 'vitest';
import { jsonForTerminal, safeForTerminal } from '../../cli/terminal-text';

const ESC = '\x1b';
/** Anything a terminal would act on, or that reorders text. */
const CONTROL = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('safeForTerminal', () => {
  it('removes CSI sequences whole: erase line, cursor up, colours, private modes', () => {
    expect(safeForTerminal(`Pay $900${ESC}[2K${ESC}[1A Cancel`)).toBe('Pay $900 Cancel');
    expect(safeForTerminal(`${ESC}[31;1mred${ESC}[0m`)).toBe('red');
    expect(safeForTerminal(`a${ESC}[?25lb${ESC}[?1049h`)).toBe('ab');
    expect(safeForTerminal(`x${ESC}[2`)).toBe('x'); // unterminated, at the end
  });

  it('removes OSC sequences whole, ended by BEL, by ST, or not at all (clipboard, title, hyperlinks)', () => {
    expect(safeForTerminal(`copy${ESC}]52;c;cm0gLXJmIH4K\x07 done`)).toBe('copy done');
    expect(safeForTerminal(`t${ESC}]0;evil title${ESC}\\ok`)).toBe('tok');
    expect(safeForTerminal(`${ESC}]8;;https://evil.test${ESC}\\link${ESC}]8;;${ESC}\\`)).toBe('link');
    expect(safeForTerminal(`before${ESC}]52;c;AAAA`)).toBe('before');
  });

  it('removes DCS/APC/PM strings and two-byte escapes (reset, save and restore the cursor)', () => {
    expect(safeForTerminal(`a${ESC}Pq#0;2;0;0;0${ESC}\\b`)).toBe('ab');
    expect(safeForTerminal(`a${ESC}_hidden${ESC}\\b`)).toBe('ab');
    expect(safeForTerminal(`a${ESC}cb${ESC}7c${ESC}8d${ESC}(Be`)).toBe('abcde');
  });

  it('removes C1 controls and their sequences (0x9B CSI, 0x9D OSC), and DEL', () => {
    expect(safeForTerminal('a\x9b2Jb')).toBe('ab');
    expect(safeForTerminal('a\x9d52;c;QQ==\x9cb')).toBe('ab');
    expect(safeForTerminal('a\x85b\x7fc\x90')).toBe('a bc');
  });

  it('removes the other C0 controls (BEL, backspace, NUL) and turns breaks into spaces on one line', () => {
    expect(safeForTerminal('ding\x07 back\x08\x08 nul\x00')).toBe('ding back nul');
    expect(safeForTerminal('line one\nline two\r\nthree\rfour\ttab')).toBe('line one line two three four tab');
    expect(safeForTerminal('a\u2028b\u2029c')).toBe('a b c');
  });

  it('keeps line breaks as \\n with multiline (never \\r, which returns to the line start)', () => {
    expect(safeForTerminal('one\r\ntwo\rthree\nfour\tfive', { multiline: true })).toBe('one\ntwo\nthree\nfour five');
  });

  it('removes bidi embeddings, overrides, isolates and marks', () => {
    expect(safeForTerminal('Pay \u202E009$\u202C now')).toBe('Pay 009$ now');
    expect(safeForTerminal('\u2066a\u2067b\u2068c\u2069 \u202Ad\u202Be\u202Df\u200Eg\u200Fh\u061Ci')).toBe('abc defghi');
  });

  it('leaves ordinary text alone, in any script', () => {
    for (const s of ['Delete account', 'Zahlung: 900 €', 'שלם עכשיו', 'ادفع الآن', '支払う 🙂', '"quoted" \\ back']) expect(safeForTerminal(s)).toBe(s);
    expect(safeForTerminal(undefined)).toBe('');
    expect(safeForTerminal(42)).toBe('42');
  });

  it('leaves nothing a terminal acts on, whatever the mix', () => {
    const nasty = `${ESC}[2K${ESC}[1A${ESC}]52;c;x\x07\u202E\x9b2J\x85\x00\x7f${ESC}${ESC}[${ESC}]\u2066`;
    expect(safeForTerminal(`ok ${nasty} end`)).not.toMatch(CONTROL);
    expect(safeForTerminal(`ok ${nasty} end`, { multiline: true }).replace(/\n/g, '')).not.toMatch(CONTROL);
  });
});

describe('jsonForTerminal', () => {
  it('keeps the data exactly and writes every control character as an escape', () => {
    const value = { name: `Pay${ESC}[2K\u202Eyap\u2066\x9b\x85\x7f\u2028`, n: 1 };
    const line = jsonForTerminal(value);
    expect(line).not.toMatch(CONTROL);
    expect(line).not.toMatch(/[\u2028\u2029]/);
    expect(JSON.parse(line)).toEqual(value);
    expect(line).toContain('\\u202e');
  });

  it('is JSON.stringify for ordinary data', () => {
    const value = { event: 'note', text: 'saved the download: /tmp/a (2).csv', list: [1, 'é', '支払う'] };
    expect(jsonForTerminal(value)).toBe(JSON.stringify(value));
  });
});
