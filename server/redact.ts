/**
 * Scrubs secrets from any text that may leave the process (error messages, log lines).
 *
 * An upstream may echo a key in many forms, so besides the configured keys themselves this
 * replaces:
 * - whatever follows `Bearer `, `Basic `, and `key=` / `api_key:` / `x-goog-api-key: ` and
 *   similar names (whether or not it is one of our keys);
 * - masked echoes whose visible parts come from a key (`sk-abc…wxyz`, `sk-proj-****wxyz`): the
 *   first 6 or more characters, or the last 4, next to a run of `*`, `•`, `..` or `…`;
 * - the base64 and base64url encodings of a key, also inside a longer encoding (`user:key` of
 *   Basic auth, `:key`), at any byte alignment;
 * - shapes that look like provider keys, in case an upstream echoes a key we never saw.
 */
const KEY_SHAPES = [/sk-[A-Za-z0-9_-]{16,}/g, /AIza[0-9A-Za-z_-]{20,}/g];

/** `Bearer x`, `Basic x`: the credential after the scheme. */
const AUTH_SCHEME = /\b(Bearer|Basic)(\s+)[^\s"'\\,;]{8,}/gi;
/** `key=x`, `"api_key": "x"`, `x-goog-api-key: x` (also inside JSON-escaped text). */
const NAMED_VALUE = /\b((?:x-goog-api-key|x-api-key|api[_-]?key|apikey|key|access[_-]?token|secret)\\?["']?\s*[:=]\s*\\?["']?)[^\s"'\\&,;)]{8,}/gi;
/** A visible part, a mask, a visible part. */
const MASKED = /([A-Za-z0-9_-]*)(\*{2,}|•{2,}|\.{2,}|…+)([A-Za-z0-9_-]*)/g;

const REDACTED = '[redacted]';

export type Redact = (text: string) => string;

/**
 * @example
 * const redact = redactor([process.env.OPENAI_API_KEY]);
 * redact('bad key sk-abc…'); // 'bad key [redacted]'
 */
export function redactor(secrets: ReadonlyArray<string | undefined>): Redact {
  // Short values (e.g. the "no-key" placeholder) would shred ordinary words; keys are long.
  const exact = [...new Set(secrets.filter((s): s is string => typeof s === 'string' && s.length >= 8))].sort((a, b) => b.length - a.length);
  const encoded = exact.flatMap(base64Cores).map((core) => ({ core, re: new RegExp(`[A-Za-z0-9+/_-]*${escape(core)}[A-Za-z0-9+/_-]*=*`, 'g') }));
  return (text) => {
    let out = text;
    for (const s of exact) out = out.split(s).join(REDACTED);
    // The whole encoded run goes, not only the core; the regex runs only where the core is.
    for (const { core, re } of encoded) if (out.includes(core)) out = out.replace(re, REDACTED);
    out = out.replace(MASKED, (all, left: string, _mask: string, right: string) =>
      exact.some((s) => (left.length >= 6 && s.startsWith(left)) || (right.length >= 4 && s.endsWith(right))) ? REDACTED : all,
    );
    out = out.replace(AUTH_SCHEME, (_all, scheme: string, space: string) => `${scheme}${space}${REDACTED}`);
    out = out.replace(NAMED_VALUE, (_all, name: string) => `${name}${REDACTED}`);
    for (const re of KEY_SHAPES) out = out.replace(re, REDACTED);
    return out;
  };
}

/**
 * The part of base64(prefix + secret + suffix) that depends on the secret alone, for each of
 * the three alignments a prefix can give it, in base64 and base64url.
 */
function base64Cores(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  const cores: string[] = [];
  for (const pad of [0, 1, 2]) {
    const padded = new Uint8Array(pad + bytes.length);
    padded.set(bytes, pad);
    const enc = base64(padded);
    // Characters mixing pad bits come first (0, 2 or 3 of them); the last group may mix in
    // whatever follows the secret.
    const core = enc.slice([0, 2, 3][pad], enc.replace(/=+$/, '').length - 4);
    if (core.length >= 12) cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...new Set(cores)];
}

function base64(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
