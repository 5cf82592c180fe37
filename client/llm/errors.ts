/**
 * Turns what went wrong on the wire into ModelError: the proxy's JSON error bodies (status
 * line or mid-stream event), bodies that are not ours, network failures, aborts.
 */
import { parseRetryAfter } from './retry';
import { ModelError } from './wire';

/** 5xx codes that no retry can fix: the server is set up wrong. */
const NEVER_RETRY = new Set(['provider_not_configured', 'no_sites_configured', 'server_misconfigured']);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `{ error: { code, message } }` → its parts, or null when the value is not that shape. */
function proxyError(body: unknown): { code?: string; message: string } | null {
  if (!isObj(body) || !isObj(body.error)) return null;
  const { code, message } = body.error;
  return {
    code: typeof code === 'string' && code ? code : undefined,
    message: typeof message === 'string' && message ? message : 'The model server reported an error.',
  };
}

/** A non-2xx response → ModelError (429 carries Retry-After as retryAfterMs). */
export async function errorFromResponse(res: Response, now = Date.now()): Promise<ModelError> {
  const status = res.status;
  const retryable = status === 408 || status === 429 || status >= 500;
  const retryAfterMs = status === 429 ? parseRetryAfter(res.headers.get('retry-after'), now) : undefined;
  let text = '';
  try {
    text = await res.text();
  } catch {
    // the body broke off; the status alone must do
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const err = proxyError(body);
  if (err) {
    const code = err.code ?? `http_${status}`;
    return new ModelError(code, err.message, status, retryable && !NEVER_RETRY.has(code), retryAfterMs);
  }
  const snippet = text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 120);
  const message = `The proxy answered HTTP ${status}${res.statusText ? ` ${res.statusText}` : ''} without a JSON error${snippet ? `: "${snippet}"` : ''}.`;
  return new ModelError(`http_${status}`, message, status, retryable, retryAfterMs);
}

/** A `data: {"error":…}` event: the stream broke after it began (the proxy's upstream failed
 * mid-way). Worth a retry: the partial reply is thrown away and asked for again. */
export function errorFromEvent(data: unknown): ModelError | null {
  const err = proxyError(data);
  return err ? new ModelError(err.code ?? 'stream_error', err.message, undefined, true) : null;
}

export const streamCut = (): ModelError => new ModelError('stream_cut', 'The reply stream from the proxy broke off before the end.', undefined, true);

export const badResponse = (why: string): ModelError => new ModelError('bad_response', `The proxy sent a reply the client cannot read: ${why}.`);

export const aborted = (): ModelError => new ModelError('aborted', 'The model request was aborted.');

export function networkError(proxy: string, e: unknown): ModelError {
  const why = e instanceof Error && e.message ? `: ${e.message}` : '';
  return new ModelError('network', `Could not reach the proxy at ${proxy}${why}.`, undefined, true);
}

/** The same error with the token cut out of its message (a body may echo the header back). */
export function withoutToken(err: ModelError, token: string | undefined): ModelError {
  // Real tokens are long; a test's "x" must not mangle every word containing an x.
  if (!token || token.length < 8 || !err.message.includes(token)) return err;
  return new ModelError(err.code, err.message.split(token).join('[token]'), err.status, err.retryable, err.retryAfterMs);
}
