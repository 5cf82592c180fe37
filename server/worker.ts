/**
 * Cloudflare Workers entry (wrangler.toml). Configuration comes from vars and secrets with the
 * same names as the Node environment; rate limiting uses the `PAGEHAND_RATE_LIMITER` binding.
 * Workers have no loopback-only mode, so there is no personal token: PAGEHAND_SITES is required.
 */
import type { Hono } from 'hono';
import { createApp, type AppEnv } from './app';
import { ConfigError, configFromEnv, type EnvVars } from './config';
import { consoleLogger } from './log';
import { bindingRateLimiter, type RateLimitBinding } from './rate-limit/binding';
import { memoryRateLimiter } from './rate-limit/memory';

export interface WorkerEnv extends EnvVars {
  /** `[[ratelimits]]` binding counting per site token; without it each isolate counts in memory (weaker). */
  PAGEHAND_RATE_LIMITER?: RateLimitBinding;
  /**
   * Optional `[[ratelimits]]` binding counting per client address (CF-Connecting-IP). Its own
   * limit replaces PAGEHAND_CLIENT_RPM and the sites' `clientRpm`; without it each isolate counts
   * in memory with those.
   */
  PAGEHAND_CLIENT_RATE_LIMITER?: RateLimitBinding;
}

// One app per env object: built on the first request of an isolate, reused after.
const apps = new WeakMap<object, Hono<AppEnv> | ConfigError>();

function appFor(env: WorkerEnv): Hono<AppEnv> | ConfigError {
  let app = apps.get(env);
  if (!app) {
    try {
      app = createApp(
        configFromEnv(env, {
          rateLimiter: env.PAGEHAND_RATE_LIMITER ? bindingRateLimiter(env.PAGEHAND_RATE_LIMITER) : memoryRateLimiter(),
          clientRateLimiter: env.PAGEHAND_CLIENT_RATE_LIMITER ? bindingRateLimiter(env.PAGEHAND_CLIENT_RATE_LIMITER) : memoryRateLimiter(),
          log: consoleLogger,
        }),
      );
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      consoleLogger({ level: 'error', msg: 'configuration error', detail: e.message });
      app = e;
    }
    apps.set(env, app);
  }
  return app;
}

export default {
  fetch(request: Request, env: WorkerEnv, ctx: unknown): Response | Promise<Response> {
    const app = appFor(env);
    if (app instanceof ConfigError) {
      // The operator's mistake, not the page's: say what to fix (ConfigError messages hold no secrets).
      return Response.json({ error: { code: 'server_misconfigured', message: app.message } }, { status: 500 });
    }
    return app.fetch(request, env, ctx as never);
  },
};
