/**
 * What the shared proxy suite needs from a runtime: fake upstream URLs, and a way to start the
 * app from env-style variables and reach it with fetch. Implemented for Node (a real
 * @hono/node-server on 127.0.0.1) and for workerd (the app running inside the Workers runtime).
 */
import type { LogEvent } from '../../../server/config';

export interface RunningProxy {
  /** Base URL the fetch below understands, without a trailing slash. */
  base: string;
  fetch: typeof fetch;
  /** Everything the app logged (already redacted by the app). */
  logs: LogEvent[];
  close(): Promise<void>;
}

export interface StartOptions {
  /** workerd: count requests with the Rate Limiting binding (limit 3 per minute in the test
   * config); Node: the site's `rpm` with the memory store. */
  rateLimitBinding?: boolean;
  /** The app's clock in milliseconds (session expiry); default Date.now. */
  now?: () => number;
}

export interface ProxyTarget {
  runtime: 'node' | 'workerd';
  fake: { origin: string; openaiBaseURL: string; geminiBaseUrl: string };
  start(vars: Record<string, string | undefined>, options?: StartOptions): Promise<RunningProxy>;
}
