/**
 * Private Network Access: before a page on a public site (a bookmarklet) may call a proxy on a
 * private or loopback address, Chromium versions with this feature send a CORS preflight with
 * `Access-Control-Request-Private-Network: true` and go on only if the answer carries
 * `Access-Control-Allow-Private-Network: true`. Granted to the origins CORS allows, never others.
 */
import type { MiddlewareHandler } from 'hono';

export interface PrivateNetworkOptions {
  /** The CORS origin rule: whether this origin may call the proxy at all. */
  allowsOrigin(origin: string): boolean;
}

/**
 * Wraps the CORS middleware: the grant is added once the preflight has been answered.
 *
 * @example
 * app.use('/v1/*', privateNetwork({ allowsOrigin: (o) => o === 'https://shop.example' }), cors({ origin: 'https://shop.example' }));
 */
export function privateNetwork({ allowsOrigin }: PrivateNetworkOptions): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.req.method !== 'OPTIONS' || c.req.header('access-control-request-private-network') !== 'true') return;
    const origin = c.req.header('origin');
    if (origin && allowsOrigin(origin)) c.header('Access-Control-Allow-Private-Network', 'true');
  };
}
