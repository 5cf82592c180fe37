/**
 * `pagehand.mapAsync()`: the map built in slices. It equals `map()` on a page that does not
 * change, lets the page's own tasks run before it resolves, and leaves out (without failing)
 * what the page removes between its slices.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { open, splitMap, useSession } from './harness';

const s = useSession();

interface Snapshot {
  text: string;
  elements: unknown[];
  listed: number;
  visited: number;
}

/** map() then mapAsync() on the same, unchanged page (after a first map, so no ref is new in either). */
async function both(page: Page): Promise<{ sync: Snapshot; sliced: Snapshot }> {
  return page.evaluate(async () => {
    const ph = (window as any).pagehand;
    const pick = (m: any) => ({ text: m.text, elements: m.elements, listed: m.stats.listed, visited: m.stats.visited });
    ph.map();
    const sync = pick(ph.map());
    const sliced = pick(await ph.mapAsync());
    return { sync, sliced };
  });
}

/** A page big enough to take many slices: `rows` rows of a heading, text, a link and a button. */
function bigPage(rows: number): string {
  const row = (i: number) =>
    `<div class="row" id="r${i}"><h3>Row ${i}</h3><p>Some text of row ${i} with <a href="#r${i}">a link ${i}</a> inside.</p><button>Action ${i}</button></div>`;
  return `<!doctype html><title>big</title><body><main id="main">${Array.from({ length: rows }, (_, i) => row(i)).join('')}</main></body>`;
}

describe('mapAsync', () => {
  for (const fixture of [
    'map/reach.html',
    'widgets/selects.html',
    'agent/webmail/inbox.html',
    'agent/shop/index.html',
    'actions/frame.html',
    'actions/read.html',
  ]) {
    it(`equals map() on ${fixture}`, async () => {
      const page = await open(s, fixture);
      const { sync, sliced } = await both(page);
      expect(sync.listed).toBeGreaterThan(0);
      expect(sliced.text).toBe(sync.text);
      expect(sliced.elements).toEqual(sync.elements);
      expect(sliced.visited).toBe(sync.visited);
      await page.close();
    });
  }

  it('equals map() through shadow roots, slots, closed <details>, frames and an open modal', async () => {
    const page = await open(
      s,
      `<!doctype html><title>mix</title><body>
      <h1>Mixed</h1>
      <x-card id="card"><span>Slotted text</span><button>Slotted button</button></x-card>
      <details><summary>More</summary><button>Hidden inside</button></details>
      <iframe id="f" srcdoc="<button>In frame</button><p>Frame text</p>" style="width:300px;height:120px"></iframe>
      <p>Before <b>bold <i>nested</i></b> after</p>
      <dialog id="d"><form method="dialog"><label>Name <input></label><button>Close</button></form></dialog>
      <script>
        customElements.define('x-card', class extends HTMLElement {
          constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML = '<section><h2>Card</h2><slot></slot><a href="#x">Shadow link</a></section>'; }
        });
      </script></body>`,
    );
    await page.waitForFunction(() => (document.getElementById('f') as HTMLIFrameElement).contentDocument?.querySelector('button'));
    const closed = await both(page);
    expect(closed.sync.text).toContain('Slotted button');
    expect(closed.sync.text).toContain('In frame');
    expect(closed.sliced.text).toBe(closed.sync.text);
    expect(closed.sliced.elements).toEqual(closed.sync.elements);
    await page.evaluate(() => (document.getElementById('d') as HTMLDialogElement).showModal());
    const modal = await both(page);
    expect(modal.sync.text).toContain('modal');
    expect(modal.sliced.text).toBe(modal.sync.text);
    expect(modal.sliced.elements).toEqual(modal.sync.elements);
  });

  it('lets tasks the page queued before the call run before it resolves', async () => {
    const page = await open(s, bigPage(3000));
    const order = await page.evaluate(async () => {
      const ph = (window as any).pagehand;
      ph.map();
      const log: string[] = [];
      setTimeout(() => log.push('timeout'), 0);
      const ch = new MessageChannel();
      ch.port1.onmessage = () => log.push('message');
      ch.port2.postMessage(null);
      const sync = ph.map();
      log.push('map() returned');
      const m = await ph.mapAsync();
      log.push('mapAsync() resolved');
      return { log, same: m.text === sync.text };
    });
    // The synchronous map holds the thread; the sliced one hands it to the page's queued tasks.
    expect(order.log[0]).toBe('map() returned');
    expect(order.log.slice(1, 3).sort()).toEqual(['message', 'timeout']);
    expect(order.log[3]).toBe('mapAsync() resolved');
    expect(order.same).toBe(true);
  });

  it('leaves out what the page removes between its slices, without failing', async () => {
    const page = await open(s, bigPage(3000));
    const r = await page.evaluate(async () => {
      const ph = (window as any).pagehand;
      const before = ph.map().text as string;
      // Each time the page gets the thread, it removes the next of the first rows (in view),
      // ten at most: on a slow machine the map takes more slices, and rows must remain to list.
      const removed: string[] = [];
      let next = 0;
      let running = true;
      const removeOne = () => {
        if (!running || next >= 10) return;
        const row = document.getElementById(`r${next++}`);
        if (row) {
          removed.push(row.querySelector('button')!.textContent!);
          row.remove();
        }
        const ch = new MessageChannel();
        ch.port1.onmessage = removeOne;
        ch.port2.postMessage(null);
      };
      removeOne();
      const m = await ph.mapAsync();
      running = false;
      const listedGone = m.elements.filter((e: any) => {
        try {
          return !ph.resolve(e.ref).isConnected;
        } catch {
          return true;
        }
      });
      const after = ph.map();
      return { before, text: m.text as string, removed, listedGone: listedGone.length, afterText: after.text as string };
    });
    // Removal happened while the map was being built (the first row before it even started).
    expect(r.removed.length).toBeGreaterThan(1);
    expect(r.before).toContain(`button "${r.removed[1]}"`);
    const body = splitMap(r.text).body.join('\n');
    for (const name of r.removed) expect(body).not.toContain(`button "${name}"`);
    expect(r.listedGone).toBe(0);
    // Refs stay stable: a synchronous map right after lists the remaining rows under the same refs.
    const firstKept = splitMap(r.text).body.find((l) => /button "Action \d+"/.test(l))!;
    expect(firstKept).toBeTruthy();
    expect(splitMap(r.afterText).body).toContain(firstKept.replace(/^(\s*)\*/, '$1'));
  });

  it('leaves out a frame removed between its slices', async () => {
    const page = await open(
      s,
      bigPage(3000).replace(
        '<main id="main">',
        '<iframe id="f" srcdoc="<button>Frame button</button>" style="width:300px;height:80px"></iframe><main id="main">',
      ),
    );
    await page.waitForFunction(() => (document.getElementById('f') as HTMLIFrameElement).contentDocument?.querySelector('button'));
    const r = await page.evaluate(async () => {
      const ph = (window as any).pagehand;
      const before = ph.map().text as string;
      const ch = new MessageChannel();
      ch.port1.onmessage = () => document.getElementById('f')!.remove();
      ch.port2.postMessage(null);
      const m = await ph.mapAsync();
      return { before, text: m.text as string, tags: m.elements.map((e: any) => e.name) as string[] };
    });
    expect(r.before).toContain('button "Frame button"');
    expect(r.text).not.toContain('Frame button');
    expect(r.tags).not.toContain('Frame button');
    expect(r.tags).toContain('Action 1');
  });

  it('reads the page again when the window scrolled between its slices', async () => {
    const page = await open(s, bigPage(3000));
    const r = await page.evaluate(async () => {
      const ph = (window as any).pagehand;
      const top = ph.map().text as string;
      const ch = new MessageChannel();
      ch.port1.onmessage = () => window.scrollTo(0, 20_000);
      ch.port2.postMessage(null);
      const sliced = (await ph.mapAsync()).text as string;
      const now = ph.map().text as string;
      return { top, sliced, now, scrollY: window.scrollY };
    });
    expect(r.scrollY).toBe(20_000);
    expect(r.now).not.toBe(r.top);
    // What it lists is the page at its new scroll position, as map() reads it afterwards.
    expect(splitMap(r.sliced).body.map((l) => l.replace(/^\*/, ''))).toEqual(splitMap(r.now).body);
  });

  it('reads the page again when a scroller inside it scrolled between its slices', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => `<button>Row ${i + 1}</button>`).join('<br>');
    const page = await open(s, bigPage(3000).replace('<main id="main">', `<div id="list" style="height:240px;overflow:auto">${rows}</div><main id="main">`));
    const r = await page.evaluate(async () => {
      const ph = (window as any).pagehand;
      const top = ph.map().text as string;
      const ch = new MessageChannel();
      ch.port1.onmessage = () => (document.getElementById('list')!.scrollTop = 4000);
      ch.port2.postMessage(null);
      const sliced = (await ph.mapAsync()).text as string;
      const now = ph.map().text as string;
      return { top, sliced, now, scrollTop: document.getElementById('list')!.scrollTop };
    });
    expect(r.scrollTop).toBeGreaterThan(3000);
    expect(r.now).not.toBe(r.top);
    expect(splitMap(r.sliced).body.map((l) => l.replace(/^(\s*)\*/, '$1'))).toEqual(splitMap(r.now).body);
  });

  it('survives the whole content being removed mid-walk', async () => {
    const page = await open(s, bigPage(3000));
    const r = await page.evaluate(async () => {
      const ph = (window as any).pagehand;
      ph.map();
      // Queued before the call: it runs at the map's first pause, after its first slice.
      const ch = new MessageChannel();
      ch.port1.onmessage = () => document.getElementById('main')!.remove();
      ch.port2.postMessage(null);
      const m = await ph.mapAsync();
      return { text: m.text as string, elements: m.elements.length, inPage: !!document.getElementById('main') };
    });
    expect(r.inPage).toBe(false);
    expect(r.elements).toBe(0);
    expect(splitMap(r.text).body).toEqual([]);
  });
});
