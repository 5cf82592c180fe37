/**
 * A conservative token estimate for the map's text, without shipping a tokenizer.
 *
 * It splits text the way o200k-style pre-tokenizers do (letter runs, digit groups, punctuation,
 * whitespace) and charges each piece at or above what BPE usually spends on it: word-like
 * letter runs ~4 letters a token, gibberish (ids, hashes, camel case) ~0.75 a letter, other
 * scripts a token per character. The unit test checks it against a real o200k tokenizer.
 */

const PIECE = /(\p{Script=Latin}+)|(\p{N}+)|([\p{L}\p{M}]+)|(\s+)|([^\s\p{L}\p{N}])/gu;
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

// Non-ASCII symbols that are one token; any other may cost one per UTF-8 byte.
const COMMON_SYMBOLS = new Set('…—–↑↓←→•·€£¥°©®™“”‘’«»×'.split(''));

function symbol(ch: string): number {
  if (ch.charCodeAt(0) < 128 || COMMON_SYMBOLS.has(ch)) return 1;
  return 3;
}

export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const m of text.matchAll(PIECE)) {
    if (m[1]) tokens += latinRun(m[1]);
    else if (m[2]) tokens += Math.ceil(m[2].length / 3);
    else if (m[3]) tokens += m[3].length;
    else if (m[4]) tokens += m[4] === ' ' ? 0 : 1;
    else if (m[5]) tokens += symbol(m[5]);
  }
  return tokens;
}
