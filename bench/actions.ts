/**
 * `npm run bench:actions` — what one action costs the page, excluding settle waiting.
 *
 * On a generated 5k-element page (bench/lib/generate-page.ts, the page-map bench's page) with a
 * small panel of action targets added, it runs 100 calls of each action type through
 * `pagehand.act` (dist/pagehand.js, injected after load as a bookmarklet is) and records, per
 * call, `timing.totalMs − timing.settleMs`: validation, ref re-validation, actionability (incl.
 * the one-animation-frame stable-box check), event dispatch, before/after snapshots and the
 * result. The after-snapshot is taken ahead while the page is quiet inside the settle wait
 * (client/page/actions/snapshot-reuse.ts): then the settle column holds its cost, and the total
 * column shows what that saves. The page's own reaction time and the settle quiet window are not counted.
 *
 * Peer: page-agent (@page-agent/page-controller, bundled at bench time by
 * bench/lib/peer-page-agent.ts), in its own fresh tab of the same Chromium on the same page, runs
 * the same calls for the action types it has (click → clickElement, type → inputText,
 * select_option → selectOption, scroll → scroll; the rest are "—"), after its own indexing step
 * (getBrowserState, untimed, like pagehand's map; its highlight overlays are then removed so both
 * tools act on the same page). Its action methods await fixed sleeps of their
 * own; bench/lib/actions-peer-probe.ts times those and reports the call both with them
 * subtracted ("active", the figure comparable to pagehand's) and whole.
 *
 * `click_accordion` clicks a button whose panel opens (or closes) with a 400 ms script animation:
 * its settle median shows settle waiting for the motion; the other rows' settle medians, on a
 * page where nothing moves, show what settle waits without it.
 *
 * Bar: median ≤ 20 ms for every pagehand action type. Prints tables with the ratios
 * (page-agent / pagehand); writes bench/results/actions.json.
 * Launches Chromium: run as `flock /tmp/pagehand-chromium.lock npm run bench:actions`.
 */
import { chromium, type Page } from 'playwright-core';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { PeerCall, PeerSample } from './lib/actions-peer-probe';
import { bundleForPage } from './lib/bundle-for-page';
import { generatePage } from './lib/generate-page';
import { loadPageAgentPeer } from './lib/peer-page-agent';
import { servePages } from './lib/serve-pages';
import { median } from './lib/stats';
import { renderTable } from './lib/table';

const root = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS) || 100;
const BAR_MS = 20;
const ELEMENTS = 5_000;
const VIEWPORT = { width: 1280, height: 800 };
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

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
  <button id="b-details" aria-expanded="false">Bench details</button>
  <div id="b-panel" style="overflow:hidden;height:0"><a href="#b-more">More details</a></div>
</section>
<script>
  const out = document.getElementById('b-out');
  document.getElementById('b-toggle').addEventListener('click', (e) => {
    const b = e.currentTarget; b.setAttribute('aria-pressed', String(b.getAttribute('aria-pressed') !== 'true'));
  });
  document.getElementById('b-text').addEventListener('input', (e) => (out.textContent = e.target.value));
  document.getElementById('b-hover').addEventListener('mouseenter', () => (out.textContent = 'hovered'));
  document.getElementById('b-canvas').addEventListener('click', (e) => (out.textContent = e.offsetX + ',' + e.offsetY));
  // An accordion that opens and closes with a 400 ms script animation (inline height per frame).
  document.getElementById('b-details').addEventListener('click', (e) => {
    const b = e.currentTarget, p = document.getElementById('b-panel');
    const open = b.getAttribute('aria-expanded') !== 'true';
    b.setAttribute('aria-expanded', String(open));
    const from = p.offsetHeight, to = open ? 40 : 0, t0 = performance.now();
    requestAnimationFrame(function step(t) {
      const k = Math.min(1, Math.max(0, (t - t0) / 400));
      p.style.height = from + (to - from) * k + 'px';
      if (k < 1) requestAnimationFrame(step);
    });
  });
</script>`;

interface Sample {
  overhead: number;
  settle: number;
  total: number;
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
  // Settle on motion: the click's own cost as above; its settle waits out the 400 ms animation.
  click_accordion: (_i, r) => ({ name: 'click', args: { ref: r.details } }),
};

/** page-agent's config: its defaults, as bench:map's "page-agent" column. */
const PEER_CONFIG: Record<string, unknown> = {};
/** pagehand's scroll "page" is 0.9 viewport heights; page-agent's numPages counts whole ones. */
const PAGEHAND_SCROLL_PAGE = 0.9;

/**
 * page-agent's counterpart of a pagehand action, built from the same arguments. Missing: it has
 * no such action (no clear — it would retype "" through input_text —, hover, keys, scroll to an
 * element, click at a point, or paged reading).
 */
const PEER_CALLS: Partial<Record<keyof typeof STEPS, (args: Record<string, unknown>) => PeerCall>> = {
  click: () => ({ kind: 'click' }),
  type: (a) => ({ kind: 'type', text: String(a.text) }),
  select_option: (a) => ({ kind: 'select_option', option: String(a.option) }),
  scroll: (a) => ({ kind: 'scroll', down: a.direction === 'down', numPages: PAGEHAND_SCROLL_PAGE }),
};
/** The arguments PEER_CALLS reads do not involve refs. */
const NO_REFS: Record<string, string> = {};

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
    details: find('button', 'Bench details'),
    far: els[els.length - 1]!.ref,
  };
}

async function run(page: Page, step: Step, refs: Record<string, string>, i: number): Promise<Sample> {
  const call = step(i, refs);
  return page.evaluate(async (c) => {
    const r = await (window as any).pagehand.act(c);
    return { overhead: r.timing.totalMs - r.timing.settleMs, settle: r.timing.settleMs, total: r.timing.totalMs, ok: r.ok, message: r.message };
  }, call);
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

interface PagehandResult {
  median: number;
  p95: number;
  max: number;
  settleMedian: number;
  /** Median of the whole call, settle wait included. */
  totalMedian: number;
  failures: number;
  firstFailure?: string;
}

interface PeerResult {
  /** Wall time minus page-agent's own fixed sleeps: the figure comparable to pagehand's median. */
  activeMedian: number;
  activeP95: number;
  activeMax: number;
  /** Wall time, fixed sleeps included. */
  totalMedian: number;
  /** Fixed sleeps each call awaited (median count, nominal and measured ms). */
  sleeps: number;
  sleepNominalMs: number;
  sleptMedian: number;
  failures: number;
  firstFailure?: string;
}

/** pagehand: one tab, every action type, refs taken fresh per type. */
async function measurePagehand(page: Page, bundle: string): Promise<Record<string, PagehandResult>> {
  await page.addScriptTag({ content: bundle });
  const results: Record<string, PagehandResult> = {};
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
      totalMedian: median(samples.map((s) => s.total)),
      failures: bad.length,
      ...(bad[0] ? { firstFailure: bad[0].message } : {}),
    };
  }
  return results;
}

/**
 * page-agent: its own fresh tab, the action types it has. It indexes the page once: its indices
 * hold direct element references, which stay valid since the panel's elements are never replaced.
 */
async function measurePeer(page: Page, scripts: { peer: string; probe: string }): Promise<Record<string, PeerResult>> {
  await page.addScriptTag({ content: scripts.peer });
  await page.addScriptTag({ content: scripts.probe });
  await page.evaluate((config) => window.__actionsPeer!.setup(config), PEER_CONFIG);
  await page.evaluate(() => window.__actionsPeer!.observe());
  const results: Record<string, PeerResult> = {};
  for (const [name, toPeer] of Object.entries(PEER_CALLS)) {
    if (!toPeer) continue;
    const call = (i: number): PeerCall => toPeer(STEPS[name]!(i, NO_REFS).args);
    await page.evaluate(() => window.scrollTo(0, 0));
    for (let i = 0; i < 5; i++) await page.evaluate((c) => window.__actionsPeer!.run(c), call(i)); // warm-up
    const samples: PeerSample[] = [];
    for (let i = 0; i < RUNS; i++) samples.push(await page.evaluate((c) => window.__actionsPeer!.run(c), call(i)));
    const active = samples.map((s) => s.activeMs);
    const bad = samples.filter((s) => !s.ok);
    results[name] = {
      activeMedian: median(active),
      activeP95: quantile(active, 0.95),
      activeMax: Math.max(...active),
      totalMedian: median(samples.map((s) => s.totalMs)),
      sleeps: median(samples.map((s) => s.sleeps)),
      sleepNominalMs: median(samples.map((s) => s.sleepNominalMs)),
      sleptMedian: median(samples.map((s) => s.sleptMs)),
      failures: bad.length,
      ...(bad[0] ? { firstFailure: bad[0].message } : {}),
    };
  }
  return results;
}

const fmt = (ms: number): string => ms.toFixed(1);
const ratio = (peer: number, own: number): string => `${(peer / own).toFixed(peer / own < 10 ? 2 : 0)}×`;

async function main(): Promise<void> {
  const startedAt = performance.now();
  const gen = generatePage({ targetElements: ELEMENTS, seed: 20_240_602, framePath: '/frame.html' });
  const html = gen.html.replace(/<body[^>]*>/, (m) => `${m}${PANEL}`);
  const server = await servePages(
    new Map([
      ['/page.html', html],
      ['/frame.html', gen.frameHtml],
    ]),
  );
  const [bundle, peer, probe] = await Promise.all([
    readFile(`${root}dist/pagehand.js`, 'utf8'),
    loadPageAgentPeer(),
    bundleForPage({ name: 'actions-peer-probe', entry: 'bench/lib/actions-peer-probe.ts' }),
  ]);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  let results: Record<string, PagehandResult>;
  let peerResults: Record<string, PeerResult>;
  let elements: number;
  try {
    // Each tool gets its own freshly loaded tab: neither sees the other's DOM side effects.
    const page = await browser.newPage({ viewport: VIEWPORT });
    await page.goto(`${server.origin}/page.html`);
    elements = await page.evaluate(() => document.getElementsByTagName('*').length);
    results = await measurePagehand(page, bundle);
    await page.close();
    const peerPage = await browser.newPage({ viewport: VIEWPORT });
    await peerPage.goto(`${server.origin}/page.html`);
    peerResults = await measurePeer(peerPage, { peer: peer.source, probe });
    await peerPage.close();
  } finally {
    await browser.close();
    await server.close();
  }

  const rows = Object.entries(results).map(([name, r]) => [
    name,
    fmt(r.median),
    fmt(r.p95),
    fmt(r.max),
    r.settleMedian.toFixed(0),
    r.failures,
    r.median <= BAR_MS ? 'pass' : 'FAIL',
  ]);
  console.log(
    `pagehand actions on a ${ELEMENTS}-element page (${elements} in the main document), ${RUNS} calls per action (overhead = total − settle wait, ms)\n`,
  );
  console.log(
    renderTable(
      [
        { header: 'action' },
        { header: 'median', align: 'right' },
        { header: 'p95', align: 'right' },
        { header: 'max', align: 'right' },
        { header: 'settle median', align: 'right' },
        { header: 'failed', align: 'right' },
        { header: `≤ ${BAR_MS} ms` },
      ],
      rows,
    ),
  );

  const NA = '—';
  const peerRows = Object.entries(results).map(([name, r]) => {
    const p = peerResults[name];
    if (!p) return [name, fmt(r.median), NA, NA, fmt(r.totalMedian), NA, NA, NA, NA];
    const sleeps = p.sleeps ? `${p.sleeps} × ${p.sleepNominalMs} ms` : 'none';
    return [
      name,
      fmt(r.median),
      fmt(p.activeMedian),
      ratio(p.activeMedian, r.median),
      fmt(r.totalMedian),
      fmt(p.totalMedian),
      ratio(p.totalMedian, r.totalMedian),
      sleeps,
      p.failures,
    ];
  });
  console.log(
    `\npagehand vs page-agent ${peer.version} (@page-agent/page-controller, default config), same page, own fresh tab each, ${RUNS} calls per action; medians in ms, ratio = page-agent / pagehand\n`,
  );
  console.log(
    renderTable(
      [
        { header: 'action' },
        { header: 'pagehand', align: 'right' },
        { header: 'page-agent', align: 'right' },
        { header: 'ratio', align: 'right' },
        { header: 'pagehand total', align: 'right' },
        { header: 'page-agent total', align: 'right' },
        { header: 'total ratio', align: 'right' },
        { header: 'page-agent fixed sleeps' },
        { header: 'page-agent failed', align: 'right' },
      ],
      peerRows,
    ),
  );
  console.log(`
What the numbers include:
  pagehand          total − settle wait: argument validation, ref re-validation, actionability (incl. one
                    animation frame of waiting for a stable box), event dispatch, the before snapshot, the
                    after snapshot unless taken while the page was quiet inside the settle wait (then the
                    wait holds its cost, and the total shows the saving), the result message.
  page-agent        wall time − its own fixed sleeps: index lookup, scroll into view, its hit test, event
                    dispatch or value set, the result message. It takes no before/after look at the page. The
                    sleeps are awaited inside its action methods (not configurable, not skippable); they run
                    as in page-agent, and the time spent in them is measured and subtracted.
  pagehand total    the whole act() call, incl. the settle wait (ends once the page has been quiet briefly).
  page-agent total  the whole call, incl. its fixed sleeps (page-agent has no settle step; what an agent
                    loop waits between steps is outside both).
  —                 page-agent has no such action (clear would be input_text with "").
  page-agent failed the call reported failure, or the panel did not show its effect (checked after the clock).
Not counted for either: the indexing step (pagehand map per action type, page-agent getBrowserState once; its
highlight overlays are removed again so both act on the same page), and page work after the call returns.`);

  const pass = Object.values(results).every((r) => r.median <= BAR_MS && r.failures === 0);
  for (const [name, r] of Object.entries(results)) if (r.firstFailure) console.log(`\npagehand ${name} failed ${r.failures}×: ${r.firstFailure}`);
  for (const [name, r] of Object.entries(peerResults)) if (r.firstFailure) console.log(`\npage-agent ${name} failed ${r.failures}×: ${r.firstFailure}`);
  console.log(`\nbar: pagehand median ≤ ${BAR_MS} ms per action type, no failures → ${pass ? 'PASS' : 'FAIL'}`);
  console.log(`(run took ${((performance.now() - startedAt) / 1000).toFixed(0)} s)`);

  const ratios = Object.fromEntries(
    Object.entries(peerResults).map(([name, p]) => [
      name,
      { active: p.activeMedian / results[name]!.median, total: p.totalMedian / results[name]!.totalMedian },
    ]),
  );
  await mkdir(`${root}bench/results`, { recursive: true });
  await writeFile(
    `${root}bench/results/actions.json`,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        cpus: cpus().length,
        elements,
        runs: RUNS,
        barMs: BAR_MS,
        pass,
        actions: results,
        peer: {
          tool: 'page-agent',
          package: '@page-agent/page-controller',
          version: peer.version,
          config: PEER_CONFIG,
          measures: {
            active: 'wall time minus the fixed sleeps page-agent awaits inside its action methods',
            total: 'wall time of the call, fixed sleeps included',
          },
          unsupported: Object.keys(STEPS).filter((name) => !(name in PEER_CALLS)),
          actions: peerResults,
          ratios,
        },
      },
      null,
      2,
    )}\n`,
  );
  if (!pass) process.exitCode = 1;
}

await main();
