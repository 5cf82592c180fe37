import { defineConfig } from 'vitest/config';

// wrangler/miniflare must make no outside calls (metrics, error reports, the cf object fetch);
// set before the pool (and wrangler with it) is loaded below.
process.env.WRANGLER_SEND_METRICS = 'false';
process.env.CLOUDFLARE_CF_FETCH_ENABLED = 'false';
process.env.WRANGLER_HIDE_BANNER = 'true';
process.env.WRANGLER_SEND_ERROR_REPORTS = 'false';
const { cloudflareTest } = await import('@cloudflare/vitest-pool-workers');

// One `vitest run` runs every project: pure logic (node/happy-dom), real Chromium, and the proxy.
export default defineConfig({
  test: {
    // Two files at a time even on 2 cores: most browser files wait on pages, timers and the model
    // fake rather than compute (the default, cores − 1, ran them one by one: 25 min; two: 18).
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/browser/global-setup.ts'],
          // A worker's files share its module cache: re-importing playwright-core and the harness per
          // file cost 182 s of a CI run. The files keep nothing at module level but the same caches.
          isolate: false,
          // The step-log trace (tests/trace/README.md): only with PAGEHAND_TRACE_DIR set.
          setupFiles: process.env.PAGEHAND_TRACE_DIR ? ['tests/trace/setup.ts'] : [],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          exclude: ['tests/server/**/*.workers.test.ts'],
          environment: 'node',
          testTimeout: 20_000,
        },
      },
      {
        // The proxy inside workerd (the Workers runtime), same suite as `server`. The fake
        // upstreams run in Node (globalSetup); their origin reaches the Worker as bindings.
        plugins: [
          cloudflareTest(({ inject }) => {
            const fake = inject('fakeOrigin');
            return {
              wrangler: { configPath: './wrangler.toml' },
              miniflare: {
                bindings: {
                  FAKE_ORIGIN: fake,
                  OPENAI_BASE_URL: `${fake}/openai/v1`,
                  GEMINI_BASE_URL: `${fake}/gemini`,
                  OPENAI_API_KEY: 'sk-test-OPENAI-SECRET-k3y-0123456789abcdef',
                  GEMINI_API_KEY: 'AIzaTEST-GEMINI-SECRET-k3y-0123456789abcd',
                  PAGEHAND_MODELS: 'gpt-test,gemini-test-flash',
                  PAGEHAND_SITES: JSON.stringify([{ token: 'tok-worker-entry-0123456789', origins: ['https://shop.test'] }]),
                },
                ratelimits: { TEST_RATE_LIMITER: { simple: { limit: 3, period: 60 } } },
              },
            };
          }),
        ],
        test: {
          name: 'workers',
          include: ['tests/server/**/*.workers.test.ts'],
          globalSetup: ['tests/server/workers-global-setup.ts'],
          testTimeout: 20_000,
        },
      },
    ],
  },
});
