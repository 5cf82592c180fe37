/**
 * `npm run bench:snapshot` — pagehand.screenshot against html-to-image unfiltered, in one run.
 *
 * On generated pages of ~3k and ~30k elements (bench/lib/generate-page.ts) at a 1280×800
 * viewport, scroll 0, it measures per tool: median and max wall time, and median main-thread CPU time, of 5 captures after one
 * warm-up (the first warm-up also imports pagehand's screenshot module), the JPEG size, and the
 * longest main-thread task while capturing (PerformanceObserver longtask in the page).
 *
 *   pagehand     `pagehand.screenshot()` (defaults: JPEG 0.75, long side ≤ 1280), the bundle and
 *                its screenshot module loaded by URL as a bookmarklet does
 *   unfiltered   html-to-image `toJpeg(document.documentElement, { width, height, quality: 0.75 })`
 *                — the same library on the same viewport with no filter: the reference
 *
 * A reference call over REF_TIMEOUT_MS is terminated (CDP Runtime.terminateExecution) and shown
 * as "> N s". Each (page, tool) pair gets a fresh tab. Writes bench/results/snapshot.json.
 *
 * Layouts: the same ~3k-element list of products as block-flow cards, a table, a three-column
 * grid and a flex column (generateLayoutPage), pagehand only, each in its own tab and captured
 * in turns (LAYOUT_RUNS rounds of cards, table, grid, flex, each round starting one page further
 * on), so the load of a shared machine drifts over all of them alike. Each shows wall time (what a person waits) and main-thread CPU
 * time side by side, and both against the card page's in the same round; bar: each layout
 * within LAYOUT_BAR× of the card page in wall time and in CPU time (the median of the rounds'
 * ratios). `BENCH_ONLY=layouts` runs just those (and writes no results).
 * When other Chromium work runs on the machine: `flock /tmp/pagehand-chromium.lock npm run bench:snapshot`.
 */
import { chromium, type BrowserContext, type CDPSession } from 'playwright-core';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { bundleForPage } from './lib/bundle-for-page';
import { generateLayoutPage, generatePage, LAYOUTS } from './lib/generate-page';
import { servePages } from './lib/serve-pages';
import type { SnapRun } from './lib/snapshot-probe';
import { max, median } from './lib/stats';
import { renderTable, type Cell, type Column } from './lib/table';

const root = fileURLToPath(new URL('..', import.meta.url));
const SIZES = process.env.BENCH_SIZES ? process.env.BENCH_SIZES.split(',').map(Number) : [3_000, 30_000];
const RUNS = 5;
const SEED = 20_240_602;
const VIEWPORT = { width: 1280, height: 800 };
const REF_TIMEOUT_MS = Number(process.env.BENCH_REF_TIMEOUT_MS) || 30_000;
/** pagehand's own budget is raised so the benchmark measures the capture, not the fallback. */
const PAGEHAND_OPTIONS = { timeoutMs: 60_000 };
const BARS: Record<number, number> = { 3_000: 400, 30_000: 600 };
const TASK_BAR_MS = 200;
const LAYOUT_ELEMENTS = 3_000;
/** Every layout's median within this factor of the card page's, in the same run. */
const LAYOUT_BAR = 1.5;
/** Rounds over the layout pages (each round captures every layout once, in turn). */
const LAYOUT_RUNS = 9;
const ONLY_LAYOUTS = process.env.BENCH_ONLY === 'layouts';
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

type Tool = 'pagehand' | 'unfiltered';
interface Cellr {
  tool: Tool;
  runs: SnapRun[];
  warmupMs: number;
  timedOut: boolean;
  medianMs: number;
  maxMs: number;
  bytes: number;
  longestTaskMs: number;
  /** Median main-thread CPU time per call (CDP ThreadTime): what the capture costs on an idle core. */
  cpuMs: number;
  /** Main-thread CPU time of each run, in the order of `runs`. */
  cpuRuns?: number[];
  image?: { width: number; height: number };
  note?: string;
  pageErrors: string[];
}
interface PageResult {
  name: string;
  /** A layout page (generateLayoutPage), measured with pagehand only. */
  layout?: string;
  targetElements: number;
  elements: number;
  cells: Cellr[];
}

declare global {
  interface Window {
    __snap?: { pagehand(o: unknown): Promise<SnapRun>; unfiltered(): Promise<SnapRun> };
  }
}

const log = (s: string): void => void process.stdout.write(s + '\n');
const fmtMs = (ms: number): string => (Number.isNaN(ms) ? '—' : ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`);
const fmtKB = (b: number): string => (b ? `${(b / 1024).toFixed(0)} KB` : '—');

/** Races an in-page call against a deadline; on timeout the page's script is terminated. */
async function withDeadline<T>(cdp: CDPSession, call: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), ms)));
  const winner = await Promise.race([call, deadline]);
  clearTimeout(timer);
  if (winner === 'timeout') {
    call.catch(() => undefined);
    await cdp.send('Runtime.terminateExecution').catch(() => undefined);
  }
  return winner;
}

/** One (page, tool) pair in its own tab, loaded and ready to capture. */
interface OpenCell {
  cell: Cellr;
  elements: number;
  /** One capture; its main-thread CPU time goes to `cpu`. 'timeout': terminated. */
  once(): Promise<SnapRun | 'timeout'>;
  cpu: number[];
  close(): Promise<void>;
}

async function openCell(context: BrowserContext, origin: string, path: string, tool: Tool, probe: string): Promise<OpenCell> {
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  const cell: Cellr = { tool, runs: [], warmupMs: NaN, timedOut: false, medianMs: NaN, maxMs: NaN, bytes: 0, longestTaskMs: 0, cpuMs: NaN, pageErrors };
  await page.goto(`${origin}${path}`, { waitUntil: 'load' });
  // A string, not a function: tsx would wrap a nested named function with a helper the page lacks.
  const elements = await page.evaluate<number>(`(() => {
    let n = 0;
    const count = (r) => {
      for (const el of r.querySelectorAll('*')) {
        n++;
        if (el.shadowRoot) count(el.shadowRoot);
        if (el instanceof HTMLIFrameElement && el.contentDocument) count(el.contentDocument);
      }
    };
    count(document);
    return n;
  })()`);
  if (tool === 'pagehand') await page.addScriptTag({ url: `${origin}/pagehand.js` });
  await page.addScriptTag({ content: probe });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const threadTime = async (): Promise<number> => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime')?.value ?? NaN;
  const cpu: number[] = [];
  const timeout = tool === 'unfiltered' ? REF_TIMEOUT_MS : PAGEHAND_OPTIONS.timeoutMs + 10_000;
  const call = async (): Promise<SnapRun> => {
    const before = await threadTime();
    const r = await (tool === 'pagehand'
      ? page.evaluate((o) => window.__snap!.pagehand(o), PAGEHAND_OPTIONS)
      : page.evaluate(() => window.__snap!.unfiltered()));
    cpu.push((await threadTime()) * 1000 - before * 1000);
    return r;
  };
  return { cell, elements, cpu, once: () => withDeadline(cdp, call(), timeout), close: () => page.close() };
}

/** The warm-up capture (the first also imports pagehand's screenshot module); false when it failed. */
async function warmUp(o: OpenCell): Promise<boolean> {
  const warm = await o.once();
  o.cpu.length = 0;
  if (warm === 'timeout') {
    o.cell.timedOut = true;
    o.cell.note = 'the warm-up was terminated; no runs';
    return false;
  }
  if (warm.reason) throw new Error(warm.reason);
  o.cell.warmupMs = warm.ms;
  return true;
}

/** One more capture into the cell's runs; false when it was terminated. */
async function runOnce(o: OpenCell): Promise<boolean> {
  const r = await o.once();
  if (r === 'timeout') {
    o.cell.timedOut = true;
    o.cell.note = `run ${o.cell.runs.length + 1} was terminated`;
    return false;
  }
  if (r.reason) throw new Error(r.reason);
  o.cell.runs.push(r);
  return true;
}

function summarise(o: OpenCell): void {
  const { cell } = o;
  const ms = cell.runs.map((r) => r.ms);
  cell.medianMs = median(ms);
  cell.maxMs = max(ms);
  cell.bytes = median(cell.runs.map((r) => r.bytes));
  cell.longestTaskMs = Math.max(0, ...cell.runs.map((r) => r.longestTaskMs));
  cell.cpuMs = median(o.cpu);
  cell.cpuRuns = [...o.cpu];
  if (cell.runs[0]) cell.image = { width: cell.runs[0].width, height: cell.runs[0].height };
}

const failed = (cell: Cellr, e: unknown): void => {
  cell.note = `failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`;
};

async function runCell(context: BrowserContext, origin: string, path: string, tool: Tool, probe: string): Promise<{ cell: Cellr; elements: number }> {
  let o: OpenCell | undefined;
  try {
    o = await openCell(context, origin, path, tool, probe);
    if (await warmUp(o)) for (let i = 0; i < RUNS && (await runOnce(o)); i++);
    summarise(o);
    return { cell: o.cell, elements: o.elements };
  } catch (e) {
    const cell = o?.cell ?? {
      tool,
      runs: [],
      warmupMs: NaN,
      timedOut: false,
      medianMs: NaN,
      maxMs: NaN,
      bytes: 0,
      longestTaskMs: 0,
      cpuMs: NaN,
      pageErrors: [],
    };
    failed(cell, e);
    return { cell, elements: 0 };
  } finally {
    await o?.close();
  }
}

/**
 * The layout pages, each in its own tab, captured in turns (cards, table, grid, flex; then table, grid, flex, cards; …):
 * on a shared machine the load drifts over seconds, and one page measured after another would
 * compare the load more than the layouts. Each round's captures are compared with each other.
 */
async function runLayoutCells(
  context: BrowserContext,
  origin: string,
  specs: ReadonlyArray<{ path: string }>,
  probe: string,
): Promise<Array<{ cell: Cellr; elements: number }>> {
  const open: OpenCell[] = [];
  try {
    for (const s of specs) open.push(await openCell(context, origin, s.path, 'pagehand', probe));
    const live = new Set<OpenCell>();
    for (const o of open) {
      try {
        if (await warmUp(o)) live.add(o);
      } catch (e) {
        failed(o.cell, e);
      }
    }
    for (let i = 0; i < LAYOUT_RUNS; i++) {
      // Each round starts one page further on, so no layout always comes first.
      for (const o of [...open.slice(i % open.length), ...open.slice(0, i % open.length)]) {
        if (!live.has(o)) continue;
        try {
          if (!(await runOnce(o))) live.delete(o);
        } catch (e) {
          failed(o.cell, e);
          live.delete(o);
        }
      }
    }
    for (const o of open) summarise(o);
    return open.map((o) => ({ cell: o.cell, elements: o.elements }));
  } finally {
    for (const o of open) await o.close();
  }
}

/** The median over rounds of a layout's time over the card page's in the same round (NaN: no round has both). */
function pairedRatio(xs: readonly number[], cards: readonly number[]): number {
  const n = Math.min(xs.length, cards.length);
  return median(Array.from({ length: n }, (_, i) => xs[i]! / cards[i]!));
}

async function main(): Promise<void> {
  const started = Date.now();
  const loadAtStart = loadavg()[0]!;
  const read = (f: string): Promise<string> =>
    readFile(`${root}dist/${f}`, 'utf8').catch(() => {
      throw new Error(`dist/${f} is missing: run \`npm run build\` first (npm run bench:snapshot does).`);
    });
  const [bundle, module] = await Promise.all([read('pagehand.js'), read('pagehand-screenshot.js')]);
  const probe = await bundleForPage({ name: 'snapshot-probe', entry: 'bench/lib/snapshot-probe.ts' });

  const files = new Map<string, string>([
    ['/pagehand.js', bundle],
    ['/pagehand-screenshot.js', module],
  ]);
  const specs: Array<{ name: string; target: number; path: string; tools: Tool[] }> = ONLY_LAYOUTS
    ? []
    : SIZES.map((n, i) => {
        const path = `/page-${i}.html`;
        const g = generatePage({ targetElements: n, seed: SEED, framePath: `/page-${i}-frame.html` });
        files.set(path, g.html);
        files.set(`/page-${i}-frame.html`, g.frameHtml);
        return { name: `${n / 1000}k`, target: n, path, tools: ['pagehand', 'unfiltered'] };
      });
  const layoutSpecs = LAYOUTS.map((layout) => {
    const path = `/layout-${layout}.html`;
    files.set(path, generateLayoutPage({ layout, targetElements: LAYOUT_ELEMENTS, seed: SEED }).html);
    return { name: layout, target: LAYOUT_ELEMENTS, path, layout };
  });
  const server = await servePages(files);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const chromiumVersion = browser.version();
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.route(
    (url) => !url.href.startsWith(server.origin),
    (r) => r.abort(),
  );

  const results: PageResult[] = [];
  try {
    log(`pagehand screenshot benchmark — Chromium ${chromiumVersion}, ${cpus().length} cores`);
    for (const s of specs) {
      const result: PageResult = { name: s.name, targetElements: s.target, elements: 0, cells: [] };
      for (const tool of s.tools) {
        const t = Date.now();
        const { cell, elements } = await runCell(context, server.origin, s.path, tool, probe);
        result.elements ||= elements;
        result.cells.push(cell);
        log(
          `  ${s.name.padEnd(5)} ${tool.padEnd(10)} ${cell.runs.length ? `median ${fmtMs(cell.medianMs)} over ${cell.runs.length}` : cell.timedOut ? 'timed out' : 'failed'}  (${((Date.now() - t) / 1000).toFixed(1)} s)${cell.note ? `  — ${cell.note}` : ''}`,
        );
        if (cell.pageErrors.length) log(`    page errors: ${cell.pageErrors.slice(0, 3).join(' | ')}`);
      }
      results.push(result);
    }
    const t = Date.now();
    const measured = await runLayoutCells(context, server.origin, layoutSpecs, probe);
    layoutSpecs.forEach((s, i) => {
      const { cell, elements } = measured[i]!;
      results.push({ name: s.name, layout: s.layout, targetElements: s.target, elements, cells: [cell] });
      log(
        `  ${s.name.padEnd(5)} pagehand   ${cell.runs.length ? `wall median ${fmtMs(cell.medianMs)}, CPU ${fmtMs(cell.cpuMs)} over ${cell.runs.length}` : cell.timedOut ? 'timed out' : 'failed'}${cell.note ? `  — ${cell.note}` : ''}`,
      );
      if (cell.pageErrors.length) log(`    page errors: ${cell.pageErrors.slice(0, 3).join(' | ')}`);
    });
    log(`  layouts: ${LAYOUT_RUNS} rounds in turns (${((Date.now() - t) / 1000).toFixed(1)} s)`);
  } finally {
    await context.close();
    await browser.close();
    await server.close();
  }

  log('');
  log(
    `Viewport ${VIEWPORT.width}×${VIEWPORT.height} at scroll 0, JPEG quality 0.75. "wall" = in-page wall time per call (what a person waits); "CPU" = median main-thread CPU time per call (CDP ThreadTime), which a busy machine inflates less; "× cards" = the median over rounds of a layout's wall / CPU time over the card page's in the same round (the layouts are captured in turns); "longest task" = longest main-thread task while capturing (Long Tasks API, ≥ 50 ms). Load average at start: ${loadAtStart.toFixed(1)} on ${cpus().length} cores.`,
  );
  log('');
  const cards = results.find((p) => p.layout === 'cards')?.cells[0];
  /** A layout's wall and CPU time against the card page's, round by round. */
  const vsCards = (c: Cellr): { wall: number; cpu: number } =>
    cards && c.runs.length && cards.runs.length
      ? {
          wall: pairedRatio(
            c.runs.map((r) => r.ms),
            cards.runs.map((r) => r.ms),
          ),
          cpu: pairedRatio(c.cpuRuns ?? [], cards.cpuRuns ?? []),
        }
      : { wall: NaN, cpu: NaN };
  const fmtX = (x: number): string => (Number.isNaN(x) ? '—' : `${x.toFixed(2)}×`);
  const columns: Column[] = [
    { header: 'page' },
    { header: 'elements', align: 'right' },
    { header: 'tool' },
    { header: 'runs', align: 'right' },
    { header: 'wall median', align: 'right' },
    { header: 'wall max', align: 'right' },
    { header: 'CPU median', align: 'right' },
    { header: '× cards (wall / CPU)', align: 'right' },
    { header: 'warm-up', align: 'right' },
    { header: 'JPEG', align: 'right' },
    { header: 'image', align: 'right' },
    { header: 'longest task', align: 'right' },
  ];
  const rows: Cell[][] = results.flatMap((p) =>
    p.cells.map((c): Cell[] => {
      const none = !c.runs.length;
      const x = p.layout ? vsCards(c) : undefined;
      return [
        p.layout ?? 'shop',
        p.elements.toLocaleString('en-US'),
        c.tool,
        c.runs.length,
        none ? (c.timedOut ? `> ${REF_TIMEOUT_MS / 1000} s` : 'failed') : fmtMs(c.medianMs),
        none ? '—' : fmtMs(c.maxMs),
        none ? '—' : fmtMs(c.cpuMs),
        x ? `${fmtX(x.wall)} / ${fmtX(x.cpu)}` : '—',
        Number.isNaN(c.warmupMs) ? '—' : fmtMs(c.warmupMs),
        fmtKB(c.bytes),
        c.image ? `${c.image.width}×${c.image.height}` : '—',
        none ? '—' : c.longestTaskMs ? fmtMs(c.longestTaskMs) : '< 50 ms',
      ];
    }),
  );
  log(renderTable(columns, rows));

  const bars = results.flatMap((p) => {
    const c = p.cells.find((x) => x.tool === 'pagehand')!;
    if (p.layout) {
      const ok = c.runs.length > 0 && !!cards?.runs.length;
      const x = vsCards(c);
      const detail = (kind: 'wall' | 'CPU', mine: number, theirs: number, ratio: number): string =>
        ok
          ? `${kind} ${fmtMs(mine)} vs ${fmtMs(theirs)}, ${fmtX(ratio)} (median of ${Math.min(c.runs.length, cards!.runs.length)} rounds)`
          : (c.note ?? 'failed');
      return [
        ...(p.layout === 'cards'
          ? []
          : [
              {
                name: `${p.name} (3k): wall time ≤ ${LAYOUT_BAR}× the card page's`,
                pass: ok && x.wall <= LAYOUT_BAR,
                detail: detail('wall', c.medianMs, cards?.medianMs ?? NaN, x.wall),
              },
              {
                name: `${p.name} (3k): CPU time ≤ ${LAYOUT_BAR}× the card page's`,
                pass: ok && x.cpu <= LAYOUT_BAR,
                detail: detail('CPU', c.cpuMs, cards?.cpuMs ?? NaN, x.cpu),
              },
            ]),
        {
          name: `${p.name} (3k): no task over ${TASK_BAR_MS} ms while capturing`,
          pass: c.runs.length > 0 && c.longestTaskMs <= TASK_BAR_MS,
          detail: c.runs.length ? (c.longestTaskMs ? fmtMs(c.longestTaskMs) : '< 50 ms') : 'not measured',
        },
      ];
    }
    const ref = p.cells.find((x) => x.tool === 'unfiltered');
    const bar = BARS[p.targetElements];
    const ok = c.runs.length > 0;
    const speedup = ok && ref ? (ref.runs.length ? `${(ref.medianMs / c.medianMs).toFixed(0)}×` : `> ${(REF_TIMEOUT_MS / c.medianMs).toFixed(0)}×`) : '—';
    return [
      ...(bar
        ? [
            {
              name: `${p.name}: pagehand wall median ≤ ${bar} ms`,
              pass: ok && c.medianMs <= bar,
              detail: ok
                ? `${fmtMs(c.medianMs)} (unfiltered ${ref?.runs.length ? fmtMs(ref.medianMs) : `> ${REF_TIMEOUT_MS / 1000} s`}, ${speedup} faster)`
                : (c.note ?? 'failed'),
            },
          ]
        : []),
      {
        name: `${p.name}: no task over ${TASK_BAR_MS} ms while capturing`,
        pass: ok && c.longestTaskMs <= TASK_BAR_MS,
        detail: ok ? (c.longestTaskMs ? fmtMs(c.longestTaskMs) : '< 50 ms') : 'not measured',
      },
    ];
  });
  log('');
  log('Bar:');
  for (const b of bars) log(`  ${b.pass ? 'PASS' : 'FAIL'}  ${b.name} — ${b.detail}`);

  const out = {
    date: new Date().toISOString(),
    chromium: chromiumVersion,
    cores: cpus().length,
    loadAverage: loadavg(),
    cpu: cpus()[0]?.model,
    node: process.version,
    bundle: { bytes: bundle.length, sha256: createHash('sha256').update(bundle).digest('hex').slice(0, 16) },
    screenshotModule: { bytes: module.length, sha256: createHash('sha256').update(module).digest('hex').slice(0, 16) },
    viewport: VIEWPORT,
    runs: RUNS,
    layoutRuns: LAYOUT_RUNS,
    refTimeoutMs: REF_TIMEOUT_MS,
    seed: SEED,
    pages: results,
    bars,
    totalSeconds: Math.round((Date.now() - started) / 1000),
  };
  log('');
  // A partial run (layouts only) never replaces the full results.
  if (ONLY_LAYOUTS) return log(`Layouts only: bench/results/snapshot.json left as it is (${out.totalSeconds} s total).`);
  await mkdir(`${root}bench/results`, { recursive: true });
  await writeFile(`${root}bench/results/snapshot.json`, JSON.stringify(out, null, 2) + '\n');
  log(`Wrote bench/results/snapshot.json (${out.totalSeconds} s total).`);
}

await main();
