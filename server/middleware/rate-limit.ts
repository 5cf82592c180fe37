/** Per-site request rate: 429 with Retry-After when a token is over its budget. */
import type { MiddlewareHandler } from 'hono';
import { ProxyError } from '../errors';
import type { RateLimiter } from '../rate-limit/types';
import type { SiteVariables } from './require-site';

export interface RateLimitOptions {
  limiter: RateLimiter;
  /** Requests per minute for sites without their own `rpm`. */
  defaultRpm: number;
}

/**
 * Runs after `requireSite`, so only authenticated tokens are counted (and stored).
 *
 * @example
 * app.post('/v1/chat/completions', rateLimit({ limiter: memoryRateLimiter(), defaultRpm: 60 }), handler);
 */
export function rateLimit({ limiter, defaultRpm }: RateLimitOptions): MiddlewareHandler<{ Variables: SiteVariables }> {
  return async (c, next) => {
    const site = c.get('site');
    const decision = await limiter.hit(site.token, site.rpm ?? defaultRpm);
    if (!decision.ok) {
      throw new ProxyError(429, 'rate_limited', `Too many requests for this token; retry in ${decision.retryAfterSeconds} s.`, {
        'Retry-After': String(decision.retryAfterSeconds),
      });
    }
    await next();
  };
}
