/**
 * The panel against the page's own scripts, in real Chromium, with the overlay's shadow root as
 * shipped (closed; this file does not use the test kit's revealOverlay). A page script cannot
 * find the panel's root; and a page that got hold of it anyway (here: hooks installed before
 * pagehand loaded, as a page that runs first could) cannot press what gives the agent something
 * — Send, Allow, Allow all of a kind, Take over, Resume — by click(), dispatchEvent, or by calling
 * a caught listener with an object that claims to be trusted. The user's real clicks and keys
 * (Playwright's mouse and keyboard: trusted input) still work.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call, latestMap, refFor, sequence, useAgentStack } from './agent-harness';
import { open, origin, useSession } from './harness';
import { decodePng } from './png';
import { clickBookmarklet, colours } from './ui-kit';

const session = useSession();
const stack = useAgentStack();

/**
 * The hostile page: before pagehand loads it wraps attachShadow (keeping the overlay's root as
 * `__root`) and addEventListener (keeping every listener with its element). `__press(sel)` then
 * tries every scripted way to press a control in the overlay.
 */
const HOSTILE = `(() => {
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attach.call(this, init);
    if (this.localName === 'pagehand-ui') window.__root = root;
    return root;
  };
  const add = EventTarget.prototype.addEventListener;
  const caught = [];
  EventTarget.prototype.addEventListener = function (type, fn, opts) {
    if (this instanceof Element && fn) caught.push({ el: this, type, fn });
    return add.call(this, type, fn, opts);
  };
  const call = (l, el, e) => (typeof l.fn === 'function' ? l.fn : l.fn.handleEvent).call(el, e);
  window.__press = (sel) => {
    const el = window.__root && window.__root.querySelector(sel);
    if (!el) return 'missing ' + sel;
    el.click();
    el.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true, cancelable: true }));
    el.dispatchEvent(new PointerEvent('click', { bubbles: true, composed: true, cancelable: true }));
    el.focus();
    for (const key of ['Enter', ' ']) {
      el.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
      el.dispatchEvent(new KeyboardEvent('keyup', { key, bubbles: true, cancelable: true }));
    }
    // Our own listener, caught on its way in, called with look-alikes of a trusted event.
    const fakes = [
      { type: 'click', isTrusted: true, target: el, currentTarget: el, button: 0, preventDefault() {}, stopPropagation() {} },
      Object.create(MouseEvent.prototype, { type: { value: 'click' }, isTrusted: { value: true } }),
      new Proxy(new MouseEvent('click'), { get: (t, k) => (k === 'isTrusted' ? true : Reflect.get(t, k)) }),
    ];
    let called = 0;
    for (const l of caught) {
      if (l.el !== el || l.type !== 'click') continue;
      for (const f of fakes) {
        try { call(l, el, f); called++; } catch (e) { /* a listener may choke on a fake */ }
      }
    }
    return called > 0 ? 'pressed' : 'no listener caught';
  };
  window.__pressEnter = (sel) => {
    const el = window.__root.querySelector(sel);
    el.focus();
    return el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
  };
})();`;

/** A real click (Playwright's mouse: trusted) in the middle of an overlay element. */
async function userClick(page: Page, sel: string): Promise<void> {
  const at = await page.evaluate((s) => {
    const r = (window as any).__root.querySelector(s).getBoundingClientRect();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  }, sel);
  await page.mouse.click(at.x, at.y);
}

const inRoot = (page: Page, sel: string) => page.waitForFunction((s) => !!(window as any).__root?.querySelector(s), sel, { timeout: 15_000 });

describe('the overlay against page scripts', () => {
  it("the shadow root is closed: a page script finds neither it nor the panel's buttons", async () => {
    const page = await session.context.newPage();
    await page.goto(`${origin()}/fixtures/ui/account.html`);
    await clickBookmarklet(page, stack);
    await page.waitForFunction(() => !!(window as any).pagehand && !!document.querySelector('pagehand-ui'));
    const seen = await page.evaluate(() => {
      const host = document.querySelector('pagehand-ui')!;
      return {
        shadowRoot: host.shadowRoot,
        buttons: [...document.querySelectorAll('button, textarea')].map((b) => b.textContent),
        focusable: host.children.length,
      };
    });
    expect(seen).toEqual({ shadowRoot: null, buttons: ['Delete account'], focusable: 0 });
    // The control: the panel is there all the same, drawn in its corner (380×540, 12 px in).
    const png = decodePng(await page.screenshot());
    expect(colours(png, { x: 1280 - 380 - 12 + 10, y: 800 - 540 - 12 + 10, width: 360, height: 520 })).toBeGreaterThan(30);
    await page.close();
  });

  it("loaded before the page's scripts, it attaches the root with the attachShadow it found: a page that wraps it later catches nothing", async () => {
    const page = await open(
      session,
      `<!doctype html><html lang="en"><head><title>Wraps attachShadow</title></head><body><p>Page</p>
      <script>
        const attach = Element.prototype.attachShadow;
        Element.prototype.attachShadow = function (init) {
          const root = attach.call(this, init);
          if (this.localName === 'pagehand-ui') window.__caught = root;
          return root;
        };
      </script></body></html>`,
      { early: true },
    );
    await page.evaluate((o) => (window as any).pagehand.open(o), { proxy: stack.proxyUrl, token: stack.token });
    await page.waitForFunction(() => !!document.querySelector('pagehand-ui'));
    expect(await page.evaluate(() => ({ caught: (window as any).__caught ?? null, open: document.querySelector('pagehand-ui')!.shadowRoot }))).toEqual({
      caught: null,
      open: null,
    });
    await page.close();
  });

  it('given the root anyway, scripted presses of Send, Allow, Allow all, Take over and Resume do nothing; the real ones do', async () => {
    stack.setPolicy(
      sequence(
        (req) => call('click', { ref: refFor(latestMap(req), 'button', 'Delete account') }, 'goal: delete the account'),
        call('done', { summary: 'The account is deleted.' }),
      ),
    );
    const page = await session.context.newPage();
    page.on('pageerror', (e) => console.error('[page error]', e.message));
    await page.addInitScript({ content: HOSTILE });
    await page.goto(`${origin()}/fixtures/ui/account.html`);
    await clickBookmarklet(page, stack);
    await inRoot(page, '[data-task]');
    const before = stack.requests().length;

    // Send: the page writes a task into the box and presses Send and Enter.
    const sent = await page.evaluate(() => {
      const w = window as any;
      const box = w.__root.querySelector('[data-task]') as HTMLTextAreaElement;
      box.value = 'Delete my account';
      box.dispatchEvent(new Event('input', { bubbles: true }));
      return { send: w.__press('[data-send]'), enter: w.__pressEnter('[data-task]'), run: !!w.pagehand.current() };
    });
    expect(sent).toEqual({ send: 'pressed', enter: true, run: false });
    expect(stack.requests().length).toBe(before);

    // The user sends the task: a real click in the box, real keys.
    await userClick(page, '[data-task]');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Delete my account');
    await page.keyboard.press('Enter');
    await inRoot(page, '[data-confirm]');
    const state = () =>
      page.evaluate(() => {
        const w = window as any;
        return {
          deleted: w.deleted,
          status: document.getElementById('status')!.textContent,
          asking: !!w.__root.querySelector('[data-confirm]'),
          running: !!w.pagehand.current(),
          paused: w.pagehand.current()?.paused,
        };
      });
    const waiting = { deleted: 0, status: 'Your account is active.', asking: true, running: true, paused: false };

    // Allow and "Allow every deletion", pressed by the page: the run still waits for the user.
    expect(await page.evaluate(() => [(window as any).__press('[data-allow]'), (window as any).__press('[data-allow-kind]')])).toEqual(['pressed', 'pressed']);
    expect(await state()).toEqual(waiting);
    // Take over, in the panel's footer and on the mask: the run is not handed to the page.
    expect(await page.evaluate(() => [(window as any).__press('.foot .row button:first-child'), (window as any).__press('.lock button')])).toEqual([
      'pressed',
      'pressed',
    ]);
    expect(await state()).toEqual(waiting);
    expect(stack.requests().length).toBe(before + 1);

    // The user takes over for real; the page's Resume does nothing; the user's does.
    await userClick(page, '.foot .row button:first-child');
    await page.waitForFunction(() => (window as any).pagehand.current()?.paused === true);
    expect(await page.evaluate(() => (window as any).__root.querySelector('.foot .row button:first-child').textContent)).toBe('Resume');
    expect(await page.evaluate(() => (window as any).__press('.foot .row button:first-child'))).toBe('pressed');
    expect(await state()).toEqual({ ...waiting, paused: true });
    await userClick(page, '.foot .row button:first-child');
    await page.waitForFunction(() => (window as any).pagehand.current()?.paused === false);

    // The user's own click on Allow, once the card has armed again (the footer changed back on
    // Resume and moved it: a moved card waits its moment again): the agent deletes the account and finishes.
    await inRoot(page, '[data-confirm][data-armed]');
    await userClick(page, '[data-allow]');
    await inRoot(page, '[data-end="done"]');
    expect(await page.evaluate(() => ({ deleted: (window as any).deleted, status: document.getElementById('status')!.textContent }))).toEqual({
      deleted: 1,
      status: 'Account deleted.',
    });
    expect(stack.requests().length).toBe(before + 2);
    await page.close();
  });
});
