/**
 * `npm run bench:actions` — what one action costs the page, excluding settle waiting.
 *
 * On a generated 5k-element page (bench/lib/generate-page.ts, the page-map bench's page) with a
 * small panel of action targets added, it runs 100 calls of each action type through
 * `pagehand.act` (dist/pagehand.js, injected after load as a bookmarklet is) and records, per
 * call, `timing.totalMs − timing.settleMs`: validation, ref re-validation, actionability (incl.
 * the one-animation-frame stable-box check), event dispatch, before/after snapshots and the
 * result. The page's own reaction time and the settle quiet window are not counted.
 *
 * Bar: median ≤ 20 ms for every action type. Prints a table; writes bench/results/actions.json.
 * Launches Chromium: run as `flock /tmp/pagehand-chromium.lock npm run bench:actions`.
 */
import { chromium, type Page } from 'playwright-core';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { generatePage } from './lib/generate-page';
import { servePages } from './lib/serve-pages';
import { median } from './lib/stats';
import { renderTable } from './lib/table';

const root = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS) || 100;
const BAR_MS = 20;
const ELEMENTS = 5_000;
const VIEWPORT = { width: 1280, height: 800 };
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Targets for every action, fixed at the top of the page, with handlers that change the DOM. */
const PANEL = `
<section id="bench-panel" aria-label="Bench panel" style="position:relative;z-index:5;background:#fff;padding:6px">
  <button id="b-toggle" aria-pressed="false">Toggle</button>
  <label for="b-text">Bench text</label><input id="b-text">
  <label for="b-select">Bench select</label>
  <select id="b-select"><option>One</option><option>Two</option><option>Three</option></select>
  <span id="b-hover" role="button" tabindex="0">Hover me</span>
  <canvas id="b-canvas" width="200" height="40" style="border:1px solid"></canvas>
  <output id="b-out"></output>
</section>
<script>
  const out = document.getElementById('b-out');
  document.getElementById('b-toggle').addEventListener('click', (e) => {
    const b = e.currentTarget; b.setAttribute('aria-pressed', String(b.getAttribute('aria-pressed') !== 'true'));
  });
  document.getElementById('b-text').addEventListener('input', (e) => (out.textContent = e.target.value));
  document.getElementById('b-hover').addEventListener('mouseenter', () => (out.textContent = 'hovered'));
  document.getElementById('b-canvas').addEventListener('click', (e) => (out.textContent = e.offsetX + ',' + e.offsetY));
</script>`;

interface Sample {
  overhead: number;
  settle: number;
  ok: boolean;
  message: string;
}

type Step = (i: number, refs: Record<string, string>) => { name: string; args: Record<string, unknown> };

const STEPS: Record<string, Step> = {
  click: (_i, r) => ({ name: 'click', args: { ref: r.toggle } }),
  type: (i, r) => ({ name: 'type', args: { ref: r.text, text: `hello ${i}` } }),
  clear: (_i, r) => ({ name: 'clear', args: { ref: r.text } }),
  select_option: (i, r) => ({ name: 'select_option', args: { ref: r.select, option: ['One', 'Two', 'Three'][i % 3] } }),
  hover: (i, r) => ({ name: 'hover', args: { ref: i % 2 ? r.hover : r.toggle } }),
  press_key: (_i, r) => ({ name: 'press_key', args: { key: 'Tab', ref: r.text } }),
  scroll: (i) => ({ name: 'scroll', args: { direction: i % 2 ? 'up' : 'down' } }),
  scroll_to: (i, r) => ({ name: 'scroll_to', args: { ref: i % 2 ? r.far : r.toggle } }),
  click_at: () => ({ name: 'click_at', args: { x: 0.3, y: 0.05 } }),
  read: (i) => ({ name: 'read', args: { page: (i % 3) + 1 } }),
};

async function refsOf(page: Page): Promise<Record<string, string>> {
  // Plain data in, lookups out here: functions defined inside evaluate() would pick up the
  // runner's name helpers, which do not exist in the page.
  const els: Array<{ ref: string; name: string; role: string }> = await page.evaluate(() =>
    (window as any).pagehand.map({ maxTokens: 100_000, nearScreens: 100 }).elements.map((e: any) => ({ ref: e.ref, name: e.name, role: e.role })),
  );
  const find = (role: string, name: string): string => {
    const hit = els.find((e) => e.role === role && e.name === name);
    if (!hit) throw new Error(`bench page: no ${role} "${name}" in the map`);
    return hit.ref;
  };
  return {
    toggle: find('button', 'Toggle'),
    text: find('textbox', 'Bench text'),
    select: find('combobox', 'Bench select'),
    hover: find('button', 'Hover me'),
    far: els[els.length - 1]!.ref,
  };
}

async function run(page: Page, step: Step, refs: Record<string, string>, i: number): Promise<Sample> {
  const call = step(i, refs);
  return page.evaluate(async (c) => {
    const r = await (window as any).pagehand.act(c);
    return { overhead: r.timing.totalMs - r.timing.settleMs, settle: r.timing.settleMs, ok: r.ok, message: r.message };
  }, call);
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

async function main(): Promise<void> {
  const gen = generatePage({ targetElements: ELEMENTS, seed: 20_240_602, framePath: '/frame.html' });
  const html = gen.html.replace(/<body[^>]*>/, (m) => `${m}${PANEL}`);
  const server = await servePages(new Map([['/page.html', html], ['/frame.html', gen.frameHtml]]));
  const bundle = await readFile(`${root}dist/pagehand.js`, 'utf8');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const results: Record<string, { median: number; p95: number; max: number; settleMedian: number; failures: number; firstFailure?: string }> = {};
  let elements = 0;
  try {
    const page = await browser.newPage({ viewport: VIEWPORT });
    await page.goto(`${server.origin}/page.html`);
    await page.addScriptTag({ content: bundle });
    elements = await page.evaluate(() => document.getElementsByTagName('*').length);
    for (const [name, step] of Object.entries(STEPS)) {
      // Refs are taken fresh per action type (as the model would after observing), then reused.
      await page.evaluate(() => window.scrollTo(0, 0));
      const refs = await refsOf(page);
      for (let i = 0; i < 5; i++) await run(page, step, refs, i); // warm-up
      const samples: Sample[] = [];
      for (let i = 0; i < RUNS; i++) samples.push(await run(page, step, refs, i));
      const oh = samples.map((s) => s.overhead);
      const bad = samples.filter((s) => !s.ok);
      results[name] = {
        median: median(oh),
        p95: quantile(oh, 0.95),
        max: Math.max(...oh),
        settleMedian: median(samples.map((s) => s.settle)),
        failures: bad.length,
        ...(bad[0] ? { firstFailure: bad[0].message } : {}),
      };
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const rows = Object.entries(results).map(([name, r]) => [
    name,
    r.median.toFixed(1),
    r.p95.toFixed(1),
    r.max.toFixed(1),
    r.settleMedian.toFixed(0),
    r.failures,
    r.median <= BAR_MS ? 'pass' : 'FAIL',
  ]);
  console.log(`pagehand actions on a ${ELEMENTS}-element page (${elements} in the main document), ${RUNS} calls per action (overhead = total − settle wait, ms)\n`);
  console.log(
    renderTable(
      [{ header: 'action' }, { header: 'median', align: 'right' }, { header: 'p95', align: 'right' }, { header: 'max', align: 'right' }, { header: 'settle median', align: 'right' }, { header: 'failed', align: 'right' }, { header: `≤ ${BAR_MS} ms` }],
      rows,
    ),
  );
  const pass = Object.values(results).every((r) => r.median <= BAR_MS && r.failures === 0);
  for (const [name, r] of Object.entries(results)) if (r.firstFailure) console.log(`\n${name} failed ${r.failures}×: ${r.firstFailure}`);
  console.log(`\nbar: median ≤ ${BAR_MS} ms per action type, no failures → ${pass ? 'PASS' : 'FAIL'}`);
  await mkdir(`${root}bench/results`, { recursive: true });
  await writeFile(
    `${root}bench/results/actions.json`,
    `${JSON.stringify({ date: new Date().toISOString(), cpus: cpus().length, elements, runs: RUNS, barMs: BAR_MS, pass, actions: results }, null, 2)}\n`,
  );
  if (!pass) process.exitCode = 1;
}

await main();
