import { describe, expect, it } from 'vitest';
import { chunkText } from '../../client/page/actions/chunks';
import { matchOption, optionList } from '../../client/page/actions/match';
import { describeChanges, describeScroll } from '../../client/page/actions/messages';

describe('chunkText', () => {
  it('keeps short text in one chunk', () => {
    expect(chunkText('a\nb', 100)).toEqual(['a\nb']);
    expect(chunkText('', 100)).toEqual([]);
  });
  it('splits at line boundaries and never loses text', () => {
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i} ${'x'.repeat(20)}`);
    const chunks = chunkText(lines.join('\n'), 200);
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(200);
    expect(chunks.join('\n')).toBe(lines.join('\n'));
  });
  it('cuts an over-long line at a space', () => {
    const words = Array.from({ length: 100 }, (_, i) => `word${i}`).join(' ');
    const chunks = chunkText(words, 120);
    for (const c of chunks) {
      expect(c.length).toBeLessThanOrEqual(120);
      expect(c).not.toMatch(/^\s|\s$/);
    }
    expect(chunks.join(' ')).toBe(words);
  });
});

describe('matchOption', () => {
  const items = [
    { label: 'France', value: 'fr' },
    { label: 'Finland', value: 'fi' },
    { label: 'United States', value: 'us' },
    { label: 'United Kingdom', value: 'uk' },
  ];
  it('matches label, value, case-insensitive label, unique partial', () => {
    expect(matchOption(items, 'France')).toMatchObject({ ok: true, item: { value: 'fr' }, how: 'label' });
    expect(matchOption(items, 'uk')).toMatchObject({ ok: true, item: { label: 'United Kingdom' }, how: 'value' });
    expect(matchOption(items, 'finland')).toMatchObject({ ok: true, item: { value: 'fi' } });
    expect(matchOption(items, 'kingdom')).toMatchObject({ ok: true, item: { value: 'uk' }, how: 'partial' });
  });
  it('refuses to guess between several partial matches', () => {
    const r = matchOption(items, 'United');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.reason).toBe('ambiguous');
      expect(r.candidates.map((c) => c.label)).toEqual(['United States', 'United Kingdom']);
    }
    expect(matchOption(items, 'Frence')).toMatchObject({ ok: false, reason: 'none' });
  });
  it('lists options briefly', () => {
    expect(optionList(['a', 'b'])).toBe('a, b');
    expect(
      optionList(
        Array.from({ length: 20 }, (_, i) => `o${i}`),
        3,
      ),
    ).toBe('o0, o1, o2, … (20 options)');
  });
});

describe('describeChanges', () => {
  it('says what changed in model-friendly sentences', () => {
    expect(describeChanges({})).toBe('');
    expect(describeChanges({ dialogOpened: ['Saved'] })).toBe('A dialog "Saved" opened.');
    expect(describeChanges({ newElements: 7, newSample: ['link "A"', 'link "B"'] })).toBe('7 new elements appeared: link "A", link "B", and 5 more.');
    expect(describeChanges({ url: { from: 'a', to: 'b' }, title: { from: 'x', to: 'Results' } })).toBe('The URL changed to b. The title is now "Results".');
    expect(describeChanges({ navigation: { url: 'http://h/next' } })).toBe('Navigation to http://h/next started.');
    expect(describeChanges({ navigation: { url: '' } })).toBe('A navigation started.');
    expect(describeChanges({ stillLoading: { pendingRequests: 2, domBusy: false } })).toMatch(/still loading \(2 requests pending\)/);
    expect(describeChanges({ goneElements: 1 })).toBe('1 element disappeared.');
  });
  it('describes scroll positions', () => {
    expect(describeScroll({ percentY: 0, atTop: true, atBottom: false })).toBe('at the top');
    expect(describeScroll({ percentY: 100, atTop: false, atBottom: true })).toBe('at the bottom');
    expect(describeScroll({ percentY: 45, atTop: false, atBottom: false })).toBe('45% down');
  });
});
