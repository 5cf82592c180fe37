/**
 * `tsx bench/map-reads.ts` — what one map asks the browser for, counted: computed-style objects
 * and property reads, boxes and visibility checks, by the function that asked (an unminified
 * build keeps the names). The page is bench:loop's 5k-element page; the map counted is
 * `pagehand.mapAsync()` after the counter's text changed (as in a step of bench:loop), one
 * warm-up map before it. Profiles say how long; this says how often, which is what a change to
 * the walk can move: each read costs about the same (0.5–1 µs on the 2-core bench machine).
 * Launches Chromium.
 */
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { bundleOptions } from '../build';
import { serveLoopPage } from './lib/loop-page';
import { renderTable } from './lib/table';

const COUNTER = `<button id="add" type="button">Add one</button> <span id="n">Count: 0</span>`;
/** Element methods counted beside getComputedStyle. */
const METHODS = ['getBoundingClientRect', 'getClientRects', 'checkVisibility', 'querySelector', 'querySelectorAll', 'closest', 'matches'];

/** Runs in the page, as a string (no bundler helpers inside): wraps the calls, maps once, returns the counts. */
const COUNT = `(async (methods) => {
  const ph = window.pagehand;
  await ph.mapAsync();
  document.getElementById('n').textContent = 'Count: 1';
  const counts = {};
  const bump = (k) => { counts[k] = (counts[k] || 0) + 1; };
  // The caller: the frame below the wrapper's own.
  const caller = () => (new Error().stack.split('\\n')[3] || '').trim().split(' ')[1] || '?';
  const wins = [window, ...Array.from(document.querySelectorAll('iframe')).map((f) => { try { return f.contentWindow.document && f.contentWindow; } catch { return null; } }).filter(Boolean)];
  for (const w of wins) {
    const gcs = w.getComputedStyle;
    w.getComputedStyle = function (el, pseudo) {
      bump('call getComputedStyle' + (pseudo ? ' ' + pseudo : '') + ' · ' + caller());
      const cs = gcs.call(this, el, pseudo);
      return new Proxy(cs, { get(t, k) { const v = t[k]; if (typeof v === 'function') return v.bind(t); bump('read ' + String(k)); return v; } });
    };
    for (const m of methods) {
      const f = w.Element.prototype[m];
      w.Element.prototype[m] = function (...a) { bump('call ' + m + ' · ' + caller()); return f.apply(this, a); };
    }
  }
  const map = await ph.mapAsync();
  return { counts, visited: map.stats.visited, elements: document.querySelectorAll('*').length };
})`;

async function main(): Promise<void> {
  const out = await build({ ...bundleOptions, minify: false, keepNames: false, write: false, outfile: 'pagehand-reads.js' });
  const pages = await serveLoopPage(COUNTER);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox'] });
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(`${pages.origin}/5k.html`);
    await page.addScriptTag({ content: out.outputFiles[0]!.text });
    const r = (await page.evaluate(`${COUNT}(${JSON.stringify(METHODS)})`)) as { counts: Record<string, number>; visited: number; elements: number };
    const rows = Object.entries(r.counts).sort((a, b) => b[1] - a[1]);
    const reads = rows.filter(([k]) => k.startsWith('read ')).reduce((n, [, v]) => n + v, 0);
    const styles = rows.filter(([k]) => k.startsWith('call getComputedStyle ·')).reduce((n, [, v]) => n + v, 0);
    console.log(
      `\nmap-reads — ${r.elements.toLocaleString('en')} elements, ${r.visited.toLocaleString('en')} visited by the walk; ${styles} computed styles, ${reads} property reads (${(reads / Math.max(1, styles)).toFixed(1)} per style)\n`,
    );
    console.log(
      renderTable(
        [{ header: 'what · asked by' }, { header: 'count', align: 'right' }],
        rows.map(([k, v]) => [k, v]),
      ),
    );
  } finally {
    await browser.close();
    await pages.close();
  }
}

await main();
