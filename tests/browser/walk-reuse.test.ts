/**
 * A step's recording describes its target from the walk its map made (client/page/map/walk-reuse.ts,
 * describeTargetIn in client/agent/recording/locate.ts) while the page has not changed: the
 * description must be the one a fresh walk of the whole page gives, for every control of a page
 * built to tell them apart (repeated "Open" rows, far inline links inside a clipping box, a
 * zero-size far link named like a near one), and the kept walk must be refused after any change.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSession } from './harness';
import { sourceModules } from './source-modules';

const session = useSession({ width: 1000, height: 700 });
let page: Page;
let modules: string;

const rows = Array.from({ length: 40 }, (_, i) => (i % 3 ? `<li>Item ${i + 1} <button>Open</button></li>` : '<li>Spare part <button>Open</button></li>')).join(
  '',
);
const para = (i: number) =>
  `<p>Paragraph ${i} with <a href="#a${i}">a link</a> and <a href="#help">Help</a> and <span class="btnish" onclick="void 0">Details</span> inline.</p>`;
const HTML = `<!doctype html><html><head><meta charset="utf-8"><title>walk reuse</title>
<style>p { margin: 60px 0 } .clip { overflow: hidden; height: 400px } .btnish { cursor: pointer } .zero { display: inline-block; width: 0; height: 0; overflow: hidden }</style></head>
<body><main><h1>Catalogue</h1><nav aria-label="Top"><a href="#help">Help</a> <button>Open</button></nav>
<ul>${rows}</ul>
<h2>Articles</h2>${Array.from({ length: 30 }, (_, i) => para(i)).join('')}
<div class="clip">${Array.from({ length: 30 }, (_, i) => para(100 + i)).join('')}</div>
<p>Far away: <a aria-label="Help" href="#help"></a> and <a href="#help">Help</a></p>
<form aria-label="Sign up"><input aria-label="Email"><button>Open</button></form>
<x-box></x-box>
</main>
<script>customElements.define('x-box', class extends HTMLElement { constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML = '<button>Boxed</button>'; } });</script>
</body></html>`;

beforeAll(async () => {
  modules = await sourceModules(
    "import { buildMapAsync } from './client/page/map/map';\n" +
      "import { createDescriber } from './client/page/names/describe';\n" +
      "import { walkBehind } from './client/page/map/walk-reuse';\n" +
      "import { describeTarget, describeTargetIn } from './client/agent/recording/locate';\n" +
      "import { pageSettings } from './client/safety/settings';\n" +
      'const settings = pageSettings();\n' +
      'let map: any;\n' +
      '(window as any).__ph = {\n' +
      '  map: async () => { map = await buildMapAsync({ maxTokens: 3000 }, settings); },\n' +
      '  kept: () => walkBehind(map, settings) !== undefined,\n' +
      '  compare: () => {\n' +
      "    const els = [...document.querySelectorAll('button, a, .btnish, input')];\n" +
      '    return els.map((el) => {\n' +
      '      const reused = describeTargetIn(map, el, createDescriber(settings));\n' +
      '      const fresh = describeTarget(el, undefined, createDescriber(settings));\n' +
      '      return { reused, fresh };\n' +
      '    });\n' +
      '  },\n' +
      '};\n',
    'walk-reuse-entry.ts',
  );
  page = await session.context.newPage();
});

afterAll(async () => {
  await page?.close();
});

async function fresh(): Promise<void> {
  await page.setContent(HTML);
  await page.addScriptTag({ content: modules });
  await page.evaluate(() => (window as any).__ph.map());
}

describe('the map walk reused for a step recording', () => {
  it('describes every control as a fresh walk of the whole page does', async () => {
    await fresh();
    expect(await page.evaluate(() => (window as any).__ph.kept())).toBe(true);
    const pairs: Array<{ reused: unknown; fresh: unknown }> = await page.evaluate(() => (window as any).__ph.compare());
    expect(pairs.length).toBeGreaterThan(200);
    // Repeated controls are told apart (rows, landmarks, places among equals)…
    expect(pairs.filter((p) => (p.fresh as { nth?: number } | undefined)?.nth).length).toBeGreaterThan(5);
    // …and each description is the fresh walk's.
    for (const p of pairs) expect(p.reused).toEqual(p.fresh);
    // Reading them changed nothing: the walk is still offered.
    expect(await page.evaluate(() => (window as any).__ph.kept())).toBe(true);
  });

  it.each([
    ['a text change', "document.querySelector('li').firstChild.data = 'Item zero '"],
    ['an attribute', "document.querySelector('nav').setAttribute('aria-label', 'Bottom')"],
    ['a new node', "document.querySelector('ul').append(document.createElement('li'))"],
    ['a scroll', 'scrollBy(0, 300)'],
    ['a scroll inside a clipping box', "document.querySelector('.clip').scrollTop = 200"],
    ['the focus', "document.querySelector('input').focus()"],
    ['a change inside an open shadow root', "document.querySelector('x-box').shadowRoot.querySelector('button').setAttribute('aria-label', 'Boxed in')"],
  ])('is refused after %s, and the description is still the fresh one', async (_what, change) => {
    await fresh();
    await page.evaluate(change);
    // A scroll event is dispatched at the next frame.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(await page.evaluate(() => (window as any).__ph.kept())).toBe(false);
    const pairs: Array<{ reused: unknown; fresh: unknown }> = await page.evaluate(() => (window as any).__ph.compare());
    for (const p of pairs) expect(p.reused).toEqual(p.fresh);
  });
});
