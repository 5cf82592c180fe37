/**
 * CORS from the configured sites. A preflight carries no token, so it is answered for any origin
 * that at least one site lists; the token's own origins are then checked by `requireSite`.
 */
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { Site } from '../config';

export interface SiteCorsOptions {
  sites: readonly Site[];
}

/**
 * @example
 * app.use('/v1/*', siteCors({ sites: config.sites }));
 */
export function siteCors({ sites }: SiteCorsOptions): MiddlewareHandler {
  const anyOrigin = sites.some((s) => s.origins.includes('*'));
  const listed = new Set(sites.flatMap((s) => s.origins));
  const handler = cors({
    // Echo the origin (never "*") so responses stay correct behind caches with `Vary: Origin`.
    origin: (origin) => (origin && (anyOrigin || listed.has(origin)) ? origin : null),
    allowMethods: ['GET', 'POST', 'OPTIONS'],
    allowHeaders: ['Authorization', 'Content-Type'],
    exposeHeaders: ['Retry-After', 'X-Request-Id'],
    maxAge: 600,
  });
  return async (c, next) => {
    // Chrome's private-network preflight: a public page calling a loopback proxy asks first.
    if (c.req.method === 'OPTIONS' && c.req.header('access-control-request-private-network') === 'true') {
      const origin = c.req.header('origin');
      if (origin && (anyOrigin || listed.has(origin))) c.header('Access-Control-Allow-Private-Network', 'true');
    }
    return handler(c, next);
  };
}
