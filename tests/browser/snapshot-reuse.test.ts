/**
 * An action's after-snapshot serves as the next action's before-snapshot while the page has not
 * changed (client/page/actions/snapshot-reuse.ts): one snapshot fewer per step on a still page,
 * and a fresh one after anything that may have changed what shows — a mutation, the user's
 * pointer over a hover menu, a checkbox the user ticked, a popover shown, a running animation.
 * Each of those shows controls between two clicks; the second click must not report them as
 * its own doing, as a stale before-snapshot would.
 *
 * The after-snapshot itself is taken ahead, while the page is quiet inside the settle wait, and
 * used only if nothing changed by the wait's end: a change the wait does not count as activity
 * (focus moved by the page) still shows in what the action reports.
 */
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { open, useSession } from './harness';
import { act, refOf } from './actions-helpers';

const session = useSession();
let page: Page;

const HTML = `<!doctype html><html><head><meta charset="utf-8"><title>snapshot reuse</title>
<style>
  .menu .items, .drawer, .late { display: none }
  .menu:hover .items, #more:checked ~ .drawer { display: block }
  .late.shown { display: block }
  .combo .items { display: none }
  .combo:focus-within .items { display: block }
</style></head>
<body><main>
  <button id="add" type="button">Add one</button> <span id="n">Count: 0</span>
  <div class="menu"><span id="hover-here">Products</span><div class="items"><a href="#a">Alpha</a> <a href="#b">Beta</a></div></div>
  <input type="checkbox" id="more"><label for="more">More</label>
  <div class="drawer"><a href="#c">Gamma</a> <a href="#d">Delta</a></div>
  <div id="pop" popover><button type="button">Inside popover</button></div>
  <div id="anim"><a href="#e">Epsilon</a></div>
  <div class="late"><a href="#f">Zeta</a></div>
  <button id="later" type="button">Focus later</button>
  <div class="combo"><input id="q" aria-label="Query"><div class="items"><a href="#g">Eta</a> <a href="#h">Theta</a></div></div>
</main>
<script>
  // Focus moves after __laterMs, through posted messages: no timer, request or mutation,
  // nothing the settle wait counts as activity.
  document.getElementById('later').addEventListener('click', () => {
    const t0 = performance.now(), ch = new MessageChannel();
    ch.port1.onmessage = () => (performance.now() - t0 < window.__laterMs ? ch.port2.postMessage(0) : document.getElementById('q').focus());
    ch.port2.postMessage(0);
  });
  let n = 0;
  document.getElementById('add').addEventListener('click', () => { document.getElementById('n').textContent = 'Count: ' + (++n); });
  // Snapshots query the interactive elements with one selector starting with a[href]: counted.
  window.__snapshots = 0;
  const qsa = Document.prototype.querySelectorAll;
  Document.prototype.querySelectorAll = function (s) { if (String(s).startsWith('a[href],button')) window.__snapshots++; return qsa.call(this, s); };
</script></body></html>`;

beforeEach(async () => {
  await page?.close();
  page = await open(session, HTML);
});

const snapshots = (): Promise<number> => page.evaluate(() => (window as any).__snapshots as number);

/** Clicks "Add one" twice with `between` in the middle; the second click's changes. */
async function twoClicks(between: () => Promise<unknown>): Promise<Record<string, unknown>> {
  const ref = await refOf(page, 'button', 'Add one');
  const first = await act(page, 'click', { ref });
  expect(first.ok).toBe(true);
  await between();
  const second = await act(page, 'click', { ref });
  expect(second.ok).toBe(true);
  expect(await page.locator('#n').textContent()).toBe('Count: 2');
  return second.changes as Record<string, unknown>;
}

describe('before-snapshot reuse', () => {
  it('takes three snapshots for two clicks on a still page, and reports the same', async () => {
    const changes = await twoClicks(async () => {});
    expect(await snapshots()).toBe(3);
    expect(changes).toEqual({});
  });

  const cases: Array<[string, () => Promise<unknown>]> = [
    ['a script shows links (a mutation)', () => page.evaluate(() => document.querySelector('.late')!.classList.add('shown'))],
    ['the user hovers a menu', () => page.hover('#hover-here')],
    ['the user ticks a checkbox', () => page.click('label[for=more]')],
    ['a script shows a popover', () => page.evaluate(() => (document.getElementById('pop') as any).showPopover())],
    [
      'an animation hides links',
      () =>
        page.evaluate(() => {
          document.getElementById('anim')!.animate([{ visibility: 'hidden' }, { visibility: 'hidden' }], { duration: 60_000, fill: 'forwards' });
        }),
    ],
  ];
  for (const [what, between] of cases) {
    it(`takes a fresh before-snapshot when ${what} between two clicks`, async () => {
      const changes = await twoClicks(between);
      expect(changes.newElements).toBeUndefined();
      expect(changes.goneElements).toBeUndefined();
      expect(await snapshots()).toBe(4);
    });
  }
});

describe('after-snapshot taken ahead', () => {
  it('reports links a focus change shows after the snapshot was taken ahead, before the wait ended', async () => {
    // Quiet window 400 ms: the snapshot is taken ahead at 200 ms, focus moves at 300.
    await page.evaluate(() => ((window as any).__laterMs = 300));
    const r = await act(page, 'click', { ref: await refOf(page, 'button', 'Focus later') }, { quietWindow: 400 });
    expect(r.ok).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('q');
    expect(r.changes.newElements).toBe(2);
    expect(r.changes.newSample).toEqual(['link "Eta"', 'link "Theta"']);
  });
});
