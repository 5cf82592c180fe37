/**
 * CORS from the configured sites. A preflight carries no token, so it is answered for any origin
 * that at least one site lists; the token's own origins are then checked by `requireSite`.
 */
import type { MiddlewareHandler } from 'hono';
import { every } from 'hono/combine';
import { cors } from 'hono/cors';
import type { Site } from '../config';
import { privateNetwork } from './private-network';

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
  const allowsOrigin = (origin: string) => anyOrigin || listed.has(origin);
  const handler = cors({
    // Echo the origin (never "*") so responses stay correct behind caches with `Vary: Origin`.
    origin: (origin) => (origin && allowsOrigin(origin) ? origin : null),
    allowMethods: ['GET', 'POST', 'OPTIONS'],
    allowHeaders: ['Authorization', 'Content-Type'],
    exposeHeaders: ['Retry-After', 'X-Request-Id'],
    maxAge: 600,
  });
  // A public page calling a proxy on this machine: the same origins, and only they, may.
  return every(privateNetwork({ allowsOrigin }), handler);
}
