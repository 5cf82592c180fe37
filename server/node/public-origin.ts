/**
 * The origin this server is reached at, as pages and snippets must name it. Behind an HTTPS
 * reverse proxy the request arrives as `http://127.0.0.1:8787`, so the install page, the demo
 * pages, the snippets and the served userscript (`@connect`, the proxy URL) would say `http://`
 * and a page on `https://` could not load them. In order:
 *
 *   PUBLIC_URL                         the operator's word (`https://agent.example.com`)
 *   X-Forwarded-Proto / -Host          only with TRUST_PROXY (anyone can send them otherwise)
 *   the request's own URL
 */
import type { Context } from 'hono';

export interface PublicOriginOptions {
  /** PUBLIC_URL's origin, checked at start. */
  publicUrl?: string;
  /** TRUST_PROXY: > 0 when a reverse proxy in front sets the X-Forwarded-* headers. */
  trustProxyHops: number;
}

const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** The last value of a comma-separated forwarded header: the one the nearest proxy set. */
const last = (v: string | undefined): string | undefined => v?.split(',').pop()?.trim() || undefined;

/**
 * @example
 * publicOrigin(c, { publicUrl: 'https://agent.example.com', trustProxyHops: 0 }) // 'https://agent.example.com'
 */
export function publicOrigin(c: Context, o: PublicOriginOptions): string {
  if (o.publicUrl) return o.publicUrl;
  const own = new URL(c.req.url);
  if (o.trustProxyHops > 0) {
    const proto = last(c.req.header('x-forwarded-proto'))?.toLowerCase();
    const host = last(c.req.header('x-forwarded-host'));
    const scheme = proto === 'https' || proto === 'http' ? proto : own.protocol.slice(0, -1);
    const authority = host && HOST.test(host) ? host : own.host;
    return `${scheme}://${authority}`;
  }
  return own.origin;
}

/** PUBLIC_URL as an origin, or an error message for a value that cannot be one. */
export function parsePublicUrl(value: string | undefined): { origin?: string; error?: string } {
  const v = value?.trim();
  if (!v) return {};
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    return { error: `PUBLIC_URL is not a URL: "${v.slice(0, 100)}" (expected e.g. https://agent.example.com)` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { error: 'PUBLIC_URL must be an http(s) URL' };
  if (url.pathname !== '/' || url.search || url.hash) {
    return { error: `PUBLIC_URL must be an origin without a path ("${url.origin}"): pagehand is served at the root` };
  }
  return { origin: url.origin };
}
