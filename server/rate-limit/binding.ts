/**
 * Rate limiting on Workers through the Rate Limiting binding (`[[ratelimits]]` in wrangler.toml).
 * The binding's limit and period are fixed in its configuration, so a site's `rpm` does not
 * change it; every site token is counted under its own key.
 */
import type { RateDecision, RateLimiter } from './types';

/** The part of the Workers `RateLimit` binding we use. */
export interface RateLimitBinding {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

/**
 * @example
 * const limiter = bindingRateLimiter(env.PAGEHAND_RATE_LIMITER, 60);
 */
export function bindingRateLimiter(binding: RateLimitBinding, periodSeconds = 60): RateLimiter {
  return {
    async hit(key: string): Promise<RateDecision> {
      const { success } = await binding.limit({ key });
      // The binding does not say when the window frees up; its period is the honest upper bound.
      return success ? { ok: true } : { ok: false, retryAfterSeconds: periodSeconds };
    },
  };
}
