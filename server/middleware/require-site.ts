/**
 * Who is asking: the bearer token names a site, and a browser's Origin must be one of that
 * site's origins. Requests without an Origin (curl, a userscript's GM request) pass the origin
 * check — an Origin header is trivially forged outside a browser, so it guards browsers only.
 */
import type { MiddlewareHandler } from 'hono';
import type { Site } from '../config';
import { ProxyError } from '../errors';

export interface RequireSiteOptions {
  sites: readonly Site[];
}

export type SiteVariables = { site: Site };

/**
 * @example
 * app.use('/v1/*', requireSite({ sites: config.sites }));
 * app.get('/v1/config', (c) => c.json({ origins: c.get('site').origins }));
 */
export function requireSite({ sites }: RequireSiteOptions): MiddlewareHandler<{ Variables: SiteVariables }> {
  const encoder = new TextEncoder();
  const keys = sites.map((s) => ({ site: s, bytes: encoder.encode(s.token) }));
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
    const given = encoder.encode(match[1]);
    // Compare against every site without an early exit, so timing says nothing about tokens.
    let found: Site | undefined;
    for (const k of keys) if (sameBytes(given, k.bytes)) found = k.site;
    if (!found) throw new ProxyError(401, 'invalid_token', 'This token is not known to the proxy.');

    const origin = c.req.header('origin');
    if (origin !== undefined && !found.origins.includes('*') && !found.origins.includes(origin)) {
      throw new ProxyError(403, 'origin_not_allowed', `This token may not be used from ${clip(origin)}.`);
    }
    c.set('site', found);
    await next();
  };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false; // a token's length is not worth hiding
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

const clip = (s: string): string => (s.length > 100 ? `${s.slice(0, 100)}…` : s);
