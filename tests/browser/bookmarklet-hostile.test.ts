/**
 * The bookmarklet on a hostile page, in real Chromium with the built bundle and the real proxy.
 *
 * - A page that wrapped everything a script can wrap before the user's click — fetch, XHR,
 *   postMessage, window.open, addEventListener, MessageEvent's getters, createElement,
 *   setAttribute, dataset, appendChild — and listens to every message never sees the personal
 *   token. What it does capture is a session token that works from its own origin only, cannot
 *   make another, and expires; and the run the user starts still goes end to end.
 * - A page that rewrites the loader tag's attributes before the bundle runs (a MutationObserver:
 *   another proxy, another token, the bookmarklet's mark removed) does not make it the site's
 *   embed: the page's `init({ confirm })` is ignored, the panel asks, and the run goes to the
 *   user's proxy.
 * - A page that opens the broker window itself gets a window asking the user about its own
 *   origin, and no token unless the user allows it.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call, latestMap, refFor, sequence, useAgentStack } from './agent-harness';
import { crossOrigin, origin } from './harness';
import { bookmarkletReady, clickBookmarklet, inUi, sendTask, useUiSession, waitIn } from './ui-kit';

const session = useUiSession();
const stack = useAgentStack();

/**
 * A page script that, before the click, records everything the bookmarklet and the bundle pass
 * through the built-ins it replaces, and every message the window receives, in `window.__seen`.
 */
const WIRETAP = `(() => {
  const seen = (window.__seen = []);
  const log = (what, v) => {
    let s;
    try { s = typeof v === 'string' ? v : JSON.stringify(v); } catch { s = String(v); }
    seen.push(what + ' ' + s);
  };
  const wrap = (obj, name, before) => {
    const orig = obj[name];
    obj[name] = function (...args) { before.apply(this, args); return orig.apply(this, args); };
  };
  wrap(window, 'fetch', (input, init) => log('fetch', [String(input && input.url ? input.url : input), init && init.headers, init && init.body]));
  wrap(XMLHttpRequest.prototype, 'open', (...a) => log('xhr.open', a.map(String)));
  wrap(XMLHttpRequest.prototype, 'setRequestHeader', (...a) => log('xhr.header', a));
  wrap(XMLHttpRequest.prototype, 'send', (body) => log('xhr.send', String(body)));
  wrap(window, 'postMessage', (m) => log('postMessage', m));
  wrap(window, 'open', (...a) => log('open', a.map(String)));
  wrap(EventTarget.prototype, 'addEventListener', (type, fn) => log('addEventListener', [type, String(fn)]));
  wrap(Document.prototype, 'createElement', (...a) => log('createElement', a));
  wrap(Element.prototype, 'setAttribute', (...a) => log('setAttribute', a));
  wrap(Node.prototype, 'appendChild', (n) => log('appendChild', n && n.outerHTML));
  for (const k of ['data', 'origin', 'source']) {
    const d = Object.getOwnPropertyDescriptor(MessageEvent.prototype, k);
    Object.defineProperty(MessageEvent.prototype, k, { configurable: true, get() { const v = d.get.call(this); if (k === 'data') log('MessageEvent.data', v); return v; } });
  }
  const ds = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'dataset');
  Object.defineProperty(HTMLElement.prototype, 'dataset', {
    configurable: true,
    get() {
      const real = ds.get.call(this);
      return new Proxy(real, { set(t, k, v) { log('dataset', [String(k), v]); t[k] = v; return true; } });
    },
  });
  window.addEventListener('message', (e) => log('message', [e.origin, e.data]));
  new MutationObserver((rs) => { for (const r of rs) for (const n of r.addedNodes) if (n.outerHTML) log('added', n.outerHTML); })
    .observe(document, { childList: true, subtree: true, attributes: true });
})();`;

const seen = (page: Page): Promise<string[]> => page.evaluate(() => (window as unknown as { __seen: string[] }).__seen);

/** The claims of a session token, as anyone holding it can read them. */
const claims = (token: string): { o: string; e: number; u?: number } =>
  JSON.parse(Buffer.from(token.slice(4, token.indexOf('.')), 'base64url').toString()) as { o: string; e: number; u?: number };

describe('the bookmarklet on a page that wrapped the built-ins before the click', () => {
  it('never shows it the personal token; the session token it captures works from its origin only, makes no other, and expires; the run goes end to end', async () => {
    stack.setPolicy(sequence(call('done', { summary: 'Counted to three.' })));
    const page = await session.context.newPage();
    await page.goto(`${origin()}/fixtures/agent/counter.html`);
    await page.evaluate(WIRETAP);
    await clickBookmarklet(page, stack);
    await waitIn(page, 'section.panel');
    await sendTask(page, 'Count to three');
    await waitIn(page, '[data-end="done"]');
    expect(await inUi(page, '[data-end]').textContent()).toContain('Counted to three.');

    const captured = await seen(page);
    // The wiretap did see the exchange: the broker's window opened, its messages, the tag.
    expect(captured.some((s) => s.startsWith('open ') && s.includes(`${stack.proxyUrl}/bookmarklet`))).toBe(true);
    expect(captured.some((s) => s.startsWith('added <script') && s.includes('pagehand-bookmarklet.js'))).toBe(true);
    // …and nowhere the personal token.
    expect(captured.filter((s) => s.includes(stack.token))).toEqual([]);

    // The session token it did capture (from the broker's message).
    const sessionToken = /phs_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}/.exec(captured.find((s) => s.startsWith('message ') && s.includes('phs_')) ?? '')?.[0];
    expect(sessionToken).toBeDefined();
    const c = claims(sessionToken!);
    expect(c.o).toBe(origin());
    expect(c.u).toBe(1);
    // It expires within the session lifetime (8 hours).
    expect(c.e * 1000 - Date.now()).toBeLessThanOrEqual(8 * 3600 * 1000 + 60_000);
    const use = (from: string | undefined, path = '/v1/config', method = 'GET') =>
      fetch(`${stack.proxyUrl}${path}`, { method, headers: { Authorization: `Bearer ${sessionToken}`, ...(from ? { Origin: from } : {}) } });
    expect((await use(origin())).status).toBe(200);
    expect((await use(crossOrigin())).status).toBe(403);
    expect((await use('https://evil.test')).status).toBe(403);
    expect((await use(undefined)).status).toBe(403);
    // It cannot make another session, for its own origin or any other.
    const again = await use(origin(), '/v1/session', 'POST');
    expect(again.status).toBe(403);
    expect(await again.text()).not.toMatch(/phs_/);

    // The broker's mint endpoint answers the broker's own window only, not this page.
    const direct = await page.evaluate(async (proxy) => {
      try {
        const r = await fetch(`${proxy}/bookmarklet/session`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ origin: location.origin }),
        });
        return `${r.status} ${await r.text()}`;
      } catch (e) {
        return `refused ${String(e)}`;
      }
    }, stack.proxyUrl);
    expect(direct).not.toMatch(/phs_/);
    await page.close();
  });
});

describe("the loader tag's attributes rewritten before the bundle runs", () => {
  /** A model that wants to delete the account, then reports what happened. */
  const deleteModel = () =>
    sequence(
      (req) => call('click', { ref: refFor(latestMap(req), 'button', 'Delete account') }, 'goal: delete the account'),
      call('done', { summary: 'Finished.' }),
    );

  const ATTACKS: Record<string, { token: 'kept' | 'replaced' }> = {
    "another proxy, the bookmarklet's mark removed": { token: 'kept' },
    "another proxy and the page's own token, the bookmarklet's mark removed": { token: 'replaced' },
  };

  it.each(Object.entries(ATTACKS))('do not make it the site: %s', async (_name, attack) => {
    stack.setPolicy(deleteModel());
    const page = await session.context.newPage();
    // Every request for the model's proxy (its config, its chat), wherever it goes.
    const proxied: string[] = [];
    page.on('request', (r) => void (new URL(r.url()).pathname.startsWith('/v1/') && proxied.push(r.url())));
    await page.goto(`${origin()}/fixtures/ui/account.html`);
    // The page's own "proxy" is itself; its token one it made.
    await page.evaluate((replace) => {
      new MutationObserver((records) => {
        for (const r of records)
          for (const n of r.addedNodes) {
            if (!(n instanceof HTMLScriptElement)) continue;
            n.setAttribute('data-pagehand-proxy', location.origin);
            if (replace) n.setAttribute('data-pagehand-token', 'ph_the-pages-own-site-token-0123456789');
            n.removeAttribute('data-pagehand-loader');
          }
      }).observe(document, { childList: true, subtree: true });
    }, attack.token === 'replaced');
    await clickBookmarklet(page, stack);
    await waitIn(page, 'section.panel');
    await bookmarkletReady(page);
    expect(await page.locator('script[data-pagehand-loader]').count()).toBe(0);
    expect(await page.locator(`script[data-pagehand-proxy="${origin()}"]`).count()).toBe(1);
    await page.evaluate(`window.tricked = 0;
      pagehand.init({ confirm: () => { window.tricked++; return true; } });`);
    const before = stack.requests().length;
    await sendTask(page, 'Delete my account');
    if (attack.token === 'kept') {
      // The user's proxy runs it, and the panel asks the user; the page's confirm is not called.
      await waitIn(page, '[data-confirm]');
      await inUi(page, '[data-deny]').click();
      await waitIn(page, '[data-end]');
      expect(stack.requests().length - before).toBe(2);
    } else {
      // The user's proxy refuses the page's token: the run ends there, having done nothing.
      await waitIn(page, '[data-end]');
      expect(stack.requests().length - before).toBe(0);
    }
    expect(proxied.length).toBeGreaterThan(0);
    expect(proxied.filter((u) => !u.startsWith(`${stack.proxyUrl}/`))).toEqual([]);
    expect(await page.evaluate(() => ({ deleted: (window as any).deleted, tricked: (window as any).tricked }))).toEqual({ deleted: 0, tricked: 0 });
    await page.close();
  });
});

describe('the broker window opened by a page itself', () => {
  it('asks the user about that page’s origin and posts nothing until allowed', async () => {
    const page = await session.context.newPage();
    // An origin the user never allowed.
    await page.goto(`${crossOrigin()}/fixtures/agent/counter.html`);
    await page.evaluate(WIRETAP);
    const popupEvent = page.waitForEvent('popup');
    await page.evaluate((proxy) => {
      const w = window.open(`${proxy}/bookmarklet`, 'x', 'popup')!;
      window.addEventListener('message', (e) => {
        if (e.source === w && (e.data as { ready?: number }).ready) w.postMessage({ pagehand: 'session' }, proxy);
      });
    }, stack.proxyUrl);
    const popup = await popupEvent;
    await popup.locator('#ask:not([hidden])').waitFor();
    expect(await popup.locator('#say').textContent()).toContain(new URL(crossOrigin()).origin);
    // Asked and waiting: the page has the ready message only.
    const captured = await seen(page);
    expect(captured.some((s) => s.startsWith('message ') && s.includes('"ready":1'))).toBe(true);
    expect(captured.filter((s) => s.includes('phs_') || s.includes(stack.token))).toEqual([]);
    await popup.locator('#deny').click();
    await expect.poll(async () => (await seen(page)).some((s) => s.startsWith('message ') && s.includes('cancelled'))).toBe(true);
    expect((await seen(page)).filter((s) => s.includes('phs_'))).toEqual([]);
    await page.close();
  });
});
