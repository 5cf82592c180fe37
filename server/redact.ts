/**
 * Scrubs secrets from any text that may leave the process (error messages, log lines). The
 * configured keys are replaced wherever they appear; shapes that look like provider keys are
 * replaced too, in case an upstream echoes a key we never saw.
 */
const KEY_SHAPES = [/sk-[A-Za-z0-9_-]{16,}/g, /AIza[0-9A-Za-z_-]{20,}/g];

export type Redact = (text: string) => string;

/**
 * @example
 * const redact = redactor([process.env.OPENAI_API_KEY]);
 * redact('bad key sk-abc…'); // 'bad key [redacted]'
 */
export function redactor(secrets: ReadonlyArray<string | undefined>): Redact {
  // Short values (e.g. the "no-key" placeholder) would shred ordinary words; keys are long.
  const exact = [...new Set(secrets.filter((s): s is string => typeof s === 'string' && s.length >= 8))].sort(
    (a, b) => b.length - a.length,
  );
  return (text) => {
    let out = text;
    for (const s of exact) out = out.split(s).join('[redacted]');
    for (const re of KEY_SHAPES) out = out.replace(re, '[redacted]');
    return out;
  };
}
