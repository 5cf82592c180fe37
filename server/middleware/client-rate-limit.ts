/**
 * Per-client request rate for a token: a site token is public (it sits in the site's pages), so
 * the per-token budget alone lets one visitor spend everyone's. 429 with Retry-After when one
 * address is over its share.
 */
import type { MiddlewareHandler } from 'hono';
import { clientAddress } from '../client-address';
import { ProxyError } from '../errors';
import type { RateLimiter } from '../rate-limit/types';
import { parentId } from '../session/token';
import type { SiteVariables } from './require-site';

export interface ClientRateLimitOptions {
  /** The memory store honours each site's `clientRpm`; a Workers binding applies its own limit. */
  limiter: RateLimiter;
  /** Requests per minute per client for sites without their own `clientRpm`. */
  defaultRpm: number;
  /** TRUST_PROXY: how many reverse proxies' X-Forwarded-For entries to believe (0: none). */
  trustProxyHops: number;
}

/**
 * Runs after `requireSite` (only authenticated requests are counted) and before the per-token
 * limit (a client refused here does not spend the site's budget).
 *
 * @example
 * app.post('/v1/chat/completions', site, clientRateLimit({ limiter: memoryRateLimiter(), defaultRpm: 30, trustProxyHops: 0 }), handler);
 */
export function clientRateLimit({ limiter, defaultRpm, trustProxyHops }: ClientRateLimitOptions): MiddlewareHandler<{ Variables: SiteVariables }> {
  return async (c, next) => {
    const site = c.get('site');
    const rpm = site.clientRpm ?? defaultRpm;
    const client = clientAddress(c, trustProxyHops) ?? 'unknown';
    // The site by a digest of its token, so the store never holds the token itself.
    const decision = await limiter.hit(`client ${await parentId(site.token)} ${client}`, rpm);
    if (!decision.ok) {
      throw new ProxyError(
        429,
        'rate_limited',
        `Too many requests from your address with this token (the per-client limit is ${rpm} per minute); retry in ${decision.retryAfterSeconds} s.`,
        { 'Retry-After': String(decision.retryAfterSeconds) },
      );
    }
    await next();
  };
}
