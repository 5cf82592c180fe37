/**
 * Guards the routes whose answer carries a token (the install page, the userscript, the demo
 * pages): another site must not be able to read it. A page elsewhere cannot read a cross-origin
 * HTML or JSON answer, but it can run one as a script (`<script src>` of /pagehand.user.js puts
 * the token in its globals) or frame it, so the rule is on the request, not the answer:
 *
 * - `Sec-Fetch-Site: same-origin` or `none` (typed URL, bookmark, a userscript manager's own
 *   fetch) → served;
 * - `Sec-Fetch-Mode: navigate` with `Sec-Fetch-Dest: document` (a top-level navigation: the
 *   page that started it cannot read the answer) → served;
 * - any other Sec-Fetch-Site (`same-site`, `cross-site`) → 403: a script, frame, worker,
 *   object, fetch… from another origin. localhost:3000 is same-site with localhost:8787.
 * - no Sec-Fetch-Site at all (an old browser, curl) → 403 when a Referer names another
 *   origin, else served.
 *
 * Served answers also get `Cross-Origin-Resource-Policy: same-origin` and
 * `X-Content-Type-Options: nosniff`, and HTML ones `Content-Security-Policy: frame-ancestors
 * 'none'` and `X-Frame-Options: DENY`.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { ProxyError } from '../errors';

export interface TokenPagesOptions {
  /** Said in the refusal, e.g. "the personal token". Default "a token". */
  what?: string;
  /** This server's origin as browsers see it (PUBLIC_URL behind a reverse proxy); default the request's. */
  ownOrigin?: (c: Context) => string;
}

/** The request headers the rule reads (lower-case names). */
export interface FetchMetadata {
  site?: string;
  mode?: string;
  dest?: string;
  referer?: string;
}

/**
 * Whether a request for a token-carrying answer may be served, and if not, why. Pure.
 *
 * @example
 * tokenRequestVerdict({ site: 'cross-site', mode: 'no-cors', dest: 'script' }, 'http://127.0.0.1:8787');
 * // { ok: false, why: 'it was made by another site (cross-site, as a script)' }
 */
export function tokenRequestVerdict(h: FetchMetadata, ownOrigin: string): { ok: true } | { ok: false; why: string } {
  const site = h.site?.toLowerCase();
  if (site !== undefined) {
    if (site === 'same-origin' || site === 'none') return { ok: true };
    if (h.mode?.toLowerCase() === 'navigate' && h.dest?.toLowerCase() === 'document') return { ok: true };
    return { ok: false, why: `it was made by another site (${site.slice(0, 20)}, as ${describe(h.dest)})` };
  }
  if (h.referer !== undefined && originOf(h.referer) !== ownOrigin) {
    return { ok: false, why: 'it was made from a page of another origin (Referer)' };
  }
  return { ok: true };
}

/**
 * @example
 * app.get('/pagehand.user.js', tokenPages({ what: 'the personal token' }), (c) => c.body(userscript));
 */
export function tokenPages(options: TokenPagesOptions = {}): MiddlewareHandler {
  const what = options.what ?? 'a token';
  return async (c, next) => {
    c.header('Cross-Origin-Resource-Policy', 'same-origin');
    c.header('X-Content-Type-Options', 'nosniff');
    const verdict = tokenRequestVerdict(
      {
        site: c.req.header('sec-fetch-site'),
        mode: c.req.header('sec-fetch-mode'),
        dest: c.req.header('sec-fetch-dest'),
        referer: c.req.header('referer'),
      },
      options.ownOrigin?.(c) ?? new URL(c.req.url).origin,
    );
    if (!verdict.ok) {
      throw new ProxyError(
        403,
        'cross_origin_refused',
        `This answer carries ${what}, so it is served only to a page of this server, or when opened directly in the browser; this request was refused because ${verdict.why}.`,
      );
    }
    await next();
    if (/^text\/html/i.test(c.res.headers.get('content-type') ?? '')) {
      c.res.headers.set('Content-Security-Policy', "frame-ancestors 'none'");
      c.res.headers.set('X-Frame-Options', 'DENY');
    }
  };
}

function describe(dest: string | undefined): string {
  if (!dest || dest === 'empty') return 'a fetch';
  return `a ${dest.toLowerCase().slice(0, 20)}`;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
