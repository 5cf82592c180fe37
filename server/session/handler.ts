/**
 * POST /v1/session: trades the site or personal token for a session token bound to the Origin
 * of the page asking, so the page holds a token that works for a few hours from that origin
 * only. Runs after requireSite (without sessions: a session token cannot make another), which
 * has already refused an origin the site does not allow.
 *
 * Body: empty. `{ "for": "user" }` is what bookmarklets made before the broker window sent, from
 * inside the page with the personal token in it: refused (410) with a message telling the user to
 * drag the new bookmarklet, which never puts a token in the page (server/node/bookmarklet-broker.ts).
 */
import type { Handler } from 'hono';
import { ProxyError } from '../errors';
import type { SiteVariables } from '../middleware/require-site';
import { mintSessionToken } from './token';

export interface CreateSessionOptions {
  /** Lifetime of the tokens made. */
  ttlSeconds: number;
  /** Clock in milliseconds. */
  now: () => number;
}

/** The answer: the token, the origin it is bound to, and when it expires (ISO 8601). */
export interface SessionResponse {
  token: string;
  origin: string;
  expiresAt: string;
}

/**
 * @example
 * app.post('/v1/session', requireSite({ sites }), createSession({ ttlSeconds: 8 * 3600, now: Date.now }));
 */
export function createSession({ ttlSeconds, now }: CreateSessionOptions): Handler<{ Variables: SiteVariables }> {
  return async (c) => {
    const origin = c.req.header('origin');
    if (origin === undefined || origin === '') {
      throw new ProxyError(
        400,
        'missing_origin',
        'A session token is bound to the origin of the page asking, and this request has no Origin header: call POST /v1/session from the page, with fetch.',
      );
    }
    if (!isWebOrigin(origin)) {
      throw new ProxyError(403, 'origin_not_allowed', `A session token can only be bound to an http(s) origin, not ${origin.slice(0, 100)}.`);
    }
    if (await forUser(c.req.raw)) {
      throw new ProxyError(
        410,
        'bookmarklet_outdated',
        'This bookmarklet is from an older pagehand and put your token in the page. Open the install page of your pagehand proxy (npm start, then /) and drag the new bookmarklet to your bookmarks bar in place of this one (a Worker has no bookmarklet: use the userscript); if you clicked the old one on pages you do not trust, also make a new token (for the personal token: delete the token file and restart the proxy).',
      );
    }
    const expiresAt = Math.floor(now() / 1000) + ttlSeconds;
    const body: SessionResponse = {
      token: await mintSessionToken(c.get('site').token, origin, expiresAt),
      origin,
      expiresAt: new Date(expiresAt * 1000).toISOString(),
    };
    c.header('Cache-Control', 'no-store');
    return c.json(body);
  };
}

/** Whether the body is an old bookmarklet's `{"for":"user"}`; empty is not. Anything else is the caller's mistake (400). */
async function forUser(req: Request): Promise<boolean> {
  const text = await req.text().catch(() => '');
  if (!text.trim()) return false;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new ProxyError(400, 'invalid_body', 'The body of POST /v1/session must be empty.');
  }
  const keys = v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : null;
  if (!keys || keys.some((k) => k !== 'for') || ((v as { for?: unknown }).for !== undefined && (v as { for?: unknown }).for !== 'user')) {
    throw new ProxyError(400, 'invalid_body', 'The body of POST /v1/session must be empty.');
  }
  return (v as { for?: unknown }).for === 'user';
}

/** `https://shop.example` or `http://127.0.0.1:3000`; not "null" (sandboxed frames, files) nor a path. */
function isWebOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === origin;
  } catch {
    return false;
  }
}
