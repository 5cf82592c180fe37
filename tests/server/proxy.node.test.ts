/** The shared proxy suite against the app on Node (@hono/node-server, real HTTP on 127.0.0.1). */
import { afterAll, beforeAll } from 'vitest';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/fake-upstreams';
import { nodeTarget } from './suite/node-target';
import { defineFuzzSuite } from './suite/fuzz-suite';
import { defineLimitsSuite } from './suite/limits-suite';
import { defineProxySuite } from './suite/proxy-suite';
import { defineSessionSuite } from './suite/session-suite';
import type { ProxyTarget } from './suite/target';

let upstreams: FakeUpstreams;
const fake: ProxyTarget['fake'] = { origin: '', openaiBaseURL: '', geminiBaseUrl: '' };

beforeAll(async () => {
  upstreams = await startFakeUpstreams();
  Object.assign(fake, { origin: upstreams.origin, openaiBaseURL: upstreams.openaiBaseURL, geminiBaseUrl: upstreams.geminiBaseUrl });
});
afterAll(() => upstreams.close());

defineProxySuite(nodeTarget(fake));
defineFuzzSuite(nodeTarget(fake));
defineSessionSuite(nodeTarget(fake));
defineLimitsSuite(nodeTarget(fake));
