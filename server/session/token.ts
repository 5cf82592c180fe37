/**
 * Session tokens: what a page holds instead of a site or personal token. Short-lived, bound to
 * one origin, stateless: signed with a key derived from the parent token, so they survive a
 * restart and need no secret of their own, and stop working when the parent token goes.
 *
 *   phs_<payload>.<signature>
 *   payload   = base64url(JSON { o: origin, e: expiry in Unix seconds, p: parent id, u?: 1 })
 *   u: 1      = made for the user's own pagehand (the bookmarklet): whatever page it ends up in,
 *               the bundle treats that page as a stranger's (the page cannot drop that by
 *               editing the DOM, and cannot make a token without it: a session cannot make another)
 *   parent id = base64url(first 8 bytes of SHA-256(parent token))
 *   key       = HMAC-SHA-256(key: parent token, data: "pagehand-session-v1")
 *   signature = base64url(HMAC-SHA-256(key, payload as ASCII))
 *
 * Web Crypto only (`crypto.subtle`), so the same code runs on Node and on Workers.
 */
import type { Site } from '../config';

export const SESSION_PREFIX = 'phs_';
const KEY_LABEL = 'pagehand-session-v1';
const SHAPE = /^phs_([A-Za-z0-9_-]{1,2000})\.([A-Za-z0-9_-]{43})$/;

export interface SessionClaims {
  /** The one origin the token may be used from. */
  origin: string;
  /** Unix seconds after which it is refused. */
  expiresAt: number;
  /** Short id of the parent token (not the token). */
  parent: string;
  /** Made for the user's own pagehand (the bookmarklet), not a site's embed. */
  user?: true;
}

export type SessionCheck = { ok: true; site: Site; claims: SessionClaims } | { ok: false; reason: 'invalid' | 'expired'; claims?: SessionClaims };

const encoder = new TextEncoder();

export const isSessionToken = (token: string): boolean => token.startsWith(SESSION_PREFIX);

/**
 * @example
 * const token = await mintSessionToken(site.token, 'https://shop.example', Math.floor(Date.now() / 1000) + 3600);
 */
export async function mintSessionToken(parentToken: string, origin: string, expiresAt: number, options: { user?: boolean } = {}): Promise<string> {
  const payload = base64url(encoder.encode(JSON.stringify({ o: origin, e: expiresAt, p: await parentId(parentToken), ...(options.user ? { u: 1 } : {}) })));
  const sig = await sign(await sessionKey(parentToken), payload);
  return `${SESSION_PREFIX}${payload}.${base64url(sig)}`;
}

/**
 * Checks a session token against the configured sites: shape, signature (constant time), then
 * expiry. Which origin may use it is the caller's check (`claims.origin`).
 *
 * @example
 * const verify = sessionVerifier(config.sites);
 * const check = await verify(token, Date.now());
 * if (check.ok) c.set('site', check.site);
 */
export function sessionVerifier(sites: readonly Site[]): (token: string, nowMs: number) => Promise<SessionCheck> {
  let ids: Promise<Array<{ site: Site; id: string }>> | undefined;
  return async (token, nowMs) => {
    const m = SHAPE.exec(token);
    if (!m) return { ok: false, reason: 'invalid' };
    const claims = readClaims(m[1]!);
    if (!claims) return { ok: false, reason: 'invalid' };
    ids ??= Promise.all(sites.map(async (site) => ({ site, id: await parentId(site.token) })));
    const given = fromBase64url(m[2]!);
    let found: Site | undefined;
    // Every site with this id is tried (an 8-byte id could in theory repeat), without early exit.
    for (const { site, id } of await ids) {
      if (id !== claims.parent) continue;
      if (sameBytes(given, await sign(await sessionKey(site.token), m[1]!))) found = site;
    }
    if (!found) return { ok: false, reason: 'invalid' };
    if (nowMs >= claims.expiresAt * 1000) return { ok: false, reason: 'expired', claims };
    return { ok: true, site: found, claims };
  };
}

function readClaims(payload: string): SessionClaims | undefined {
  try {
    const v = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(fromBase64url(payload))) as Record<string, unknown>;
    if (typeof v.o !== 'string' || typeof v.p !== 'string' || typeof v.e !== 'number' || !Number.isInteger(v.e)) return undefined;
    if (v.u !== undefined && v.u !== 1) return undefined;
    return { origin: v.o, expiresAt: v.e, parent: v.p, ...(v.u === 1 ? { user: true as const } : {}) };
  } catch {
    return undefined;
  }
}

const keys = new Map<string, Promise<CryptoKey>>();

/** HMAC key for `data`, as Web Crypto wants it. */
const hmacKey = (raw: BufferSource): Promise<CryptoKey> => crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);

/** The signing key of a parent token, derived once per token and process. */
function sessionKey(parentToken: string): Promise<CryptoKey> {
  let key = keys.get(parentToken);
  if (!key) {
    key = hmacKey(encoder.encode(parentToken)).then(async (k) => hmacKey(await crypto.subtle.sign('HMAC', k, encoder.encode(KEY_LABEL))));
    keys.set(parentToken, key);
  }
  return key;
}

async function sign(key: CryptoKey, payload: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(payload)));
}

/** Names the parent in the payload without revealing it. */
export async function parentId(parentToken: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(parentToken)));
  return base64url(digest.slice(0, 8));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

function base64url(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): Uint8Array {
  const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
