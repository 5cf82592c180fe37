/**
 * Perf sanity check for names and roles (not a test, no assertions): how long one describer
 * takes to describe every candidate of a generated page with 5k / 20k / 60k candidates —
 * labelled inputs (for= and wrapping), aria-labelledby, selects, icon buttons with ::before,
 * links wrapping product cards. Prints the figures, plus what `.labels` per input would cost
 * on the same page for comparison.
 *
 * Run (launches Chromium, so under the shared lock):
 *   flock /tmp/pagehand-chromium.lock npx tsx bench/describe.ts [sizes…]
 */
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
if (!sizes.length) sizes.push(5_000, 20_000, 60_000);

/** One "row" holds 10 candidates of varied kinds. */
function row(i: number): string {
  return `<div class="row">
  <label for="in-${i}">Email ${i}</label><input id="in-${i}" type="email">
  <label>Quantity <input type="number" value="${i % 9}"></label>
  <span id="lb-${i}">Shipping</span><input aria-labelledby="lb-${i} in-${i}">
  <select aria-label="Size"><option>S</option><option selected>M</option></select>
  <button class="icon" title="Settings"></button>
  <button><span class="star"></span>Save <b>item ${i}</b></button>
  <a href="/p/${i}"><div class="card"><img alt="Product ${i}" src="data:,"><h3>Product ${i}</h3><p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor ${i}.</p><span class="price">€${i % 100}.99</span></div></a>
  <div role="button" tabindex="0" aria-label="Close ${i}">×</div>
  <input type="checkbox" id="cb-${i}"><label for="cb-${i}">Remember ${i}</label>
  <textarea placeholder="Notes ${i}"></textarea>
</div>`;
}

function pageHtml(candidates: number): string {
  const rows: string[] = [];
  for (let i = 0; i < Math.ceil(candidates / 10); i++) rows.push(row(i));
  return `<!doctype html><html><head><meta charset="utf-8"><style>
.icon::before { content: "\\f013"; font-family: icons; } .star::before { content: "★ "; }
.card { display: flex; flex-direction: column; } .row { display: flex; gap: 4px; }
</style></head><body>${rows.join('\n')}</body></html>`;
}

const modules = (
  await build({
    absWorkingDir: root,
    stdin: {
      contents:
        "import { createDescriber } from './client/page/names/describe';\nimport { pageSettings } from './client/safety/settings';\n" +
        '(window as any).__d = () => createDescriber(pageSettings());\n',
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'iife',
    minify: true,
    target: ['chrome120'],
    logLevel: 'warning',
  })
).outputFiles[0]!.text;

interface InPageResult {
  candidates: number;
  elements: number;
  cold: { ms: number; chars: number };
  warm: { ms: number; chars: number };
  labelsMs: number;
  inputs: number;
}

const IN_PAGE = `(() => {
  const sel = 'a[href],button,input,select,textarea,[role=button]';
  const all = [...document.querySelectorAll(sel)];
  document.body.offsetHeight; // settle style and layout first, as the map would have
  const run = () => {
    const d = window.__d();
    const t0 = performance.now();
    let chars = 0;
    for (const el of all) chars += d.describe(el).name.length;
    return { ms: performance.now() - t0, chars };
  };
  const cold = run();
  const warm = run();
  const inputs = all.filter((e) => e.localName === 'input' || e.localName === 'select' || e.localName === 'textarea');
  const sample = inputs.slice(0, 2000); // .labels is slow: time a sample, extrapolate
  const t1 = performance.now();
  for (const el of sample) void el.labels?.length;
  const labelsMs = ((performance.now() - t1) / sample.length) * inputs.length;
  return { candidates: all.length, elements: document.getElementsByTagName('*').length, cold, warm, labelsMs, inputs: inputs.length };
})()`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  console.log('candidates  elements  describe (cold)  per candidate  describe (2nd describer)  .labels per input (inputs)');
  for (const n of sizes) {
    const page = await browser.newPage();
    await page.setContent(pageHtml(n), { timeout: 120_000 });
    await page.addScriptTag({ content: modules });
    // A string, not a function: tsx would wrap named inner functions in a helper the page lacks.
    const r = (await page.evaluate(IN_PAGE)) as InPageResult;
    const per = (r.cold.ms * 1000) / r.candidates;
    console.log(
      `${String(r.candidates).padStart(10)}  ${String(r.elements).padStart(8)}  ${r.cold.ms.toFixed(0).padStart(12)} ms  ${per.toFixed(1).padStart(10)} µs  ${r.warm.ms.toFixed(0).padStart(20)} ms  ${r.labelsMs.toFixed(0).padStart(14)} ms (${r.inputs}, extrapolated)`,
    );
    await page.close();
  }
} finally {
  await browser.close();
}
