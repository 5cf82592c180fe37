/**
 * `npm run bench:proxy` — what the proxy costs, on Node, against the fake upstreams.
 *
 * Three processes: the fake OpenAI/Gemini upstreams, the real `server/node.ts` (as `npm start`
 * runs it, logging included) and this load generator, all on 127.0.0.1.
 *
 * 1. Latency: 500 requests per case, sequential, direct-to-fake and through-the-proxy
 *    interleaved (after 50 warm-ups each). Cases: OpenAI-compatible and Gemini, JSON and SSE.
 *    "Direct" sends the provider's own wire format to the fake (for Gemini: generateContent),
 *    so "added" is everything the proxy does: auth, validation, SDK, conversion, pass-through.
 *    TTFB = first body byte; total = end of body. Added = proxy percentile − direct percentile.
 * 2. 200 concurrent streams (100 per provider, 20 chunks 20 ms apart): errors (non-200, socket
 *    errors, error events, missing [DONE]) and the proxy's peak RSS.
 * 3. 20,000 requests (mixed providers and modes, 32 in flight): every 2,000, the proxy's RSS,
 *    then (through a bench-only preload, bench/lib/proxy-gc-probe.cjs) its RSS and live heap
 *    right after a full GC.
 *
 * Bars: p50 added TTFB ≤ 3 ms (every case), 0 errors at 200 concurrent streams, memory flat
 * (over the second half, live heap after GC grows < 0.1 MiB and RSS after GC < 0.5 MiB per
 * 1,000 requests; raw RSS is shown but drifts with V8's lazy heap sizing). Also checks that no
 * API key ever appeared in the proxy's output. Writes bench/results/proxy.json.
 */
import http from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { script, type FakeScript } from '../tests/server/fakes/script';
import { memoryAfterGc, rssMiB, rssSampler, startChild, type AfterGc } from './lib/proxy-processes';
import { timedRequest, type Timed } from './lib/proxy-http';
import { ms, percentile, slope, table } from './lib/proxy-stats';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const N = 500;
const WARMUP = 50;
const CONCURRENT = 200;
const SOAK = 20_000;
const SOAK_IN_FLIGHT = 32;
const SOAK_SAMPLE_EVERY = 2_000;

const KEYS = { openai: 'sk-bench-OPENAI-0123456789abcdefghij', gemini: 'AIzaBENCH-GEMINI-0123456789abcdefgh' };
const TOKEN = 'tok-bench-0123456789abcdefghij';
const MODELS = { openai: 'gpt-bench', gemini: 'gemini-bench-flash' } as const;
type Provider = keyof typeof MODELS;
type Mode = 'json' | 'sse';

// A realistic agent request: a few KB of system prompt, one tool, a short observation.
const SYSTEM = `You are pagehand, an agent acting inside a web page. ${'Follow the rules and use the tools. '.repeat(100)}`;
const TOOL = {
  type: 'function',
  function: {
    name: 'click',
    description: 'Click an element by its ref',
    parameters: { type: 'object', properties: { ref: { type: 'integer' } }, required: ['ref'] },
  },
};
const REPLY: FakeScript = { chunks: Array.from({ length: 20 }, (_, i) => `word${i} `) };

function openaiBody(s: FakeScript, stream: boolean): Buffer {
  return Buffer.from(
    JSON.stringify({
      model: MODELS.openai,
      stream,
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: `[12]button "Buy" [13]link "Cart"\n${script(s)}` },
      ],
      tools: [TOOL],
    }),
  );
}

function geminiBody(s: FakeScript): Buffer {
  return Buffer.from(
    JSON.stringify({
      systemInstruction: { parts: [{ text: SYSTEM }] },
      contents: [{ role: 'user', parts: [{ text: `[12]button "Buy" [13]link "Cart"\n${script(s)}` }] }],
      tools: [{ functionDeclarations: [{ name: 'click', description: TOOL.function.description, parametersJsonSchema: TOOL.function.parameters }] }],
      generationConfig: { maxOutputTokens: 8192 },
    }),
  );
}

interface Percentiles {
  ttfbP50: number;
  ttfbP99: number;
  totalP50: number;
  totalP99: number;
}

interface LatencyRow {
  provider: Provider;
  mode: Mode;
  requests: number;
  failed: number;
  direct: Percentiles;
  proxy: Percentiles;
}

interface Target {
  url: URL;
  body: Buffer;
  headers: Record<string, string>;
}

function direct(fake: string, provider: Provider, mode: Mode, s: FakeScript = REPLY): Target {
  if (provider === 'openai') {
    return {
      url: new URL(`${fake}/openai/v1/chat/completions`),
      body: openaiBody(s, mode === 'sse'),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEYS.openai}` },
    };
  }
  const method = mode === 'sse' ? 'streamGenerateContent?alt=sse' : 'generateContent';
  return {
    url: new URL(`${fake}/gemini/v1beta/models/${MODELS.gemini}:${method}`),
    body: geminiBody(s),
    headers: { 'content-type': 'application/json', 'x-goog-api-key': KEYS.gemini },
  };
}

function viaProxy(proxy: string, provider: Provider, mode: Mode, s: FakeScript = REPLY): Target {
  const body = JSON.parse(openaiBody(s, mode === 'sse').toString()) as { model: string };
  body.model = MODELS[provider];
  return {
    url: new URL(`${proxy}/v1/chat/completions`),
    body: Buffer.from(JSON.stringify(body)),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
  };
}

const send = (agent: http.Agent, t: Target, keepBody = false): Promise<Timed> => timedRequest(agent, t.url, t.body, t.headers, keepBody);

/** A streamed answer is whole when it ends with [DONE] and carries no error event. */
function streamOk(r: Timed): boolean {
  return r.status === 200 && !r.error && r.body.trimEnd().endsWith('data: [DONE]') && !r.body.includes('"error"');
}

async function main(): Promise<void> {
  const fakeProc = await startChild(ROOT, 'bench/lib/proxy-fake-server.ts', {}, /"origin":"(http:\/\/127\.0\.0\.1:\d+)"/);
  const fake = fakeProc.match[1]!;
  const proxyProc = await startChild(
    ROOT,
    'server/node.ts',
    {
      PORT: '0',
      OPENAI_API_KEY: KEYS.openai,
      OPENAI_BASE_URL: `${fake}/openai/v1`,
      GEMINI_API_KEY: KEYS.gemini,
      GEMINI_BASE_URL: `${fake}/gemini`,
      PAGEHAND_MODELS: `${MODELS.openai},${MODELS.gemini}`,
      PAGEHAND_SITES: JSON.stringify([{ token: TOKEN, origins: ['*'], rpm: 100_000_000, clientRpm: 100_000_000 }]),
    },
    /pagehand proxy on (http:\/\/127\.0\.0\.1:\d+)/,
    [KEYS.openai, KEYS.gemini],
    // Bench-only probe: a full GC and memory figures on demand (see the file).
    ['--expose-gc', '--require', './bench/lib/proxy-gc-probe.cjs'],
  );
  const proxy = proxyProc.match[1]!;
  const pid = proxyProc.child.proc.pid!;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });

  try {
    // — 1. latency —
    const cases: Array<{ provider: Provider; mode: Mode }> = [
      { provider: 'openai', mode: 'json' },
      { provider: 'openai', mode: 'sse' },
      { provider: 'gemini', mode: 'json' },
      { provider: 'gemini', mode: 'sse' },
    ];
    const latency: LatencyRow[] = [];
    for (const c of cases) {
      const d = direct(fake, c.provider, c.mode);
      const p = viaProxy(proxy, c.provider, c.mode);
      for (let i = 0; i < WARMUP; i++) {
        await send(agent, d);
        await send(agent, p);
      }
      const dr: Timed[] = [];
      const pr: Timed[] = [];
      for (let i = 0; i < N; i++) {
        dr.push(await send(agent, d));
        pr.push(await send(agent, p));
      }
      const bad = [...dr, ...pr].filter((r) => r.status !== 200 || r.error).length;
      const stat = (rs: Timed[], k: 'ttfbMs' | 'totalMs', q: number) =>
        percentile(
          rs.map((r) => r[k]),
          q,
        );
      latency.push({
        provider: c.provider,
        mode: c.mode,
        requests: N,
        failed: bad,
        direct: { ttfbP50: stat(dr, 'ttfbMs', 50), ttfbP99: stat(dr, 'ttfbMs', 99), totalP50: stat(dr, 'totalMs', 50), totalP99: stat(dr, 'totalMs', 99) },
        proxy: { ttfbP50: stat(pr, 'ttfbMs', 50), ttfbP99: stat(pr, 'ttfbMs', 99), totalP50: stat(pr, 'totalMs', 50), totalP99: stat(pr, 'totalMs', 99) },
      });
    }
    const added = (l: LatencyRow): Percentiles => ({
      ttfbP50: l.proxy.ttfbP50 - l.direct.ttfbP50,
      ttfbP99: l.proxy.ttfbP99 - l.direct.ttfbP99,
      totalP50: l.proxy.totalP50 - l.direct.totalP50,
      totalP99: l.proxy.totalP99 - l.direct.totalP99,
    });

    // — 2. 200 concurrent streams —
    const slow: FakeScript = { chunks: Array.from({ length: 20 }, (_, i) => `w${i} `), chunkDelayMs: 20 };
    const rssBefore = await rssMiB(pid);
    const sampler = rssSampler(pid);
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: CONCURRENT }, (_, i) => send(agent, viaProxy(proxy, i % 2 ? 'gemini' : 'openai', 'sse', slow), true)),
    );
    const wallMs = performance.now() - started;
    const { peak } = await sampler.stop();
    const errors = results.filter((r) => !streamOk(r));
    const concurrency = {
      streams: CONCURRENT,
      errors: errors.length,
      errorSamples: errors.slice(0, 3).map((r) => `${r.status} ${r.error ?? r.body.slice(-200)}`),
      wallMs,
      rssBeforeMiB: rssBefore,
      peakRssMiB: peak,
    };

    // — 3. RSS across 20k requests —
    const mix: Target[] = [
      viaProxy(proxy, 'openai', 'json'),
      viaProxy(proxy, 'openai', 'sse'),
      viaProxy(proxy, 'gemini', 'json'),
      viaProxy(proxy, 'gemini', 'sse'),
    ];
    type Sample = { requests: number; rssMiB: number; afterGc: AfterGc };
    const sample = async (requests: number): Promise<Sample> => {
      const raw = await rssMiB(pid);
      return { requests, rssMiB: raw, afterGc: await memoryAfterGc(proxyProc.child) };
    };
    const samples: Sample[] = [await sample(0)];
    let next = 0;
    let soakErrors = 0;
    let sampling = Promise.resolve();
    const soakStart = performance.now();
    await Promise.all(
      Array.from({ length: SOAK_IN_FLIGHT }, async () => {
        for (;;) {
          const i = next++;
          if (i >= SOAK) return;
          const r = await send(agent, mix[i % mix.length]!);
          if (r.status !== 200 || r.error) soakErrors++;
          if ((i + 1) % SOAK_SAMPLE_EVERY === 0) {
            sampling = sampling.then(async () => {
              samples.push(await sample(i + 1));
            });
          }
        }
      }),
    );
    await sampling;
    const soakMs = performance.now() - soakStart;
    samples.sort((a, b) => a.requests - b.requests);
    const half = samples.filter((x) => x.requests >= SOAK / 2);
    const per1k = (pick: (x: Sample) => number) =>
      slope(
        half.map((x) => x.requests / 1000),
        half.map(pick),
      );
    const soak = {
      requests: SOAK,
      inFlight: SOAK_IN_FLIGHT,
      errors: soakErrors,
      seconds: soakMs / 1000,
      requestsPerSecond: SOAK / (soakMs / 1000),
      samples,
      secondHalfSlopeMiBPer1k: {
        rss: per1k((x) => x.rssMiB),
        rssAfterGc: per1k((x) => x.afterGc.rssMiB),
        heapUsedAfterGc: per1k((x) => x.afterGc.heapUsedMiB),
      },
    };

    const bars = {
      addedTtfbP50AtMost3ms: latency.every((l) => added(l).ttfbP50 <= 3),
      zeroErrorsAt200Streams: concurrency.errors === 0,
      // Flat = the live heap does not grow and RSS after a full GC does not either. Raw RSS is
      // reported too, but V8 grows its heap lazily between collections, so it drifts on its own.
      // Growth is what matters: a shrinking heap is no leak.
      memoryFlat: soak.secondHalfSlopeMiBPer1k.heapUsedAfterGc < 0.1 && soak.secondHalfSlopeMiBPer1k.rssAfterGc < 0.5,
      noKeyInProxyOutput: !proxyProc.child.leaked(),
    };

    // — report —
    const latencyRows = latency.map((l) => {
      const a = added(l);
      return [
        `${l.provider} ${l.mode}`,
        ms(l.direct.ttfbP50),
        ms(l.proxy.ttfbP50),
        ms(a.ttfbP50),
        ms(a.ttfbP99),
        ms(l.direct.totalP50),
        ms(l.proxy.totalP50),
        ms(a.totalP50),
        ms(a.totalP99),
        l.failed,
      ];
    });
    console.log(`\nProxy latency on Node — ${N} requests per case, ms (${cpus().length} cores, ${process.version})\n`);
    console.log(
      table(
        [
          'case',
          'direct TTFB p50',
          'proxy TTFB p50',
          'added TTFB p50',
          'added TTFB p99',
          'direct total p50',
          'proxy total p50',
          'added total p50',
          'added total p99',
          'failed',
        ],
        latencyRows,
      ),
    );
    console.log(`\n${CONCURRENT} concurrent streams (20 chunks, 20 ms apart)\n`);
    console.log(
      table(
        ['streams', 'errors', 'wall ms', 'RSS before MiB', 'peak RSS MiB'],
        [[concurrency.streams, concurrency.errors, ms(wallMs), rssBefore.toFixed(1), peak.toFixed(1)]],
      ),
    );
    if (errors.length) console.log(concurrency.errorSamples.join('\n'));
    console.log(`\nRSS across ${SOAK} requests (${SOAK_IN_FLIGHT} in flight, ${soak.requestsPerSecond.toFixed(0)} req/s, ${soakErrors} errors)\n`);
    console.log(
      table(
        ['requests', 'RSS MiB', 'RSS after full GC', 'live heap after GC'],
        samples.map((x) => [x.requests, x.rssMiB.toFixed(1), x.afterGc.rssMiB.toFixed(1), x.afterGc.heapUsedMiB.toFixed(1)]),
      ),
    );
    const sl = soak.secondHalfSlopeMiBPer1k;
    console.log(
      `slope over the second half, MiB per 1,000 requests: RSS ${sl.rss.toFixed(3)}, RSS after GC ${sl.rssAfterGc.toFixed(3)}, live heap ${sl.heapUsedAfterGc.toFixed(3)}`,
    );
    console.log('\nBars');
    console.log(
      table(
        ['bar', 'result'],
        [
          ['p50 added TTFB ≤ 3 ms (every case)', bars.addedTtfbP50AtMost3ms ? 'pass' : 'FAIL'],
          ['0 errors at 200 concurrent streams', bars.zeroErrorsAt200Streams ? 'pass' : 'FAIL'],
          ['memory flat (growth after GC: heap < 0.1, RSS < 0.5 MiB/1k)', bars.memoryFlat ? 'pass' : 'FAIL'],
          ['no API key in the proxy output', bars.noKeyInProxyOutput ? 'pass' : 'FAIL'],
        ],
      ),
    );

    await mkdir(`${ROOT}bench/results`, { recursive: true });
    await writeFile(
      `${ROOT}bench/results/proxy.json`,
      `${JSON.stringify(
        {
          date: new Date().toISOString(),
          machine: { cores: cpus().length, node: process.version },
          latency: latency.map((l) => ({ ...l, added: added(l) })),
          concurrency,
          soak,
          bars,
        },
        null,
        2,
      )}\n`,
    );
    console.log('\nwrote bench/results/proxy.json');
    if (!Object.values(bars).every(Boolean)) process.exitCode = 1;
  } finally {
    agent.destroy();
    await proxyProc.child.stop();
    await fakeProc.child.stop();
  }
}

await main();
