/**
 * The index of custom selects' stand-ins (client/page/map/widgets.ts) is built once and serves
 * the maps and actions that follow while the page has not changed, and afresh after a change: a
 * stand-in added meanwhile still reads as its select. A same-origin frame's index is kept apart
 * from the page's.
 */
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { open, useSession } from './harness';
import { act, refOf } from './actions-helpers';

const session = useSession();
let page: Page;

const standIn = (id: string, label: string) =>
  `<label for="${id}">${label}</label><select id="${id}" style="display:none"><option>Small</option><option selected>Large</option></select>` +
  `<span class="widget" role="combobox" aria-expanded="false" tabindex="0">Large</span>`;

const HTML = `<!doctype html><html><head><meta charset="utf-8"><title>stand-in index</title></head>
<body><main>
  <div id="first">${standIn('size', 'Size')}</div>
  <div id="later"></div>
  <iframe title="Frame" srcdoc="<label>Pick <select><option>One</option></select></label>"></iframe>
  <button id="add" type="button">Add one</button> <span id="n">Count: 0</span>
</main>
<script>
  let n = 0;
  document.getElementById('add').addEventListener('click', () => { document.getElementById('n').textContent = 'Count: ' + (++n); });
  // Building the index queries the document's selects: counted.
  window.__indexes = 0;
  const qsa = Document.prototype.querySelectorAll;
  Document.prototype.querySelectorAll = function (s) { if (s === 'select') window.__indexes++; return qsa.call(this, s); };
</script></body></html>`;

beforeEach(async () => {
  await page?.close();
  page = await open(session, HTML);
});

const indexes = (): Promise<number> => page.evaluate(() => (window as any).__indexes as number);

describe('stand-in index', () => {
  it('is not built again for a map and the action after it on a still page', async () => {
    expect(await refOf(page, 'combobox', 'Size')).toBeTruthy();
    const ref = await refOf(page, 'button', 'Add one');
    await page.evaluate(() => ((window as any).__indexes = 0));
    await page.evaluate(() => (window as any).pagehand.map());
    const r = await act(page, 'click', { ref });
    expect(r.ok).toBe(true);
    // The index the maps of refOf built serves both (each built its own before).
    expect(await indexes()).toBe(0);
  });

  it('is built afresh after a change, and a stand-in added meanwhile reads as its select', async () => {
    await page.evaluate(() => (window as any).pagehand.map());
    await page.evaluate(() => ((window as any).__indexes = 0));
    await page.evaluate((html) => (document.getElementById('later')!.innerHTML = html), standIn('colour', 'Colour'));
    const ref = await refOf(page, 'combobox', 'Colour');
    const r = await act(page, 'click', { ref });
    expect(r.ok).toBe(true);
    expect(r.message).toContain('Colour');
    expect(await indexes()).toBeGreaterThanOrEqual(1);
  });
});
