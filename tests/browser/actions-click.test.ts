import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { open, origin, useSession } from './harness';
import { act, appState, refAt, refOf } from './actions-helpers';

const s = useSession();

describe('click on plain DOM', () => {
  it('dispatches the full pointer/mouse sequence in browser order, at the element, once', async () => {
    const page = await open(s, 'actions/plain.html');
    const ref = await refOf(page, 'button', 'Plain button');
    const r = await act(page, 'click', { ref });
    expect(r.ok).toBe(true);
    expect(r.message).toMatch(/^Clicked button "Plain button"\./);
    expect(await page.textContent('#plain-count')).toBe('1');
    const log: Array<[string, number, number, number, number, number, boolean]> = await page.evaluate(() => (window as any).__log);
    expect(log.map((l) => l[0])).toEqual([
      'pointerover',
      'pointerenter',
      'mouseover',
      'mouseenter',
      'pointermove',
      'mousemove',
      'pointerdown',
      'mousedown',
      'focus',
      'pointerup',
      'mouseup',
      'click',
    ]);
    const box = (await page.locator('#plain').boundingBox())!;
    for (const [type, x, y] of log) {
      if (type === 'focus') continue;
      expect(x, type).toBeGreaterThan(box.x);
      expect(x, type).toBeLessThan(box.x + box.width);
      expect(y, type).toBeGreaterThan(box.y);
      expect(y, type).toBeLessThan(box.y + box.height);
    }
    const byType = Object.fromEntries(log.map((l) => [l[0], l]));
    expect(byType.pointerdown!.slice(3, 6)).toEqual([0, 1, 1]); // button 0, buttons 1, detail 1
    expect(byType.mouseup!.slice(3, 5)).toEqual([0, 0]);
    expect(byType.click!.slice(3, 6)).toEqual([0, 0, 1]);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('plain');
    await page.close();
  });

  it('names a target that has no accessible name by what it says: Clicked listitem "Python".', async () => {
    const page = await open(
      s,
      `<style>li{cursor:pointer}</style><ul><li>Python</li><li>Rust</li></ul><p id="out"></p>
       <script>document.querySelector('ul').addEventListener('click', (e) => { document.getElementById('out').textContent = e.target.textContent; });</script>`,
    );
    const ref = await refAt(page, 'li:first-child');
    const r = await act(page, 'click', { ref });
    expect(r.message).toMatch(/^Clicked listitem "Python"\./);
    expect(await page.textContent('#out')).toBe('Python');
    await page.close();
  });

  it('works with jQuery-style delegation on the document', async () => {
    const page = await open(s, 'actions/plain.html');
    const ref = await refAt(page, '#list .item[data-id="2"]');
    const r = await act(page, 'click', { ref });
    expect(r.ok, r.message).toBe(true);
    expect(await page.textContent('#chosen')).toBe('chose 2');
    await page.close();
  });

  it('toggles a checkbox once through its label-for control, and radios', async () => {
    const page = await open(s, 'actions/plain.html');
    const terms = await refOf(page, 'checkbox', 'I accept the terms');
    let r = await act(page, 'click', { ref: terms });
    expect(r.ok).toBe(true);
    expect(r.message).toContain('It is now checked.');
    expect(r.changes.checked).toBe(true);
    expect(await page.isChecked('#terms')).toBe(true);
    expect(await page.evaluate(() => (window as any).__changes)).toBe(1);
    r = await act(page, 'click', { ref: terms });
    expect(r.message).toContain('It is now unchecked.');
    expect(await page.isChecked('#terms')).toBe(false);
    // A transparent input over its label (custom checkbox styling): still one toggle.
    const fancy = await refOf(page, 'checkbox', 'Fancy option');
    r = await act(page, 'click', { ref: fancy });
    expect(r.ok, r.message).toBe(true);
    expect(await page.isChecked('#fancy')).toBe(true);
    const blue = await refOf(page, 'radio', 'Blue');
    r = await act(page, 'click', { ref: blue });
    expect(r.message).toContain('It is now checked.');
    expect(await page.textContent('#colour-log')).toBe('blue;');
    expect(await page.isChecked('input[value=red]')).toBe(false);
    await page.close();
  });

  it('follows a link: reports the navigation and calls the before-navigate hook', async () => {
    const page = await open(s, 'actions/plain.html');
    // Hold the next page's response until the action has answered, so the test does not race
    // the unload (in the product the loop runs in the page and saves state through the hook).
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await page.route('**/next.html*', async (route) => {
      await gate;
      await route.continue();
    });
    await page.evaluate(() =>
      (window as any).pagehand.setBeforeNavigate((info: { url: string; kind: string }) => sessionStorage.setItem('saved', JSON.stringify(info))),
    );
    const ref = await refOf(page, 'link', 'Next page');
    const r = await act(page, 'click', { ref });
    expect(r.ok).toBe(true);
    expect(r.changes.navigation?.url).toBe(`${origin()}/fixtures/actions/next.html?from=plain`);
    expect(r.message).toBe(`Clicked link "Next page". Navigation to ${origin()}/fixtures/actions/next.html?from=plain started.`);
    release();
    await page.waitForURL(/next\.html/);
    expect(await page.textContent('h1')).toBe('Arrived');
    expect(JSON.parse((await page.evaluate(() => sessionStorage.getItem('saved')))!)).toEqual({
      url: `${origin()}/fixtures/actions/next.html?from=plain`,
      kind: 'link',
    });
    await page.close();
  });

  it('submits a form through its submit button exactly once', async () => {
    const page = await open(s, 'actions/plain.html');
    await page.evaluate(() => {
      (window as any).__submits = 0;
      document.getElementById('f1')!.addEventListener('submit', (e) => {
        (window as any).__submits++;
        e.preventDefault();
      });
    });
    const r = await act(page, 'click', { ref: await refOf(page, 'button', 'Go') });
    expect(r.ok).toBe(true);
    expect(await page.evaluate(() => (window as any).__submits)).toBe(1);
    await page.close();
  });

  it('names the cover when a cookie banner is over the button, and never clicks it', async () => {
    const page = await open(s, 'actions/plain.html');
    // The banner shows up after the model's observation (as consent banners do).
    const buy = await refOf(page, 'button', 'Buy now');
    await page.evaluate(() => {
      document.getElementById('banner')!.style.display = 'block';
    });
    const r = await act(page, 'click', { ref: buy }, { actionTimeout: 300 });
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(/^Element \[\d+\] button "Buy now" is covered by dialog "Cookie consent"\./);
    expect(await page.evaluate(() => (window as any).__buy)).toBe(0);
    // Dismiss the banner, then the same ref works.
    expect((await act(page, 'click', { ref: await refOf(page, 'button', 'Accept all') })).ok).toBe(true);
    const again = await act(page, 'click', { ref: buy });
    expect(again.ok, again.message).toBe(true);
    expect(await page.evaluate(() => (window as any).__buy)).toBe(1);
    await page.close();
  });

  it('reports disabled and hidden elements, and unknown refs, without throwing', async () => {
    const page = await open(s, 'actions/plain.html');
    await page.evaluate(() => {
      document.getElementById('disabled')!.removeAttribute('disabled');
    });
    const ref = await refOf(page, 'button', 'Unavailable');
    await page.evaluate(() => {
      document.getElementById('disabled')!.setAttribute('disabled', '');
    });
    let r = await act(page, 'click', { ref }, { actionTimeout: 200 });
    expect(r).toMatchObject({ ok: false });
    expect(r.message).toMatch(/^Element \[\d+\] button "Unavailable" is disabled\.$/);
    const plain = await refOf(page, 'button', 'Plain button');
    await page.evaluate(() => {
      document.getElementById('plain')!.style.display = 'none';
    });
    r = await act(page, 'click', { ref: plain }, { actionTimeout: 200 });
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(/is no longer on the page|is not visible: hidden \(display: none\)/);
    r = await act(page, 'click', { ref: '99999' });
    expect(r).toMatchObject({ ok: false, changes: {} });
    expect(r.message).toMatch(/There is no element \[99999\]/);
    r = await act(page, 'clik', { ref: '1' });
    expect(r.message).toMatch(/Unknown action "clik"/);
    await page.close();
  });

  it('gives a stale error when the element name changed since the map, and does not click it', async () => {
    const page = await open(s, 'actions/plain.html');
    const ref = await refOf(page, 'button', 'Plain button');
    await page.evaluate(() => {
      document.getElementById('plain')!.textContent = 'Delete everything';
    });
    const r = await act(page, 'click', { ref });
    expect(r).toMatchObject({ ok: false, changes: {} });
    expect(r.message).toBe(`Element [${ref}] changed: it was button "Plain button", now button "Delete everything". Observe again.`);
    expect(await page.textContent('#plain-count')).toBe('0');
    await page.close();
  });

  it('never throws into the page: bad calls, bad options, and a page that breaks DOM APIs', async () => {
    const page = await open(s, 'actions/plain.html');
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const results = await page.evaluate(async () => {
      const ph = (window as any).pagehand;
      const out: unknown[] = [];
      for (const call of [undefined, null, 42, { name: 'click', args: 'x' }, { name: 'scroll', args: { direction: 'down', pages: -1 } }]) {
        out.push(await ph.act(call, { settleTimeout: 'soon' }));
      }
      // A hostile page: layout APIs throw.
      const ref = ph.map({}).elements.find((e: any) => e.name === 'Plain button').ref;
      const orig = Element.prototype.getBoundingClientRect;
      Element.prototype.getBoundingClientRect = () => {
        throw new Error('nope');
      };
      try {
        out.push(await ph.act({ name: 'click', args: { ref } }));
      } finally {
        Element.prototype.getBoundingClientRect = orig;
      }
      return out as Array<{ ok: boolean; message: string }>;
    });
    for (const r of results) expect(r.ok).toBe(false);
    expect(results[0]!.message).toMatch(/must be an object/);
    expect(results[3]!.message).toBe('click: "args" must be an object, got "x".');
    expect(results[4]!.message).toMatch(/"pages" must be between/);
    expect(results[5]!.message).toBe('The click action failed unexpectedly: nope');
    expect(await page.textContent('#plain-count')).toBe('0');
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('click on Vue 3', () => {
  it('fires @click handlers and v-model checkboxes', async () => {
    const page = await open(s, 'actions/vue.html');
    const add = await refOf(page, 'button', 'Add one');
    await act(page, 'click', { ref: add });
    await act(page, 'click', { ref: add });
    expect(await page.textContent('#count')).toBe('2');
    const r = await act(page, 'click', { ref: await refOf(page, 'checkbox', 'Subscribe') });
    expect(r.changes.checked).toBe(true);
    expect(await appState(page)).toMatchObject({ subscribe: true });
    await page.close();
  });
});

describe('links and forms that would open a new tab', () => {
  /** Holds next.html until released, so the action answers before the page unloads. */
  async function gated(page: Page): Promise<() => void> {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await page.route('**/actions/next.html*', async (route) => {
      await gate;
      await route.continue();
    });
    return release;
  }
  /** Counts the tabs the context opens from now on. */
  function tabsOpened(page: Page): () => number {
    let n = 0;
    page.context().on('page', () => n++);
    return () => n;
  }
  const next = (query: string) => `${origin()}/fixtures/actions/next.html?${query}`;

  it.each([
    ['target="_blank"', '<a href="actions/next.html?via=blank" target="_blank">Docs</a>', 'via=blank'],
    ['a window name', '<a href="actions/next.html?via=named" target="help">Docs</a>', 'via=named'],
    ['<base target="_blank">', '<base target="_blank"><a href="actions/next.html?via=base">Docs</a>', 'via=base'],
  ])('a link with %s opens in this tab, and the result says so', async (_, html, query) => {
    const page = await open(s, html);
    const release = await gated(page);
    const opened = tabsOpened(page);
    const r = await act(page, 'click', { ref: await refOf(page, 'link', 'Docs') });
    expect(r.ok, r.message).toBe(true);
    expect(r.changes.navigation?.url).toBe(next(query));
    expect(r.message).toBe(`Clicked link "Docs". It would open a new tab; pagehand opened it in this tab instead. Navigation to ${next(query)} started.`);
    release();
    await page.waitForURL(/next\.html/);
    expect(await page.textContent('h1')).toBe('Arrived');
    expect(opened()).toBe(0);
    await page.close();
  });

  it.each([
    [
      'the form has target="_blank"',
      '<form action="actions/next.html" target="_blank"><input name="q" aria-label="Query" value="mugs"><button>Search</button></form>',
    ],
    [
      'its button has formtarget="_blank"',
      '<form action="actions/next.html"><input name="q" aria-label="Query" value="mugs"><button formtarget="_blank">Search</button></form>',
    ],
  ])('a form submitted where %s opens in this tab', async (_, html) => {
    const page = await open(s, html);
    const release = await gated(page);
    const opened = tabsOpened(page);
    const r = await act(page, 'click', { ref: await refOf(page, 'button', 'Search') });
    expect(r.ok, r.message).toBe(true);
    expect(r.changes.navigation?.url).toBe(next('q=mugs'));
    expect(r.message).toContain('pagehand opened it in this tab instead.');
    release();
    await page.waitForURL(/q=mugs/);
    expect(opened()).toBe(0);
    await page.close();
  });

  it('reports a download as a download, not as a navigation: the page stays', async () => {
    const page = await open(s, '<a href="actions/next.html" download="notes.txt">Get the notes</a>');
    const url = page.url();
    const r = await act(page, 'click', { ref: await refOf(page, 'link', 'Get the notes') });
    expect(r.ok, r.message).toBe(true);
    expect(r.changes.navigation).toBeUndefined();
    expect(r.changes.download).toEqual({ url: next('').replace(/\?$/, ''), filename: 'notes.txt' });
    // Its name says text, and it is small and same-origin: its text follows (actions-downloads.test.ts).
    expect(r.message).toMatch(
      /^Clicked link "Get the notes"\. A download of "notes\.txt" started; the page stays\. It downloaded notes\.txt \(\d+ B, text\/html\)\. Its text:\n<!doctype html>/,
    );
    expect(page.url()).toBe(url);
    await page.close();
  });

  it("puts the page's attributes back when the page handles the click itself", async () => {
    const page = await open(
      s,
      `<base target="_blank"><a id="own" href="actions/next.html" target="_blank">Own</a><a id="based" href="actions/next.html">Based</a><p id="out"></p>
       <script>for (const a of document.querySelectorAll('a')) a.addEventListener('click', (e) => { e.preventDefault(); document.getElementById('out').textContent += a.id + ' '; });</script>`,
    );
    const opened = tabsOpened(page);
    for (const name of ['Own', 'Based']) {
      const r = await act(page, 'click', { ref: await refOf(page, 'link', name) });
      expect(r.ok, r.message).toBe(true);
      expect(r.changes.navigation).toBeUndefined();
      expect(r.message).not.toContain('new tab');
    }
    expect(await page.textContent('#out')).toBe('own based ');
    expect(
      await page.evaluate(() => [document.getElementById('own')!.getAttribute('target'), document.getElementById('based')!.hasAttribute('target')]),
    ).toEqual(['_blank', false]);
    expect(opened()).toBe(0);
    await page.close();
  });

  it('leaves a link that targets a frame of this page alone: the frame navigates', async () => {
    const page = await open(s, '<iframe name="pane" src="about:blank"></iframe><a href="actions/next.html?via=pane" target="pane">Docs</a>');
    const url = page.url();
    const r = await act(page, 'click', { ref: await refOf(page, 'link', 'Docs') });
    expect(r.ok, r.message).toBe(true);
    expect(r.message).not.toContain('new tab');
    await expect.poll(() => page.frames()[1]?.url()).toBe(next('via=pane'));
    expect(page.url()).toBe(url);
    expect(await page.getAttribute('a', 'target')).toBe('pane');
    await page.close();
  });
});
