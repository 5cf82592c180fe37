/**
 * The userscript's frame protocol, its cryptography (Web Crypto, through the functions
 * secret.ts took at document start).
 *
 * From the installation's key (the token and proxy, HKDF): one HMAC-SHA-256 key for the
 * handshake's proofs, and per session one AES-GCM-256 key, derived with both ends' fresh nonces
 * and both origins. A proof or a sealed message names its direction (`p2c`, `c2p`), the two
 * nonces and the two origins; a sealed one also its number in its direction's sequence. So a
 * message is good only once, one way, in one session, between those two documents: a replayed,
 * reflected, relayed (through a third frame) or forged one fails.
 */
import type { Bytes, FrameCrypto } from './secret';

export type Direction = 'p2c' | 'c2p';

/** What a session is between: both nonces, both origins (as the browser reports them). */
export interface Binding {
  np: string;
  nc: string;
  parentOrigin: string;
  childOrigin: string;
}

export const INFO = 'pagehand-frames-v2';

const b64 = (bytes: Uint8Array): string => {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

function unb64(text: string): Bytes | undefined {
  try {
    const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return undefined;
  }
}

/** A fresh nonce: 128 random bits, base64url. */
export const freshNonce = (c: FrameCrypto): string => b64(c.random(16));

const bound = (label: string, b: Binding, seq?: number): string =>
  [INFO, label, b.np, b.nc, b.parentOrigin, b.childOrigin, ...(seq === undefined ? [] : [String(seq)])].join('\n');

const hkdf = (c: FrameCrypto, salt: string, info: string): HkdfParams => ({ name: 'HKDF', hash: 'SHA-256', salt: c.encode(salt), info: c.encode(info) });

const macKeys = new WeakMap<FrameCrypto, Promise<CryptoKey>>();

/** The handshake's HMAC key (one per installation). */
function macKey(c: FrameCrypto): Promise<CryptoKey> {
  let k = macKeys.get(c);
  if (!k) {
    k = c
      .base()
      .then((base) => c.deriveKey(hkdf(c, INFO, `${INFO} handshake`), base, { name: 'HMAC', hash: 'SHA-256', length: 256 }, false, ['sign', 'verify']));
    macKeys.set(c, k);
  }
  return k;
}

/** Proof that the sender holds the key, for this handshake, this way. */
export async function proofOf(c: FrameCrypto, dir: Direction, b: Binding): Promise<string> {
  const sig = await c.sign('HMAC', await macKey(c), c.encode(bound(`${dir} proof`, b)));
  return b64(new Uint8Array(sig));
}

/** Whether `proof` is this handshake's, made this way (constant-time, by Web Crypto). */
export async function proofHolds(c: FrameCrypto, dir: Direction, b: Binding, proof: string): Promise<boolean> {
  const sig = unb64(proof);
  if (!sig || sig.length !== 32) return false;
  try {
    return await c.verify('HMAC', await macKey(c), sig, c.encode(bound(`${dir} proof`, b)));
  } catch {
    return false;
  }
}

/** The session's AES-GCM key. */
export async function sessionKey(c: FrameCrypto, b: Binding): Promise<CryptoKey> {
  return c.deriveKey(hkdf(c, `${b.np}.${b.nc}`, bound('session', b)), await c.base(), { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
}

/** `text` sealed as message `seq` of direction `dir` in the session. */
export async function seal(c: FrameCrypto, key: CryptoKey, dir: Direction, b: Binding, seq: number, text: string): Promise<{ iv: string; ct: string }> {
  const iv = c.random(12);
  const ct = await c.encrypt({ name: 'AES-GCM', iv, additionalData: c.encode(bound(dir, b, seq)) }, key, c.encode(text));
  return { iv: b64(iv), ct: b64(new Uint8Array(ct)) };
}

/** The text of message `seq` of direction `dir`, or undefined when it is not exactly that (forged, replayed, reflected, altered). */
export async function unseal(c: FrameCrypto, key: CryptoKey, dir: Direction, b: Binding, seq: number, iv: string, ct: string): Promise<string | undefined> {
  const ivBytes = unb64(iv);
  const ctBytes = unb64(ct);
  if (!ivBytes || ivBytes.length !== 12 || !ctBytes) return undefined;
  try {
    return c.decode(await c.decrypt({ name: 'AES-GCM', iv: ivBytes, additionalData: c.encode(bound(dir, b, seq)) }, key, ctBytes));
  } catch {
    return undefined;
  }
}
