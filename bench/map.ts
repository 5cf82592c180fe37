/**
 * `npm run bench:map` — the page map against page-agent, side by side in one Chromium run.
 *
 * For generated pages of ~1k, 5k, 20k and 57k elements (bench/lib/generate-page.ts) it measures,
 * per tool: median and max time over 5 runs after one warm-up, the longest main-thread task (for
 * pagehand: of `pagehand.mapAsync()`, the sliced map the agent loop uses, run beside each timed
 * `pagehand.map()`),
 * characters and o200k tokens of the observation text, visible interactive elements found against
 * the generator's ground truth (viewport, viewport + 1 screen, whole page) and hidden ones leaked.
 * A small extra page with an open modal dialog checks that only the dialog is listed, and a long
 * encyclopedia-style article (5k+ elements of long paragraphs dense with inline links) checks
 * that page text costs about what the element walk costs.
 *
 * Tools:
 *   pagehand              `pagehand.map()` from dist/pagehand.js (defaults: ~3k-token budget);
 *                         its longest task is `pagehand.mapAsync()`'s, whose text must equal map()'s
 *   page-agent            `new PageController({}).getBrowserState()` — its default (full page)
 *   page-agent vp0        the same with `{ viewportExpansion: 0 }` (viewport only)
 *
 * Each (page, tool) pair gets a freshly loaded tab, so one tool's DOM side effects (page-agent
 * draws highlight boxes) never reach the other. page-agent runs are bounded: a call over
 * PEER_TIMEOUT_MS is terminated (CDP Runtime.terminateExecution) and recorded as timed out, and
 * slow cells run fewer repetitions (the table's "runs" column says how many).
 *
 * Writes every figure to bench/results/map.json. Needs no lock itself; when other Chromium work
 * runs on the machine, run it as `flock /tmp/pagehand-chromium.lock npm run bench:map`.
 */
import { chromium, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { bundleForPage } from './lib/bundle-for-page';
import { countTokens } from './lib/count-tokens';
import { generateArticle, generatePage } from './lib/generate-page';
import type { Census, RunResult, Score } from './lib/page-probe';
import { loadPageAgentPeer } from './lib/peer-page-agent';
import { servePages } from './lib/serve-pages';
import { max, median } from './lib/stats';
import { renderTable, type Cell, type Column } from './lib/table';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Page sizes (elements). `BENCH_SIZES=1000,5000` runs a subset while developing. */
const SIZES = process.env.BENCH_SIZES ? process.env.BENCH_SIZES.split(',').map(Number) : [1_000, 5_000, 20_000, 57_000];
const MODAL_SIZE = 1_000;
const ARTICLE_SIZE = 5_500;
/** The longest main-thread task a map call may cause (the Long Tasks API threshold). */
const TASK_BAR_MS = 50;
const SEED = 20_240_602;
const RUNS = 5;
const VIEWPORT = { width: 1280, height: 800 };
/** The map's default token budget (MapOptions.maxTokens). */
const TOKEN_BUDGET = 3_000;
/** One page-agent call longer than this is terminated and recorded as timed out. */
const PEER_TIMEOUT_MS = Number(process.env.BENCH_PEER_TIMEOUT_MS) || 120_000;
/** Wall-time budget for the measured repetitions of one (page, tool) cell. */
const CELL_BUDGET_MS = 40_000;
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

type ToolId = 'pagehand' | 'page-agent' | 'page-agent-vp0';
interface Tool {
  id: ToolId;
  label: string;
  /** What the tool says it covers. */
  claims: string;
  pageAgentConfig?: Record<string, unknown>;
}
const TOOLS: Tool[] = [
  { id: 'pagehand', label: 'pagehand', claims: 'viewport + ~1 screen, within a token budget; the rest as counts' },
  { id: 'page-agent', label: 'page-agent', claims: 'full page (default viewportExpansion -1)', pageAgentConfig: {} },
  { id: 'page-agent-vp0', label: 'page-agent vp0', claims: 'viewport only (viewportExpansion 0)', pageAgentConfig: { viewportExpansion: 0 } },
];

interface CellResult {
  tool: ToolId;
  runs: number;
  timedOut: boolean;
  /** Why fewer than RUNS repetitions ran, if so. */
  note?: string;
  /** The tool threw: the message (the cell has no figures then). */
  error?: string;
  warmupMs: number;
  ms: number[];
  medianMs: number;
  maxMs: number;
  /**
   * Longest main-thread task per run (0 = none ≥ 50 ms, the Long Tasks API threshold). For
   * pagehand: of the sliced `mapAsync()` the agent loop uses.
   */
  longestTaskMs: number[];
  /** pagehand only: the synchronous `map()`'s longest task per run, for comparison. */
  longestTaskSyncMs?: number[];
  /** pagehand only: `mapAsync()` from call to result per run (slices plus the page's turns between them). */
  asyncMs?: number[];
  /** pagehand only: every `mapAsync()` text equalled the `map()` text of its run. */
  asyncSameText?: boolean;
  chars: number;
  tokens: number;
  /** The tool's own token estimate, when it reports one (pagehand stats.tokens). */
  ownTokens?: number;
  ownMs?: number[];
  tokensPerListed: number;
  score?: Score;
  pageErrors: string[];
  sample?: string;
}

interface PageResult {
  name: string;
  targetElements: number;
  generated: { elements: number; cards: number; htmlKiB: number };
  census: Census;
  cells: CellResult[];
}

const log = (s: string): void => void process.stdout.write(s + '\n');
/** A duration with its unit: "0.8 ms", "647 ms", "81.3 s". */
const fmtMs = (ms: number): string =>
  Number.isNaN(ms) ? '—' : ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : ms >= 100 ? `${ms.toFixed(0)} ms` : `${ms.toFixed(1)} ms`;

/** Races an in-page call against a deadline; on timeout the page's script is terminated. */
async function withDeadline<T>(cdp: CDPSession, call: Promise<T>, ms: number): Promise<{ value?: T; timedOut: boolean }> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), ms)));
  const winner = await Promise.race([call, deadline]);
  clearTimeout(timer);
  if (winner !== 'timeout') return { value: winner as T, timedOut: false };
  // The in-page promise never settles once its task is killed: the caller closes the tab, which
  // rejects `call`.
  call.catch(() => undefined);
  await cdp.send('Runtime.terminateExecution').catch(() => undefined);
  return { timedOut: true };
}

async function runCell(
  context: BrowserContext,
  url: string,
  tool: Tool,
  scripts: { probe: string; pagehand: string; peer: string },
  keepSample: boolean,
): Promise<{ cell: CellResult; census: Census }> {
  const page: Page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  try {
    await page.goto(url, { waitUntil: 'load' });
    await page.addScriptTag({ content: scripts.probe });
    await page.addScriptTag({ content: tool.id === 'pagehand' ? scripts.pagehand : scripts.peer });
    const census = await page.evaluate(() => window.__benchProbe!.census());
    await page.evaluate(() => window.__benchProbe!.install());
    const cdp = await context.newCDPSession(page);

    const once = (): Promise<RunResult> =>
      tool.id === 'pagehand'
        ? page.evaluate((o) => window.__benchProbe!.runPagehand(o), { maxTokens: TOKEN_BUDGET })
        : page.evaluate(([k, c]) => window.__benchProbe!.runPageAgent(k, c), [tool.id, tool.pageAgentConfig ?? {}] as const);
    const sliced = (): Promise<RunResult> => page.evaluate((o) => window.__benchProbe!.runPagehand(o, true), { maxTokens: TOKEN_BUDGET });
    const longest = (r: RunResult): Promise<number> => page.evaluate(([t0, ms]) => window.__benchProbe!.longestTask(t0, ms), [r.t0, r.ms] as const);
    const lastText = (): Promise<string> => page.evaluate(() => window.__benchProbe!.lastText());

    const cell: CellResult = {
      tool: tool.id,
      runs: 0,
      timedOut: false,
      warmupMs: NaN,
      ms: [],
      medianMs: NaN,
      maxMs: NaN,
      longestTaskMs: [],
      chars: 0,
      tokens: 0,
      tokensPerListed: NaN,
      pageErrors,
    };
    // A tool that throws (a half-built map, say) fails its cell, not the whole benchmark.
    const measure = async (): Promise<void> => {
      const warm = await withDeadline(cdp, once(), PEER_TIMEOUT_MS);
      if (warm.timedOut || !warm.value) {
        cell.timedOut = true;
        cell.note = `warm-up call exceeded ${PEER_TIMEOUT_MS / 1000} s and was terminated; no runs`;
        return;
      }
      cell.warmupMs = warm.value.ms;
      if (tool.id === 'pagehand') {
        await sliced();
        cell.longestTaskSyncMs = [];
        cell.asyncMs = [];
        cell.asyncSameText = true;
      }
      const runs = warm.value.ms * RUNS <= CELL_BUDGET_MS ? RUNS : Math.max(1, Math.floor(CELL_BUDGET_MS / warm.value.ms));
      if (runs < RUNS)
        cell.note = `${runs} run(s) instead of ${RUNS}: the warm-up call took ${fmtMs(warm.value.ms)} (budget per cell ${CELL_BUDGET_MS / 1000} s)`;
      let last: RunResult | undefined;
      const ownMs: number[] = [];
      for (let i = 0; i < runs; i++) {
        // pagehand: the sliced map first (its longest task is the one reported), then the timed
        // synchronous one, whose text and listing are scored.
        let slicedText: string | undefined;
        if (tool.id === 'pagehand') {
          const a = await sliced();
          cell.asyncMs!.push(a.ms);
          cell.longestTaskMs.push(await longest(a));
          slicedText = await lastText();
        }
        const r = await withDeadline(cdp, once(), PEER_TIMEOUT_MS);
        if (r.timedOut || !r.value) {
          cell.timedOut = true;
          cell.note = `run ${i + 1} exceeded ${PEER_TIMEOUT_MS / 1000} s and was terminated`;
          break;
        }
        last = r.value;
        cell.ms.push(r.value.ms);
        if (r.value.ownMs !== undefined) ownMs.push(r.value.ownMs);
        if (tool.id === 'pagehand') {
          cell.longestTaskSyncMs!.push(await longest(r.value));
          if (slicedText !== (await lastText())) cell.asyncSameText = false;
        } else cell.longestTaskMs.push(await longest(r.value));
      }
      cell.runs = cell.ms.length;
      if (!last) return;
      cell.medianMs = median(cell.ms);
      cell.maxMs = max(cell.ms);
      if (ownMs.length) cell.ownMs = ownMs;
      cell.ownTokens = last.ownTokens;
      const text = await lastText();
      cell.chars = text.length;
      cell.tokens = countTokens(text);
      cell.score = await page.evaluate(() => window.__benchProbe!.score());
      cell.tokensPerListed = cell.score.listed ? cell.tokens / cell.score.listed : NaN;
      if (keepSample) cell.sample = text.slice(0, 2_000);
    };
    try {
      await measure();
    } catch (e) {
      cell.error = e instanceof Error ? e.message.split('\n')[0] : String(e);
      cell.note = `failed: ${cell.error}`;
    }
    return { cell, census };
  } finally {
    await page.close();
  }
}

function toolLabel(id: ToolId): string {
  return TOOLS.find((t) => t.id === id)!.label;
}

function frac(a: number | undefined, b: number | undefined): string {
  return a === undefined || b === undefined ? '—' : `${a}/${b}`;
}

function mainRows(results: PageResult[]): Cell[][] {
  const rows: Cell[][] = [];
  for (const p of results) {
    for (const c of p.cells) {
      const s = c.score;
      const timedOut = c.timedOut && !c.runs;
      if (c.error && !c.runs) {
        rows.push([p.census.elements.toLocaleString('en-US'), toolLabel(c.tool), 0, 'error', '—', '—', '—', '—', '—', '—', '—', '—', '—', '—']);
        continue;
      }
      rows.push([
        p.census.elements.toLocaleString('en-US'),
        toolLabel(c.tool),
        timedOut ? 0 : c.runs,
        timedOut ? `> ${PEER_TIMEOUT_MS / 1000} s (timed out)` : fmtMs(c.medianMs),
        timedOut ? '—' : fmtMs(c.maxMs),
        timedOut ? '—' : c.longestTaskMs.length ? (max(c.longestTaskMs) ? fmtMs(max(c.longestTaskMs)) : '< 50 ms') : '—',
        timedOut ? '—' : c.chars.toLocaleString('en-US'),
        timedOut ? '—' : c.tokens.toLocaleString('en-US'),
        timedOut || Number.isNaN(c.tokensPerListed) ? '—' : c.tokensPerListed.toFixed(1),
        s ? s.listed : '—',
        frac(s?.foundViewport, s?.inScopeViewport),
        frac(s?.foundNear, s?.inScopeNear),
        frac(s?.foundAllVisible, s?.allVisible),
        s ? s.hiddenLeaked : '—',
      ]);
    }
  }
  return rows;
}

interface Bar {
  name: string;
  pass: boolean | undefined;
  detail: string;
}

function bars(results: PageResult[], modal: PageResult | undefined, article: PageResult | undefined): Bar[] {
  const cell = (p: PageResult | undefined, t: ToolId): CellResult | undefined => p?.cells.find((c) => c.tool === t);
  const at = (n: number): PageResult | undefined => results.find((r) => r.targetElements === n);
  const out: Bar[] = [];
  const ph20 = cell(at(20_000), 'pagehand');
  const pa20 = cell(at(20_000), 'page-agent');
  const ph57 = cell(at(57_000), 'pagehand');
  out.push({
    name: '20k elements: pagehand median ≤ 300 ms',
    pass: ph20 ? ph20.runs > 0 && ph20.medianMs <= 300 : undefined,
    detail: ph20?.runs ? fmtMs(ph20.medianMs) : ph20 ? 'failed' : 'not run',
  });
  if (ph20?.runs && pa20) {
    const ratio = pa20.runs ? pa20.medianMs / ph20.medianMs : PEER_TIMEOUT_MS / ph20.medianMs;
    out.push({
      name: '20k elements: ≥ 10× faster than page-agent default',
      pass: ratio >= 10,
      detail: pa20.runs
        ? `${ratio.toFixed(1)}× (${fmtMs(pa20.medianMs)} vs ${fmtMs(ph20.medianMs)})`
        : `page-agent timed out (> ${PEER_TIMEOUT_MS / 1000} s): ≥ ${ratio.toFixed(0)}×`,
    });
  }
  out.push({
    name: '57k elements: pagehand median ≤ 1.5 s',
    pass: ph57 ? ph57.runs > 0 && ph57.medianMs <= 1_500 : undefined,
    detail: ph57?.runs ? fmtMs(ph57.medianMs) : ph57 ? 'failed' : 'not run',
  });
  const art = cell(article, 'pagehand');
  out.push({
    name: `long article (${article ? article.census.elements.toLocaleString('en-US') : '—'} elements, with page text): pagehand median ≤ 100 ms`,
    pass: art ? art.runs > 0 && art.medianMs <= 100 : undefined,
    detail: art?.runs
      ? `${fmtMs(art.medianMs)} (longest task ${max(art.longestTaskMs) ? fmtMs(max(art.longestTaskMs)) : `< ${TASK_BAR_MS} ms`})`
      : art
        ? 'failed'
        : 'not run',
  });
  const allPages = [...results, ...(modal ? [modal] : []), ...(article ? [article] : [])];
  // The Long Tasks API reports tasks of 50 ms and more; 0 means none.
  const longTasks = allPages.map((p) => ({ p, c: cell(p, 'pagehand') })).filter((x) => x.c?.runs);
  const over = longTasks.filter((x) => max(x.c!.longestTaskMs) > TASK_BAR_MS);
  out.push({
    name: `no map task over ${TASK_BAR_MS} ms, sliced mapAsync() (every page)`,
    pass: longTasks.length ? over.length === 0 : undefined,
    detail: over.length
      ? `over on ${over.map((x) => `${x.p.name} (${fmtMs(max(x.c!.longestTaskMs))})`).join(', ')}`
      : `none over on ${longTasks.length} page(s)`,
  });
  const differ = longTasks.filter((x) => !x.c!.asyncSameText);
  out.push({
    name: 'mapAsync() text equals map() text (every page)',
    pass: longTasks.length ? differ.length === 0 : undefined,
    detail: differ.length ? `different on ${differ.map((x) => x.p.name).join(', ')}` : `same on ${longTasks.length} page(s)`,
  });
  const phCells = allPages.map((p) => ({ p, c: cell(p, 'pagehand') })).filter((x) => x.c?.score);
  // "Every page" bars cannot pass on part of the pages: a page whose map failed counts against them.
  const unmeasured = allPages.length - phCells.length;
  const every = (ok: boolean): boolean | undefined => (unmeasured ? false : phCells.length ? ok : undefined);
  const also = unmeasured ? `; ${unmeasured} page(s) not measured` : '';
  // Per-element cost is judged on the sized pages: the open-modal page lists a handful of
  // controls, so its fixed page header dominates the ratio (its figure is printed with it).
  // A page where nothing was listed has no figure (its misses show below).
  const tpe = phCells
    .filter((x) => x.p !== modal && x.p !== article)
    .map((x) => x.c!.tokensPerListed)
    .filter((n) => !Number.isNaN(n));
  const worstTpe = Math.max(...tpe);
  out.push({
    name: '≤ 12 o200k tokens per listed element (every size)',
    pass: every(tpe.length > 0 && worstTpe <= 12),
    detail:
      (tpe.length
        ? `worst ${worstTpe.toFixed(1)}${tpe.length < results.length ? ` (${results.length - tpe.length} page(s) listed nothing)` : ''}`
        : 'nothing listed') + also,
  });
  const worstTokens = Math.max(0, ...phCells.map((x) => x.c!.tokens));
  out.push({
    name: `o200k tokens of the text ≤ budget (${TOKEN_BUDGET}) (every page)`,
    pass: every(worstTokens <= TOKEN_BUDGET),
    detail: `most ${worstTokens}${also}`,
  });
  const leaks = phCells.reduce((n, x) => n + x.c!.score!.hiddenLeaked + x.c!.score!.inertBehindModalLeaked, 0);
  out.push({ name: 'nothing hidden leaked (every page, incl. behind the open modal)', pass: every(leaks === 0), detail: `${leaks} leaked${also}` });
  const vp = phCells.filter((x) => x.p !== modal && x.p !== article);
  const missVp = vp.reduce((n, x) => n + x.c!.score!.inScopeViewport - x.c!.score!.foundViewport, 0);
  out.push({ name: 'every visible interactive element in the viewport found (every size)', pass: every(missVp === 0), detail: `${missVp} missed${also}` });
  const missNear = vp.reduce((n, x) => n + x.c!.score!.inScopeNear - x.c!.score!.foundNear, 0);
  out.push({
    name: 'every visible interactive element in viewport + 1 screen found (every size)',
    pass: every(missNear === 0),
    detail: `${missNear} missed${also}`,
  });
  const m = cell(modal, 'pagehand');
  if (m?.score) {
    out.push({
      name: 'open modal: every dialog control found, nothing behind it listed',
      pass: m.score.foundViewport === m.score.inScopeViewport && m.score.inertBehindModalLeaked === 0,
      detail: `${m.score.foundViewport}/${m.score.inScopeViewport} found, ${m.score.inertBehindModalLeaked} behind-modal listed`,
    });
  }
  return out;
}

async function main(): Promise<void> {
  const started = Date.now();
  const loadAtStart = Math.round(loadavg()[0]! * 10) / 10;
  const pagehandSource = await readFile(`${root}dist/pagehand.js`, 'utf8').catch(() => {
    throw new Error('dist/pagehand.js is missing: run `npm run build` first (npm run bench:map does).');
  });
  const [probe, peer] = await Promise.all([bundleForPage({ name: 'page-probe', entry: 'bench/lib/page-probe.ts' }), loadPageAgentPeer()]);
  const scripts = { probe, pagehand: pagehandSource, peer: peer.source };

  const pages = new Map<string, string>();
  const specs = [
    ...SIZES.map((n) => ({ name: `${n / 1000}k`, target: n, modalOpen: false })),
    { name: `${MODAL_SIZE / 1000}k, modal open`, target: MODAL_SIZE, modalOpen: true },
    { name: 'long article', target: ARTICLE_SIZE, modalOpen: false, article: true },
  ];
  const generated = specs.map((s, i) => {
    const path = `/page-${i}.html`;
    const framePath = `/page-${i}-frame.html`;
    const g =
      'article' in s
        ? { ...generateArticle({ targetElements: s.target, seed: SEED }), frameHtml: '', cards: 0 }
        : generatePage({ targetElements: s.target, seed: SEED, modalOpen: s.modalOpen, framePath });
    pages.set(path, g.html);
    pages.set(framePath, g.frameHtml);
    return { ...s, path, g };
  });
  const server = await servePages(pages);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const chromiumVersion = browser.version();
  const context = await browser.newContext({ viewport: VIEWPORT });
  // Only the local server is reachable; anything else a page might ask for is refused.
  await context.route(
    (url) => !url.href.startsWith(server.origin),
    (r) => r.abort(),
  );

  const results: PageResult[] = [];
  let modal: PageResult | undefined;
  let article: PageResult | undefined;
  try {
    // Figures scale with what else runs on the machine: say how busy it was.
    log(
      `pagehand map benchmark — Chromium ${chromiumVersion}, ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)}, page-agent page-controller ${peer.version}`,
    );
    for (const s of generated) {
      const result: PageResult = {
        name: s.name,
        targetElements: s.target,
        generated: { elements: s.g.elements, cards: s.g.cards, htmlKiB: Math.round(s.g.html.length / 1024) },
        census: undefined as unknown as Census,
        cells: [],
      };
      for (const tool of TOOLS) {
        const t = Date.now();
        const { cell, census } = await runCell(context, `${server.origin}${s.path}`, tool, scripts, s.target === SIZES[0] || s.modalOpen);
        result.census ??= census;
        if (census.elements !== result.census.elements) log(`  ! element count differs between tabs: ${census.elements} vs ${result.census.elements}`);
        result.cells.push(cell);
        log(
          `  ${s.name.padEnd(16)} ${tool.label.padEnd(15)} ${cell.error && !cell.runs ? 'error' : cell.timedOut && !cell.runs ? 'timed out' : `median ${fmtMs(cell.medianMs)} over ${cell.runs}`}` +
            `  (${((Date.now() - t) / 1000).toFixed(1)} s)${cell.note ? `  — ${cell.note}` : ''}`,
        );
        if (cell.pageErrors.length) log(`    page errors: ${cell.pageErrors.slice(0, 3).join(' | ')}`);
      }
      if (result.census.inconsistencies.length) log(`  ! ground truth inconsistencies:\n    ${result.census.inconsistencies.join('\n    ')}`);
      if (s.modalOpen) modal = result;
      else if ('article' in s) article = result;
      else results.push(result);
    }
  } finally {
    await context.close();
    await browser.close();
    await server.close();
  }

  // --- report ---------------------------------------------------------------------------------
  log('');
  log(`Viewport ${VIEWPORT.width}×${VIEWPORT.height} at scroll 0; "vp+1" = viewport plus one screen below. Times are in-page, per call.`);
  log(`Token budget for pagehand: ${TOKEN_BUDGET}. Tokens: o200k_base (gpt-tokenizer). "longest task" = longest main-thread task (Long Tasks API, ≥ 50 ms);`);
  log('for pagehand it is that of the sliced pagehand.mapAsync() the agent loop uses, while median and max time the synchronous pagehand.map().');
  log('');
  const columns: Column[] = [
    { header: 'elements', align: 'right' },
    { header: 'tool' },
    { header: 'runs', align: 'right' },
    { header: 'median', align: 'right' },
    { header: 'max', align: 'right' },
    { header: 'longest task', align: 'right' },
    { header: 'chars', align: 'right' },
    { header: 'tokens', align: 'right' },
    { header: 'tok/el', align: 'right' },
    { header: 'listed', align: 'right' },
    { header: 'found vp', align: 'right' },
    { header: 'found vp+1', align: 'right' },
    { header: 'found page', align: 'right' },
    { header: 'hidden leaked', align: 'right' },
  ];
  log(renderTable(columns, mainRows([...results, ...(article ? [article] : [])])));
  log('');
  log('pagehand map() (one synchronous call) vs mapAsync() (sliced; time from call to result, the page running between slices):');
  for (const p of [...results, ...(modal ? [modal] : []), ...(article ? [article] : [])]) {
    const ph = p.cells.find((c) => c.tool === 'pagehand');
    if (!ph?.runs || !ph.asyncMs?.length) continue;
    const task = (ms: number[]): string => (max(ms) ? fmtMs(max(ms)) : `< ${TASK_BAR_MS} ms`);
    log(
      `  ${p.name.padEnd(14)} map() median ${fmtMs(ph.medianMs).padStart(7)}, longest task ${task(ph.longestTaskSyncMs ?? []).padStart(8)}` +
        `   mapAsync() median ${fmtMs(median(ph.asyncMs)).padStart(7)}, longest task ${task(ph.longestTaskMs).padStart(8)}, text ${ph.asyncSameText ? 'same' : 'DIFFERENT'}`,
    );
  }
  log('');
  log('Ratios (page-agent median / pagehand median):');
  for (const p of [...results, ...(article ? [article] : [])]) {
    const ph = p.cells.find((c) => c.tool === 'pagehand');
    const parts = (['page-agent', 'page-agent-vp0'] as const).map((id) => {
      const c = p.cells.find((x) => x.tool === id);
      if (!ph?.runs || !c) return `${toolLabel(id)} —`;
      if (!c.runs) return `${toolLabel(id)} > ${(PEER_TIMEOUT_MS / ph.medianMs).toFixed(0)}× (timed out)`;
      return `${toolLabel(id)} ${(c.medianMs / ph.medianMs).toFixed(1)}×`;
    });
    log(`  ${p.census.elements.toLocaleString('en-US').padStart(7)} elements: ${parts.join(', ')}`);
  }
  log('');
  log('pagehand token estimate (stats.tokens) vs o200k count of its text:');
  for (const p of [...results, ...(modal ? [modal] : []), ...(article ? [article] : [])]) {
    const ph = p.cells.find((c) => c.tool === 'pagehand');
    if (ph?.runs)
      log(
        `  ${p.name.padEnd(14)} estimate ${String(ph.ownTokens ?? '—').padStart(5)}, o200k ${String(ph.tokens).padStart(5)}, budget ${TOKEN_BUDGET}${ph.tokens > TOKEN_BUDGET ? '  OVER BUDGET' : ''}`,
      );
  }
  log('');
  log('Hidden controls leaked, by hiding rule:');
  for (const p of results) {
    for (const c of p.cells) {
      const kinds = Object.entries(c.score?.hiddenLeakedByKind ?? {}).map(([k, n]) => `${k} ${n}`);
      if (kinds.length) log(`  ${p.name.padEnd(5)} ${toolLabel(c.tool).padEnd(15)} ${kinds.join(', ')}`);
    }
  }
  log('Edge cases listed (sr-only skip link, off-screen link; not scored):');
  for (const p of results) log(`  ${p.name.padEnd(5)} ${p.cells.map((c) => `${toolLabel(c.tool)} ${c.score?.edgeListed ?? '—'}`).join(', ')}`);
  if (modal) {
    log('');
    log(
      `Open modal (${modal.census.elements.toLocaleString('en-US')} elements; ${modal.census.visibleInViewport} dialog controls, ${modal.census.groundTruth['inert-behind-modal']} controls behind it):`,
    );
    for (const c of modal.cells) {
      const s = c.score;
      log(
        `  ${toolLabel(c.tool).padEnd(15)} ${s ? `dialog controls ${s.foundViewport}/${s.inScopeViewport}, behind-modal listed ${s.inertBehindModalLeaked}, hidden leaked ${s.hiddenLeaked}, listed ${s.listed}, ${c.tokens} tokens` : c.error ? 'error' : 'timed out'}`,
      );
    }
  }
  const missed = results.flatMap((p) =>
    p.cells.filter((c) => c.tool === 'pagehand' && c.score?.missedViewportSample.length).map((c) => `  ${p.name}: ${c.score!.missedViewportSample.join(', ')}`),
  );
  if (missed.length) {
    log('');
    log('pagehand: examples of in-viewport controls not found:');
    for (const m of missed.slice(0, 2)) log(m);
  }
  const notes = [...results, ...(modal ? [modal] : []), ...(article ? [article] : [])].flatMap((p) =>
    p.cells.filter((c) => c.note).map((c) => `  ${p.name} ${toolLabel(c.tool)}: ${c.note}`),
  );
  if (notes.length) {
    log('');
    log('Notes:');
    for (const n of notes) log(n);
  }
  log('');
  log('What each tool claims to cover:');
  for (const t of TOOLS) log(`  ${t.label.padEnd(15)} ${t.claims}`);
  log('');
  log('Bar:');
  const barList = bars(results, modal, article);
  for (const b of barList) log(`  ${b.pass === undefined ? 'N/A ' : b.pass ? 'PASS' : 'FAIL'}  ${b.name} — ${b.detail}`);

  const out = {
    date: new Date().toISOString(),
    chromium: chromiumVersion,
    cores: cpus().length,
    cpu: cpus()[0]?.model,
    /** 1-minute load average at the start and the end of the run (2 cores: above 2 means queued work). */
    loadAverage: { start: loadAtStart, end: Math.round(loadavg()[0]! * 10) / 10 },
    node: process.version,
    // Which map was measured: the bundle is built from the working tree, which may be ahead of HEAD.
    pagehandBundle: { bytes: pagehandSource.length, sha256: createHash('sha256').update(pagehandSource).digest('hex').slice(0, 16) },
    pageAgentVersion: peer.version,
    viewport: VIEWPORT,
    tokenBudget: TOKEN_BUDGET,
    runs: RUNS,
    peerTimeoutMs: PEER_TIMEOUT_MS,
    cellBudgetMs: CELL_BUDGET_MS,
    seed: SEED,
    tools: TOOLS.map(({ id, label, claims, pageAgentConfig }) => ({ id, label, claims, pageAgentConfig })),
    pages: results,
    modal,
    article,
    bars: barList,
    totalSeconds: Math.round((Date.now() - started) / 1000),
  };
  await mkdir(`${root}bench/results`, { recursive: true });
  await writeFile(`${root}bench/results/map.json`, JSON.stringify(out, null, 2) + '\n');
  log('');
  log(`Wrote bench/results/map.json (${out.totalSeconds} s total).`);
}

await main();
