/**
 * Who is asking: the bearer token names a site, and a browser's Origin must be one of that
 * site's origins. Requests without an Origin (curl, a userscript's GM request) pass the origin
 * check — an Origin header is trivially forged outside a browser, so it guards browsers only.
 *
 * A session token (`phs_…`, from POST /v1/session) acts as its parent site, but only from the
 * one origin it is bound to: another Origin, or none, is refused — except a same-origin GET
 * from a page on that very origin (browsers send no Origin on those), which the demo pages of
 * the Node server make.
 */
import type { MiddlewareHandler } from 'hono';
import type { Site } from '../config';
import { ProxyError } from '../errors';
import { isSessionToken, sessionVerifier, type SessionClaims } from '../session/token';

export interface RequireSiteOptions {
  sites: readonly Site[];
  /** Accept session tokens, checking expiry against this clock (ms). Omitted → refused (403). */
  sessions?: { now: () => number };
}

export type SiteVariables = {
  site: Site;
  /** Set when the request came with a session token. */
  session?: SessionClaims;
};

/**
 * @example
 * app.use('/v1/*', requireSite({ sites: config.sites, sessions: { now: Date.now } }));
 * app.get('/v1/config', (c) => c.json({ origins: c.get('site').origins }));
 */
export function requireSite({ sites, sessions }: RequireSiteOptions): MiddlewareHandler<{ Variables: SiteVariables }> {
  const encoder = new TextEncoder();
  const keys = sites.map((s) => ({ site: s, bytes: encoder.encode(s.token) }));
  const verify = sessionVerifier(sites);
  return async (c, next) => {
    if (sites.length === 0) {
      throw new ProxyError(503, 'no_sites_configured', 'This proxy has no sites configured: set PAGEHAND_SITES.');
    }
    const header = c.req.header('authorization');
    if (!header) {
      throw new ProxyError(401, 'missing_token', 'Send the site token as "Authorization: Bearer <token>".');
    }
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
    if (!match) {
      throw new ProxyError(401, 'invalid_token', 'The Authorization header must be "Bearer <token>".');
    }
    const token = match[1]!;
    const origin = c.req.header('origin');

    if (isSessionToken(token)) {
      if (!sessions) {
        throw new ProxyError(
          403,
          'session_not_allowed',
          'A session token cannot be used here (it cannot make another session token): send the site or personal token.',
        );
      }
      const check = await verify(token, sessions.now());
      if (!check.ok && check.reason === 'expired') {
        throw new ProxyError(401, 'token_expired', 'This session token has expired. Click the pagehand bookmarklet again (or reload the page) for a new one.');
      }
      if (!check.ok) throw new ProxyError(401, 'invalid_token', 'This session token is not valid on this proxy.');
      const bound = check.claims.origin;
      const sameOriginGet =
        origin === undefined && c.req.method === 'GET' && c.req.header('sec-fetch-site') === 'same-origin' && new URL(c.req.url).origin === bound;
      if (origin !== bound && !sameOriginGet) {
        throw new ProxyError(
          403,
          'origin_not_allowed',
          origin === undefined
            ? `This session token is bound to ${clip(bound)} and works only in requests a browser sends from that origin.`
            : `This session token is bound to ${clip(bound)} and may not be used from ${clip(origin)}.`,
        );
      }
      // The operator may have removed the origin since the token was made.
      if (!allows(check.site, bound)) throw new ProxyError(403, 'origin_not_allowed', `This token may not be used from ${clip(bound)}.`);
      c.set('site', check.site);
      c.set('session', check.claims);
      await next();
      return;
    }

    const given = encoder.encode(token);
    // Compare against every site without an early exit, so timing says nothing about tokens.
    let found: Site | undefined;
    for (const k of keys) if (sameBytes(given, k.bytes)) found = k.site;
    if (!found) throw new ProxyError(401, 'invalid_token', 'This token is not known to the proxy.');

    if (origin !== undefined && !allows(found, origin)) {
      throw new ProxyError(403, 'origin_not_allowed', `This token may not be used from ${clip(origin)}.`);
    }
    c.set('site', found);
    await next();
  };
}

/** Whether a site's token may be used from `origin` ("*" allows any). */
export const allows = (site: Site, origin: string): boolean => site.origins.includes('*') || site.origins.includes(origin);

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false; // a token's length is not worth hiding
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

const clip = (s: string): string => (s.length > 100 ? `${s.slice(0, 100)}…` : s);
