/**
 * When to try a failed model call again, and after how long. Pure: the client feeds in the
 * error and the attempt number and gets a decision back, so the policy is testable without
 * clocks or servers.
 */
import type { ModelError } from './wire';

export interface RetryPolicy {
  /** Retries after the first try (so at most retries + 1 calls). */
  retries: number;
  baseDelayMs: number;
  /** Longest single wait; a Retry-After beyond it fails instead of hanging the run. */
  maxDelayMs: number;
}

// A minute covers the usual rate-limit window (the Workers binding answers Retry-After: 60).
export const DEFAULT_POLICY: RetryPolicy = { retries: 4, baseDelayMs: 1000, maxDelayMs: 60_000 };

export type RetryDecision =
  | { retry: true; delayMs: number }
  /** `final`: the error is not worth retrying; `exhausted`: no retries left; `wait_too_long`:
   * the server asked for a longer wait than maxDelayMs allows. */
  | { retry: false; why: 'final' | 'exhausted' | 'wait_too_long' };

/**
 * `Retry-After` as milliseconds: delta-seconds ("7") or an HTTP date. Undefined when absent or
 * unreadable; never negative (a date in the past means "now").
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  // Only date-shaped text: Date.parse also accepts bare numbers like "-5", which are not dates.
  if (!/[a-z]/i.test(v)) return undefined;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * Exponential backoff with jitter for retry `attempt` (1-based): base·2^(attempt-1), capped, then
 * a random point in its upper half — spread out so many pages don't retry in step, but never
 * much shorter than the schedule.
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + (random() * exp) / 2);
}

/** What to do after `err` failed try number `attempt` (1 = the first retry would come next). */
export function retryDecision(err: ModelError, attempt: number, policy: RetryPolicy, random: () => number = Math.random): RetryDecision {
  if (!err.retryable) return { retry: false, why: 'final' };
  if (attempt > policy.retries) return { retry: false, why: 'exhausted' };
  if (err.retryAfterMs !== undefined) {
    return err.retryAfterMs > policy.maxDelayMs ? { retry: false, why: 'wait_too_long' } : { retry: true, delayMs: err.retryAfterMs };
  }
  return { retry: true, delayMs: backoffDelay(attempt, policy, random) };
}
