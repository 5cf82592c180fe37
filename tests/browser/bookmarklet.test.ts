/**
 * The bookmarklet as the install page hands it out: on a page of another origin it opens the
 * proxy's broker window, which (once the user allows it) gives it a session token bound to that
 * page's origin; it loads the bookmarklet's bundle from the proxy with the session token and
 * opens the panel; clicked again it toggles the panel and
 * never loads the bundle twice; when the proxy is unreachable, refuses the token or the page,
 * it says so; an old bookmarklet that still sends the personal token is told to re-install.
 * Afterwards nothing the page can read holds the personal token, and the session
 * token it can read works from nowhere else and not for long.
 *
 * Also the other side of the same rule, in a real browser: a page of another origin that
 * includes the proxy's token-carrying routes as a script or a frame gets a 403, not the token.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startNodeServer, type NodeServer } from '../../server/node';
import { bookmarklet, embedSnippet } from '../../server/node/loader';
import { useAgentStack } from './agent-harness';
import { crossOrigin, origin } from './harness';
import { clickBookmarklet, inUi, panel, runBookmarklet, useUiSession } from './ui-kit';

// The overlay's shadow root is closed; useUiSession opens it to these tests' locators.
const session = useUiSession();
const stack = useAgentStack();

let tmp: string;
const extra: NodeServer[] = [];
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'pagehand-bookmarklet-'));
});
afterAll(async () => {
  await Promise.all(extra.map((s) => s.close()));
  await rm(tmp, { recursive: true, force: true });
});

const nextAlert = (page: Page) => new Promise<string>((resolve) => page.once('dialog', (d) => void d.dismiss().then(() => resolve(d.message()))));

/** The session token the bookmarklet gave the bundle (the loader script's data attribute). */
const sessionTokenOf = (page: Page) =>
  page.evaluate(() => (document.querySelector('script[data-pagehand-loader]') as HTMLScriptElement | null)?.dataset.pagehandToken ?? null);

/**
 * Every place a page script can read where `secret` appears: globals (walked a few levels deep,
 * DOM nodes aside), the document's HTML and every attribute, storage, cookies, resource URLs.
 */
function tracesOf(page: Page, secret: string): Promise<string[]> {
  return page.evaluate((tok) => {
    const hits: string[] = [];
    const seen = new WeakSet<object>();
    const visit = (v: unknown, path: string, depth: number): void => {
      if (typeof v === 'string') {
        if (v.includes(tok)) hits.push(path);
        return;
      }
      if (v === null || (typeof v !== 'object' && typeof v !== 'function') || depth > 4) return;
      if (seen.has(v as object) || v instanceof Node || v === window) return;
      seen.add(v as object);
      let keys: string[];
      try {
        keys = Object.getOwnPropertyNames(v);
      } catch {
        return;
      }
      for (const k of keys) {
        let x: unknown;
        try {
          x = (v as Record<string, unknown>)[k];
        } catch {
          continue;
        }
        visit(x, `${path}.${k}`, depth + 1);
      }
    };
    for (const k of Object.getOwnPropertyNames(window)) {
      let x: unknown;
      try {
        x = (window as unknown as Record<string, unknown>)[k];
      } catch {
        continue;
      }
      visit(x, `window.${k}`, 0);
    }
    if (document.documentElement.outerHTML.includes(tok)) hits.push('document.documentElement.outerHTML');
    for (const el of Array.from(document.querySelectorAll('*'))) {
      for (const a of Array.from(el.attributes)) if (a.value.includes(tok)) hits.push(`<${el.localName} ${a.name}>`);
    }
    for (const [name, store] of [
      ['sessionStorage', sessionStorage],
      ['localStorage', localStorage],
    ] as const) {
      for (let i = 0; i < store.length; i++) {
        const key = store.key(i)!;
        if (key.includes(tok) || (store.getItem(key) ?? '').includes(tok)) hits.push(`${name}[${key}]`);
      }
    }
    if (document.cookie.includes(tok)) hits.push('document.cookie');
    for (const e of performance.getEntries()) if (e.name.includes(tok)) hits.push(`performance entry ${e.name}`);
    return hits;
  }, secret);
}

describe('bookmarklet', () => {
  it('loads the bundle from the proxy, opens the panel, and toggles it on the next click', async () => {
    const page = await session.context.newPage();
    await page.goto(`${origin()}/fixtures/agent/counter.html`);
    expect(new URL(stack.proxyUrl).origin).not.toBe(origin());
    expect(bookmarklet(stack.proxyUrl)).not.toContain(stack.token);
    await clickBookmarklet(page, stack);
    await panel(page).waitFor({ state: 'visible' });
    expect(await page.evaluate(() => typeof (window as any).pagehand?.run)).toBe('function');
    // Later clicks open no window: they toggle the panel.
    let popups = 0;
    page.on('popup', () => popups++);
    await runBookmarklet(page, stack);
    await panel(page).waitFor({ state: 'hidden' });
    await runBookmarklet(page, stack);
    await panel(page).waitFor({ state: 'visible' });
    expect(popups).toBe(0);
    expect(await page.locator('script[src$="/pagehand-bookmarklet.js"]').count()).toBe(1);
    await page.close();
  });

  it('leaves the personal token nowhere the page can read: the bundle holds a session token bound to the page', async () => {
    const page = await session.context.newPage();
    await page.goto(`${origin()}/fixtures/agent/counter.html`);
    await clickBookmarklet(page, stack);
    await panel(page).waitFor({ state: 'visible' });
    // The panel takes a task; a run would save its state (sessionStorage) with the token it has.
    await inUi(page, 'textarea').fill('Count to three');
    expect(await tracesOf(page, stack.token)).toEqual([]);
    const sessionToken = await sessionTokenOf(page);
    expect(sessionToken).toMatch(/^phs_/);
    // The walk does find what is there: the session token sits in the script tag.
    expect(await tracesOf(page, sessionToken!)).toContain('document.documentElement.outerHTML');

    // The session token works from this page's origin only.
    const config = (from: string | undefined) =>
      fetch(`${stack.proxyUrl}/v1/config`, { headers: { Authorization: `Bearer ${sessionToken}`, ...(from ? { Origin: from } : {}) } });
    expect((await config(origin())).status).toBe(200);
    const replayed = await config('https://evil.test');
    expect(replayed.status).toBe(403);
    expect(((await replayed.json()) as { error: { code: string } }).error.code).toBe('origin_not_allowed');
    expect((await config(undefined)).status).toBe(403);
    // …and the page's own requests with it carry its Origin, so they pass.
    const fromPage = await page.evaluate(async ([proxy, tok]) => (await fetch(`${proxy}/v1/config`, { headers: { Authorization: `Bearer ${tok}` } })).status, [
      stack.proxyUrl,
      sessionToken!,
    ] as const);
    expect(fromPage).toBe(200);
    await page.close();
  });

  it('hands out a session that expires: 401 token_expired, saying to click the bookmarklet again', async () => {
    let clock = Date.now();
    const proxy = await startNodeServer({ env: { PORT: '0', HOST: '127.0.0.1' }, tokenFile: join(tmp, 'clock-token'), now: () => clock, log: () => {} });
    extra.push(proxy);
    const page = await session.context.newPage();
    await page.goto(`${origin()}/fixtures/agent/counter.html`);
    await clickBookmarklet(page, { proxyUrl: proxy.url });
    await panel(page).waitFor({ state: 'visible' });
    const sessionToken = await sessionTokenOf(page);
    const ask = () =>
      page.evaluate(
        async ([p, tok]) => {
          const res = await fetch(`${p}/v1/config`, { headers: { Authorization: `Bearer ${tok}` } });
          return { status: res.status, body: await res.text() };
        },
        [proxy.url, sessionToken!] as const,
      );
    expect((await ask()).status).toBe(200);
    clock += 8 * 3600 * 1000;
    const expired = await ask();
    expect(expired.status).toBe(401);
    const { error } = JSON.parse(expired.body) as { error: { code: string; message: string } };
    expect(error.code).toBe('token_expired');
    expect(error.message).toMatch(/click the pagehand bookmarklet again/i);
    await page.close();
  });

  it('an old bookmarklet, which sends the personal token from the page, is told to drag the new one (410), and gets no session', async () => {
    const page = await session.context.newPage();
    await page.goto(`${origin()}/fixtures/agent/counter.html`);
    // The request bookmarklets made before the broker window, from the page, with the personal token.
    const answer = await page.evaluate(
      async ([p, t]) => {
        const r = await fetch(`${p}/v1/session`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${t}`, 'Content-Type': 'application/json' },
          body: '{"for":"user"}',
        });
        return { status: r.status, body: await r.text() };
      },
      [stack.proxyUrl, stack.token] as const,
    );
    expect(answer.status).toBe(410);
    const { error } = JSON.parse(answer.body) as { error: { code: string; message: string } };
    expect(error.code).toBe('bookmarklet_outdated');
    expect(error.message).toMatch(/older pagehand[\s\S]*drag the new bookmarklet/);
    expect(answer.body).not.toMatch(/phs_/);
    await page.close();
  });

  it('says so when the proxy has no personal token (PAGEHAND_SITES), and loads nothing', async () => {
    const proxy = await startNodeServer({
      env: { PORT: '0', PAGEHAND_SITES: JSON.stringify([{ token: 'tok-other-page-0123456789abcdef', origins: [origin()] }]) },
      log: () => {},
    });
    extra.push(proxy);
    const page = await session.context.newPage();
    await page.goto(`${origin()}/fixtures/agent/counter.html`);
    const alerted = nextAlert(page);
    await clickBookmarklet(page, { proxyUrl: proxy.url }).catch(() => {});
    expect(await alerted).toMatch(/could not start a session \(This proxy has no personal token/);
    expect(await page.evaluate(() => 'pagehand' in window)).toBe(false);
    await page.close();
  });

  it('says what is wrong when the proxy cannot be reached, and points to the userscript', async () => {
    const page = await session.context.newPage();
    await page.goto(`${origin()}/fixtures/agent/counter.html`);
    const alerted = nextAlert(page);
    const popup = page.waitForEvent('popup');
    await runBookmarklet(page, { proxyUrl: 'http://127.0.0.1:9' });
    await popup;
    expect(await alerted).toMatch(/http:\/\/127\.0\.0\.1:9\/bookmarklet did not answer:[\s\S]*userscript/);
    expect(await page.evaluate(() => 'pagehand' in window)).toBe(false);
    await page.close();
  });

  /** The counter page served with this content security policy. */
  async function withPolicy(policy: string): Promise<Page> {
    const page = await session.context.newPage();
    page.on('pageerror', (e) => console.error('[page error]', e.message));
    await page.goto(`${origin()}/fixtures/agent/counter.html?csp=${encodeURIComponent(policy)}`);
    return page;
  }

  it('loads on a page that enforces Trusted Types, and the panel works there', async () => {
    const page = await withPolicy("require-trusted-types-for 'script'");
    const violations: string[] = [];
    page.on('console', (m) => /trusted ?type/i.test(m.text()) && violations.push(m.text()));
    await clickBookmarklet(page, stack);
    await panel(page).waitFor({ state: 'visible' });
    // The panel renders and takes a task (which then runs against the scripted model).
    await inUi(page, 'textarea').fill('Count to three');
    expect(await inUi(page, 'textarea').inputValue()).toBe('Count to three');
    expect(violations).toEqual([]);
    await page.close();
  });

  it('says what is wrong, instead of failing silently, when Trusted Types allow it no policy', async () => {
    const page = await withPolicy("require-trusted-types-for 'script'; trusted-types 'none'");
    const alerted = nextAlert(page);
    await clickBookmarklet(page, stack);
    expect(await alerted).toMatch(/could not load .*pagehand-bookmarklet\.js[\s\S]*userscript/);
    expect(await page.evaluate(() => 'pagehand' in window)).toBe(false);
    await page.close();
  });

  it('the site embed snippet shows the launcher, which opens the panel', async () => {
    const page = await session.context.newPage();
    await page.goto(`${origin()}/fixtures/agent/counter.html`);
    const snippet = embedSnippet(stack.proxyUrl, stack.token);
    await page.evaluate((html) => {
      const tpl = document.createElement('template');
      tpl.innerHTML = html;
      const old = tpl.content.querySelector('script')!;
      const s = document.createElement('script'); // a parsed <script> from innerHTML would not run
      for (const a of old.attributes) s.setAttribute(a.name, a.value);
      document.head.append(s);
    }, snippet);
    await inUi(page, 'button.launcher').click();
    await panel(page).waitFor({ state: 'visible' });
    await page.close();
  });
});

describe('the demo pages', () => {
  it('embed a session token bound to the proxy itself, which the page can use and nobody else', async () => {
    stack.setPolicy(() => ({ text: 'hello from the demo' }));
    const page = await session.context.newPage();
    await page.goto(`${stack.proxyUrl}/demo/contact-form.html`);
    await inUi(page, 'button.launcher').waitFor({ state: 'attached' });
    expect(await tracesOf(page, stack.token)).toEqual([]);
    const token = await page.evaluate(() => (document.querySelector('script[data-pagehand-token]') as HTMLScriptElement).dataset.pagehandToken!);
    expect(token).toMatch(/^phs_/);
    // A same-origin GET carries no Origin; the proxy accepts it because it comes from its own origin.
    const result = await page.evaluate(async (tok) => {
      const cfg = await fetch('/v1/config', { headers: { Authorization: `Bearer ${tok}` } });
      const chat = await fetch('/v1/chat/completions', {
        method: 'POST',
        headers: { Authorization: `Bearer ${tok}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }),
      });
      return [cfg.status, chat.status, (await chat.json()).choices[0].message.content];
    }, token);
    expect(result).toEqual([200, 200, 'hello from the demo']);
    const elsewhere = await fetch(`${stack.proxyUrl}/v1/config`, { headers: { Authorization: `Bearer ${token}`, Origin: origin() } });
    expect(elsewhere.status).toBe(403);
    stack.setPolicy(undefined);
    await page.close();
  });
});

describe('token-carrying routes seen from another site', () => {
  it('a page of another origin that runs the userscript URL as a <script> gets a 403 and never the token', async () => {
    const page = await session.context.newPage();
    await page.goto(`${crossOrigin()}/fixtures/agent/counter.html`);
    expect(new URL(crossOrigin()).origin).not.toBe(new URL(stack.proxyUrl).origin);
    const url = `${stack.proxyUrl}/pagehand.user.js`;
    // What went over the wire, as Chromium's network layer saw it (the page sees only an error).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    // The extra-info events may come before the request's own event: keep all, match after.
    let id: string | undefined;
    const sentBy = new Map<string, Record<string, string>>();
    const statusBy = new Map<string, number>();
    cdp.on('Network.requestWillBeSent', (e) => {
      if (e.request.url === url) id = e.requestId;
    });
    cdp.on('Network.requestWillBeSentExtraInfo', (e) => void sentBy.set(e.requestId, e.headers as Record<string, string>));
    cdp.on('Network.responseReceivedExtraInfo', (e) => void statusBy.set(e.requestId, e.statusCode));
    const outcome = await page.evaluate((src) => {
      // What a hostile page would set up first: GM functions that record what the script sends.
      const w = window as unknown as Record<string, unknown>;
      w.__sent = [];
      w.GM_xmlhttpRequest = (d: unknown) => (w.__sent as unknown[]).push(JSON.stringify(d));
      w.GM_getValue = (_k: string, d: unknown) => d;
      w.GM_setValue = () => {};
      w.GM_info = { scriptHandler: 'Tampermonkey' };
      return new Promise<string>((resolve) => {
        const s = document.createElement('script');
        s.src = src;
        s.onload = () => resolve('load');
        s.onerror = () => resolve('error');
        document.head.append(s);
      });
    }, url);
    expect(outcome).toBe('error');
    expect(await tracesOf(page, stack.token)).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { __sent: unknown[] }).__sent)).toEqual([]);
    await expect.poll(() => id !== undefined && statusBy.get(id)).toBe(403);
    const sent = Object.fromEntries(Object.entries(sentBy.get(id!) ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    expect(sent).toMatchObject({ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'script' });
    await cdp.detach();
    await page.close();
  });

  it('a page of another origin cannot frame the install page', async () => {
    const page = await session.context.newPage();
    await page.goto(`${crossOrigin()}/fixtures/agent/counter.html`);
    const served = page.waitForResponse((r) => r.url() === `${stack.proxyUrl}/`);
    await page.evaluate((src) => {
      const f = document.createElement('iframe');
      f.src = src;
      document.body.append(f);
    }, `${stack.proxyUrl}/`);
    const response = await served;
    expect(response.status()).toBe(403);
    expect(await response.text()).not.toContain(stack.token);
    await page.close();
  });
});
