/**
 * `--browser-endpoint URL` read from the command line (pure): which protocol its URL asks for,
 * what it cannot go with, and how it is shown (without what may be a secret in it).
 */

export type EndpointKind = 'playwright' | 'cdp';

/** How to reach the endpoint, from its URL alone; a string says what is wrong with it. Pure. */
export function endpointKind(url: string): EndpointKind | string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `--browser-endpoint must be a URL (ws://… for a Playwright browser server, http://host:9222 for Chromium's DevTools), got "${url}"`;
  }
  if (u.protocol === 'http:' || u.protocol === 'https:') return 'cdp';
  if (u.protocol === 'ws:' || u.protocol === 'wss:') return u.pathname.startsWith('/devtools/browser/') ? 'cdp' : 'playwright';
  return `--browser-endpoint must be a ws(s):// or http(s):// URL, got "${url}"`;
}

/** The endpoint without what may be a secret in it (a hosted service's token in the query, a password). */
export function endpointForDisplay(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return '(the endpoint)';
  }
}

/** `--browser-endpoint URL`, checked (its kind is read from the URL), with what it cannot go with. */
export function browserEndpointOf(values: Record<string, string>): { url?: string; error?: string } {
  const url = values['browser-endpoint'];
  if (url === undefined) return {};
  const kind = endpointKind(url);
  if (kind !== 'playwright' && kind !== 'cdp') return { error: kind };
  if (values.chromium !== undefined) return { error: '--chromium names a browser to launch; with --browser-endpoint none is launched' };
  return { url };
}
