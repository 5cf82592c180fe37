/**
 * The userscript (dist/pagehand.user.js as the proxy serves it, proxy and token filled in) in a
 * GM shim, on a page whose CSP allows only its own scripts and connections: the model calls go
 * through GM_xmlhttpRequest — performed by Node's fetch over a Playwright binding, so the page's
 * CSP cannot block them, as with a real manager — and the run, kept in GM storage shared by
 * both origins, resumes after a cross-origin navigation (127.0.0.1 → localhost). Once with the
 * body handed out as a ReadableStream (Tampermonkey), once as progressive text (others).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signupModel, startAgentStack, type AgentStack } from './agent-harness';
import { origin, useSession } from './harness';

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

/** GM_* for the page, before the userscript: storage through same-origin synchronous requests
 * to the static server (one store for both origins), requests through the `__gmFetch` binding. */
function gmShim(ns: string, handler: 'Tampermonkey' | 'Violentmonkey'): string {
  return `(() => {
  const store = (method, key, body) => {
    const x = new XMLHttpRequest();
    x.open(method, '/__gm-store?key=' + encodeURIComponent(${JSON.stringify(ns)} + ':' + key), false);
    x.send(body === undefined ? null : body);
    return x;
  };
  window.GM_getValue = (k, d) => { const x = store('GET', k); return x.status === 200 ? x.responseText : d; };
  window.GM_setValue = (k, v) => { store('PUT', k, String(v)); };
  window.GM_deleteValue = (k) => { store('DELETE', k); };
  window.GM_info = { scriptHandler: ${JSON.stringify(handler)} };
  window.GM_xmlhttpRequest = (d) => {
    let id, aborted = false, text = '';
    (async () => {
      const h = await window.__gmFetch('start', { method: d.method || 'GET', url: d.url, headers: d.headers || {}, data: d.data });
      if (aborted) { if (h.id) window.__gmFetch('abort', h.id); return; }
      if (h.error) { d.onerror && d.onerror({ status: 0, error: h.error, responseText: '' }); return; }
      id = h.id;
      const base = { status: h.status, statusText: h.statusText, responseHeaders: h.responseHeaders, finalUrl: h.finalUrl };
      d.onreadystatechange && d.onreadystatechange({ ...base, readyState: 2 });
      if (d.responseType === 'stream' && window.GM_info.scriptHandler === 'Tampermonkey') {
        const enc = new TextEncoder();
        const stream = new ReadableStream({
          async pull(c) {
            const r = await window.__gmFetch('read', id);
            if (r.error) c.error(new Error(r.error)); else if (r.chunk === null) c.close(); else c.enqueue(enc.encode(r.chunk));
          },
          cancel() { window.__gmFetch('abort', id); },
        });
        d.onloadstart && d.onloadstart({ ...base, readyState: 2, response: stream });
        return;
      }
      d.onloadstart && d.onloadstart({ ...base, readyState: 2 });
      for (;;) {
        const r = await window.__gmFetch('read', id);
        if (aborted) return;
        if (r.error) { d.onerror && d.onerror({ ...base, status: 0, error: r.error }); return; }
        if (r.chunk === null) break;
        text += r.chunk;
        d.onprogress && d.onprogress({ ...base, readyState: 3, responseText: text });
      }
      d.onload && d.onload({ ...base, readyState: 4, responseText: text, response: text });
    })();
    return { abort() { aborted = true; if (id) window.__gmFetch('abort', id); d.onabort && d.onabort({}); } };
  };
})();`;
}

/** Subscribes to the run handle on every page (after the userscript resumed it), allowing risky actions. */
const SUBSCRIBE = `(() => {
  const seen = new WeakSet();
  const plain = (v) => { try { return JSON.parse(JSON.stringify(v ?? null)); } catch { return null; } };
  window.__phSubscribe = (h) => {
    h = h || (window.pagehand && window.pagehand.current());
    if (!h || seen.has(h)) return;
    seen.add(h);
    for (const ev of ['step', 'action', 'message', 'error', 'done']) h.on(ev, (p) => window.__phEvent(ev, plain(p), location.href));
    h.on('confirm', (p) => { window.__phEvent('confirm', plain(p.request), location.href); p.respond(true); });
  };
  window.__phSubscribe();
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
      /^\/\/ @run-at\s+document-start$/m,
      /^\/\/ @noframes$/m,
    ]) {
      expect(header).toMatch(line);
    }
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

describe.each(['Tampermonkey', 'Violentmonkey'] as const)('the userscript under %s on a strict-CSP page', (handler) => {
  it('completes the task through GM_xmlhttpRequest and resumes after a cross-origin navigation from GM storage', { timeout: 120_000 }, async () => {
    stack.setPolicy(signupModel());
    const before = stack.requests().length;
    const page = await session.context.newPage();
    page.on('pageerror', (e) => console.error('[page error]', e.message));
    const gmRequests: string[] = [];
    const events: Recorded[] = [];
    let settle!: (r: any) => void;
    const result = new Promise<any>((r) => (settle = r));
    await exposeGm(page, gmRequests);
    await page.exposeBinding('__phEvent', (_s, event: string, payload: any, url: string) => {
      events.push({ event, payload, url });
      if (event === 'done' && payload?.result?.reason !== 'moved') settle(payload.result);
    });
    await page.addInitScript({ content: gmShim(`${handler}-${Date.now()}`, handler) });
    await page.addInitScript({ content: userscript });
    await page.addInitScript({ content: SUBSCRIBE });

    await page.goto(`${origin()}/fixtures/delivery/csp/signup.html`);
    // Like an embed, the userscript shows pagehand's launcher on the page.
    await page.waitForFunction(() => !!document.querySelector('[data-pagehand-ui]'), null, { timeout: 10_000 });
    // The CSP is in force: the page itself cannot reach the proxy.
    const direct = await page.evaluate((u) => fetch(`${u}/healthz`).then(() => 'reached', (e) => `blocked: ${e.message}`), stack.proxyUrl);
    expect(direct).toMatch(/^blocked/);

    // No proxy, token or model given: the userscript's own configuration (filled in by the server).
    await page.evaluate(() => (window as any).__phSubscribe((window as any).pagehand.run('Sign up as Ada Lovelace and confirm on the partner site', { ui: false })));
    const timeout = new Promise((_, rej) => setTimeout(() => rej(new Error(`no result; events:\n${events.map((e) => `${e.event} ${JSON.stringify(e.payload).slice(0, 200)}`).join('\n')}`)), 100_000));
    const r = await Promise.race([result, timeout]);

    expect(r, JSON.stringify(events.slice(-5))).toMatchObject({ ok: true });
    expect(r.summary).toContain(`confirmed on ${new URL(page.url()).host}`);
    expect(new URL(page.url()).hostname).toBe('localhost');
    expect(await page.title()).toBe('Confirmed');
    // Resumed on the other origin, and said so.
    const resumed = events.filter((e) => e.event === 'step' && e.payload.phase === 'start' && e.payload.resumed);
    expect(resumed.map((e) => new URL(e.url).hostname)).toEqual(['localhost']);
    // Leaving the site was a risky action: asked, and allowed here.
    expect(events.filter((e) => e.event === 'confirm').map((e) => e.payload.kind)).toEqual(['leaving_site']);
    // Every model call (and the config request) went through GM_xmlhttpRequest, from both origins.
    const chats = gmRequests.filter((u) => u === `POST ${stack.proxyUrl}/v1/chat/completions`);
    expect(chats.length).toBe(stack.requests().length - before);
    expect(chats.length).toBe(r.steps);
    expect(gmRequests).toContain(`GET ${stack.proxyUrl}/v1/config`);
    // The run's state is gone from GM storage once it ended.
    expect(await page.evaluate(() => (window as any).GM_getValue('pagehand:run', 'none'))).toBe('none');
    await page.close();
  });
});
