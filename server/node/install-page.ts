/**
 * The install page at `/` of the Node server: what is configured, what to set when nothing is,
 * the bookmarklet to drag, the embed snippet, the userscript, the demo pages. Pure: data in,
 * HTML out (every interpolated value escaped by Hono's `html` template).
 */
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { bookmarklet, embedSnippet } from './loader';

export interface InstallPageData {
  origin: string;
  providers: { openai: false | { customBaseUrl: boolean }; gemini: false | { customBaseUrl: boolean } };
  defaultModel?: string;
  models: string[];
  /** Set when the server made a personal token (no PAGEHAND_SITES). */
  personalToken?: string;
  siteCount: number;
  /** A freshly generated token for the PAGEHAND_SITES example (shown, never configured). */
  exampleSiteToken: string;
  bundleBuilt: boolean;
  userscriptBuilt: boolean;
  demos: Array<{ path: string; title: string }>;
}

export function installPage(d: InstallPageData): HtmlEscapedString | Promise<HtmlEscapedString> {
  const none = !d.providers.openai && !d.providers.gemini;
  const token = d.personalToken ?? 'YOUR_SITE_TOKEN';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>pagehand proxy</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; color: #1d1d1f; }
  code, pre { font: 13px ui-monospace, monospace; background: #f3f3f5; border-radius: 4px; }
  code { padding: 0 .25em; } pre { padding: .75rem; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
  .warn { background: #fff4e5; border: 1px solid #f0b35b; border-radius: 6px; padding: .75rem 1rem; }
  .ok { color: #0a7d32; } .off { color: #8a8a8e; }
  a.bm { display: inline-block; padding: .4rem .9rem; border-radius: 6px; background: #3b5bdb; color: #fff; text-decoration: none; font-weight: 600; }
</style>
</head>
<body>
<h1>pagehand proxy</h1>
<p>Running at <code>${d.origin}</code>. API keys stay here; pages talk to <code>/v1/chat/completions</code> with a token.</p>

<h2>Providers</h2>
<ul>
  <li>OpenAI-compatible: ${providerLine(d.providers.openai)}</li>
  <li>Gemini: ${providerLine(d.providers.gemini)}</li>
</ul>
${
  none
    ? html`<div class="warn" id="no-provider">
  <strong>No model provider is configured.</strong> Stop the server, set one of these, and run <code>npm start</code> again:
  <pre>OPENAI_API_KEY=sk-…                      # OpenAI (or OpenRouter with OPENAI_BASE_URL)
OPENAI_BASE_URL=http://127.0.0.1:11434/v1  # Ollama / LM Studio / vLLM: no key needed,
PAGEHAND_MODEL=llama3.1                    #   and name the model you serve
GEMINI_API_KEY=…                           # Gemini</pre>
  <p id="watch-help">Meanwhile, the <a href="#demos">demo pages</a> show pagehand at work without a model: open one and
  press <strong>Watch it work</strong> to replay a task it solved there before.</p>
</div>`
    : html`<p>Default model: <code>${d.defaultModel ?? '(none)'}</code>. Allowed: ${d.models.length ? d.models.join(', ') : '(none)'}.</p>`
}
${d.bundleBuilt ? '' : html`<div class="warn" id="no-bundle"><strong>dist/pagehand.js is not built.</strong> Run <code>npm run build</code> (or start with <code>npm start</code>, which builds first).</div>`}

<h2>Bookmarklet</h2>
${
  d.personalToken
    ? html`<p>Drag this to your bookmarks bar, then click it on any page:
  <a class="bm" id="bookmarklet" href="${bookmarklet(d.origin)}">pagehand</a></p>
<p id="bookmarklet-help">The bookmarklet holds no token. Its click opens a small window of this proxy that asks
you to allow pagehand on that page's origin; the page then gets only a session token that works from its
own origin and expires. Bookmarklets dragged before this version carried your personal token and now say
they are outdated: drag this one in their place.</p>
<p>Your personal token (works from any origin; this server listens on loopback only): <code id="token">${d.personalToken}</code></p>`
    : html`<p>This server uses the ${d.siteCount} site token(s) from <code>PAGEHAND_SITES</code>, and the bookmarklet needs
the personal token it makes without them: use the userscript, or the embed snippet on your own pages.</p>`
}

<h2>Embed on your site</h2>
<p>Add to your pages (use a site token bound to your origin in <code>PAGEHAND_SITES</code>):</p>
<pre id="embed">${embedSnippet(d.origin, token)}</pre>
${
  d.personalToken
    ? html`<p class="warn" id="embed-personal">This snippet carries your <strong>personal token</strong>, which works from any
origin: use it only to try pagehand on pages on this machine. Never put it on a site others can open.</p>`
    : ''
}
<div id="site-token-help">
<p>For a site, make a token that works only from that site's origin: start the proxy with
<code>PAGEHAND_SITES</code> (a JSON list; <code>models</code>, <code>rpm</code>, <code>clientRpm</code>,
<code>maxTokens</code> and <code>maxPromptTokens</code> are optional), then put that token in the snippet:</p>
<pre id="sites-example">PAGEHAND_SITES='[{ "token": "${d.exampleSiteToken}", "origins": ["https://your-site.example"] }]'</pre>
<p>The token above was generated for this page load; any long random string will do.</p>
</div>

<h2>Userscript</h2>
<p>${
    d.userscriptBuilt
      ? html`<a href="/pagehand.user.js" id="userscript">Install pagehand.user.js</a> (for pages whose CSP blocks injected scripts).`
      : html`<span id="userscript-missing">Not built yet</span> (<code>dist/pagehand.user.js</code> does not exist).`
  }</p>
<div id="userscript-help">
<p>The userscript runs pagehand on every page from the start (before the page's own scripts, so
closed shadow roots and listener-only buttons are visible too). Its model calls go through the
userscript manager (<code>GM_xmlhttpRequest</code>), so pages whose Content-Security-Policy blocks
the bookmarklet work, and a run carries on when a link leads to another page (to another site too
in Tampermonkey and ScriptCat; in Greasemonkey a run ends with its page).</p>
<ol>
  <li>Install a userscript manager in your browser: Tampermonkey, Violentmonkey, ScriptCat or Greasemonkey (from your
    browser's extension store).
    In Chrome, Edge and other Chromium browsers, also turn on the extension's
    <em>Allow User Scripts</em> toggle (or <em>Developer mode</em> under <code>chrome://extensions</code>);
    the manager says so when it is needed.</li>
  <li>Click <a href="/pagehand.user.js">pagehand.user.js</a> — the manager opens its install dialog —
    and choose <strong>Install</strong>. ${
      d.personalToken
        ? html`This proxy's address and your personal token are already filled in.`
        : html`This proxy's address is filled in; put your site token in the line
  <code>const PAGEHAND_USERSCRIPT = { proxy: "…", token: "" }</code> near the top (the manager's editor).`
    }</li>
  <li>The first time pagehand calls the model, the manager asks whether the script may connect to
    <code>${hostOf(d.origin)}</code>: choose <strong>Always allow</strong> (the script declares it with <code>@connect</code>).</li>
  <li>Open any page: the pagehand launcher is there. To update after <code>npm run build</code>,
    use the manager's <em>Check for updates</em> (the script updates from this server).</li>
</ol>
</div>

<h2 id="demos">Demo pages</h2>
<ul>${d.demos.map((x) => html`<li><a href="${x.path}">${x.title}</a></li>`)}</ul>

<h2>API</h2>
<ul>
  <li><code>POST /v1/chat/completions</code> — OpenAI Chat Completions (JSON or SSE), any configured model</li>
  <li><code>GET /v1/config</code> — the models, features and limits of a token</li>
  <li><code>POST /v1/session</code> — a site or personal token → a session token bound to the calling page's origin, expiring</li>
  <li><code>GET /bookmarklet</code> — the bookmarklet's window: asks you, then gives the page that opened it a session token for its origin</li>
</ul>
</body>
</html>`;
}

function hostOf(origin: string): string {
  try {
    return new URL(origin).hostname;
  } catch {
    return origin;
  }
}

function providerLine(p: false | { customBaseUrl: boolean }) {
  return p ? html`<span class="ok">configured</span>${p.customBaseUrl ? ' (custom base URL)' : ''}` : html`<span class="off">not configured</span>`;
}
