/**
 * `BENCH_BASE=<git ref> tsx bench/map-cpu.ts` — the sliced map's cost, this tree against a base
 * (HEAD by default), told apart on a loaded machine: the main thread's CPU time
 * (CDP `Performance.getMetrics` ThreadTime) of `pagehand.mapAsync()` on bench:loop's 5k-element
 * page after the counter's text changed, as in a step. Wall time swings with the machine's load
 * (other processes take the core); the thread's own time far less. The two bundles run in two
 * tabs of one Chromium, in turns (the order swapped every round), BENCH_ROUNDS times each
 * (default 30, the first two left out). Prints medians of both and whether the map texts agree.
 * Launches Chromium.
 */
import { build } from 'esbuild';
import { chromium, type CDPSession, type Page } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleOptions } from '../build';
import { serveLoopPage } from './lib/loop-page';
import { median } from './lib/stats';

const root = fileURLToPath(new URL('..', import.meta.url));
const BASE = process.env.BENCH_BASE ?? 'HEAD';
const ROUNDS = Number(process.env.BENCH_ROUNDS) || 30;
const COUNTER = `<button id="add" type="button">Add one</button> <span id="n">Count: 0</span>`;

async function bundleOf(dir: string): Promise<string> {
  const out = await build({ ...bundleOptions, absWorkingDir: dir, nodePaths: [join(root, 'node_modules')], write: false, outfile: 'pagehand.js' });
  return out.outputFiles[0]!.text;
}

async function treeAt(ref: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pagehand-map-cpu-'));
  const tar = execFileSync('git', ['archive', ref, 'client', 'common', 'tsconfig.json', 'package.json'], { cwd: root, maxBuffer: 1 << 28 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  return dir;
}

interface Tab {
  page: Page;
  cdp: CDPSession;
  cpu: number[];
  wall: number[];
  text: string;
}

/** The main thread's CPU time so far, in ms. */
async function threadMs(cdp: CDPSession): Promise<number> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
  return (metrics.find((m) => m.name === 'ThreadTime')?.value ?? NaN) * 1000;
}

async function main(): Promise<void> {
  const baseDir = await treeAt(BASE);
  const bundles = await Promise.all([bundleOf(baseDir), bundleOf(root)]);
  await rm(baseDir, { recursive: true, force: true });
  const pages = await serveLoopPage(COUNTER);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const tabs: Tab[] = [];
    for (const bundle of bundles) {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      await page.goto(`${pages.origin}/5k.html`);
      await page.addScriptTag({ content: bundle });
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Performance.enable');
      tabs.push({ page, cdp, cpu: [], wall: [], text: '' });
    }
    for (let i = 0; i < ROUNDS; i++) {
      for (const tab of i % 2 ? [...tabs].reverse() : tabs) {
        // The change and the page's restyle before the clock starts: the map's own time is measured.
        await tab.page.evaluate(async (n) => {
          document.getElementById('n')!.textContent = `Count: ${n}`;
          await new Promise((r) => setTimeout(r, 30));
        }, i);
        const before = await threadMs(tab.cdp);
        const [wall, text] = await tab.page.evaluate(async () => {
          const t = performance.now();
          const map = await (window as any).pagehand.mapAsync();
          return [performance.now() - t, map.text as string] as const;
        });
        const cpu = (await threadMs(tab.cdp)) - before;
        if (i >= 2) {
          tab.cpu.push(cpu);
          tab.wall.push(wall);
        }
        tab.text = text;
      }
    }
    const [base, now] = tabs as [Tab, Tab];
    const ms = (x: number): string => x.toFixed(1);
    console.log(`\nmap-cpu — 5k page, ${ROUNDS - 2} maps each, load average ${loadavg()[0]!.toFixed(1)}`);
    console.log(
      `main-thread CPU, median: base ${BASE} ${ms(median(base.cpu))} ms, this tree ${ms(median(now.cpu))} ms (${(median(now.cpu) / median(base.cpu)).toFixed(3)}×)`,
    );
    console.log(
      `wall, median:            base ${ms(median(base.wall))} ms, this tree ${ms(median(now.wall))} ms (${(median(now.wall) / median(base.wall)).toFixed(3)}×)`,
    );
    console.log(`map text: ${base.text === now.text ? 'the same' : 'DIFFERENT'}`);
    if (base.text !== now.text) process.exitCode = 1;
  } finally {
    await browser.close();
    await pages.close();
  }
}

await main();
