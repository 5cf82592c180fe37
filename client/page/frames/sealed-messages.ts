/**
 * The userscript's frame protocol (version 2), its messages' shapes (pure). Nothing in them
 * carries the token or a key, and nothing a page could read of the frame's map or the parent's
 * calls: those travel sealed (sealed-crypto.ts).
 *
 *   parent → child  hello     { np }                 a fresh nonce of the parent's
 *   child → parent  challenge { np, nc, proof }      a fresh nonce of the child's, and proof of
 *                                                    the key over both nonces and both origins
 *   parent → child  confirm   { np, nc, proof }      the parent's proof, over the same, the other way
 *   either way      sealed    { sid, seq, iv, ct }   one request or reply, AES-GCM under the
 *                                                    session's key, bound to its direction and
 *                                                    its place in that direction's sequence
 */
import { CHANNEL } from './protocol';

export const SEALED_VERSION = 2;

export type Hello = { channel: typeof CHANNEL; v: 2; type: 'hello'; np: string };
export type Challenge = { channel: typeof CHANNEL; v: 2; type: 'challenge'; np: string; nc: string; proof: string };
export type Confirm = { channel: typeof CHANNEL; v: 2; type: 'confirm'; np: string; nc: string; proof: string };
export type Sealed = { channel: typeof CHANNEL; v: 2; type: 'sealed'; sid: string; seq: number; iv: string; ct: string };

/** What a child reads from its parent. */
export type ToChild = Hello | Confirm | Sealed;
/** What a parent reads from a frame. */
export type ToParent = Challenge | Sealed;

const NONCE = /^[A-Za-z0-9_-]{22}$/; // 16 bytes, base64url
const PROOF = /^[A-Za-z0-9_-]{43}$/; // 32 bytes (HMAC-SHA-256)
const IV = /^[A-Za-z0-9_-]{16}$/; // 12 bytes
/** A sealed message's most: a frame's map is a few hundred KB at worst. */
export const MAX_SEALED_CHARS = 4_000_000;
const CT = /^[A-Za-z0-9_-]+$/;

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

function ours(v: unknown): v is Record<string, unknown> {
  return isObj(v) && v.channel === CHANNEL && v.v === SEALED_VERSION && typeof v.type === 'string';
}

const str = (v: unknown, re: RegExp): v is string => typeof v === 'string' && re.test(v);

function sealed(m: Record<string, unknown>): Sealed | undefined {
  const ok =
    str(m.sid, NONCE) &&
    Number.isSafeInteger(m.seq) &&
    (m.seq as number) >= 0 &&
    str(m.iv, IV) &&
    typeof m.ct === 'string' &&
    m.ct.length <= MAX_SEALED_CHARS &&
    CT.test(m.ct);
  return ok ? { channel: CHANNEL, v: 2, type: 'sealed', sid: m.sid as string, seq: m.seq as number, iv: m.iv as string, ct: m.ct as string } : undefined;
}

/** A message to a child, copied to its known fields, or undefined. */
export function toChild(v: unknown): ToChild | undefined {
  if (!ours(v)) return undefined;
  if (v.type === 'hello') return str(v.np, NONCE) ? { channel: CHANNEL, v: 2, type: 'hello', np: v.np } : undefined;
  if (v.type === 'confirm')
    return str(v.np, NONCE) && str(v.nc, NONCE) && str(v.proof, PROOF)
      ? { channel: CHANNEL, v: 2, type: 'confirm', np: v.np, nc: v.nc, proof: v.proof }
      : undefined;
  if (v.type === 'sealed') return sealed(v);
  return undefined;
}

/** A message to a parent, copied to its known fields, or undefined. */
export function toParent(v: unknown): ToParent | undefined {
  if (!ours(v)) return undefined;
  if (v.type === 'challenge')
    return str(v.np, NONCE) && str(v.nc, NONCE) && str(v.proof, PROOF)
      ? { channel: CHANNEL, v: 2, type: 'challenge', np: v.np, nc: v.nc, proof: v.proof }
      : undefined;
  if (v.type === 'sealed') return sealed(v);
  return undefined;
}

/** Where a `postMessage` may go: the origin the other end proved itself at ("null" for a sandboxed frame can only be "*"; what is sent then is sealed or public). */
export const targetOf = (origin: string): string => (origin && origin !== 'null' ? origin : '*');
