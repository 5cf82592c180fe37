/**
 * The next map's walk, started ahead inside an action's settle wait (client/page/map/walk-ahead.ts):
 * the map that takes it over must be the map a fresh walk gives, and any change since the walk
 * began must send the map back to a fresh walk — a change in the document, inside an open
 * shadow root, inside a same-origin frame, an image that finished loading, a scroll whose event
 * has not come yet, a focus change.
 *
 * Whether a map took the walk over is seen from outside: the walk reads each element's computed
 * style once (`getComputedStyle`, counted in the page); the stages after it read only those of
 * the elements they name.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open, origin, useSession } from './harness';
import { act, refOf } from './actions-helpers';
import { sourceModules } from './source-modules';

const session = useSession({ width: 1000, height: 700 });
let page: Page;
let modules: string;

const rows = Array.from({ length: 120 }, (_, i) => `<li>Item ${i + 1} <button>Open ${i + 1}</button></li>`).join('');
const LATE_IMAGE = '/late-image.svg';
const HTML = `<!doctype html><html><head><meta charset="utf-8"><title>walk ahead</title>
<style>li { margin: 4px 0 }</style></head>
<body><main><h1>Catalogue</h1>
<button id="add" type="button">Add one</button> <span id="n">Count: 0</span>
<input id="q" aria-label="Query">
<x-card></x-card>
<iframe id="fr" srcdoc="<p>Framed text</p><button>Framed button</button>" style="height:80px"></iframe>
<button id="below-image">After the image</button>
<ul>${rows}</ul>
</main>
<script>
  customElements.define('x-card', class extends HTMLElement {
    constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML = '<p>Shadow text</p><button>Shadow button</button>'; }
  });
  let n = 0;
  document.getElementById('add').addEventListener('click', () => { document.getElementById('n').textContent = 'Count: ' + (++n); });
  window.__styles = 0;
  const gcs = window.getComputedStyle;
  // Styles of elements themselves (not of ::before and ::after, which names read).
  window.getComputedStyle = function (...a) { if (!a[1]) window.__styles++; return gcs.apply(this, a); };
</script></body></html>`;

beforeAll(async () => {
  modules = await sourceModules(
    "import { buildMapAsync } from './client/page/map/map';\n" +
      "import { walkAhead } from './client/page/map/walk-ahead';\n" +
      "import { pageSettings } from './client/safety/settings';\n" +
      'const settings = pageSettings();\n' +
      '(window as any).__ph = {\n' +
      '  ahead: () => walkAhead(settings),\n' +
      // The map and how many computed styles it read.
      '  map: async () => { const s0 = (window as any).__styles; const m = await buildMapAsync({ maxTokens: 3000 }, settings);\n' +
      "    return { text: m.text.replace(/\\*\\[/g, '['), styles: (window as any).__styles - s0, visited: m.stats.visited }; },\n" +
      '};\n',
    'walk-ahead-entry.ts',
  );
});

afterAll(async () => {
  await page?.close();
});

interface MapRun {
  text: string;
  styles: number;
  visited: number;
}
const map = (): Promise<MapRun> => page.evaluate(() => (window as any).__ph.map());

/** The page's frame has loaded its button. */
const framed = (): Promise<unknown> =>
  page.waitForFunction(() => (document.getElementById('fr') as HTMLIFrameElement).contentDocument?.querySelector('button'));

/** A page with the modules in, its frame loaded, and one map built (refs handed out); `routes` first. */
async function fresh(routes?: (p: Page) => Promise<unknown>): Promise<void> {
  await page?.close();
  page = await session.context.newPage();
  await routes?.(page);
  await page.route(`${origin()}/fixtures/walk-ahead.html`, (r) => r.fulfill({ contentType: 'text/html; charset=utf-8', body: HTML }));
  await page.goto(`${origin()}/fixtures/walk-ahead.html`, { waitUntil: 'domcontentloaded' });
  await framed();
  await page.addScriptTag({ content: modules });
  await map();
}

describe('a map taking over the walk started ahead', () => {
  it('is the map a fresh walk gives, and reads few styles', async () => {
    await fresh();
    await page.evaluate(() => (window as any).__ph.ahead());
    const taken = await map();
    const walked = await map();
    expect(taken.text).toContain('Shadow button');
    expect(taken.text).toContain('Framed button');
    expect(taken.text).toBe(walked.text);
    // The fresh walk reads a style per element it visits; the taken-over map reads only what
    // names and states need.
    expect(walked.styles).toBeGreaterThanOrEqual(walked.visited);
    expect(walked.styles - taken.styles).toBeGreaterThanOrEqual(walked.visited / 2);
  });

  it.each([
    ['a text change in the document', "document.querySelector('li').firstChild.data = 'Item zero '", 'Item zero'],
    [
      'a change inside an open shadow root',
      "document.querySelector('x-card').shadowRoot.querySelector('button').textContent = 'Shadow changed'",
      'Shadow changed',
    ],
    [
      'a change inside a same-origin frame',
      "document.getElementById('fr').contentDocument.querySelector('button').textContent = 'Frame changed'",
      'Frame changed',
    ],
    ['a scroll whose event has not come yet', 'scrollBy(0, 1500)', '"Open 60"'],
    ['the focus moved', "document.getElementById('q').focus()", 'focused'],
  ])('is refused after %s, and the map is the fresh one', async (_what, change, shows) => {
    await fresh();
    // Once the walk is done, the change and the map in one task: an event the change causes
    // has not been dispatched.
    const before = await page.evaluate(async (c) => {
      await (window as any).__ph.ahead();
      (0, eval)(c);
      return (window as any).__ph.map();
    }, change);
    const after = await map();
    if (shows) expect(before.text).toContain(shows);
    expect(before.text).toBe(after.text);
    expect(before.styles).toBeGreaterThanOrEqual(before.visited);
  });

  it.each([
    ['in the document', "document.querySelector('h1').setAttribute('data-pagehand', 'off')", 'Catalogue'],
    ['inside a shadow root', "document.querySelector('x-card').shadowRoot.querySelector('button').setAttribute('data-pagehand', 'off')", 'Shadow button'],
  ])('leaves out what the page marks as a deny zone %s once the walk began', async (_where, mark, hidden) => {
    await fresh();
    expect((await map()).text).toContain(hidden);
    const before = await page.evaluate(async (c) => {
      await (window as any).__ph.ahead();
      (0, eval)(c);
      return (window as any).__ph.map();
    }, mark);
    expect(before.text).not.toContain(hidden);
    expect(before.text).toBe((await map()).text);
  });

  it('is refused after an image finished loading and moved what is below it', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await fresh((p) =>
      p.route(`**${LATE_IMAGE}`, async (r) => {
        await held;
        await r.fulfill({ contentType: 'image/svg+xml', body: '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="2000"/>' });
      }),
    );
    // Added once the page has loaded: its load is the image's own event, not the window's.
    await page.evaluate((src) => {
      const img = Object.assign(document.createElement('img'), { id: 'late', alt: '', src });
      document.getElementById('below-image')!.before(img);
    }, LATE_IMAGE);
    expect((await map()).text).toContain('After the image');
    await page.evaluate(() => (window as any).__ph.ahead());
    release();
    await page.waitForFunction(() => (document.getElementById('late') as HTMLImageElement).complete);
    const taken = await map();
    // 2000 px of image now stand between the top of the page and the button.
    expect(taken.text).not.toContain('After the image');
    expect(taken.text).toBe((await map()).text);
  });
});

describe('the walk started by an action', () => {
  it('is taken over by the next map, which equals a fresh one', async () => {
    await page?.close();
    page = await open(session, HTML);
    await framed();
    const ref = await refOf(page, 'button', 'Add one');
    const r = await act(page, 'click', { ref });
    expect(r.ok).toBe(true);
    const run = () =>
      page.evaluate(async () => {
        const s0 = (window as any).__styles;
        const m = await (window as any).pagehand.mapAsync();
        return { text: m.text.replace(/\*\[/g, '['), styles: (window as any).__styles - s0, visited: m.stats.visited };
      });
    const taken = await run();
    const walked = await run();
    expect(taken.text).toContain('Count: 1');
    expect(taken.text).toBe(walked.text);
    expect(walked.styles).toBeGreaterThanOrEqual(walked.visited);
    expect(walked.styles - taken.styles).toBeGreaterThanOrEqual(walked.visited / 2);
  });
});
