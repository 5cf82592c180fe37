/**
 * Another page of this page's origin, fetched without leaving this one: `read {url}` and the
 * site's `/llms.txt`. GET only, with the user's own cookies (`credentials: 'same-origin'`), and
 * never another origin: a URL on one (another scheme, host or port) is refused before any
 * request, and `mode: 'same-origin'` makes the browser fail a redirect to one before that
 * request is made. The page's fetch as it was before pagehand's hooks, so the page's own
 * wrappers neither see nor answer it. At most MAX_BYTES of the body are read.
 */
import { nativeFetch } from './settle/network';

export const MAX_BYTES = 2_000_000;
/** What can be read as text: HTML, plain text and its kin (none said: taken as text). */
const TEXT_TYPE = /^(?:$|text\/|application\/(?:xhtml\+xml|xml|json|[\w.+-]*\+(?:xml|json))$)/;

export type Fetched =
  { ok: true; url: string; type: string; text: string; cut: boolean } | { ok: false; message: string; why: 'other_origin' | 'redirect' | 'failed' };

/** The absolute URL `url` names on this page's origin, or why it is not one. */
export function sameOriginUrl(url: string, here: string = location.href): { url: URL } | { message: string } {
  let u: URL;
  try {
    u = new URL(url.trim(), here);
  } catch {
    return { message: `"${url}" is not an address.` };
  }
  const origin = new URL(here).origin;
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { message: `${u.protocol} addresses cannot be read: only pages of this site (${origin}).` };
  if (u.origin !== origin) return { message: `${u.origin} is another site: only pages of this site (${origin}) can be read without leaving it.` };
  u.hash = '';
  return { url: u };
}

/** The body as text, up to `max` bytes (the rest is not downloaded). */
async function bodyText(res: Response, max: number): Promise<{ text: string; cut: boolean }> {
  const charset = /charset=["']?([\w-]+)/i.exec(res.headers.get('content-type') ?? '')?.[1] ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    decoder = new TextDecoder();
  }
  const reader = res.body?.getReader();
  if (!reader) return { text: '', cut: false };
  let text = '';
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text: text + decoder.decode(), cut: false };
    const room = max - bytes;
    bytes += value.length;
    if (value.length >= room) {
      text += decoder.decode(value.subarray(0, room));
      void reader.cancel().catch(() => undefined);
      return { text, cut: true };
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** GETs `url` on this origin; never rejects. */
export async function fetchSameOrigin(url: string, signal?: AbortSignal, max = MAX_BYTES): Promise<Fetched> {
  const target = sameOriginUrl(url);
  if ('message' in target) return { ok: false, message: target.message, why: 'other_origin' };
  const get = nativeFetch ?? fetch;
  const init: RequestInit = {
    method: 'GET',
    mode: 'same-origin',
    credentials: 'same-origin',
    headers: { accept: 'text/html,text/plain;q=0.9,*/*;q=0.1' },
    ...(signal ? { signal } : {}),
  };
  const path = target.url.pathname + target.url.search;
  let res: Response;
  try {
    res = await get(target.url.href, init);
  } catch {
    // A same-origin fetch fails for a redirect to another origin (never followed) or the network:
    // the redirect, if there is one, is seen without following it.
    const redirects = await get(target.url.href, { ...init, redirect: 'manual' }).then(
      (r) => r.type === 'opaqueredirect',
      () => false,
    );
    return redirects
      ? {
          ok: false,
          why: 'redirect',
          message: `${path} redirects to another site, which is not followed: only pages of this site can be read without leaving it.`,
        }
      : { ok: false, why: 'failed', message: `${path} could not be fetched (a network error).` };
  }
  if (!res.ok) {
    void res.body?.cancel().catch(() => undefined);
    return { ok: false, why: 'failed', message: `${path} answered ${res.status}${res.statusText ? ` ${res.statusText}` : ''}.` };
  }
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!TEXT_TYPE.test(type)) {
    void res.body?.cancel().catch(() => undefined);
    return { ok: false, why: 'failed', message: `${path} is not a page of text (${type}).` };
  }
  const { text, cut } = await bodyText(res, max);
  return { ok: true, url: res.url || target.url.href, type, text, cut };
}
