/**
 * The bookmarklet's broker: a window on this proxy's own origin that the bookmarklet opens on its
 * click, so the personal token never enters the page. The page it was clicked on asks it, by
 * postMessage, for a session; the broker reads who asks from `MessageEvent.origin` in its own
 * window (the browser sets it; the page's scripts cannot), and after the user presses Allow in
 * the broker the server mints a session token bound to that origin, which the broker posts to
 * that origin only. A session minted once is kept in the broker's storage and handed again to the
 * same origin while it has more than ten minutes left (that origin has already seen it).
 *
 * Why a window and not a frame: a page can frame or open anything, but frames can be covered and
 * clicked through; this page is served with `frame-ancestors 'none'`, and a page that opens it
 * itself only gets a window asking the user about its own origin.
 *
 * `POST /bookmarklet/session` mints, from the personal token the server holds: only for a
 * same-origin request from the broker (`Sec-Fetch-Site: same-origin` and the proxy's own
 * Origin, which browsers set and pages elsewhere cannot), on loopback only (like the install page).
 */
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app';
import { ProxyError } from '../errors';
import { mintSessionToken, parentId } from '../session/token';

export interface BrokerOptions {
  personalToken?: string;
  /** Lifetime of a minted session, seconds. */
  ttlSeconds: number;
  now: () => number;
  /** This server's origin as browsers see it. */
  ownOrigin: (c: Context) => string;
  /** The install page's guard: loopback only, top-level or same-origin only, never framed. */
  guarded: MiddlewareHandler;
}

const MAX_BODY = 2048;

export function mountBroker(app: Hono<AppEnv>, o: BrokerOptions): void {
  app.get('/bookmarklet', o.guarded, async (c) => {
    c.header('Cache-Control', 'no-store');
    // Sessions kept by the window are filed under the personal token's id: a new token drops them.
    return c.html(brokerPage(o.personalToken ? await parentId(o.personalToken) : ''));
  });
  app.post('/bookmarklet/session', o.guarded, async (c) => {
    c.header('Cache-Control', 'no-store');
    if (!o.personalToken) {
      throw new ProxyError(404, 'not_found', 'This proxy has no personal token (PAGEHAND_SITES is set), so it has no bookmarklet: use the userscript.');
    }
    const own = o.ownOrigin(c);
    if (c.req.header('sec-fetch-site') !== 'same-origin' || c.req.header('origin') !== own) {
      throw new ProxyError(403, 'cross_origin_refused', `Only the bookmarklet's window at ${own}/bookmarklet may ask for a session here.`);
    }
    const origin = readOrigin(await c.req.text().catch(() => ''));
    const expiresAt = Math.floor(o.now() / 1000) + o.ttlSeconds;
    return c.json({
      token: await mintSessionToken(o.personalToken, origin, expiresAt, { user: true }),
      origin,
      expiresAt: new Date(expiresAt * 1000).toISOString(),
    });
  });
}

/** The body `{"origin":"https://page.example"}`: an http(s) origin and nothing else, else 400. */
export function readOrigin(text: string): string {
  const bad = (why: string) => new ProxyError(400, 'invalid_body', `The body must be {"origin":"https://…"}, the origin of the page pagehand is for: ${why}.`);
  if (text.length > MAX_BODY) throw bad('it is too long');
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw bad('it is not JSON');
  }
  if (!v || typeof v !== 'object' || Array.isArray(v) || Object.keys(v).some((k) => k !== 'origin')) throw bad('it has other fields');
  const origin = (v as { origin?: unknown }).origin;
  if (typeof origin !== 'string') throw bad('"origin" is missing');
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw bad('"origin" is not a URL');
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== origin) throw bad('"origin" is not an http(s) origin');
  return origin;
}

/**
 * The broker window. Its script trusts nothing the page sends but the origin the browser stamps
 * on the message and that it comes from the window that opened it; it posts the token to that
 * origin only (a page that navigated away meanwhile gets nothing).
 */
const brokerPage = (generation: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>pagehand</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:1.5rem;color:#1d1d1f}code{font:13px ui-monospace,monospace;background:#f3f3f5;padding:0 .25em;border-radius:4px;word-break:break-all}button{font:inherit;padding:.4rem 1rem;border-radius:6px;border:1px solid #3b5bdb;background:#3b5bdb;color:#fff}button[disabled]{opacity:.5}</style>
</head><body>
<p id="say">Waiting for the page that opened this window…</p>
<p id="ask" hidden><button id="allow" disabled>Allow</button> <button id="deny" style="background:#fff;color:#3b5bdb">Cancel</button></p>
<script>
(function () {
  var opener = window.opener, say = document.getElementById('say'), ask = document.getElementById('ask');
  var allow = document.getElementById('allow'), deny = document.getElementById('deny'), busy = false, gen = ${JSON.stringify(generation)};
  function text(t) { say.textContent = t; }
  if (!opener) { text('Open this window with the pagehand bookmarklet, on the page you want pagehand on.'); return; }
  function send(origin, m) { m.pagehand = 'broker'; opener.postMessage(m, origin); }
  function kept(origin) {
    try {
      var s = JSON.parse(localStorage.getItem('pagehand.session ' + gen + ' ' + origin) || 'null');
      return s && typeof s.token === 'string' && Date.parse(s.expiresAt) - Date.now() > 600000 ? s.token : null;
    } catch (e) { return null; }
  }
  window.addEventListener('message', function (e) {
    var origin = e.origin;
    if (busy || e.source !== opener || !e.data || e.data.pagehand !== 'session' || !/^https?:\\/\\//.test(origin)) return;
    busy = true;
    var k = kept(origin);
    if (k) { send(origin, { token: k }); window.close(); return; }
    say.textContent = '';
    say.append('Start pagehand on ', Object.assign(document.createElement('code'), { textContent: origin }), '? It will read that page and act on it for you, with your proxy.');
    ask.hidden = false;
    // Not at once: a page that opened this window under the pointer must not get a double click's second half.
    setTimeout(function () { allow.disabled = false; allow.focus(); }, 600);
    deny.onclick = function () { send(origin, { error: 'you cancelled it.' }); window.close(); };
    allow.onclick = function () {
      allow.disabled = true;
      fetch('/bookmarklet/session', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ origin: origin }) })
        .then(function (r) { return r.json().then(function (j) { return { ok: r.ok, j: j }; }); })
        .then(function (x) {
          if (!x.ok || !x.j || !x.j.token) throw new Error(x.j && x.j.error && x.j.error.message || 'no session');
          try { localStorage.setItem('pagehand.session ' + gen + ' ' + origin, JSON.stringify({ token: x.j.token, expiresAt: x.j.expiresAt })); } catch (e) {}
          send(origin, { token: x.j.token });
          window.close();
        })
        .catch(function (err) { send(origin, { error: 'the proxy could not start a session (' + err.message + ').' }); window.close(); });
    };
  });
  // Nothing secret: the page learns only that this window is ready.
  opener.postMessage({ pagehand: 'broker', ready: 1 }, '*');
})();
</script>
</body></html>`;
