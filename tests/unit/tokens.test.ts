import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../client/page/map/tokens';

// Lines of the kinds the map prints, in several scripts, with ids, URLs and numbers.
const LINES = [
  'page "Inbox (3) – Mail" https://mail.example/u/0/#inbox?compose=new  viewport 1280x800  scroll 0.0↑ 4.9↓ screens',
  '⟪page content⟫',
  'dialog "Cookie consent"',
  '  *[185]button "Accept all"',
  '[2]searchbox "Search mail" focused',
  '[9]checkbox "Starred only" checked',
  '## Primary',
  '[31]link "Ernesto Ruiz — Budget for Q3"  Tue 10:42',
  '[f2:7]textbox "Vorname" value="Zürich" required',
  '[12]combobox "Country" value="Spain" (195 options: Spain, France, Germany, Italy, Portugal, …)',
  '[40]scrollable "Messages" scroll 0.0↑ 3.2↓ (25 more inside, scroll it)',
  'Order #A8F3-C9E1-B2D4 shipped via UPS 1Z999AA10123456784',
  '東京都渋谷区の天気予報 — 最高気温 23°C',
  'Привет, как дела? Заказ №4521 отправлен.',
  'مرحبا بكم في متجرنا',
  '🎉 Sale! 50% off everything 🛍️',
  'const x = useCallback(() => setState((s) => ({ ...s, open: !s.open })), []);',
  'QmXoypizjW3WknFiJnKLwHCnL72vedxjQkDDP1mXWo6uco',
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0',
  '… 336 more interactive below (scroll down)',
];

describe('estimateTokens', () => {
  it('never undercounts a whole map-like text against a real o200k tokenizer', () => {
    const text = LINES.join('\n');
    expect(estimateTokens(text)).toBeGreaterThanOrEqual(encode(text).length);
  });

  it('stays an upper bound line by line for map lines, and within 2x for plain English', () => {
    for (const line of LINES) expect(estimateTokens(line), line).toBeGreaterThanOrEqual(encode(line).length);
    const english = 'You have two unread messages from the finance team about the quarterly budget review.';
    expect(estimateTokens(english)).toBeLessThanOrEqual(2 * encode(english).length);
  });

  it('prices every string exactly as the regex pieces do', () => {
    // The definition the scan implements, as it was written before the scan replaced it.
    const PIECE = /(\p{Script=Latin}+)|(\p{N}+)|([\p{L}\p{M}]+)|(\s+)|([^\s\p{L}\p{N}])/gu;
    const common = new Set('…—–↑↓←→•·€£¥°©®™“”‘’«»×'.split(''));
    const latinRun = (run: string): number => {
      const n = run.length;
      if (n <= 3) return 1;
      const ratio = (run.match(/[aeiouyà-åè-ïò-öù-ü]/gi)?.length ?? 0) / n;
      const innerCaps = /[A-Z]/.test(run.slice(1)) && run.slice(1) !== run.slice(1).toLowerCase();
      return ratio >= 0.25 && ratio <= 0.65 && !innerCaps && /^[\x00-\x7f]*$/.test(run) ? Math.ceil((n + 1) / 4) : Math.ceil(n * 0.75);
    };
    const byRegex = (text: string): number => {
      let t = 0;
      for (const m of text.matchAll(PIECE)) {
        if (m[1]) t += latinRun(m[1]);
        else if (m[2]) t += Math.ceil(m[2].length / 3);
        else if (m[3]) t += m[3].length;
        else if (m[4]) t += m[4] === ' ' ? 0 : 1;
        else if (m[5]) t += m[5].charCodeAt(0) < 128 || common.has(m[5]) ? 1 : 3;
      }
      return t;
    };
    for (const line of LINES) expect(estimateTokens(line), line).toBe(byRegex(line));
    // Random strings over pieces that meet at every kind of border: ASCII and accented letters,
    // combining marks, other scripts, digits of several scripts, Roman numerals, spaces of
    // several kinds, symbols, emoji (surrogate pairs) and lone surrogates.
    const parts = [
      'a',
      'Zu',
      'rich',
      'ID',
      'x',
      'é',
      'ß',
      'ÆØ',
      'ÿ',
      '\u0301',
      'д',
      'Щи',
      '東京',
      'ا',
      '7',
      '42',
      '٣',
      '२',
      '²',
      'Ⅻ',
      ' ',
      '  ',
      '\t',
      '\n',
      '\r',
      '\v',
      '\f',
      '\x1c',
      '\u00a0',
      '\u2003',
      '-',
      '#',
      '…',
      '→',
      '€',
      '🎉',
      '🛍️',
      '\ud800',
      '\udc00',
      '⟪',
      '"',
      '_',
    ];
    let seed = 2463534242; // xorshift32
    const next = (): number => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>>= 0);
    };
    for (let k = 0; k < 3000; k++) {
      let s = '';
      for (let n = next() % 12; n >= 0; n--) s += parts[next() % parts.length];
      expect(estimateTokens(s), JSON.stringify(s)).toBe(byRegex(s));
    }
  });

  it('counts nothing for an empty string', () => {
    expect(estimateTokens('')).toBe(0);
  });
});
