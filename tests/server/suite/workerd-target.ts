/**
 * The workerd runtime for the shared suite: the app built inside the Workers runtime, fetch going
 * through its real `fetch` handler; upstream calls leave workerd for the fakes in Node.
 */
import { createExecutionContext, env } from 'cloudflare:test';
import { createApp } from '../../../server/app';
import { configFromEnv, type LogEvent } from '../../../server/config';
import { bindingRateLimiter, type RateLimitBinding } from '../../../server/rate-limit/binding';
import { memoryRateLimiter } from '../../../server/rate-limit/memory';
import type { ProxyTarget, RunningProxy } from './target';

export function workerdTarget(): ProxyTarget {
  const origin = env.FAKE_ORIGIN as string;
  return {
    runtime: 'workerd',
    fake: { origin, openaiBaseURL: `${origin}/openai/v1`, geminiBaseUrl: `${origin}/gemini` },
    async start(vars, options = {}) {
      const logs: LogEvent[] = [];
      const rateLimiter = options.rateLimitBinding ? bindingRateLimiter(env.TEST_RATE_LIMITER as RateLimitBinding) : memoryRateLimiter();
      const app = createApp(configFromEnv(vars, { rateLimiter, now: options.now, log: (e) => logs.push(e) }));
      const proxy: RunningProxy = {
        base: 'http://proxy.test',
        fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
          Promise.resolve(app.fetch(new Request(input, init), env, createExecutionContext() as never))) as typeof fetch,
        logs,
        close: async () => {},
      };
      return proxy;
    },
  };
}
