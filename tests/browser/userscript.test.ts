/**
 * The userscript (dist/pagehand.user.js as the proxy serves it, proxy and token filled in) in a
 * GM shim, on a page whose CSP allows only its own scripts and connections: the model calls go
 * through GM_xmlhttpRequest — performed by Node's fetch over a Playwright binding, so the page's
 * CSP cannot block them, as with a real manager. Under Tampermonkey (the body handed out as a
 * ReadableStream, and a per-tab object: GM_getTab/GM_saveTab, kept in Node per Playwright page)
 * the run, kept in GM storage shared by both origins, resumes after a cross-origin navigation
 * (127.0.0.1 → localhost) in its own tab — and never in another tab opened meanwhile. Under
 * Violentmonkey (progress text, no tab API) it goes on across the pages of one site in its tab
 * (a per-tab id in sessionStorage), never in another tab, and not to another site. Under every
 * manager the shim plays (Tampermonkey, ScriptCat, Violentmonkey, Greasemonkey 4), replies that
 * stream in many writes arrive whole. The panel's open state belongs to its tab.
 * Risky actions are allowed the way a user does it: a real click on Allow in the panel.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { call, hasText, latestMap, mapUrl, refFor, signupModel, startAgentStack, type AgentStack, type Policy } from './agent-harness';
import { origin, useSession } from './harness';
import { clickAllow, inUi, OPEN_OVERLAY, panel } from './ui-kit';

const session = useSession();
let stack: AgentStack;
let userscript: string;
beforeAll(async () => {
  stack = await startAgentStack();
  const res = await fetch(`${stack.proxyUrl}/pagehand.user.js`);
  expect(res.status).toBe(200);
  userscript = await res.text();
});
afterAll(async () => {
  await stack?.close();
});

/** The managers the shim plays (tests/fixtures/delivery/gm-managers.js says how each hands out a response). */
type Handler = 'Tampermonkey' | 'ScriptCat' | 'Violentmonkey' | 'Greasemonkey';
const MANAGERS = readFileSync(new URL('../fixtures/delivery/gm-managers.js', import.meta.url), 'utf8');

/** GM_* for the page, before the userscript, as `handler` offers them: storage through same-origin
 * synchronous requests to the static server (one store for both origins; Greasemonkey 4 has only
 * the asynchronous GM.getValue, which pagehand does not use), requests through the `__gmFetch`
 * binding handed out as the manager does, and — Tampermonkey and ScriptCat — the tab object
 * through the `__gmTab` binding (Tampermonkey in both its callback and promise forms). */
function gmShim(ns: string, handler: Handler): string {
  const tabApi =
    handler === 'Tampermonkey' || handler === 'ScriptCat'
      ? `window.GM_getTab = (cb) => { window.__gmTab('get').then((t) => cb(t)); };
  window.GM_saveTab = (t, cb) => { window.__gmTab('save', t).then(() => cb && cb()); };
  ${handler === 'Tampermonkey' ? `window.GM = { getTab: () => window.__gmTab('get'), saveTab: (t) => window.__gmTab('save', t).then(() => undefined) };` : ''}`
      : '';
  return `(() => {
  ${tabApi}
  const ns = ${JSON.stringify(ns)} + ':';
  const store = (method, key, body) => {
    const x = new XMLHttpRequest();
    x.open(method, '/__gm-store?key=' + encodeURIComponent(ns + key), false);
    x.send(body === undefined ? null : body);
    return x;
  };
  const transport = {
    start: (req) => window.__gmFetch('start', req),
    read: (id) => window.__gmFetch('read', id),
    abort: (id) => window.__gmFetch('abort', id),
  };
  const xhr = window.__gmManagers.makeXhr(${JSON.stringify(handler)}, transport);
  window.__gmWrites = [];
  window.GM_info = { scriptHandler: ${JSON.stringify(handler)} };
  if (${JSON.stringify(handler)} === 'Greasemonkey') {
    window.GM = { xmlHttpRequest: xhr, getValue: async (k, d) => d, setValue: async () => undefined, deleteValue: async () => undefined };
    return;
  }
  window.GM_getValue = (k, d) => { const x = store('GET', k); return x.status === 200 ? x.responseText : d; };
  window.GM_setValue = (k, v) => { window.__gmWrites.push(k); store('PUT', k, String(v)); };
  window.GM_deleteValue = (k) => { store('DELETE', k); };
  window.GM_listValues = () => {
    const x = new XMLHttpRequest();
    x.open('GET', '/__gm-store?list=' + encodeURIComponent(ns), false);
    x.send(null);
    return JSON.parse(x.responseText).map((k) => k.slice(ns.length));
  };
  window.GM_xmlhttpRequest = xhr;
})();`;
}

/**
 * Reports the run's events from every page. The userscript is on a stranger's page, so what the
 * page sees of a run may watch it but not approve anything (the user does, in the panel); and a
 * run resumes once the manager said which run this tab holds, so the current run is polled for.
 */
const SUBSCRIBE = `(() => {
  const seen = new WeakSet();
  const plain = (v) => { try { return JSON.parse(JSON.stringify(v ?? null)); } catch { return null; } };
  window.__phSubscribe = (h) => {
    h = h || (window.pagehand && window.pagehand.current());
    if (!h || seen.has(h)) return;
    seen.add(h);
    for (const ev of ['step', 'action', 'message', 'error', 'done']) h.on(ev, (p) => window.__phEvent(ev, plain(p), location.href));
  };
  setInterval(() => window.__phSubscribe(), 10);
})();`;

interface Recorded {
  event: string;
  payload: any;
  url: string;
}

/** The GM request binding: Node's fetch, streamed back chunk by chunk on request. */
async function exposeGm(page: Page, seen: string[]): Promise<void> {
  const open = new Map<number, { reader: ReadableStreamDefaultReader<Uint8Array>; abort: AbortController }>();
  let next = 0;
  const decoder = new TextDecoder();
  await page.exposeBinding('__gmFetch', async (_source, op: string, arg: any) => {
    if (op === 'start') {
      seen.push(`${arg.method} ${arg.url}`);
      const abort = new AbortController();
      try {
        const res = await fetch(arg.url, { method: arg.method, headers: arg.headers, body: arg.data, signal: abort.signal });
        const id = ++next;
        open.set(id, { reader: res.body!.getReader(), abort });
        const responseHeaders = [...res.headers].map(([k, v]) => `${k}: ${v}`).join('\r\n');
        return { id, status: res.status, statusText: res.statusText, responseHeaders, finalUrl: res.url };
      } catch (e) {
        return { error: String((e as Error).message) };
      }
    }
    const entry = open.get(arg);
    if (!entry) return { chunk: null };
    if (op === 'abort') {
      entry.abort.abort();
      open.delete(arg);
      return null;
    }
    try {
      const { value, done } = await entry.reader.read();
      if (done) {
        open.delete(arg);
        return { chunk: null };
      }
      return { chunk: decoder.decode(value, { stream: true }) };
    } catch (e) {
      open.delete(arg);
      return { error: String((e as Error).message) };
    }
  });
}

/** The manager's tab object for one Playwright page (one browser tab), across its navigations. */
async function exposeTab(page: Page): Promise<() => Record<string, unknown>> {
  let tab: Record<string, unknown> = {};
  await page.exposeBinding('__gmTab', (_source, op: 'get' | 'save', value?: Record<string, unknown>) => {
    if (op === 'save') tab = structuredClone(value ?? {});
    return tab;
  });
  return () => tab;
}

interface Tab {
  page: Page;
  /** Every GM_xmlhttpRequest this tab made, as `METHOD url`. */
  gmRequests: string[];
  events: Recorded[];
  /** The run's result, from whichever page of this tab it ended on. */
  result: Promise<any>;
  /** The manager's tab object for this tab. */
  tabObject(): Record<string, unknown>;
}

/** A browser tab with the manager's shim and the userscript on every page it loads. */
async function openTab(handler: Handler, ns: string): Promise<Tab> {
  const page = await session.context.newPage();
  page.on('pageerror', (e) => console.error('[page error]', e.message));
  const gmRequests: string[] = [];
  const events: Recorded[] = [];
  let settle!: (r: any) => void;
  const result = new Promise<any>((r) => (settle = r));
  await exposeGm(page, gmRequests);
  const tabObject = await exposeTab(page);
  await page.exposeBinding('__phEvent', (_s, event: string, payload: any, url: string) => {
    events.push({ event, payload, url });
    if (event === 'done' && payload?.result?.reason !== 'moved') settle(payload.result);
  });
  // Test-only: the overlay's shadow root open to Playwright's locators (it is closed otherwise).
  await page.addInitScript({ content: OPEN_OVERLAY });
  await page.addInitScript({ content: MANAGERS });
  await page.addInitScript({ content: gmShim(ns, handler) });
  await page.addInitScript({ content: userscript });
  await page.addInitScript({ content: SUBSCRIBE });
  return { page, gmRequests, events, result, tabObject };
}

/** The userscript has made up its mind on this page: its launcher (or its panel) is there. */
const settled = (page: Page) => page.waitForFunction(() => !!document.querySelector('[data-pagehand-ui]'), null, { timeout: 10_000 });
const CHAT = () => `POST ${stack.proxyUrl}/v1/chat/completions`;
const chats = (t: Tab) => t.gmRequests.filter((u) => u === CHAT()).length;

function timeoutWith(t: Tab, ms = 100_000): Promise<never> {
  return new Promise((_, rej) =>
    setTimeout(() => rej(new Error(`no result; events:\n${t.events.map((e) => `${e.event} ${JSON.stringify(e.payload).slice(0, 200)}`).join('\n')}`)), ms),
  );
}

describe('the userscript as served', () => {
  it('carries a metadata block with this proxy for @connect and, on loopback, the personal token', () => {
    const header = userscript.slice(0, userscript.indexOf('// ==/UserScript=='));
    const proxy = new URL(stack.proxyUrl);
    expect(userscript.startsWith('// ==UserScript==\n')).toBe(true);
    for (const line of [
      /^\/\/ @name\s+pagehand$/m,
      /^\/\/ @version\s+\d+\.\d+\.\d+$/m,
      /^\/\/ @match\s+\*:\/\/\*\/\*$/m,
      /^\/\/ @grant\s+GM_xmlhttpRequest$/m,
      /^\/\/ @grant\s+GM_getValue$/m,
      /^\/\/ @grant\s+GM_setValue$/m,
      /^\/\/ @grant\s+GM_deleteValue$/m,
      /^\/\/ @grant\s+GM_listValues$/m,
      /^\/\/ @grant\s+GM\.xmlHttpRequest$/m,
      /^\/\/ @grant\s+GM_getTab$/m,
      /^\/\/ @grant\s+GM_saveTab$/m,
      /^\/\/ @grant\s+GM\.getTab$/m,
      /^\/\/ @grant\s+GM\.saveTab$/m,
      /^\/\/ @run-at\s+document-start$/m,
    ]) {
      expect(header).toMatch(line);
    }
    // It runs in frames too: there it only answers a parent page of the same installation.
    expect(header).not.toMatch(/@noframes/);
    expect(header).toMatch(new RegExp(`^// @connect\\s+${proxy.hostname.replace(/\./g, '\\.')}$`, 'm'));
    expect(header).toMatch(new RegExp(`^// @namespace\\s+${stack.proxyUrl}$`, 'm'));
    expect(header).toContain(`@downloadURL  ${stack.proxyUrl}/pagehand.user.js`);
    expect(userscript).toContain(`const PAGEHAND_USERSCRIPT = { proxy: "${stack.proxyUrl}", token: "${stack.token}" };`);
    expect(userscript).not.toContain('__PAGEHAND_PROXY');
    expect(userscript).not.toContain('__PAGEHAND_TOKEN__');
  });

  it('is not served (nor its token) to a Host that is not loopback', async () => {
    const res = await stack.proxy.app.request('/pagehand.user.js', { headers: { host: 'pagehand.test:8787' } });
    expect(res.status).toBe(403);
    expect(await res.text()).not.toContain(stack.token);
  });
});

describe('the userscript under Tampermonkey on a strict-CSP page', () => {
  it('completes the task through GM_xmlhttpRequest and resumes in its own tab after a cross-origin navigation', { timeout: 120_000 }, async () => {
    stack.setPolicy(signupModel());
    const before = stack.requests().length;
    const a = await openTab('Tampermonkey', `tm-${Date.now()}`);
    const { page } = a;
    await page.goto(`${origin()}/fixtures/delivery/csp/signup.html`);
    // Like an embed, the userscript shows pagehand's launcher on the page.
    await settled(page);
    // The CSP is in force: the page itself cannot reach the proxy.
    const direct = await page.evaluate(
      (u) =>
        fetch(`${u}/healthz`).then(
          () => 'reached',
          (e) => `blocked: ${e.message}`,
        ),
      stack.proxyUrl,
    );
    expect(direct).toMatch(/^blocked/);

    // No proxy, token or model given: the userscript's own configuration (filled in by the server).
    // Started by a page script with ui: false — on a stranger's page it is shown all the same.
    await page.evaluate(() =>
      (window as any).__phSubscribe((window as any).pagehand.run('Sign up as Ada Lovelace and confirm on the partner site', { ui: false })),
    );
    // Leaving the site is a risky action: the panel asks, and the user allows it.
    await inUi(page, '[data-confirm]').waitFor({ timeout: 30_000 });
    expect(await inUi(page, '[data-confirm] h3').textContent()).toContain('Leaving the site');
    // This tab holds the run (its state is in GM storage under its own key).
    const runId = a.tabObject().pagehandRun as string;
    expect(runId).toEqual(expect.any(String));
    await clickAllow(page);
    const r = await Promise.race([a.result, timeoutWith(a)]);

    expect(r, JSON.stringify(a.events.slice(-5))).toMatchObject({ ok: true });
    expect(r.summary).toContain(`confirmed on ${new URL(page.url()).host}`);
    expect(new URL(page.url()).hostname).toBe('localhost');
    expect(await page.title()).toBe('Confirmed');
    // Resumed on the other origin, in the panel, which said so.
    await inUi(page, '[data-end="done"]').waitFor();
    expect(a.events.filter((e) => e.event === 'message' && /^Resumed on /.test(e.payload.text)).map((e) => new URL(e.url).hostname)).toEqual(['localhost']);
    // Every model call (and the config request) went through GM_xmlhttpRequest, from both origins.
    expect(chats(a)).toBe(stack.requests().length - before);
    expect(chats(a)).toBe(r.steps);
    expect(a.gmRequests).toContain(`GET ${stack.proxyUrl}/v1/config`);
    // The run's state is gone from GM storage and from the tab once it ended.
    expect(await page.evaluate((id) => (window as any).GM_getValue(`pagehand:run:${id}`, 'none'), runId)).toBe('none');
    expect(a.tabObject().pagehandRun).toBeUndefined();
    await page.close();
  });

  it('a run belongs to its tab: a tab opened while it runs never resumes it, and the run goes on in its own tab', { timeout: 120_000 }, async () => {
    stack.setPolicy(signupModel());
    const ns = `tm-two-${Date.now()}`;
    const a = await openTab('Tampermonkey', ns);
    await a.page.goto(`${origin()}/fixtures/delivery/csp/signup.html`);
    await settled(a.page);
    // The user starts the task in the panel.
    await a.page.evaluate(() => (window as any).pagehand.open());
    await inUi(a.page, '[data-task]').click();
    await a.page.keyboard.type('Sign up as Ada Lovelace and confirm on the partner site');
    await a.page.keyboard.press('Enter');
    // The run has signed up and now waits for the user to allow leaving the site: its state is
    // in GM storage, shared by every tab.
    await inUi(a.page, '[data-confirm]').waitFor({ timeout: 30_000 });
    const aChats = chats(a);

    // Meanwhile the user opens the same site in another tab.
    const b = await openTab('Tampermonkey', ns);
    await b.page.goto(`${origin()}/fixtures/delivery/csp/signup.html`);
    await settled(b.page);
    const untouched = () =>
      b.page.evaluate(() => ({
        run: !!(window as any).pagehand.current(),
        // The overlay is there (launcher, or the panel as the user left it on this site), showing no run.
        overlay: !!document.querySelector('pagehand-ui'),
        runShown: !!document.querySelector('pagehand-ui')?.shadowRoot?.querySelector('[data-mask], .log .task, [data-step], [data-confirm]'),
        name: (document.getElementById('name') as HTMLInputElement).value,
        status: document.getElementById('status')!.textContent,
      }));
    expect(await untouched()).toEqual({ run: false, overlay: true, runShown: false, name: '', status: '' });
    // Tab A's tab object names the run; its state is in GM storage, which tab B reads too.
    const runId = a.tabObject().pagehandRun as string;
    expect(runId).toEqual(expect.any(String));
    expect(await b.page.evaluate((id) => typeof (window as any).GM_getValue(`pagehand:run:${id}`), runId)).toBe('string');

    // The user allows leaving the site in tab A: the run moves to the partner site there.
    await clickAllow(a.page);
    const r = await Promise.race([a.result, timeoutWith(a)]);
    expect(r).toMatchObject({ ok: true });
    expect(new URL(a.page.url()).hostname).toBe('localhost');
    expect(await a.page.title()).toBe('Confirmed');
    expect(chats(a)).toBeGreaterThan(aChats);
    await inUi(a.page, '[data-end="done"]').waitFor();

    // Tab B never took part: no model call, no action, no run, nothing in its panel; and a reload
    // of tab B (a fresh page load in that tab) still finds no run of its own.
    expect(b.gmRequests.filter((u) => u === CHAT())).toEqual([]);
    expect(b.events.filter((e) => e.event === 'action' || e.event === 'step')).toEqual([]);
    expect(await untouched()).toEqual({ run: false, overlay: true, runShown: false, name: '', status: '' });
    expect(b.tabObject().pagehandRun).toBeUndefined();
    await b.page.reload();
    await settled(b.page);
    expect(await untouched()).toEqual({ run: false, overlay: true, runShown: false, name: '', status: '' });
    await a.page.close();
    await b.page.close();
  });
});

/** Every reply streamed in separate writes, as real servers send them (a write every 15 ms). */
const streamed =
  (policy: Policy): Policy =>
  async (req) => {
    const reply = await policy(req);
    return reply && { ...reply, chunkDelayMs: 15 };
  };

/** Signs up on this page and is done (no navigation). */
const signupHereModel = (): Policy => (req) => {
  const map = latestMap(req);
  if (!hasText(map, 'Saved: Ada Lovelace'))
    return call('type', { ref: refFor(map, 'textbox', 'Your name'), text: 'Ada Lovelace', submit: true }, 'eval: start\nmemory: none\ngoal: sign up');
  return call('done', { summary: 'Signed up Ada Lovelace.' }, 'eval: saved\nmemory: signed up\ngoal: finish');
};

describe('a conversation in the userscript (Tampermonkey)', () => {
  it('goes on after the user navigates between the turns, kept in the tab object where no page script reads it', { timeout: 120_000 }, async () => {
    const taskIn = (text: string): string => /^# Task\n(.*)$/m.exec(text)?.[1] ?? '';
    const seen: string[] = [];
    stack.setPolicy((req) => {
      const text = req.messages.find((m) => m.role === 'user')?.text ?? '';
      const task = taskIn(text);
      seen.push(text);
      const map = latestMap(req);
      if (task === 'What was my last order?') {
        if (mapUrl(map).endsWith('home.html')) return call('click', { ref: refFor(map, 'link', 'My orders') });
        return call('done', { summary: '#A-7731, a blue mug' });
      }
      return call('done', { summary: 'Cancelled #A-7731.' });
    });
    const a = await openTab('Tampermonkey', `tm-thread-${Date.now()}`);
    const { page } = a;
    const home = `${origin()}/fixtures/agent/thread/home.html`;
    await page.goto(home);
    await settled(page);
    await page.evaluate(() => (window as any).pagehand.open());
    await inUi(page, '[data-task]').click();
    await page.keyboard.type('What was my last order?');
    await page.keyboard.press('Enter');
    await inUi(page, '[data-end="done"]').waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).pathname).toMatch(/orders\.html$/);
    // The conversation is in this tab's object, for this site.
    const kept = (a.tabObject().pagehandThreads as Record<string, { turns: Array<{ answer: string }> }>)[origin()];
    expect(kept.turns.map((t) => t.answer)).toEqual(['#A-7731, a blue mug']);

    // The user goes back to the account page (a full page load), then asks a follow-up.
    await page.goto(home);
    await settled(page);
    await page.evaluate(() => (window as any).pagehand.open());
    await inUi(page, '[data-thread] [data-turn-answer="done"]').waitFor();
    await inUi(page, '[data-task]').click();
    await page.keyboard.type('Cancel it');
    await page.keyboard.press('Enter');
    await inUi(page, '[data-end="done"]').waitFor({ timeout: 30_000 });
    const second = seen.find((t) => taskIn(t) === 'Cancel it')!;
    expect(second).toContain('The user asked: What was my last order?');
    expect(second).toContain('answer: #A-7731, a blue mug');
    // Nothing of it where the page's scripts can look.
    const readable = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.documentElement.outerHTML,
    );
    expect(readable).not.toContain('#A-7731, a blue mug');
    expect(readable).not.toContain('Cancelled #A-7731');
    await page.close();
  });
});

describe('the userscript on a stranger page keeps the panel’s memory out of the page', () => {
  it('the list of tasks goes to the tab object; the page’s sessionStorage holds neither it nor the run’s log', { timeout: 120_000 }, async () => {
    stack.setPolicy((req) => {
      const map = latestMap(req);
      if (mapUrl(map).endsWith('home.html')) return call('click', { ref: refFor(map, 'link', 'My orders') });
      return call('done', { summary: '#A-7731, a blue mug' });
    });
    const a = await openTab('Tampermonkey', `tm-kept-${Date.now()}`);
    const { page } = a;
    await page.goto(`${origin()}/fixtures/agent/thread/home.html`);
    await settled(page);
    await page.evaluate(() => (window as any).pagehand.open());
    await inUi(page, '[data-task]').click();
    await page.keyboard.type('What was my last order?');
    await page.keyboard.press('Enter');
    await inUi(page, '[data-end="done"]').waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).pathname).toMatch(/orders\.html$/);
    const kept = (a.tabObject().pagehandKept as Record<string, Record<string, any>>)[origin()]!;
    expect(kept['pagehand:history'].map((h: { task: string }) => h.task)).toEqual(['What was my last order?']);
    // Nothing of it where the page's scripts look.
    const session = await page.evaluate(() => ({ ...sessionStorage }));
    expect(Object.keys(session).filter((k) => k === 'pagehand:history' || k === 'pagehand:log')).toEqual([]);
    expect(JSON.stringify(session)).not.toContain('What was my last order?');
    await page.close();
  });
});

describe.each(['Tampermonkey', 'ScriptCat', 'Violentmonkey', 'Greasemonkey'] as const)('the userscript under %s', (handler) => {
  it('finishes a run whose replies stream in many writes: every call named, no broken stream, no retry', { timeout: 60_000 }, async () => {
    stack.setPolicy(streamed(signupHereModel()));
    const t = await openTab(handler, `${handler}-stream-${Date.now()}`);
    await t.page.goto(`${origin()}/fixtures/delivery/csp/signup.html`);
    await settled(t.page);
    await t.page.evaluate(() => (window as any).__phSubscribe((window as any).pagehand.run('Sign up as Ada Lovelace')));
    const r = await Promise.race([t.result, timeoutWith(t, 45_000)]);
    expect(r, JSON.stringify(t.events.slice(-5))).toMatchObject({ ok: true, summary: 'Signed up Ada Lovelace.', steps: 2 });
    expect(await t.page.locator('#status').textContent()).toBe('Saved: Ada Lovelace');
    // The replies were read whole: each planned step names its call, nothing was retried.
    const planned = t.events.filter((e) => e.event === 'step' && e.payload.phase === 'planned');
    expect(planned.map((e) => e.payload.calls.map((c: { name: string }) => c.name))).toEqual([['type'], ['done']]);
    expect(planned[0]!.payload.reasoning).toMatchObject({ nextGoal: 'sign up' });
    expect(t.events.filter((e) => e.event === 'error')).toEqual([]);
    expect(chats(t)).toBe(2);
    await t.page.close();
  });
});

describe('the userscript under Violentmonkey (no tab API) on a strict-CSP page', () => {
  it('goes on across the pages of one site in its tab; another tab, or one that copied its id, never picks it up', { timeout: 120_000 }, async () => {
    // The step on the partner page waits until the other tabs have been looked at.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const model = signupModel();
    stack.setPolicy(
      streamed(async (req) => {
        if (mapUrl(latestMap(req)).includes('partner.html')) await gate;
        return model(req);
      }),
    );
    const ns = `vm-site-${Date.now()}`;
    const a = await openTab('Violentmonkey', ns);
    await a.page.goto(`${origin()}/fixtures/delivery/csp/signup.html?partner=same`);
    await settled(a.page);
    await a.page.evaluate(() => (window as any).__phSubscribe((window as any).pagehand.run('Sign up as Ada Lovelace and confirm on the partner site')));
    // The run followed the link to the partner page of the same site, in this tab, and waits for the model there.
    await a.page.waitForURL(/partner\.html/);
    await expect.poll(() => a.events.some((e) => e.event === 'message' && /^Resumed on /.test(e.payload.text)), { timeout: 20_000 }).toBe(true);
    const tabId = await a.page.evaluate(() => sessionStorage.getItem('pagehand:tab'));
    expect(tabId).toMatch(/^[A-Za-z0-9_-]{22}$/);

    const untouched = (t: Tab) =>
      t.page.evaluate(() => ({ run: !!(window as any).pagehand.current(), status: document.getElementById('status')!.textContent }));
    // Another tab of the same site, opened now, and reloaded: no run.
    const b = await openTab('Violentmonkey', ns);
    await b.page.goto(`${origin()}/fixtures/delivery/csp/partner.html`);
    await settled(b.page);
    expect(await untouched(b)).toEqual({ run: false, status: '' });
    await b.page.reload();
    await settled(b.page);
    expect(await untouched(b)).toEqual({ run: false, status: '' });
    // A tab that starts with tab A's sessionStorage (window.open, Duplicate tab) while the run is at work there: no run.
    const c = await openTab('Violentmonkey', ns);
    await c.page.addInitScript((id) => {
      if (!sessionStorage.getItem('copied')) {
        sessionStorage.setItem('copied', '1');
        sessionStorage.setItem('pagehand:tab', id!);
      }
    }, tabId);
    await c.page.goto(`${origin()}/fixtures/delivery/csp/partner.html`);
    await settled(c.page);
    expect(await untouched(c)).toEqual({ run: false, status: '' });

    // The run goes on in tab A and ends there.
    release();
    const r = await Promise.race([a.result, timeoutWith(a)]);
    expect(r).toMatchObject({ ok: true, summary: `Signed up Ada Lovelace and confirmed on ${new URL(origin()).host}.` });
    expect(await a.page.title()).toBe('Confirmed');
    for (const t of [b, c]) {
      expect(t.gmRequests.filter((u) => u === CHAT())).toEqual([]);
      expect(t.events.filter((e) => e.event === 'action' || e.event === 'step')).toEqual([]);
      expect(await untouched(t)).toEqual({ run: false, status: '' });
    }
    // Nothing of the run is left in the manager's storage.
    expect(await a.page.evaluate(() => (window as any).GM_listValues().filter((k: string) => k.startsWith('pagehand:run')))).toEqual([]);
    for (const t of [a, b, c]) await t.page.close();
  });

  it('does not follow the run to another site: the new page holds no run', { timeout: 120_000 }, async () => {
    stack.setPolicy(streamed(signupModel()));
    const t = await openTab('Violentmonkey', `vm-${Date.now()}`);
    const { page } = t;
    await page.goto(`${origin()}/fixtures/delivery/csp/signup.html`);
    await settled(page);
    await page.evaluate(() => (window as any).__phSubscribe((window as any).pagehand.run('Sign up as Ada Lovelace and confirm on the partner site')));
    await inUi(page, '[data-confirm]').waitFor({ timeout: 30_000 });
    // Its first step went through GM_xmlhttpRequest (progress text) and acted on the page.
    expect(await page.locator('#status').textContent()).toBe('Saved: Ada Lovelace');
    expect(chats(t)).toBe(2);
    await clickAllow(page);
    await page.waitForURL(/localhost.*partner\.html/);
    await settled(page);
    // The new page holds no run: nothing resumed, no model call, the partner's button untouched.
    expect(await page.evaluate(() => ({ run: !!(window as any).pagehand.current(), status: document.getElementById('status')!.textContent }))).toEqual({
      run: false,
      status: '',
    });
    expect(await panel(page).count()).toBe(0);
    expect(chats(t)).toBe(2);
    expect(t.events.filter((e) => e.event === 'step' && new URL(e.url).hostname === 'localhost')).toEqual([]);
    await page.close();
  });
});

describe('the panel belongs to its tab', () => {
  it('opened in one tab, it stays open there across a reload; another tab of the site, new or reloaded, shows the launcher', { timeout: 60_000 }, async () => {
    const ns = `panel-${Date.now()}`;
    const a = await openTab('Tampermonkey', ns);
    await a.page.goto(`${origin()}/fixtures/delivery/csp/signup.html`);
    await settled(a.page);
    await inUi(a.page, '.launcher').click();
    await panel(a.page).waitFor();

    const b = await openTab('Tampermonkey', ns);
    await b.page.goto(`${origin()}/fixtures/delivery/csp/signup.html`);
    await settled(b.page);
    await inUi(b.page, '.launcher').waitFor();
    expect(await panel(b.page).count()).toBe(0);
    await b.page.reload();
    await settled(b.page);
    await inUi(b.page, '.launcher').waitFor();
    expect(await panel(b.page).count()).toBe(0);

    await a.page.reload();
    await settled(a.page);
    await panel(a.page).waitFor();
    await a.page.close();
    await b.page.close();
  });
});
