/** The model client's retry policy (client/llm/retry.ts): pure, no clocks. */
import { describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter, retryDecision, type RetryPolicy } from '../../client/llm/retry';
import { ModelError } from '../../client/llm/wire';

const policy: RetryPolicy = { retries: 3, baseDelayMs: 1000, maxDelayMs: 30_000 };

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T12:00:00Z');
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
  });
  it('reads an HTTP date relative to now, never negative', () => {
    expect(parseRetryAfter('Thu, 01 Jan 2026 12:00:42 GMT', now)).toBe(42_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 11:00:00 GMT', now)).toBe(0);
  });
  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('doubles per attempt, jittered within the upper half', () => {
    expect([1, 2, 3].map((a) => backoffDelay(a, policy, () => 0))).toEqual([500, 1000, 2000]);
    expect([1, 2, 3].map((a) => backoffDelay(a, policy, () => 1))).toEqual([1000, 2000, 4000]);
    expect(backoffDelay(2, policy, () => 0.5)).toBe(1500);
  });
  it('never exceeds maxDelayMs', () => {
    expect(backoffDelay(20, policy, () => 1)).toBe(30_000);
    expect(backoffDelay(20, policy, () => 0)).toBe(15_000);
  });
});

describe('retryDecision', () => {
  const retryable = new ModelError('upstream_error', 'x', 502, true);
  it('retries a retryable error with backoff while retries remain', () => {
    expect(retryDecision(retryable, 1, policy, () => 1)).toEqual({ retry: true, delayMs: 1000 });
    expect(retryDecision(retryable, 3, policy, () => 1)).toEqual({ retry: true, delayMs: 4000 });
    expect(retryDecision(retryable, 4, policy)).toEqual({ retry: false, why: 'exhausted' });
  });
  it('never retries a final error', () => {
    expect(retryDecision(new ModelError('invalid_token', 'x', 401), 1, policy)).toEqual({ retry: false, why: 'final' });
  });
  it('waits what Retry-After asked, up to maxDelayMs, else gives up', () => {
    const limited = (ms: number) => new ModelError('rate_limited', 'x', 429, true, ms);
    expect(retryDecision(limited(7000), 1, policy, () => 0)).toEqual({ retry: true, delayMs: 7000 });
    expect(retryDecision(limited(0), 1, policy)).toEqual({ retry: true, delayMs: 0 });
    expect(retryDecision(limited(30_001), 1, policy)).toEqual({ retry: false, why: 'wait_too_long' });
  });
  it('a 429 without Retry-After backs off like any retryable error', () => {
    expect(retryDecision(new ModelError('rate_limited', 'x', 429, true), 2, policy, () => 0)).toEqual({ retry: true, delayMs: 1000 });
  });
});
