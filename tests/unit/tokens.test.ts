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

  it('counts nothing for an empty string', () => {
    expect(estimateTokens('')).toBe(0);
  });
});
