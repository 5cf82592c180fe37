/**
 * A conservative token estimate for the map's text, without shipping a tokenizer.
 *
 * It splits text the way o200k-style pre-tokenizers do (letter runs, digit groups, punctuation,
 * whitespace) and charges each piece at or above what BPE usually spends on it: word-like
 * letter runs ~4 letters a token, gibberish (ids, hashes, camel case) ~0.75 a letter, other
 * scripts a token per character. The unit test checks it against a real o200k tokenizer.
 *
 * The pieces are those of `/(\p{Script=Latin}+)|(\p{N}+)|([\p{L}\p{M}]+)|(\s+)|([^\s\p{L}\p{N}])/gu`,
 * found by a scan over character codes instead (the map, the prompt and the history are counted
 * every step, and most of their text is ASCII): ASCII characters are sorted by their code,
 * others by those Unicode classes, one code point at a time. The unit test holds the two equal.
 */

const VOWELS = /[aeiouyà-åè-ïò-öù-ü]/gi; // a e i o u y, and the accented ones: à–å, è–ï, ò–ö, ù–ü

function latinRun(run: string): number {
  const n = run.length;
  if (n <= 3) return 1;
  const vowels = run.match(VOWELS)?.length ?? 0;
  const ratio = vowels / n;
  // Capitals after the first letter (camelCase, ALLCAPS) split into more tokens.
  const innerCaps = /[A-Z]/.test(run.slice(1)) && run.slice(1) !== run.slice(1).toLowerCase();
  const wordLike = ratio >= 0.25 && ratio <= 0.65 && !innerCaps && /^[\x00-\x7f]*$/.test(run);
  return wordLike ? Math.ceil((n + 1) / 4) : Math.ceil(n * 0.75);
}

/** `latinRun` of text[from, to), read in place when the run is ASCII (as most are). */
function latinRunAt(text: string, from: number, to: number): number {
  const n = to - from;
  if (n <= 3) return 1;
  let vowels = 0;
  let innerCaps = false;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128) return latinRun(text.slice(from, to));
    const lower = c | 32; // the run holds letters only
    if (lower === 97 || lower === 101 || lower === 105 || lower === 111 || lower === 117 || lower === 121) vowels++;
    if (i > from && c <= 90) innerCaps = true;
  }
  const ratio = vowels / n;
  const wordLike = ratio >= 0.25 && ratio <= 0.65 && !innerCaps;
  return wordLike ? Math.ceil((n + 1) / 4) : Math.ceil(n * 0.75);
}

// Non-ASCII symbols that are one token; any other may cost one per UTF-8 byte.
const COMMON_SYMBOLS = new Set('…—–↑↓←→•·€£¥°©®™“”‘’«»×'.split(''));

function symbol(ch: string): number {
  if (ch.charCodeAt(0) < 128 || COMMON_SYMBOLS.has(ch)) return 1;
  return 3;
}

// A code point's classes, as bits; the first that applies says which piece it starts.
const LATIN = 1;
const NUMBER = 2;
const LETTER = 4; // a letter or a mark
const SPACE = 8;
const SYMBOL = 0;

const CLASSES: ReadonlyArray<[number, RegExp]> = [
  [LATIN, /^\p{Script=Latin}$/u],
  [NUMBER, /^\p{N}$/u],
  [LETTER, /^[\p{L}\p{M}]$/u],
  [SPACE, /^\s$/u],
];
const cache = new Map<number, number>();

/** The classes of the code point at `i`: ASCII by its code, others by the regex classes (cached). */
function classesAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) {
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) return LATIN | LETTER;
    if (c >= 48 && c <= 57) return NUMBER;
    return c === 32 || (c >= 9 && c <= 13) ? SPACE : SYMBOL;
  }
  const cp = text.codePointAt(i)!;
  let f = cache.get(cp);
  if (f === undefined) {
    const ch = String.fromCodePoint(cp);
    f = 0;
    for (const [bit, re] of CLASSES) if (re.test(ch)) f |= bit;
    cache.set(cp, f);
  }
  return f;
}

/** UTF-16 units of the code point at `i` (a lone surrogate is one, as the regex takes it). */
function width(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return 2;
  }
  return 1;
}

export function estimateTokens(text: string): number {
  let tokens = 0;
  const n = text.length;
  for (let i = 0; i < n;) {
    const f = classesAt(text, i);
    // The piece this code point starts, and what it runs on over: a Latin run over Latin
    // letters only, a number over numbers, letters over letters and marks (Latin ones too).
    const kind = f & LATIN ? LATIN : f & NUMBER ? NUMBER : f & LETTER ? LETTER : f & SPACE ? SPACE : SYMBOL;
    let j = i + width(text, i);
    if (kind === SYMBOL) {
      tokens += symbol(text.slice(i, j));
      i = j;
      continue;
    }
    while (j < n && classesAt(text, j) & kind) j += width(text, j);
    if (kind === LATIN) tokens += latinRunAt(text, i, j);
    else if (kind === NUMBER) tokens += Math.ceil((j - i) / 3);
    else if (kind === LETTER) tokens += j - i;
    else tokens += j - i === 1 && text.charCodeAt(i) === 32 ? 0 : 1;
    i = j;
  }
  return tokens;
}
