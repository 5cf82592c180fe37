/**
 * The Worker as `wrangler dev` runs it from wrangler.toml — the `[assets]` folder in front of
 * server/worker.ts — started with wrangler's programmatic API on 127.0.0.1 and reached over real
 * HTTP: the built bundle, screenshot module, embed loader and agent chunk come from the asset
 * server with the Node server's caching, nothing else of dist/ is served, and the API still
 * runs the Worker's checks.
 *
 * Reads dist/worker-assets/ as `npm run build` leaves it (`npm test` builds first). The Worker
 * runs from a copy of wrangler.toml without its `[build]` table (wrangler runs that command at
 * every start, and rebuilding dist/ while other test files read it would race them); the test
 * checks the table is there, and `wrangler deploy --dry-run` is what runs it.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/fake-upstreams';
import { script } from './fakes/script';
import { containsSecret, KEYS, SHOP_ORIGIN } from './suite/fixtures';

// wrangler/miniflare must make no outside calls; set before wrangler is loaded.
Object.assign(process.env, {
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_HIDE_BANNER: 'true',
  WRANGLER_SEND_ERROR_REPORTS: 'false',
});

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TOKEN = 'tok-worker-assets-0123456789';
const MAX_BODY = 4096;

type StartedWorker = Awaited<ReturnType<typeof import('wrangler').unstable_startWorker>>;

let fake: FakeUpstreams;
let starting: Promise<StartedWorker> | undefined;
let worker: StartedWorker | undefined;
let base: string;
let tmp: string | undefined;

/** wrangler.toml with absolute paths and no `[build]` table; throws when a line to change is missing. */
function configWithoutBuild(toml: string): string {
  const edits: Array<[RegExp, string]> = [
    [/^\[build\]\n(?:(?!\[).*\n)*/m, ''],
    [/^main = "server\/worker\.ts"$/m, `main = ${JSON.stringify(join(ROOT, 'server/worker.ts'))}`],
    [/^directory = "dist\/worker-assets"$/m, `directory = ${JSON.stringify(join(ROOT, 'dist/worker-assets'))}`],
  ];
  for (const [pattern, replacement] of edits) {
    if (!pattern.test(toml)) throw new Error(`wrangler.toml changed: no match for ${pattern}; update this test`);
    toml = toml.replace(pattern, replacement);
  }
  return toml;
}

/** Runs `body` with a time limit, so a wrangler that hangs fails the hook instead of stalling it. */
async function within<T>(ms: number, what: string, body: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([body, limit]);
  } finally {
    clearTimeout(timer);
  }
}

beforeAll(async () => {
  for (const name of ['pagehand.js', 'pagehand-screenshot.js', 'pagehand-loader.js', '_headers']) {
    if (!existsSync(`${ROOT}dist/worker-assets/${name}`)) throw new Error(`dist/worker-assets/${name} is missing: run \`npm run build\` first.`);
  }
  fake = await startFakeUpstreams();
  tmp = await mkdtemp(join(tmpdir(), 'pagehand-worker-assets-'));
  const config = join(tmp, 'wrangler.toml');
  await writeFile(config, configWithoutBuild(await readFile(`${ROOT}wrangler.toml`, 'utf8')));
  const { unstable_startWorker } = await import('wrangler');
  starting = unstable_startWorker({
    config,
    sendMetrics: false,
    // The test's bindings only: the config's folder holds no .dev.vars, and no .env is read.
    envFiles: [],
    bindings: {
      PAGEHAND_SITES: { type: 'secret_text', value: JSON.stringify([{ token: TOKEN, origins: [SHOP_ORIGIN] }]) },
      OPENAI_API_KEY: { type: 'secret_text', value: KEYS.openai },
      OPENAI_BASE_URL: { type: 'plain_text', value: fake.openaiBaseURL },
      PAGEHAND_MODELS: { type: 'plain_text', value: 'gpt-test' },
      PAGEHAND_MAX_BODY_BYTES: { type: 'plain_text', value: String(MAX_BODY) },
    },
    dev: {
      remote: false,
      server: { hostname: '127.0.0.1', port: 0 },
      inspector: false,
      watch: false,
      persist: false,
      logLevel: 'error',
    },
  });
  worker = await within(60_000, 'wrangler start', starting);
  base = (await within(60_000, 'wrangler ready', worker.url)).origin;
}, 150_000);

afterAll(async () => {
  // Also a worker whose start outlived the hook's limit.
  const w = worker ?? (await within(30_000, 'wrangler start', starting ?? Promise.resolve(undefined)).catch(() => undefined));
  await within(30_000, 'wrangler dispose', w?.dispose() ?? Promise.resolve()).catch((e) => console.error(e));
  await fake?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
}, 70_000);

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers, signal: AbortSignal.timeout(10_000) });

describe('the Worker with its static assets (wrangler.toml [assets])', () => {
  it('is configured to build the bundle before deploy and dev, and to serve dist/worker-assets/', async () => {
    const { unstable_readConfig } = await import('wrangler');
    const config = unstable_readConfig({ config: `${ROOT}wrangler.toml` }, { hideWarnings: true });
    expect(config.build.command).toBe('npm run build');
    expect(config.assets?.directory).toBe('dist/worker-assets');
    expect(config.assets?.run_worker_first).toEqual(['/v1/*', '/healthz']);
  });

  it('serves the built bundle with the headers the Node server sends', async () => {
    const res = await get('/pagehand.js', { Origin: 'https://anywhere.test' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const served = new Uint8Array(await res.arrayBuffer());
    const built = new Uint8Array(await readFile(`${ROOT}dist/pagehand.js`));
    expect(served.byteLength).toBe(built.byteLength);
    expect(Buffer.compare(served, built)).toBe(0);
  });

  it('serves the screenshot module next to it, importable from another origin', async () => {
    const res = await get('/pagehand-screenshot.js', { Origin: 'https://anywhere.test' });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(Buffer.compare(new Uint8Array(await res.arrayBuffer()), new Uint8Array(await readFile(`${ROOT}dist/pagehand-screenshot.js`)))).toBe(0);
  });

  it("serves the embed's loader (five minutes, then revalidated: a 304) and the agent's content-hashed files (immutable)", async () => {
    const loader = await get('/pagehand-loader.js', { Origin: 'https://anywhere.test' });
    expect(loader.status).toBe(200);
    expect(loader.headers.get('cache-control')).toBe('public, max-age=300');
    expect(loader.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const source = new Uint8Array(await loader.arrayBuffer());
    expect(Buffer.compare(source, new Uint8Array(await readFile(`${ROOT}dist/pagehand-loader.js`)))).toBe(0);
    const etag = loader.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await get('/pagehand-loader.js', { 'If-None-Match': etag! });
    expect(again.status).toBe(304);
    expect((await again.arrayBuffer()).byteLength).toBe(0);

    // The chunk the built loader names, at that name.
    const chunk = /pagehand-agent\.[0-9A-Za-z]{8}\.js/.exec(new TextDecoder().decode(source))![0];
    const res = await get(`/${chunk}`, { Origin: 'https://anywhere.test' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(Buffer.compare(new Uint8Array(await res.arrayBuffer()), new Uint8Array(await readFile(`${ROOT}dist/${chunk}`)))).toBe(0);

    // Every other file of the agent (the modules its entry imports, what loads on first use): the same.
    const built = JSON.parse(await readFile(`${ROOT}dist/pagehand-agent.files.json`, 'utf8')) as { entry: string; eager: string[]; lazy: string[] };
    expect(built.entry).toBe(chunk);
    expect(built.lazy.some((f) => f.startsWith('pagehand-agent-on-demand.'))).toBe(true);
    for (const f of [...built.eager, ...built.lazy]) {
      const r = await get(`/${f}`, { Origin: 'https://anywhere.test' });
      expect(r.status, f).toBe(200);
      expect(r.headers.get('cache-control'), f).toBe('public, max-age=31536000, immutable');
      expect(r.headers.get('access-control-allow-origin'), f).toBe('*');
      expect(Buffer.compare(new Uint8Array(await r.arrayBuffer()), new Uint8Array(await readFile(`${ROOT}dist/${f}`))), f).toBe(0);
    }
  });

  it('serves nothing else of dist/: those paths get the Worker JSON 404', async () => {
    for (const path of ['/dist/cli.js', '/cli.js', '/pagehand.user.js', '/esm/index.js', '/dist/pagehand.js', '/_headers', '/worker-assets/pagehand.js']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(await res.json(), path).toEqual({ error: { code: 'not_found', message: `No route for GET ${path}.` } });
    }
  });

  it('answers /v1/config for the token from its allowed origin, with CORS and without secrets', async () => {
    const res = await get('/v1/config', { Authorization: `Bearer ${TOKEN}`, Origin: SHOP_ORIGIN });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('access-control-allow-origin')).toBe(SHOP_ORIGIN);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ models: ['gpt-test'], limits: { maxBodyBytes: MAX_BODY } });
    expect(containsSecret(text)).toBe(false);
    expect(await (await get('/healthz')).json()).toEqual({ ok: true });
  });

  it('keeps the origin and token checks', async () => {
    const foreign = await get('/v1/config', { Authorization: `Bearer ${TOKEN}`, Origin: 'https://elsewhere.test' });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe('origin_not_allowed');
    const wrong = await get('/v1/config', { Authorization: 'Bearer tok-not-a-site-0123456789', Origin: SHOP_ORIGIN });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe('invalid_token');
  });

  it('serves a chat completion through the upstream', async () => {
    const client = new OpenAI({
      apiKey: TOKEN,
      baseURL: `${base}/v1`,
      maxRetries: 0,
      timeout: 10_000,
      defaultHeaders: { Origin: SHOP_ORIGIN },
    });
    const reply = await client.chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: script({ text: 'through the assets worker' }) }],
    });
    expect(reply.choices[0]!.message.content).toBe('through the assets worker');
  });

  // Last: it uses up the token's rate limit (wrangler.toml: 60 requests per 60 s, counted in
  // windows aligned to the minute — one reset may fall within the loop, hence its bound of 150).
  it('keeps the body-size limit and the rate limit', async () => {
    const post = () =>
      fetch(`${base}/v1/chat/completions`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, Origin: SHOP_ORIGIN, 'Content-Type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: 'x'.repeat(MAX_BODY) }] }),
        signal: AbortSignal.timeout(10_000),
      });
    const big = await post();
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { code: string } }).error.code).toBe('body_too_large');
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 150; i++) {
      const res = await post();
      statuses.push(res.status);
      await res.text();
      if (res.status === 429) {
        retryAfter = res.headers.get('retry-after');
        break;
      }
    }
    expect(statuses.at(-1)).toBe(429);
    expect(retryAfter).toMatch(/^\d+$/);
    expect(statuses.slice(0, -1).every((s) => s === 413)).toBe(true);
  });
});
