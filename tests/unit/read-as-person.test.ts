/**
 * Words read as a person reads them (client/safety/read-as-person.ts), and the risk words and
 * URL words that use the reading: a spelling a page chose to look like "Delete" to a person and
 * like something else to a string compare reads as "delete".
 */
import { describe, expect, it } from 'vitest';
import { CONFUSABLES } from '../../client/safety/confusables';
import { readAsPerson, readPattern, readings } from '../../client/safety/read-as-person';
import { urlKind, wordsKinds } from '../../client/safety/risk';

const delete_ = readAsPerson('delete');

describe('readAsPerson', () => {
  it.each([
    ['a Cyrillic е', 'D\u0435lete'],
    ['three Cyrillic е', 'D\u0435l\u0435t\u0435'],
    ['a zero-width space', 'De\u200blete'],
    ['a zero-width joiner', 'D\u200delete'],
    ['a soft hyphen', 'Del\u00adete'],
    ['a word joiner and a BOM', 'De\u2060le\ufeffte'],
    ['a variation selector', 'De\ufe0flete'],
    ['a Hangul filler', 'Del\u3164ete'],
    ['a blank braille pattern', 'Del\u2800ete'],
    ['bidi marks and isolates', '\u2067De\u200flete\u2069'],
    ['mathematical bold', '𝐃𝐞𝐥𝐞𝐭𝐞'],
    ['mathematical sans-serif italic', '𝘋𝘦𝘭𝘦𝘵𝘦'],
    ['fullwidth', 'Ｄｅｌｅｔｅ'],
    ['mixed fullwidth', 'Dｅlｅte'],
    ['combining marks over letters', 'D\u0337e\u0301l\u0308e\u0323t\u0303e'],
    ['a capital I for the l', 'DeIete'],
    ['a digit 1 for the l', 'De1ete'],
    ['a Cherokee letter', 'ᎠELETE'],
    ['Cyrillic capitals that look Latin', 'D\u0415L\u0415\u0422\u0415'],
    ['a right-to-left override drawing it the right way round', '\u202eeteleD'],
  ])('%s reads as "delete"', (_name, text) => {
    expect(readings(text)).toContain(delete_);
  });

  it('words in other scripts still read as themselves, in any case', () => {
    expect(readings('УДАЛИТЬ')).toContain(readAsPerson('удалить'));
    expect(readAsPerson('Löschen')).toBe(readAsPerson('loschen'));
    expect(readAsPerson('SİL')).toBe(readAsPerson('sil'));
    expect(readAsPerson('Straße')).toBe(readAsPerson('strasse'));
    expect(readAsPerson('teléfono')).toBe(readAsPerson('telefono'));
    expect(readAsPerson('결제')).toBe('결제');
    expect(readAsPerson('ｻﾞｲﾝ')).toBe(readAsPerson('ザイン')); // halfwidth kana, voiced mark kept
    expect(readAsPerson('ザ')).not.toBe(readAsPerson('サ'));
  });

  it('a plain override draws the word backwards: nobody reads "Delete" there', () => {
    expect(readings('\u202eDelete')).not.toContain(delete_);
  });

  it('keeps different words different', () => {
    expect(readAsPerson('Select')).not.toBe(readAsPerson('Delete'));
    expect(readAsPerson('Settings')).toBe('settings');
  });

  it('a pattern is read in its letter runs only: escapes and syntax stay', () => {
    expect(readPattern('place (?:my |the )?order')).toBe('piace (?:rny |the )?order');
    expect(readPattern('구매(?!\\s*내역)')).toBe('구매(?!\\s*내역)');
    expect(readPattern('sat[ıi]n al')).toBe('sat[ii]n ai');
  });

  it('the table is final: no reading holds a character that is read again', () => {
    const groups = CONFUSABLES.split(' ').map((g) => [g.slice(0, g.indexOf(':')), g.slice(g.indexOf(':') + 1)] as const);
    const sources = new Set(groups.flatMap(([, from]) => [...from]));
    for (const [to] of groups) for (const c of to) expect(sources.has(c), `${to}`).toBe(false);
    for (const [to, from] of groups) for (const c of from) expect(readings(c), c).toContain(to);
  });
});

describe('the risk words read the same way', () => {
  it.each([
    ['D\u0435lete account', 'deletion'],
    ['𝐃𝐞𝐥𝐞𝐭𝐞', 'deletion'],
    ['P\u0430y now', 'payment'],
    ['Place \u03bfrder', 'payment'],
    ['S\u200dend', 'sending'],
    ['Ｐｌａｃｅ ｏｒｄｅｒ', 'payment'],
    ['К\u0443пить', 'payment'],
    ['ЅEND', 'sending'],
    ['Sİ\u0307L', 'deletion'],
    ['Konto lo\u0308schen', 'deletion'],
    ['削\u200b除', 'deletion'],
  ])('%j says %s', (text, kind) => {
    expect(wordsKinds(text)).toEqual([kind]);
  });

  it.each(['Delete filter', 'Settings', 'Help', 'Öffnen', 'Открыть', '設定', 'Selector', 'Deleted items'])('%j: what it said before', (text) => {
    // "Delete filter" asks, as it did; the others never did and still do not.
    expect(wordsKinds(text)).toEqual(text === 'Delete filter' ? ['deletion'] : []);
  });

  it('URL path words are read too', () => {
    expect(urlKind('https://shop.test/account/d\u0435lete', false)).toBe('deletion');
    expect(urlKind('https://shop.test/account/%D0%B5%D1%85', false)).toBeUndefined();
    expect(urlKind('https://shop.test/PAYMENT', true)).toBe('payment');
    expect(urlKind('https://shop.test/account/cancel', false)).toBe('deletion');
  });
});
