/**
 * Routes only the Node entry has: the install page, the built bundle, the bookmarklet's bundle
 * and broker window, the userscript and the demo pages. Pages that show the personal token answer only to a loopback Host header, so a
 * DNS-rebinding page cannot read the token through the browser, never to a request a reverse
 * proxy forwarded (it says so in its headers), and only to a top-level
 * navigation or a same-origin request (tokenPages), so another site cannot run or frame them.
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { every } from 'hono/combine';
import type { AppEnv } from '../app';
import type { ProxyConfig } from '../config';
import { ProxyError } from '../errors';
import { tokenPages } from '../middleware/token-pages';
import { mintSessionToken } from '../session/token';
import { mountBroker } from './bookmarklet-broker';
import { installPage } from './install-page';
import { staticAssets } from './static-assets';
import { watchItWork } from './demo-watch';
import { escapeHtml } from './escape-html';
import { embedSnippet } from './loader';
import { publicOrigin } from './public-origin';

export interface NodePagesOptions {
  config: ProxyConfig;
  /** Directory holding pagehand.js and (later) pagehand.user.js. */
  distDir: string;
  /** Directory of demo pages (*.html). */
  demoDir: string;
  personalToken?: string;
  /** PUBLIC_URL's origin: what pages and snippets call this server (else the request's, see public-origin.ts). */
  publicUrl?: string;
}

const DEMO_NAME = /^[a-z0-9][a-z0-9-]*\.html$/;
/** Headers a browser on this machine never sends and reverse proxies add. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-real-ip', 'via'] as const;
const LOOPBACK_HOST = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\])(:\d+)?$/i;

/**
 * @example
 * const app = createApp(config);
 * mountNodePages(app, { config, distDir: 'dist', demoDir: 'server/demo', personalToken });
 */
export function mountNodePages(app: Hono<AppEnv>, opts: NodePagesOptions): void {
  const loopbackOnly: MiddlewareHandler = async (c, next) => {
    if (opts.personalToken && !LOOPBACK_HOST.test(c.req.header('host') ?? '')) {
      throw new ProxyError(403, 'origin_not_allowed', 'This page shows the personal token and is served to localhost only.');
    }
    // A reverse proxy forwarding to 127.0.0.1 may keep a loopback Host; most say they forwarded.
    const via = opts.personalToken ? FORWARDING_HEADERS.find((h) => c.req.header(h) !== undefined) : undefined;
    if (via) {
      throw new ProxyError(
        403,
        'origin_not_allowed',
        `This page shows the personal token and is served to this machine only; this request came through a proxy (${via}). Behind a reverse proxy, set PAGEHAND_SITES.`,
      );
    }
    await next();
  };
  const originOf = (c: Context) => publicOrigin(c, { publicUrl: opts.publicUrl, trustProxyHops: opts.config.trustProxyHops });
  const guarded = every(loopbackOnly, tokenPages({ what: opts.personalToken ? 'the personal token' : 'a token', ownOrigin: originOf }));

  app.get('/', guarded, async (c) => {
    const { config } = opts;
    const providerInfo = (p: { baseURL?: string; baseUrl?: string } | undefined) => (p ? { customBaseUrl: Boolean(p.baseURL ?? p.baseUrl) } : (false as const));
    return c.html(
      await installPage({
        origin: originOf(c),
        providers: { openai: providerInfo(config.providers.openai), gemini: providerInfo(config.providers.gemini) },
        defaultModel: config.defaultModel,
        models: config.models,
        personalToken: opts.personalToken,
        siteCount: config.sites.length,
        exampleSiteToken: `ph_site_${randomBytes(18).toString('base64url')}`,
        bundleBuilt: await exists(join(opts.distDir, 'pagehand.js')),
        userscriptBuilt: await exists(join(opts.distDir, 'pagehand.user.js')),
        demos: (await demoFiles(opts.demoDir)).map((f) => ({ path: `/demo/${f.name}`, title: f.title })),
      }),
    );
  });

  // The bundle, the screenshot module it imports on first use from next to itself (a
  // cross-origin module import needs the CORS header), the embed's loader and its agent chunks:
  // compressed once, with ETags, cached by kind (static-assets.ts).
  app.get('*', staticAssets({ dir: opts.distDir, log: opts.config.log }));

  // The userscript with this proxy and (on loopback only, like the install page) the personal
  // token filled in: a userscript manager installs it from this URL and updates from it.
  app.get('/pagehand.user.js', guarded, async (c) => {
    const file = await readOrNull(join(opts.distDir, 'pagehand.user.js'));
    if (file === null) return c.text('pagehand: the userscript is not built yet (dist/pagehand.user.js does not exist).\n', 404);
    const source = fillUserscript(new TextDecoder().decode(file), new URL(originOf(c)), opts.personalToken);
    return c.body(source, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache' });
  });

  // The bookmarklet's bundle with this proxy's origin written into its code: the page it runs in
  // cannot point it elsewhere by editing its script tag (client/entries/bookmarklet.ts). No token.
  app.get('/pagehand-bookmarklet.js', async (c) => {
    const file = await readOrNull(join(opts.distDir, 'pagehand-bookmarklet.js'));
    if (file === null) return c.text('pagehand: dist/pagehand-bookmarklet.js is not built yet. Run `npm run build`.\n', 404);
    const source = fillUserscript(new TextDecoder().decode(file), new URL(originOf(c)), undefined);
    return c.body(source, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' });
  });

  // The bookmarklet's broker window and the session it mints (bookmarklet-broker.ts).
  mountBroker(app, {
    personalToken: opts.personalToken,
    ttlSeconds: opts.config.limits.sessionTtlSeconds,
    now: opts.config.now,
    ownOrigin: originOf,
    guarded,
  });

  app.get('/demo', (c) => c.redirect('/demo/'));
  app.get('/demo/', guarded, async (c) => {
    const files = await demoFiles(opts.demoDir);
    const items = files.map((f) => `<li><a href="/demo/${f.name}">${escapeHtml(f.title)}</a></li>`).join('');
    return c.html(`<!doctype html><meta charset="utf-8"><title>pagehand demos</title><h1>pagehand demos</h1><ul>${items}</ul>`);
  });
  app.get('/demo/:name', guarded, async (c) => {
    const name = c.req.param('name');
    const file = DEMO_NAME.test(name) ? await readOrNull(join(opts.demoDir, name)) : null;
    if (file === null) throw new ProxyError(404, 'not_found', `No demo page "${name.slice(0, 80)}".`);
    const origin = originOf(c);
    // The page holds a session token bound to this server's own origin, never the personal token.
    const { limits, now } = opts.config;
    const embed = opts.personalToken
      ? embedSnippet(origin, await mintSessionToken(opts.personalToken, origin, Math.floor(now() / 1000) + limits.sessionTtlSeconds))
      : '<!-- pagehand: no personal token on this server (PAGEHAND_SITES is set); add your own embed snippet -->';
    // No model: the task the demo ships solved, replayed on request (demo-watch.ts).
    const recording = noProvider(opts.config) ? await readOrNull(join(opts.demoDir, name.replace(/\.html$/, '.recording.json'))) : null;
    const watch = recording && opts.personalToken ? watchItWork(new TextDecoder().decode(recording)) : '';
    const page = new TextDecoder().decode(file);
    return c.html((watch ? page.replace(/<body[^>]*>/i, (b) => `${b}\n${watch}`) : page).replace('<!--pagehand-embed-->', embed));
  });
}

const noProvider = (config: ProxyConfig): boolean => !config.providers.openai && !config.providers.gemini;

const SAFE = /^[A-Za-z0-9._~:/[\]-]*$/;

/** The userscript's placeholders (build.ts) → this proxy's origin, its host (for @connect), the token. */
export function fillUserscript(source: string, url: URL, token: string | undefined): string {
  const proxy = url.origin;
  const host = url.hostname;
  const tok = token ?? '';
  // All three land in the metadata block and in a string literal: plain URL and token characters only.
  if (![proxy, host, tok].every((v) => SAFE.test(v))) throw new ProxyError(400, 'invalid_body', 'Unexpected characters in the host or token.');
  return source.replaceAll('__PAGEHAND_PROXY_HOST__', host).replaceAll('__PAGEHAND_PROXY__', proxy).replaceAll('__PAGEHAND_TOKEN__', tok);
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

async function readOrNull(path: string): Promise<Uint8Array<ArrayBuffer> | null> {
  try {
    const buf = await readFile(path);
    return new Uint8Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer);
  } catch {
    return null;
  }
}

async function demoFiles(dir: string): Promise<Array<{ name: string; title: string }>> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => DEMO_NAME.test(n)).sort();
  } catch {
    return [];
  }
  return Promise.all(
    names.map(async (name) => {
      const text = await readFile(join(dir, name), 'utf8');
      return { name, title: /<title>([^<]*)<\/title>/i.exec(text)?.[1]?.trim() || name };
    }),
  );
}
