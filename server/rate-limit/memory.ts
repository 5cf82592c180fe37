/**
 * In-memory token bucket per key (Node). Keys are site tokens that passed the auth check, so the
 * map is bounded by the number of configured sites — an attacker cannot grow it.
 */
import type { RateDecision, RateLimiter } from './types';

export interface MemoryRateLimiterOptions {
  /** Clock in milliseconds; injectable so tests can move time without sleeping. */
  now?: () => number;
}

interface Bucket {
  tokens: number;
  updated: number;
}

/**
 * @example
 * const limiter = memoryRateLimiter();
 * limiter.hit(site.token, site.rpm ?? 60); // { ok: true } or { ok: false, retryAfterSeconds }
 */
export function memoryRateLimiter(options: MemoryRateLimiterOptions = {}): RateLimiter {
  const now = options.now ?? Date.now;
  const buckets = new Map<string, Bucket>();
  return {
    hit(key: string, rpm: number): RateDecision {
      const t = now();
      const perMs = rpm / 60_000;
      const bucket = buckets.get(key) ?? { tokens: rpm, updated: t };
      // Refill for the time elapsed, never above a full minute's worth (the burst size).
      bucket.tokens = Math.min(rpm, bucket.tokens + (t - bucket.updated) * perMs);
      bucket.updated = t;
      buckets.set(key, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { ok: true };
      }
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000)) };
    },
  };
}
