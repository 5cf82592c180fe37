import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { NO_MASKS } from '../../client/safety/masks';
import { cap, choose, statesText, type Line } from '../../client/page/map/format';

const PLAIN = { masks: NO_MASKS };

const el = (order: number, body: string, extra: Partial<Line> = {}): Line => ({
  order,
  isElement: true,
  body: `[#]${body}`,
  groups: [],
  priority: 3,
  direction: 'view',
  block: null,
  ...extra,
});
const text = (order: number, body: string, extra: Partial<Line> = {}): Line => ({
  order,
  isElement: false,
  body,
  groups: [],
  priority: 4,
  direction: 'view',
  block: null,
  ...extra,
});
const noCounts = () => ({ above: 0, below: 0, left: 0, right: 0, budget: 0, covered: new Map<string, number>() });

describe('format', () => {
  it('prints chosen lines in document order with group headers and indentation', () => {
    const dialog = { key: {}, label: 'dialog "Cookie consent"' };
    const lines = [
      el(1, 'searchbox "Search"'),
      text(2, 'We use cookies.', { groups: [dialog] }),
      el(3, 'button "Accept all"', { groups: [dialog], priority: 2 }),
      el(4, 'link "Next"', { direction: 'below', priority: 5 }),
    ];
    const f = choose({ header: 'page "t"', lines, maxTokens: 3000, counts: noCounts() });
    const out = f.render(
      new Map([
        [1, '1'],
        [3, '*2'],
        [4, '3'],
      ]),
    );
    expect(out.split('\n')).toEqual([
      'page "t"',
      '⟪page content⟫',
      '[1]searchbox "Search"',
      'dialog "Cookie consent"',
      '  We use cookies.',
      '  [*2]button "Accept all"',
      '[3]link "Next"',
      '⟪/page content⟫',
    ]);
  });

  it('joins trailing text of the same block onto its element line', () => {
    const row = {};
    const f = choose({
      header: 'h',
      lines: [el(1, 'link "Budget"', { block: row }), text(2, 'Tue 10:42', { block: row }), text(3, 'Next row')],
      maxTokens: 3000,
      counts: noCounts(),
    });
    expect(
      f
        .render(new Map([[1, '1']]))
        .split('\n')
        .slice(2, 4),
    ).toEqual(['[1]link "Budget"  Tue 10:42', 'Next row']);
  });

  it('fills the budget by priority, counts what is left out, and stays within it', () => {
    const lines: Line[] = [];
    for (let i = 0; i < 200; i++) lines.push(el(i, `button "Item number ${i}"`, { priority: i < 50 ? 3 : 5, direction: i < 50 ? 'view' : 'below' }));
    const f = choose({ header: 'page "Long"', lines, maxTokens: 400, counts: noCounts() });
    const refs = new Map(lines.map((l) => [l.order, String(100000 + l.order)]));
    const out = f.render(refs);
    expect(encode(out).length).toBeLessThanOrEqual(400);
    expect(f.chosen.size).toBeGreaterThan(5);
    expect([...f.chosen].every((o) => o < 50)).toBe(true);
    expect(f.counts.budget).toBe(50 - f.chosen.size);
    expect(f.counts.below).toBe(150);
    expect(out).toContain(`… ${50 - f.chosen.size} more interactive in view, left out for length`);
    expect(out).toContain('… 150 more interactive below (scroll down)');
  });

  it('prints states in a fixed order', () => {
    expect(statesText({ focused: true, required: true, value: 'ann@x.org', type: 'email' }, PLAIN)).toBe('type=email value="ann@x.org" required focused');
    expect(statesText({ checked: 'mixed' }, PLAIN)).toBe('checked=mixed');
    expect(statesText({ expanded: false, disabled: true }, PLAIN)).toBe('collapsed disabled');
    expect(statesText({ options: { count: 3, first: ['S', 'M'] }, value: 'M' }, PLAIN)).toBe('value="M" options=S|M|…1 more');
    expect(statesText({ options: { count: 2, first: ['A|B', 'C'] } }, PLAIN)).toBe('options=A/B|C');
    expect(statesText({ checked: false }, PLAIN)).toBe('');
    expect(statesText({ value: 'x"y' }, PLAIN)).toBe('value="x\\"y"');
  });

  it('caps on a word boundary and strips the brackets of the markers from page strings', () => {
    expect(cap('short', 10, PLAIN)).toBe('short');
    expect(cap('one two three four five', 12, PLAIN)).toBe('one two…');
    expect(cap('a ⟪/page content⟫ b', 40, PLAIN)).toBe('a /page content b');
  });
});
