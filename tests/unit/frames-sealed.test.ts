/**
 * The userscript's frame protocol, its cryptography and message shapes, with Node's Web Crypto:
 * a proof or a sealed message is good only for the installation (token and proxy), the way, the
 * session (both nonces, both origins) and — sealed — the place in the sequence it was made for.
 */
import { describe, expect, it } from 'vitest';
import { freshNonce, proofHolds, proofOf, seal, sessionKey, unseal, type Binding } from '../../client/page/frames/sealed-crypto';
import { toChild, toParent, targetOf } from '../../client/page/frames/sealed-messages';
import { createFrameCrypto, type FrameCrypto } from '../../client/page/frames/secret';

const TOKEN = 'ph_test-installation-token-0123456789abcdef';
const PROXY = 'http://127.0.0.1:8787';
const mine = (): FrameCrypto => createFrameCrypto(TOKEN, PROXY)!;
const binding = (c: FrameCrypto, over: Partial<Binding> = {}): Binding => ({
  np: freshNonce(c),
  nc: freshNonce(c),
  parentOrigin: 'https://shop.example',
  childOrigin: 'https://pay.example',
  ...over,
});

describe('keys', () => {
  it('there is no key without a token', () => {
    expect(createFrameCrypto(undefined, PROXY)).toBeUndefined();
    expect(createFrameCrypto('', PROXY)).toBeUndefined();
  });

  it('the base key cannot be read out', async () => {
    const key = await mine().base();
    expect(key.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow();
  });

  it('nonces are fresh 128-bit base64url strings', () => {
    const c = mine();
    const a = freshNonce(c);
    expect(a).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new Set(Array.from({ length: 50 }, () => freshNonce(c))).size).toBe(50);
  });
});

describe('handshake proofs', () => {
  it('hold for the same installation (two separate ends), the same way and the same session', async () => {
    const child = mine();
    const parent = mine();
    const b = binding(child);
    const p = await proofOf(child, 'c2p', b);
    expect(p).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await proofHolds(parent, 'c2p', b, p)).toBe(true);
  });

  it('fail for another token, another proxy, the other way (reflected), other nonces or other origins', async () => {
    const c = mine();
    const b = binding(c);
    const p = await proofOf(c, 'c2p', b);
    expect(await proofHolds(createFrameCrypto('ph_another-token', PROXY)!, 'c2p', b, p)).toBe(false);
    expect(await proofHolds(createFrameCrypto(TOKEN, 'http://127.0.0.1:9999')!, 'c2p', b, p)).toBe(false);
    expect(await proofHolds(c, 'p2c', b, p)).toBe(false);
    expect(await proofHolds(c, 'c2p', { ...b, np: freshNonce(c) }, p)).toBe(false);
    expect(await proofHolds(c, 'c2p', { ...b, nc: freshNonce(c) }, p)).toBe(false);
    // Relayed through a third frame: the parent sees another pair of origins.
    expect(await proofHolds(c, 'c2p', { ...b, parentOrigin: 'https://evil.example' }, p)).toBe(false);
    expect(await proofHolds(c, 'c2p', { ...b, childOrigin: 'https://evil.example' }, p)).toBe(false);
  });

  it('a malformed proof is false, not an error', async () => {
    const c = mine();
    for (const bad of ['', 'x', 'A'.repeat(43), '!!!', 'A'.repeat(100)]) expect(await proofHolds(c, 'c2p', binding(c), bad)).toBe(false);
  });
});

describe('sealed messages', () => {
  it('open once, at their place, their way, in their session, with the same installation', async () => {
    const c = mine();
    const b = binding(c);
    const key = await sessionKey(c, b);
    const text = JSON.stringify({ type: 'map-result', id: 1, map: { lines: ['*[1]button "Pay 20 €"'], elements: [], facts: {} } });
    const { iv, ct } = await seal(c, key, 'c2p', b, 0, text);
    // The other end derives the same key on its own.
    const other = mine();
    expect(await unseal(other, await sessionKey(other, b), 'c2p', b, 0, iv, ct)).toBe(text);
    // Nothing of it reads in the message.
    expect(ct).not.toContain('Pay');
    expect(iv + ct).not.toContain(TOKEN);
    // Another place in the sequence (replayed later), the other way (reflected), another session, another token.
    expect(await unseal(c, key, 'c2p', b, 1, iv, ct)).toBeUndefined();
    expect(await unseal(c, key, 'p2c', b, 0, iv, ct)).toBeUndefined();
    const b2 = { ...b, np: freshNonce(c) };
    expect(await unseal(c, await sessionKey(c, b2), 'c2p', b2, 0, iv, ct)).toBeUndefined();
    const stranger = createFrameCrypto('ph_another-token', PROXY)!;
    expect(await unseal(stranger, await sessionKey(stranger, b), 'c2p', b, 0, iv, ct)).toBeUndefined();
    // Altered: one character of the ciphertext, or the iv.
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    expect(await unseal(c, key, 'c2p', b, 0, iv, flip(ct, 5))).toBeUndefined();
    expect(await unseal(c, key, 'c2p', b, 0, flip(iv, 3), ct)).toBeUndefined();
    expect(await unseal(c, key, 'c2p', b, 0, 'short', ct)).toBeUndefined();
  });

  it('the same text sealed twice reads differently (a fresh iv each time)', async () => {
    const c = mine();
    const b = binding(c);
    const key = await sessionKey(c, b);
    const one = await seal(c, key, 'p2c', b, 0, 'same');
    const two = await seal(c, key, 'p2c', b, 0, 'same');
    expect(one.iv).not.toBe(two.iv);
    expect(one.ct).not.toBe(two.ct);
  });
});

describe('message shapes', () => {
  const n = 'A'.repeat(22);
  const proof = 'B'.repeat(43);
  it('reads each message to its known fields only', () => {
    expect(toChild({ channel: 'pagehand-frames', v: 2, type: 'hello', np: n, token: 'leak?' })).toEqual({
      channel: 'pagehand-frames',
      v: 2,
      type: 'hello',
      np: n,
    });
    expect(toChild({ channel: 'pagehand-frames', v: 2, type: 'confirm', np: n, nc: n, proof })).toMatchObject({ type: 'confirm' });
    expect(toParent({ channel: 'pagehand-frames', v: 2, type: 'challenge', np: n, nc: n, proof })).toMatchObject({ type: 'challenge' });
    expect(toParent({ channel: 'pagehand-frames', v: 2, type: 'sealed', sid: n, seq: 3, iv: 'C'.repeat(16), ct: 'abc_-' })).toMatchObject({
      type: 'sealed',
      seq: 3,
    });
  });

  it('drops the site protocol, wrong directions and anything malformed', () => {
    const bad: unknown[] = [
      null,
      'hello',
      { channel: 'pagehand-frames', v: 1, type: 'hello', nonce: n, proxy: PROXY, token: TOKEN },
      { channel: 'other', v: 2, type: 'hello', np: n },
      { channel: 'pagehand-frames', v: 2, type: 'hello', np: 'short' },
      { channel: 'pagehand-frames', v: 2, type: 'challenge', np: n, nc: n, proof }, // a child does not take challenges
      { channel: 'pagehand-frames', v: 2, type: 'sealed', sid: n, seq: -1, iv: 'C'.repeat(16), ct: 'abc' },
      { channel: 'pagehand-frames', v: 2, type: 'sealed', sid: n, seq: 1.5, iv: 'C'.repeat(16), ct: 'abc' },
      { channel: 'pagehand-frames', v: 2, type: 'sealed', sid: n, seq: 0, iv: 'C'.repeat(16), ct: 'not base64!' },
      { channel: 'pagehand-frames', v: 2, type: 'sealed', sid: n, seq: 0, iv: 'C'.repeat(16), ct: 'a'.repeat(4_000_001) },
    ];
    for (const b of bad) expect(toChild(b)).toBeUndefined();
    expect(toParent({ channel: 'pagehand-frames', v: 2, type: 'hello', np: n })).toBeUndefined();
    expect(toParent({ channel: 'pagehand-frames', v: 2, type: 'confirm', np: n, nc: n, proof })).toBeUndefined();
  });

  it('posts to the proven origin, and to "*" only for a sandboxed (opaque) one', () => {
    expect(targetOf('https://pay.example')).toBe('https://pay.example');
    expect(targetOf('null')).toBe('*');
  });
});
