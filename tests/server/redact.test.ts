/**
 * The redactor against the forms in which an upstream error (or a log line) can echo a key:
 * plain, after an auth scheme or a parameter name, partially masked, base64-encoded (alone, or
 * inside Basic auth's `user:key`). The key has no provider shape, so only these rules can catch it.
 */
import { describe, expect, it } from 'vitest';
import { redactor } from '../../server/redact';

const KEY = 'custom-Key-0123456789abcdefWXYZ';
const redact = redactor([KEY]);
const b64 = (s: string) => Buffer.from(s).toString('base64');
const b64url = (s: string) => Buffer.from(s).toString('base64url');

/** Nothing of the key survives: not the key, not 6 leading or 4 trailing characters next to a mask, no encoding. */
function expectClean(out: string): void {
  expect(out).not.toContain(KEY);
  expect(out).not.toContain(KEY.slice(0, 12));
  expect(out).not.toContain(KEY.slice(-12));
  for (const enc of [b64(KEY), b64url(KEY)]) expect(out).not.toContain(enc.slice(4, 20));
  expect(out).toContain('[redacted]');
}

describe('redactor: forms of a key in upstream error text', () => {
  const forms: Array<[string, string]> = [
    ['the key itself', `invalid key ${KEY}`],
    ['after Bearer', `Authorization: Bearer ${KEY}`],
    ['after key= in a URL', `GET /v1beta/models?key=${KEY}&alt=sse failed`],
    ['after api_key:', `api_key: ${KEY}`],
    ['as an x-goog-api-key header', `x-goog-api-key: ${KEY}`],
    ['as a JSON field', JSON.stringify({ headers: { 'x-goog-api-key': KEY } })],
    ['as a JSON field inside a JSON string (a log line)', JSON.stringify({ detail: JSON.stringify({ api_key: KEY }) })],
    ['masked with ... (first 6, last 4)', `Incorrect API key provided: ${KEY.slice(0, 6)}...${KEY.slice(-4)}.`],
    ['masked with stars (first 11, last 4)', `Incorrect API key provided: ${KEY.slice(0, 11)}${'*'.repeat(16)}${KEY.slice(-4)}.`],
    ['masked with an ellipsis', `key ${KEY.slice(0, 8)}…${KEY.slice(-4)} is revoked`],
    ['masked, last 4 only', `key ****${KEY.slice(-4)} is revoked`],
    ['as base64', `token=${b64(KEY)} rejected`.replace('token=', 'credential ')],
    ['as base64url', `credential ${b64url(KEY)} rejected`],
    ['as base64 of ":key"', `credential ${b64(`:${KEY}`)} rejected`],
    ['as Basic auth of "user:key"', `Authorization: Basic ${b64(`user:${KEY}`)}`],
    ['as base64 of "apikey:key" without the scheme', `bad credentials ${b64(`apikey:${KEY}`)}`],
    ['as base64url of "u:key" in a URL', `https://x.test/?auth=${b64url(`u:${KEY}`)}`],
    ['as base64 followed by more data', `blob ${b64(`${KEY}\nmore`)}`],
  ];
  for (const [what, text] of forms) {
    it(`redacts the key ${what}`, () => {
      expectClean(redact(text));
    });
  }

  it('redacts whatever credential follows Bearer, Basic or a key name, even one it never saw', () => {
    expect(redact('Authorization: Bearer zz-unknown-credential-42')).toBe('Authorization: Bearer [redacted]');
    expect(redact('header x-api-key: zz-unknown-credential-42 refused')).toBe('header x-api-key: [redacted] refused');
    expect(redact('url ?key=zz-unknown-credential-42&x=1')).toBe('url ?key=[redacted]&x=1');
  });

  it('leaves ordinary error text alone', () => {
    for (const text of [
      'The model gpt-4o... is overloaded. Loading... done',
      'Incorrect API key provided. You can find your API key at the dashboard.',
      'key: value; tool schema invalid: missing "type"',
      'Invalid value for messages[3].content: expected string',
      'rate limit: 3 per 60 s',
    ]) {
      expect(redact(text)).toBe(text);
    }
  });

  it('ignores short placeholder secrets (a keyless local server)', () => {
    const r = redactor(['no-key']);
    expect(r('no-key needed; nokey... fine')).toBe('no-key needed; nokey... fine');
  });
});
