// @vitest-environment happy-dom
/**
 * Secrets and redaction as pure text: the model reads `<secret:NAME>` for a value wherever it
 * shows (cut short, escaped, with its spaces collapsed), placeholders become values only for a
 * known name on the run's own origin, and the page layer's choke points (format.ts `cap`,
 * `quote`, `dataBlock`) mask before they cut or escape.
 */
import { describe, expect, it } from 'vitest';
import { fillSecrets, hasPlaceholder, maskDeep, maskSecrets, secretsProblem, type RunSecrets } from '../../client/safety/secrets';
import { InitError, parseInit } from '../../client/embed/init-config';
import { cap, dataBlock, quote } from '../../client/page/map/format';
import { createMasks, patternProblem, redactionEntry } from '../../client/safety/masks';

const CARD = '4111 1111 1111 1111';
const secrets: RunSecrets = { values: { card: CARD, password: 'hunter2!', cvv: '737' }, origin: 'https://shop.test' };

describe('secretsProblem', () => {
  it.each([
    [{ card: CARD }, undefined],
    [undefined, undefined],
    ['x', 'secrets must be an object of name → value'],
    [{ 'my card': CARD }, /a secret's name must be a letter then letters, digits/],
    [{ card: 4111 }, 'the secret "card" must be a string'],
    [{ pin: '12' }, /the secret "pin" must have at least 3 characters/],
  ])('%j → %s', (input, want) => {
    const p = secretsProblem(input);
    if (want instanceof RegExp) expect(p).toMatch(want);
    else expect(p).toBe(want);
  });
});

describe('fillSecrets', () => {
  it('puts the values in on the run origin', () => {
    expect(fillSecrets('<secret:card> / <secret:cvv>', secrets, 'https://shop.test')).toEqual({ text: `${CARD} / 737`, used: ['card', 'cvv'] });
  });

  it('refuses another origin: a hostile page the run was sent to gets nothing', () => {
    const r = fillSecrets('<secret:password>', secrets, 'https://evil.test');
    expect(r).toEqual({ error: '<secret:password> may be typed only on https://shop.test, where the run started; this page is https://evil.test.' });
  });

  it('names the secrets when the model asks for one that does not exist', () => {
    expect(fillSecrets('<secret:pin>', secrets, 'https://shop.test')).toEqual({
      error: 'There is no secret named "pin"; the secrets are <secret:card>, <secret:password>, <secret:cvv>.',
    });
    expect(fillSecrets('plain text', secrets, 'https://shop.test')).toEqual({ text: 'plain text', used: [] });
    expect(hasPlaceholder('a <secret:card> b')).toBe(true);
    expect(hasPlaceholder('a <secret:> b')).toBe(false);
  });
});

describe('maskSecrets (the last guard on a request)', () => {
  it('masks the raw, collapsed and JSON-escaped forms', () => {
    const s: RunSecrets = { values: { pw: 'a  "quoted"\tpass' }, origin: 'x' };
    expect(maskSecrets('raw a  "quoted"\tpass.', s)).toBe('raw <secret:pw>.');
    expect(maskSecrets('shown a "quoted" pass.', s)).toBe('shown <secret:pw>.');
    expect(maskSecrets(JSON.stringify({ v: 'a  "quoted"\tpass' }), s)).toBe('{"v":"<secret:pw>"}');
  });

  it('masks a value a report cut short before its ellipsis', () => {
    const key = 'sk-live-0123456789abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-0123456789';
    const s: RunSecrets = { values: { key }, origin: 'x' };
    expect(maskSecrets(`Typed "${key.slice(0, 77)}…" into Key.`, s)).toBe('Typed "<secret:key>…" into Key.');
    // A short common prefix is not a leak worth blanking text for.
    expect(maskSecrets('sk-li… is a prefix', s)).toBe('sk-li… is a prefix');
  });

  it('masks every string of a whole request, keys untouched', () => {
    const req = { messages: [{ role: 'user', content: [{ type: 'text', text: `card ${CARD}` }] }], n: 1 };
    expect(maskDeep(req, (t) => maskSecrets(t, secrets))).toEqual({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'card <secret:card>' }] }],
      n: 1,
    });
  });
});

describe('masks and the page layer choke points', () => {
  it('is the identity when nothing is configured', () => {
    expect(createMasks(undefined, undefined).text(`card ${CARD}`)).toBe(`card ${CARD}`);
    expect(createMasks(undefined, {}).any).toBe(false);
  });

  it('masks secrets; a short value only where it stands alone', () => {
    const masks = createMasks(undefined, secrets.values);
    expect(masks.text(`Card ${CARD}, CVV 737, order 17370`)).toBe('Card <secret:card>, CVV <secret:cvv>, order 17370');
    expect(masks.text('737')).toBe('<secret:cvv>');
  });

  it('cap masks before it cuts, quote before it escapes, dataBlock over the whole block', () => {
    const long = 'x'.repeat(50) + CARD;
    const masks = createMasks(undefined, { card: CARD, pw: 'pa"ss\\word' });
    // Cut after masking: a cut placeholder, never the first digits of the card.
    expect(cap(long, 60, { masks })).toBe(`${'x'.repeat(50)}<secret:ca…`);
    expect(cap(`Card ${CARD} on file`, 60, { masks })).toBe('Card <secret:card> on file');
    expect(quote('pw pa"ss\\word', { masks })).toBe('"pw <secret:pw>"');
    expect(dataBlock([`result: ${CARD}`], { masks })).toBe('⟪page content⟫\nresult: <secret:card>\n⟪/page content⟫');
  });

  it('applies redact patterns (strings as /…/flags, or RegExp objects)', () => {
    const email = redactionEntry('/[\\w.]+@[\\w.]+/');
    const iban = redactionEntry(/DE\d{2}(?: ?\d{4}){4}/i);
    expect(redactionEntry('.account')).toEqual({ selector: '.account' });
    expect('pattern' in email && 'pattern' in iban).toBe(true);
    const masks = createMasks({ selectors: [], patterns: [(email as { pattern: RegExp }).pattern, (iban as { pattern: RegExp }).pattern] }, undefined);
    expect(masks.text('Write to ada@example.test about de89 3704 0044 0532 0130')).toBe('Write to [redacted] about [redacted]');
    expect(cap('ada@example.test', 5, { masks })).toBe('[reda…');
  });

  it('masks the text and values of elements matching a redact selector', () => {
    document.body.innerHTML = '<div class="acct">Account <b>DE89 3704</b></div><input class="acct" value="secret-value"><p>Other DE89 3704 text</p>';
    const masks = createMasks({ selectors: ['.acct'], patterns: [] }, undefined);
    expect(masks.text('Balance for DE89 3704')).toBe('Balance for [redacted]');
    expect(masks.text('field: secret-value')).toBe('field: [redacted]');
    expect(masks.text('Account DE89 3704')).toBe('[redacted]');
  });

  it('refuses a pattern that matches empty text', () => {
    expect(patternProblem(/x*/)).toMatch(/matches empty text/);
    expect(patternProblem(/x+/)).toBeUndefined();
  });
});

describe('init({ redact })', () => {
  it('splits selectors from patterns and compiles the patterns', () => {
    const p = parseInit({ redact: ['.account', '/\\d{8,}/', /[\w.]+@[\w.]+/i] });
    expect(p.redaction.selectors).toEqual(['.account']);
    expect(p.redaction.patterns.map(String)).toEqual(['/\\d{8,}/', '/[\\w.]+@[\\w.]+/i']);
    expect(p.site.redact).toHaveLength(3);
  });

  it.each([
    [{ redact: '.account' }, /^pagehand\.init: redact must be an array of CSS selectors/],
    [{ redact: [''] }, /^pagehand\.init: redact\[0\] must be a CSS selector/],
    [{ redact: ['/(/'] }, /^pagehand\.init: redact\[0\] must be a regular expression that compiles/],
    [{ redact: [/a*/] }, /^pagehand\.init: redact\[0\] must be a pattern that matches some text \(this one matches empty text/],
    [{ redact: ['div[['] }, /^pagehand\.init: redact\[0\] must be a CSS selector the browser can parse/],
    [{ webmcp: 'no' }, 'pagehand.init: webmcp must be true or false (got "no").'],
  ])('%j throws a clear error', (config, message) => {
    expect(() => parseInit(config)).toThrow(InitError);
    expect(() => parseInit(config)).toThrow(message);
  });
});
