/** The Node runtime for the shared suite: the app behind a real @hono/node-server on 127.0.0.1. */
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../../server/app';
import { configFromEnv, type LogEvent } from '../../../server/config';
import { memoryRateLimiter } from '../../../server/rate-limit/memory';
import type { ProxyTarget, RunningProxy } from './target';

export function nodeTarget(fake: ProxyTarget['fake']): ProxyTarget {
  return {
    runtime: 'node',
    fake,
    async start(vars, options = {}) {
      const logs: LogEvent[] = [];
      const app = createApp(configFromEnv(vars, { rateLimiter: memoryRateLimiter(), now: options.now, log: (e) => logs.push(e) }));
      const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
        const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
      });
      const { port } = server.address() as AddressInfo;
      const proxy: RunningProxy = {
        base: `http://127.0.0.1:${port}`,
        fetch: globalThis.fetch,
        logs,
        close: () =>
          new Promise<void>((resolve) => {
            (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
            server.close(() => resolve());
          }),
      };
      return proxy;
    },
  };
}
