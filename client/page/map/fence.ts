/**
 * The data markers and the run's value they carry (pure). Page text reaches the model only
 * between `⟪page content V⟫` and `⟪/page content V⟫`, where V is a random value made once per
 * run (kept across its pages) and named in the system prompt: text that looks like a marker
 * but lacks V is page text, so no look-alike list is needed. A page that reads V from storage
 * where the run is saved still cannot write it: `clean` removes it from every page string
 * before the string is placed, in any width or case, split by any separators.
 */

/** Hex digits in a run's value: 48 bits, too many to guess in the text of a page. */
const FENCE_LENGTH = 12;

/** A new random value for a run's markers. */
export function newFence(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(FENCE_LENGTH / 2));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A value we made (a saved run's may have been rewritten by the page: a short one would eat page text). */
export const isFence = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{12}$/.test(v);

/** The start and end markers; without a value (the page's own `pagehand.map()`) the bare ones. */
export function markers(fence: string | undefined): { start: string; end: string } {
  const v = fence ? ` ${fence}` : '';
  return { start: `⟪page content${v}⟫`, end: `⟪/page content${v}⟫` };
}

/**
 * Characters that break a line where the model reads one (C0 and C1 controls but tab and line
 * feed, the Unicode line and paragraph separators), and the markers' own brackets, which only
 * our markers use.
 */
const BREAKS = /[\0-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]/g;

/**
 * One page-derived string, safe to place between the markers: no line breaks but `\n`, no
 * `⟪ ⟫`, and nothing that reads as the run's value. Call it on each string before it is joined
 * to our own syntax, never on assembled text: the value is matched on letters and digits only,
 * so across a join it could take a character of a ref.
 */
export function clean(s: string, fence: string | undefined): string {
  let text = ODD.test(s) ? s.replace(BREAKS, ' ').replace(/[⟪⟫]/g, '') : s;
  if (!fence) return text;
  // Most page strings are ASCII: there `fold` only drops what is not a letter or digit, so one
  // regex says whether the value is spelled in it, without taking the string apart.
  if (!NON_ASCII.test(text) && !spelled(fence).test(text)) return text;
  // Removing one copy can join the halves around it into another: again until none is left.
  for (let next = dropFence(text, fence); next !== text; next = dropFence(text, fence)) text = next;
  return text;
}

/** Anything `clean` must take out before the value is looked for. */
const ODD = /[\0-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029⟪⟫]/;
const NON_ASCII = /[^\0-\x7f]/;
let spelledFor: { fence: string; re: RegExp } | undefined;
/** The value's characters in order with anything but letters and digits between them, any case (`fold` on ASCII). */
function spelled(fence: string): RegExp {
  if (spelledFor?.fence !== fence) spelledFor = { fence, re: new RegExp(fence.split('').join('[^0-9a-z]*'), 'i') };
  return spelledFor.re;
}

/**
 * Letters and digits as the model may read them: compatibility forms and accents taken apart
 * (NFKD), lower case, all else dropped. Character by character it gives the same as on the
 * whole string, so positions can be traced back.
 */
const fold = (s: string): string =>
  s
    .normalize('NFKD')
    .replace(/\p{Nd}/gu, digitOf)
    .toLowerCase()
    .replace(/[^0-9a-z]/g, '');

/**
 * The first code point of each run of decimal digits in Unicode (\p{Nd}) beyond ASCII: a digit's
 * value is its distance from the zero before it, so ٧ and ७ read as 7 (NFKD keeps them as they are).
 */
const ND_ZEROS =
  '660,6f0,7c0,966,9e6,a66,ae6,b66,be6,c66,ce6,d66,de6,e50,ed0,f20,1040,1090,17e0,1810,1946,19d0,1a80,1a90,1b50,1bb0,1c40,1c50,a620,a8d0,a900,a9d0,a9f0,aa50,abf0,ff10,104a0,10d30,10d40,11066,110f0,11136,111d0,112f0,11450,114d0,11650,116c0,116d0,11730,118e0,11950,11bf0,11c50,11d50,11da0,11de0,11f50,16130,16a60,16ac0,16b50,16d70,1ccf0,1d7ce,1e140,1e2f0,1e4f0,1e5f1,1e950,1fbf0'
    .split(',')
    .map((h) => parseInt(h, 16));

function digitOf(c: string): string {
  const cp = c.codePointAt(0)!;
  if (cp < 0x80) return c;
  let zero = cp;
  for (const z of ND_ZEROS) {
    if (z > cp) break;
    zero = z;
  }
  return String((cp - zero) % 10);
}

/** The first copy of the value removed: the characters that spell it, whatever stands between them. */
function dropFence(text: string, fence: string): string {
  if (!fold(text).includes(fence)) return text; // the common case, in one pass
  const chars = [...text];
  let folded = '';
  const from: number[] = [];
  chars.forEach((ch, i) => {
    for (const c of fold(ch)) {
      folded += c;
      from.push(i);
    }
  });
  const at = folded.indexOf(fence);
  const drop = new Set(from.slice(at, at + fence.length));
  return chars.filter((_, i) => !drop.has(i)).join('');
}
