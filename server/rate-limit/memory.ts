/**
 * In-memory token bucket per key (Node, and each Workers isolate without a binding). Keys are
 * site tokens (bounded by the configuration) and client addresses (bounded by nothing an
 * operator controls), so the map holds at most `maxKeys` buckets: the one used longest ago goes
 * first. A bucket untouched for a minute is full again anyway, so only an attacker with more
 * than `maxKeys` addresses active in the same minute gains from the eviction.
 */
import type { RateDecision, RateLimiter } from './types';

export interface MemoryRateLimiterOptions {
  /** Clock in milliseconds; injectable so tests can move time without sleeping. */
  now?: () => number;
  /** Most buckets kept at once. Default 50 000. */
  maxKeys?: number;
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
  const maxKeys = options.maxKeys ?? 50_000;
  // Insertion order is use order: a hit re-inserts its key at the end.
  const buckets = new Map<string, Bucket>();
  return {
    hit(key: string, rpm: number): RateDecision {
      const t = now();
      const perMs = rpm / 60_000;
      const bucket = buckets.get(key) ?? { tokens: rpm, updated: t };
      // Refill for the time elapsed, never above a full minute's worth (the burst size).
      bucket.tokens = Math.min(rpm, bucket.tokens + (t - bucket.updated) * perMs);
      bucket.updated = t;
      buckets.delete(key);
      buckets.set(key, bucket);
      if (buckets.size > maxKeys) buckets.delete(buckets.keys().next().value as string);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { ok: true };
      }
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000)) };
    },
  };
}
