/** What the rate-limit middleware needs from a store: one decision per request. */
export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface RateLimiter {
  /**
   * Counts one request for `key` against `rpm` requests per minute.
   * Stores that cannot vary the limit per key (the Workers binding) ignore `rpm`.
   */
  hit(key: string, rpm: number): Promise<RateDecision> | RateDecision;
}
