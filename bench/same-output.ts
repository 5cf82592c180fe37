/**
 * `BENCH_BASE=<git ref> tsx bench/same-output.ts` — whether a change that should only make the
 * map or the step cheaper left what they say alone: the bundle built from this tree and from the
 * base ref's tree, side by side in one Chromium.
 *
 * 1. The map's text (`pagehand.map()` and the sliced `pagehand.mapAsync()`) of bench:loop's 5k
 *    page and of the map, adversarial and action fixtures (tests/fixtures/{map,adversarial,actions}),
 *    each in a fresh tab per bundle. A page whose text differs between two loads with the same
 *    bundle (a clock, a random id) is reported as unsteady, not as a difference.
 * 2. bench:loop's run on the 5k page (BENCH_STEPS steps, 8 by default): every event the run
 *    emits and every request body the model gets, timings left out.
 *
 * Prints the differences and exits 1 if there is any. Launches Chromium.
 */
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleOptions } from '../build';
import { startStaticServer } from '../tests/browser/static-server';
import { startModelStack } from './lib/model-stack';
import { serveLoopPage } from './lib/loop-page';

const root = fileURLToPath(new URL('..', import.meta.url));
const BASE = process.env.BENCH_BASE ?? 'HEAD';
const STEPS = Number(process.env.BENCH_STEPS) || 8;
const MODEL = 'gpt-test';

async function bundleOf(dir: string): Promise<string> {
  const out = await build({ ...bundleOptions, absWorkingDir: dir, nodePaths: [join(root, 'node_modules')], write: false, outfile: 'pagehand.js' });
  return out.outputFiles[0]!.text;
}

async function treeAt(ref: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pagehand-same-output-'));
  const tar = execFileSync('git', ['archive', ref, 'client', 'common', 'tsconfig.json', 'package.json'], { cwd: root, maxBuffer: 1 << 28 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  return dir;
}

/** Timings and ids differ from run to run: left out of what is compared. */
const VARYING = /^(timing|ms|startedAt|endedAt|created|at|id|runId|elapsedMs|durationMs)$/;
const steady = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(steady)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([k]) => !VARYING.test(k))
            .map(([k, x]) => [k, steady(x)]),
        )
      : v;

/** Where two texts part, with a little context. */
function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const at = Math.max(0, i - 200);
  return `--- base\n…${a.slice(at, i + 200)}\n--- now\n…${b.slice(at, i + 200)}`;
}

async function main(): Promise<void> {
  const baseDir = await treeAt(BASE);
  const [now, base] = await Promise.all([bundleOf(root), bundleOf(baseDir)]);
  await rm(baseDir, { recursive: true, force: true });
  const statics = await startStaticServer();
  const pages = await serveLoopPage();
  const stack = await startModelStack('same-output', MODEL);
  const browser: Browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox'] });
  const differences: string[] = [];
  try {
    const urls = [`${pages.origin}/5k.html`];
    for (const folder of ['map', 'adversarial', 'actions'])
      for (const f of readdirSync(join(root, 'tests/fixtures', folder)).sort()) if (f.endsWith('.html')) urls.push(`${statics.origin}/fixtures/${folder}/${f}`);

    const mapsOf = async (url: string, script: string): Promise<string> => {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      try {
        const page = await ctx.newPage();
        await page.goto(url);
        await page.addScriptTag({ content: script });
        return await page.evaluate(async () => {
          const ph = (window as any).pagehand;
          return `${ph.map().text}\n---\n${(await ph.mapAsync()).text}`;
        });
      } finally {
        await ctx.close();
      }
    };
    let same = 0;
    const unsteady: string[] = [];
    for (const url of urls) {
      const a = await mapsOf(url, base);
      const b = await mapsOf(url, now);
      if (a === b) same++;
      else if ((await mapsOf(url, base)) !== a) unsteady.push(url);
      else differences.push(`map of ${url}:\n${firstDifference(a, b)}`);
    }
    console.log(`maps: ${same} of ${urls.length} pages the same${unsteady.length ? `; unsteady with either bundle: ${unsteady.join(', ')}` : ''}`);

    // The loop: events and model requests.
    stack.setPolicy((req) => {
      const user = req.messages
        .filter((m) => m.role === 'user')
        .map((m) => m.text)
        .join('\n');
      const ref = /\[((?:f\d+:)?\d+)\]button "Add one"/.exec(user)?.[1];
      return ref ? { toolCalls: [{ name: 'click', args: { ref } }] } : { toolCalls: [{ name: 'scroll', args: { direction: 'up', pages: 20 } }] };
    });
    const runOf = async (script: string): Promise<string[]> => {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      try {
        const page = await ctx.newPage();
        await page.goto(`${pages.origin}/5k.html`);
        await page.addScriptTag({ content: script });
        const from = stack.fake.modelRequests().length;
        const events = await page.evaluate(
          ({ proxy, token, steps, model }) =>
            new Promise<unknown[]>((resolve) => {
              const log: unknown[] = [];
              const h = (window as any).pagehand.run('Click "Add one" again and again', { proxy, token, model, maxSteps: steps, ui: false });
              for (const name of ['step', 'action', 'thinking', 'usage', 'error']) h.on(name, (e: unknown) => log.push({ [name]: e }));
              h.on('done', (e: unknown) => resolve([...log, { done: e }]));
            }),
          { proxy: stack.proxy.url, token: stack.proxy.personalToken!, steps: STEPS, model: MODEL },
        );
        const requests = stack.fake.modelRequests().slice(from);
        const all = [...events, ...requests.map((r) => ({ request: r.body }))].map((e) => JSON.stringify(steady(e)));
        // The run's marker value (the fence around page content) is random: the same word in both.
        const marker = all.map((e) => /⟪page content ([0-9a-f]+)⟫/.exec(e)?.[1]).find(Boolean);
        return marker ? all.map((e) => e.replaceAll(marker, 'MARKER')) : all;
      } finally {
        await ctx.close();
      }
    };
    const a = await runOf(base);
    const b = await runOf(now);
    const diff = a.map((x, i) => (x === b[i] ? '' : `#${i}\n${firstDifference(x, b[i] ?? '')}`)).filter(Boolean);
    if (a.length !== b.length) diff.push(`${a.length} entries in the base's run, ${b.length} in this tree's`);
    console.log(`loop: ${a.length} events and requests over ${STEPS} steps, ${diff.length ? `${diff.length} different` : 'all the same'}`);
    differences.push(...diff);
  } finally {
    await browser.close();
    await pages.close();
    await statics.close();
    await stack.close();
  }
  for (const d of differences) console.log(`\n${d}`);
  if (differences.length) process.exitCode = 1;
}

await main();
