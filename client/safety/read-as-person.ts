/**
 * Words as a person reads them, for every word the safety layer matches (risk words, icon
 * words, personal-data field names, URL path words): a page that writes "Dеlete" with a
 * Cyrillic е, hides a zero-width space or a soft hyphen inside it, draws it in mathematical
 * bold or turns it around with a bidi override still says "delete" to the person who reads
 * it, so it must say "delete" to the check. Pure, no DOM.
 *
 * A reading is: NFKC (fullwidth and mathematical letters, ligatures, odd spaces); invisible
 * characters removed (Default_Ignorable_Code_Point: zero-width spaces and joiners, soft hyphen,
 * bidi marks, overrides and isolates, variation selectors, Hangul fillers; and the blank
 * braille pattern), after a right-to-left override's run is put in the order it is drawn; combining marks dropped (accents and marks stacked on letters: "teléfono"
 * reads as "telefono"; the kana voicing marks are kept); lower case; then each character as
 * the letters it looks like (UTS #39 confusables, reduced: see confusables.ts), with `l` read as
 * `i` and `m` as `rn`, as they are drawn in many fonts. The same reading is applied to the
 * page's text and to the word lists, so only the shapes have to agree.
 */
import { CONFUSABLES } from './confusables';

const LOOKS_LIKE = new Map<string, string>();
for (const group of CONFUSABLES.split(' ')) {
  const at = group.indexOf(':');
  for (const c of group.slice(at + 1)) LOOKS_LIKE.set(c, group.slice(0, at));
}

const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\u2800]/gu;
const MARKS = /(?![\u3099\u309a])\p{M}/gu;

const shapes = (text: string): string => {
  let out = '';
  for (const c of text) out += LOOKS_LIKE.get(c) ?? c;
  return out;
};
/** A right-to-left override draws its run backwards: "\u202Eeteled" is seen as "deleted". */
const OVERRIDDEN = /\u202e([^\u202a-\u202c\u202d\n]*)/g;
const drawn = (text: string): string => text.replace(OVERRIDDEN, (_, run: string) => [...run].reverse().join(''));
const bare = (text: string): string => drawn(text.normalize('NFKC')).replace(INVISIBLE, '').normalize('NFD').replace(MARKS, '');

/**
 * The reading of a text: what the word lists are written in, and the first reading of page
 * text. Lower case, marks and invisible characters gone, look-alikes read as their letters.
 * @example readAsPerson('D\u0435l\u00ADete') // 'deiete' ("delete" as the check spells it)
 */
export function readAsPerson(text: string): string {
  return shapes(bare(text).toLowerCase()).normalize('NFC');
}

/**
 * Every reading of page text: `readAsPerson`, and, when it differs, the reading of its capitals
 * by their own shape before lower-casing — a Cyrillic "Т" looks like the Latin T, and "DЕLЕТЕ"
 * must read as "delete", while in "УДАЛИТЬ" it is the capital of "т". A word found in either
 * reading is there.
 */
export function readings(text: string): string[] {
  const b = bare(text);
  const first = shapes(b.toLowerCase()).normalize('NFC');
  const capitals = shapes(shapes(b).toLowerCase()).normalize('NFC');
  return first === capitals ? [first] : [first, capitals];
}

/**
 * A regular expression's source with every run of letters and digits read as `readAsPerson`
 * reads text, escapes and syntax left alone: word lists stay written as people write them.
 * Character ranges (`[a-z]`) are not supported: a run inside one would be read too.
 */
export function readPattern(source: string): string {
  return source.replace(/\\.|[\p{L}\p{N}\p{M}]+/gu, (run) => (run[0] === '\\' ? run : readAsPerson(run)));
}
