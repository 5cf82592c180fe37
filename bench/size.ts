/**
 * bench:size — what a page downloads for pagehand, and what it costs a site's visitors.
 *
 * Sizes (each file minified as built; gzip -9 and brotli -11): the embed's first load
 * (dist/pagehand-loader.js: hooks, the `pagehand` stub, the launcher), what opening the launcher
 * loads — the panel (dist/pagehand-agent.HASH.js and the modules it imports: overlay, Preact) and
 * the engine requested with it (dist/pagehand-agent-engine.HASH.js and what it imports: map,
 * actions, loop, safety); each file compressed on its own, as it travels — what the agent loads on a feature's first use
 * (dist/pagehand-agent-on-demand.HASH.js and any other lazy chunk), what the bookmarklet's click
 * loads — its first file (dist/pagehand-bookmarklet.js: the panel, Preact, the stand-in
 * `pagehand`) and the engine that file imports at once (dist/pagehand-bookmarklet-engine.HASH.js
 * and what it imports) — the full bundle old embed tags load (dist/pagehand.js), the screenshot
 * chunk, the userscript, and page-agent's shipped IIFE measured the same way in the same run.
 *
 * On the wire, from the Node server `npm start` runs (in this process, dist/ as built) and its
 * demo page with the embed snippet, in Chromium: the bytes of pagehand's files for a first page
 * view (the launcher opened), a second page view in the same browser, and a revalidation once
 * the loader's five minutes are over (a fetch that must revalidate stands in for the clock).
 * And, in the same clicks, the time from a click on the launcher to a usable panel (the task box
 * painted and focused: what the visitor types goes into it) and to a ready engine (`pagehand.ready`
 * resolved: a task sent now starts at once): with the agent not fetched yet, and warmed (pointer
 * over the launcher first), each in a fresh browser context, median of RUNS.
 *
 * Bars (issue 24): embed first load ≤ 12 KB gzip; the panel on open ≤ 25 KB gzip (the
 * bookmarklet's first file too); the engine on open ≤ 100 KB brotli (the bookmarklet's too); a
 * second page view ≤ 1 KB on the wire. When over, the biggest
 * contributors come from esbuild's metafile.
 *
 * Run: `npm run bench:size` (builds first). Writes bench/results/size.json. Uses Chromium: run
 * it alone on a quiet machine; the load average is printed and saved.
 */
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { bundleOptions, screenshotModuleOptions } from '../build';
import { bookmarkletEngineOptions, bookmarkletFirstOptions, bookmarkletLangOptions, langFilesOf, type BookmarkletFiles } from '../build-bookmarklet';
import { agentChunkOptions, loaderOptions } from '../build-embed';
import { startNodeServer } from '../server/node';
import { median } from './lib/stats';
import { renderTable } from './lib/table';

const root = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.RUNS ?? 7);
/** The issue's bars. */
const BARS = { loaderGzip: 12_000, panelGzip: 25_000, engineBrotli: 100_000, secondViewBytes: 1_000 };
/** What one page view cost before the loader: the whole bundle, uncompressed, never cached (the issue's figure). */
const BEFORE_SECOND_VIEW = 227_604;
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
/** The agent's files as the build listed them (build-embed.ts). */
interface AgentFiles {
  entry: string;
  /** Loaded with the entry: with it, the panel. */
  eager: string[];
  /** The engine, imported by the entry at once. */
  engine: string[];
  lazy: string[];
}
const agentFiles = (): AgentFiles => JSON.parse(readFileSync(`${root}dist/pagehand-agent.files.json`, 'utf8')) as AgentFiles;
/** The bookmarklet's files as the build listed them (build-bookmarklet.ts). */
const bookmarkletFiles = (): BookmarkletFiles => JSON.parse(readFileSync(`${root}dist/pagehand-bookmarklet.files.json`, 'utf8')) as BookmarkletFiles;

/** Several files, each compressed on its own (as each travels), summed. */
function measureAll(files: readonly string[], file: string, role: string): Measured {
  const parts = files.map((f) => measure(`dist/${f}`, role)!);
  return {
    file,
    role,
    minBytes: parts.reduce((s, m) => s + m.minBytes, 0),
    gzipBytes: parts.reduce((s, m) => s + m.gzipBytes, 0),
    brotliBytes: parts.reduce((s, m) => s + m.brotliBytes, 0),
  };
}

/** A measurement aid: the overlay's closed shadow roots (loader's and agent's) attached open, so the bench can find the task box. */
const OPEN_ROOTS = `(() => { const a = Element.prototype.attachShadow; Element.prototype.attachShadow = function (i) { return a.call(this, this.localName === 'pagehand-ui' ? { ...i, mode: 'open' } : i); }; })();`;

interface Measured {
  file: string;
  role: string;
  minBytes: number;
  gzipBytes: number;
  brotliBytes: number;
}

function measure(file: string, role: string): Measured | undefined {
  const path = `${root}${file}`;
  if (!existsSync(path)) return undefined;
  const buf = readFileSync(path);
  return {
    file,
    role,
    minBytes: buf.length,
    gzipBytes: gzipSync(buf, { level: 9 }).length,
    brotliBytes: brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } })
      .length,
  };
}

const kb = (n: number): string => `${(n / 1000).toFixed(1)} KB`;
const kib = (n: number): string => `${(n / 1024).toFixed(1)} KiB`;
const ms = (n: number): string => `${Math.round(n)} ms`;

/** Where a module's bytes are counted: the package (node_modules) or the client folder. */
function group(input: string): string {
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (nm) return nm[1]!;
  // A plugin's module (the loader's shared ones) is named by its absolute path: counted by the part from client/ on.
  const m = /^(?:[\w-]+:)?(?:\/(?:[^/]+\/)*?)?client\/([^/]+)(?:\/([^/]+))?(?:\/([^/]+))?/.exec(input);
  if (!m) return input;
  // client/page is large: one row per file or subfolder, and per file of its actions and of the map.
  if (m[1] === 'page' && (m[2] === 'actions' || m[2] === 'map') && m[3]) return `client/page/${m[2]}/${m[3].replace(/\.tsx?$/, '')}`;
  if (m[1] === 'page' && m[2]) return `client/page/${m[2].replace(/\.tsx?$/, '')}`;
  return `client/${m[1]!.replace(/\.tsx?$/, '')}`;
}

/**
 * What a module of the agent does, for the table of the agent on open by capability: what a bar
 * for it has to count. By file, so a reader can check it (a deny-zone check inside the map's walk
 * counts as perception: the split is by file, not by line).
 */
const AREAS: ReadonlyArray<readonly [area: string, test: RegExp]> = [
  [
    'safety: risk check (13 languages), what a call presses, deny zones, masking, secrets, confirm, page-API guard',
    /client\/(safety\/|agent\/guards|page\/actions\/zones|guarded-api|ui\/secrets)\b|common\/(answer-schema|secrets-check)\b/,
  ],
  ['panel: overlay, mask, i18n, Preact', /client\/ui\/|node_modules\/preact\//],
  ['actions: click, type, keys, scroll, read, wait, navigate, downloads', /client\/page\/(actions\/|downloads)/],
  ['replay recording (every run records)', /client\/(agent\/recording|replay)\/|common\/recording\b/],
  ['loop: prompt, tools, history, model client', /client\/(agent|llm)\/|common\/|eventsource-parser/],
  ['perception: the map (walk, names, roles, state, frames, settle)', /client\/page\//],
  ['entry: embed config, WebMCP offer, loader hand-off', /./],
];
const areaOf = (input: string): string => AREAS.find(([, re]) => re.test(input))![0];

/** A build's metafile (nothing written). */
const metafileOf = async (options: BuildOptions): Promise<Metafile> =>
  (await build({ ...options, write: false, metafile: true, logLevel: 'silent' })).metafile!;

/** Bytes in the minified output by `key` of each input module, over the outputs named `only` (file names; all when not given). */
function bytesBy(meta: Metafile, key: (input: string) => string, only?: readonly string[]): Map<string, number> {
  const bytes = new Map<string, number>();
  for (const [path, out] of Object.entries(meta.outputs)) {
    if (only && !only.includes(path.replace(/^.*\//, ''))) continue;
    for (const [input, { bytesInOutput }] of Object.entries(out.inputs)) bytes.set(key(input), (bytes.get(key(input)) ?? 0) + bytesInOutput);
  }
  return bytes;
}

/** The agent on open by capability, in AREAS' order (bytes in the minified output; gzip pro rata). */
function byArea(meta: Metafile, only: readonly string[], gzipBytes: number): Array<{ area: string; minBytes: number; gzipShare: number }> {
  const bytes = bytesBy(meta, areaOf, only);
  const sum = [...bytes.values()].reduce((s, n) => s + n, 0) || 1;
  return AREAS.map(([area]) => ({ area, minBytes: bytes.get(area) ?? 0, gzipShare: Math.round(((bytes.get(area) ?? 0) / sum) * gzipBytes) }));
}

/** By module group, biggest first. */
function contributors(meta: Metafile, only?: readonly string[]): Array<{ module: string; minBytes: number }> {
  return [...bytesBy(meta, group, only)].map(([module, minBytes]) => ({ module, minBytes })).sort((a, b) => b.minBytes - a.minBytes);
}

/** Bytes pagehand's own files took on the wire (headers and body, as received), from the DevTools protocol. */
function wireMeter(cdp: CDPSession, origin: string) {
  const urls = new Map<string, string>();
  const statuses = new Map<string, number>();
  let entries: Array<{ path: string; status: number; bytes: number; cached: boolean }> = [];
  const cached = new Set<string>();
  cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, e.request.url));
  cdp.on('Network.requestServedFromCache', (e) => cached.add(e.requestId));
  const raw = new Map<string, number>();
  cdp.on('Network.responseReceived', (e) => {
    statuses.set(e.requestId, e.response.status);
    if (e.response.fromDiskCache || e.response.fromPrefetchCache) cached.add(e.requestId);
  });
  // What the server sent: a revalidation's 304 shows to the page as the cached 200.
  cdp.on('Network.responseReceivedExtraInfo', (e) => raw.set(e.requestId, e.statusCode));
  cdp.on('Network.loadingFinished', (e) => {
    const url = urls.get(e.requestId);
    if (!url?.startsWith(origin)) return;
    const path = new URL(url).pathname;
    if (!/^\/pagehand[\w.-]*\.js$/.test(path)) return;
    entries.push({ path, status: raw.get(e.requestId) ?? statuses.get(e.requestId) ?? 0, bytes: e.encodedDataLength, cached: cached.has(e.requestId) });
  });
  return {
    take() {
      const out = entries;
      entries = [];
      return out;
    },
  };
}

async function launcherOf(page: Page) {
  const launcher = page.locator('pagehand-ui button.launcher');
  await launcher.waitFor();
  return launcher;
}

/**
 * Clicks the launcher (without moving the pointer over it) and resolves, in ms from the click:
 * `panel`, at the frame that shows the task box with the focus in it (what the visitor types
 * goes there); `engine`, when `pagehand.ready` resolves (the engine took over: Send starts a run
 * at once). Read after the click: reading `ready` starts the load. A string: tsx would wrap
 * named functions in helpers the page lacks.
 */
const CLICK_TO_PANEL = `new Promise((resolve) => {
  const button = document.querySelector('pagehand-ui').shadowRoot.querySelector('button.launcher');
  const t0 = performance.now();
  button.click();
  const engine = window.pagehand.ready.then(() => performance.now() - t0);
  const check = () => {
    for (const host of document.querySelectorAll('pagehand-ui')) {
      const root = host.shadowRoot;
      const box = root && root.querySelector('[data-task]');
      if (box && box.getBoundingClientRect().height > 0 && root.activeElement === box) {
        const panel = performance.now() - t0;
        return engine.then((e) => resolve({ panel, engine: e }));
      }
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})`;

const clickToPanel = (page: Page): Promise<{ panel: number; engine: number }> => page.evaluate(CLICK_TO_PANEL) as Promise<{ panel: number; engine: number }>;

interface WireFigures {
  firstView: Array<{ path: string; status: number; bytes: number; cached: boolean }>;
  secondView: Array<{ path: string; status: number; bytes: number; cached: boolean }>;
  revalidation: Array<{ path: string; status: number; bytes: number; cached: boolean }>;
  /** Per run, from the click: the panel usable (typing) and the engine ready, in the same click. */
  clickToPanelMs: { cold: Array<{ panel: number; engine: number }>; warmed: Array<{ panel: number; engine: number }> };
}

async function onTheWire(browser: Browser): Promise<WireFigures & { demo: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'pagehand-bench-size-'));
  const server = await startNodeServer({
    env: { PORT: '0', HOST: '127.0.0.1', OPENAI_API_KEY: 'sk-bench-size-unused', PAGEHAND_MODEL: 'gpt-bench' },
    tokenFile: join(dir, 'token'),
    log: () => {},
  });
  const demo = `${server.url}/demo/contact-form.html`;
  try {
    // The server compresses each file at its first request: done before anything is timed.
    for (const path of ['/pagehand-loader.js', ...[agentFiles().entry, ...agentFiles().eager, ...agentFiles().engine].map((f) => `/${f}`)])
      await (await fetch(`${server.url}${path}`, { headers: { 'Accept-Encoding': 'br' } })).arrayBuffer();

    const fresh = async (): Promise<{ context: BrowserContext; page: Page; cdp: CDPSession; wire: ReturnType<typeof wireMeter> }> => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript({ content: OPEN_ROOTS });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      return { context, page, cdp, wire: wireMeter(cdp, server.url) };
    };

    // Bytes: a first page view with the launcher opened, then a second view in the same browser.
    const { context, page, wire } = await fresh();
    await page.goto(demo);
    await (await launcherOf(page)).click();
    await page.locator('pagehand-ui [data-task]').waitFor();
    await page.waitForLoadState('networkidle');
    const firstView = wire.take();
    // Back to the launcher: the panel left open in this tab would open at once on the next view.
    await page.evaluate(() => sessionStorage.removeItem('pagehand:panel'));
    await page.goto(demo);
    await (await launcherOf(page)).click();
    await page.locator('pagehand-ui [data-task]').waitFor();
    await page.waitForLoadState('networkidle');
    const secondView = wire.take();
    // After the loader's max-age: the browser revalidates what it holds.
    await page.evaluate((url) => fetch(url, { cache: 'no-cache' }).then((r) => r.arrayBuffer()), `${server.url}/pagehand-loader.js`);
    await page.waitForLoadState('networkidle');
    const revalidation = wire.take();
    await context.close();

    // Time from the click to a usable panel, and to a ready engine.
    const cold: WireFigures['clickToPanelMs']['cold'] = [];
    const warmed: WireFigures['clickToPanelMs']['warmed'] = [];
    for (let i = 0; i < RUNS; i++) {
      for (const warm of [false, true]) {
        const f = await fresh();
        await f.page.goto(demo);
        const launcher = await launcherOf(f.page);
        await f.page.waitForLoadState('networkidle');
        if (warm) {
          const fetched = f.page.waitForResponse((r) => r.url().includes('/pagehand-agent.'));
          await launcher.hover();
          await (await fetched).finished();
          await f.page.waitForLoadState('networkidle');
        }
        (warm ? warmed : cold).push(await clickToPanel(f.page));
        await f.context.close();
      }
    }
    return { demo: '/demo/contact-form.html (npm start)', firstView, secondView, revalidation, clickToPanelMs: { cold, warmed } };
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The agent chunk the built loader names. */
const agentFile = (): string => /pagehand-agent\.[0-9A-Za-z]{8}\.js/.exec(readFileSync(`${root}dist/pagehand-loader.js`, 'utf8'))![0];

const wireSum = (xs: ReadonlyArray<{ bytes: number }>): number => xs.reduce((s, x) => s + x.bytes, 0);

async function main(): Promise<void> {
  const loadBefore = loadavg();
  if (!existsSync(`${root}dist/pagehand-loader.js`))
    throw new Error('dist/pagehand-loader.js is missing: run `npm run build` first (npm run bench:size does).');
  const agent = agentFile();
  const built = agentFiles();
  if (built.entry !== agent) throw new Error(`dist/pagehand-agent.files.json names ${built.entry}, the loader ${agent}: run \`npm run build\`.`);
  const loader = measure('dist/pagehand-loader.js', 'embed first load: loader + launcher')!;
  const panelFiles = [built.entry, ...built.eager];
  const panel = measureAll(
    panelFiles,
    `dist/pagehand-agent.… (${panelFiles.length} file${panelFiles.length === 1 ? '' : 's'})`,
    'panel on open (overlay, Preact)',
  );
  const engine = measureAll(
    built.engine,
    `dist/pagehand-agent-engine.… (${built.engine.length} file${built.engine.length === 1 ? '' : 's'})`,
    'engine on open (map, actions, loop, safety)',
  );
  // Both load when the launcher is opened (at the same moment).
  const onOpen = [...panelFiles, ...built.engine];
  const chunk = measureAll(onOpen, `dist/pagehand-agent… (${onOpen.length} files)`, 'panel + engine on open');
  const lazy = measureAll(
    built.lazy,
    `dist/pagehand-agent-….js (${built.lazy.length} file${built.lazy.length === 1 ? '' : 's'})`,
    "embed agent, loaded on a feature's first use",
  );
  const marklet = bookmarkletFiles();
  const markletFirst = measure(`dist/${marklet.first}`, 'bookmarklet first file: panel on click (overlay, Preact)')!;
  const markletEngine = measureAll(
    marklet.engine,
    `dist/pagehand-bookmarklet-engine.… (${marklet.engine.length} file${marklet.engine.length === 1 ? '' : 's'})`,
    'bookmarklet engine on click (map, actions, loop, safety)',
  );
  const markletLazy = measureAll(
    marklet.lazy,
    `dist/pagehand-bookmarklet-….js (${marklet.lazy.length} file${marklet.lazy.length === 1 ? '' : 's'})`,
    "bookmarklet engine, loaded on a feature's first use",
  );
  const full = measure('dist/pagehand.js', 'full bundle: old embed tags')!;
  const shots = measure('dist/pagehand-screenshot.js', 'lazy chunk: screenshots');
  const userscript = measure('dist/pagehand.user.js', 'userscript (bundle + GM transport)');
  const peer = measure('node_modules/page-agent/dist/iife/page-agent.demo.js', "page-agent's shipped IIFE");
  const peerVersion = (() => {
    try {
      return JSON.parse(readFileSync(`${root}node_modules/page-agent/package.json`, 'utf8')).version as string;
    } catch {
      return undefined;
    }
  })();
  const files = [loader, panel, engine, chunk, lazy, markletFirst, markletEngine, markletLazy, full, shots, userscript].filter((m): m is Measured => !!m);
  const row = (m: Measured, name = `pagehand ${m.file}`) => [name, m.role, kib(m.minBytes), kb(m.gzipBytes), kb(m.brotliBytes)];
  console.log(
    renderTable(
      [
        { header: 'file' },
        { header: 'role' },
        { header: 'min', align: 'right' },
        { header: 'gzip -9', align: 'right' },
        { header: 'brotli -11', align: 'right' },
      ],
      [...files.map((m) => row(m)), ...(peer ? [row(peer, `page-agent ${peerVersion ?? ''} ${peer.file.replace('node_modules/page-agent/', '')}`)] : [])],
    ),
  );

  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  let wire: Awaited<ReturnType<typeof onTheWire>>;
  try {
    wire = await onTheWire(browser);
  } finally {
    await browser.close();
  }
  const loadAfter = loadavg();

  console.log(`\nOn the wire (${wire.demo}; pagehand's files only, headers included):`);
  console.log(
    renderTable(
      [{ header: 'page view' }, { header: 'requests (path status bytes)' }, { header: 'bytes', align: 'right' }],
      [
        ['first (launcher opened)', wire.firstView],
        ['second, same browser (launcher opened)', wire.secondView],
        ['loader past its 5 min (revalidation)', wire.revalidation],
      ].map(([name, xs]) => {
        const list = xs as WireFigures['firstView'];
        return [
          name as string,
          list.map((x) => `${x.path.replace(/\.[0-9A-Za-z]{8}\.js$/, '.….js')} ${x.status}${x.cached ? ' (cache)' : ''} ${x.bytes}`).join(', ') || '(none)',
          String(wireSum(list)),
        ];
      }),
    ),
  );
  const { cold, warmed } = wire.clickToPanelMs;
  const timings = (['panel', 'engine'] as const).map((k) => ({
    k,
    cold: cold.map((r) => r[k]),
    warmed: warmed.map((r) => r[k]),
  }));
  console.log(`\nFrom a click on the launcher, median of ${RUNS} (fresh browser context each; both figures from the same clicks):`);
  console.log(
    renderTable(
      [
        { header: 'click →' },
        { header: 'agent not fetched yet', align: 'right' },
        { header: 'warmed (pointer over the launcher first)', align: 'right' },
        { header: 'runs (cold; warmed)' },
      ],
      timings.map((t) => [
        t.k === 'panel' ? 'click → panel usable (typing)' : 'click → engine ready',
        ms(median(t.cold)),
        ms(median(t.warmed)),
        `${t.cold.map(ms).join(', ')}; ${t.warmed.map(ms).join(', ')}`,
      ]),
    ),
  );

  const secondViewBytes = Math.max(wireSum(wire.secondView), wireSum(wire.revalidation));
  const bars = [
    { name: 'embed first load (loader + launcher), gzip', limitBytes: BARS.loaderGzip, valueBytes: loader.gzipBytes },
    { name: 'panel on open (overlay, Preact), gzip', limitBytes: BARS.panelGzip, valueBytes: panel.gzipBytes },
    { name: 'engine on open (map, actions, loop, safety), brotli', limitBytes: BARS.engineBrotli, valueBytes: engine.brotliBytes },
    { name: 'bookmarklet first file (panel on click), gzip', limitBytes: BARS.panelGzip, valueBytes: markletFirst.gzipBytes },
    { name: 'bookmarklet engine on click, brotli', limitBytes: BARS.engineBrotli, valueBytes: markletEngine.brotliBytes },
    { name: 'second page view on the wire (worst of: within 5 min, revalidation)', limitBytes: BARS.secondViewBytes, valueBytes: secondViewBytes },
  ].map((b) => ({ ...b, within: b.valueBytes <= b.limitBytes }));
  console.log('');
  for (const b of bars)
    console.log(
      `Bar: ${b.name} ≤ ${kb(b.limitBytes)} → ${b.valueBytes < 10_000 ? `${b.valueBytes} B` : kb(b.valueBytes)}: ${b.within ? 'within' : `OVER by ${kb(b.valueBytes - b.limitBytes)}`}.`,
    );
  console.log(
    `Before the loader a second page view took ${BEFORE_SECOND_VIEW.toLocaleString('en')} bytes (the whole bundle, uncompressed, no-cache without ETag).`,
  );
  if (peer)
    console.log(
      `vs page-agent ${peerVersion}: the embed's first load is ${((loader.gzipBytes / peer.gzipBytes) * 100).toFixed(0)}% of its gzip size; panel + engine on open ${((chunk.gzipBytes / peer.gzipBytes) * 100).toFixed(0)}% (brotli: ${((chunk.brotliBytes / peer.brotliBytes) * 100).toFixed(0)}%).`,
    );
  console.log(`Load average (1, 5, 15 min): before ${loadBefore.map((x) => x.toFixed(2)).join(', ')}; after ${loadAfter.map((x) => x.toFixed(2)).join(', ')}.`);

  // Who the bytes are, by module group, with a pro-rata gzip share.
  const parts: Array<{ output: string; modules: Array<{ module: string; minBytes: number; gzipShare: number }> }> = [];
  const agentMeta = await metafileOf(agentChunkOptions(bundleOptions, root));
  const markletMeta = await metafileOf(bookmarkletEngineOptions(bundleOptions));
  for (const [output, meta, measured, only] of [
    ['dist/pagehand-loader.js', await metafileOf(loaderOptions(bundleOptions, agent, '0.0.0')), loader, undefined],
    [`the panel on open (${panelFiles.join(', ')})`, agentMeta, panel, panelFiles],
    [`the engine on open (${built.engine.join(', ')})`, agentMeta, engine, built.engine],
    [`the agent on demand (${built.lazy.join(', ')})`, agentMeta, lazy, built.lazy],
    [
      `dist/${marklet.first}`,
      await metafileOf(bookmarkletFirstOptions(bundleOptions, marklet.engine, '0.0.0', langFilesOf(await metafileOf(bookmarkletLangOptions(bundleOptions))))),
      markletFirst,
      undefined,
    ],
    [`the bookmarklet engine on click (${marklet.engine.join(', ')})`, markletMeta, markletEngine, marklet.engine],
    ['dist/pagehand-screenshot.js', await metafileOf(screenshotModuleOptions), shots, undefined],
  ] as const) {
    if (!measured) continue;
    const mods = contributors(meta, only);
    const sum = mods.reduce((s, m) => s + m.minBytes, 0) || 1;
    parts.push({ output, modules: mods.map((m) => ({ ...m, gzipShare: Math.round((m.minBytes / sum) * measured.gzipBytes) })) });
  }
  const areas = byArea(agentMeta, onOpen, chunk.gzipBytes);
  console.log(`\nPanel + engine on open, by what they do (bytes in the minified output; gzip share pro rata, of ${kb(chunk.gzipBytes)}):`);
  console.log(
    renderTable(
      [{ header: 'capability' }, { header: 'min', align: 'right' }, { header: '≈ gzip', align: 'right' }],
      areas.map((a) => [a.area, kib(a.minBytes), kb(a.gzipShare)]),
    ),
  );
  for (const p of parts) {
    console.log(`\n${p.output}: biggest contributors (bytes in the minified output; gzip share pro rata)`);
    console.log(
      renderTable(
        [{ header: 'module' }, { header: 'min', align: 'right' }, { header: '≈ gzip', align: 'right' }],
        p.modules.slice(0, 20).map((m) => [m.module, kib(m.minBytes), kb(m.gzipShare)]),
      ),
    );
  }

  await mkdir(`${root}bench/results`, { recursive: true });
  const out = {
    date: new Date().toISOString(),
    gzipLevel: 9,
    brotliQuality: 11,
    units: 'bytes',
    loadAverage: { before: loadBefore, after: loadAfter },
    pagehand: {
      files,
      loader,
      panelOnOpen: { ...panel, files: panelFiles },
      engineOnOpen: { ...engine, files: built.engine },
      agentOnOpen: { ...chunk, files: onOpen },
      agentOnDemand: { ...lazy, files: built.lazy },
      bookmarkletFirstFile: markletFirst,
      bookmarkletEngine: { ...markletEngine, files: marklet.engine },
      bookmarkletOnDemand: { ...markletLazy, files: marklet.lazy },
      fullBundle: full,
      userscript,
    },
    pageAgent: peer ? { version: peerVersion, ...peer } : undefined,
    wire: { ...wire, beforeSecondViewBytes: BEFORE_SECOND_VIEW },
    clickTo: {
      runs: RUNS,
      panelUsable: { coldMedianMs: median(timings[0]!.cold), warmedMedianMs: median(timings[0]!.warmed) },
      engineReady: { coldMedianMs: median(timings[1]!.cold), warmedMedianMs: median(timings[1]!.warmed) },
    },
    bars,
    agentOnOpenByCapability: areas,
    contributors: parts.map((p) => ({ output: p.output, modules: p.modules })),
  };
  await writeFile(`${root}bench/results/size.json`, `${JSON.stringify(out, null, 2)}\n`);
  console.log('\nwrote bench/results/size.json');
}

await main();
