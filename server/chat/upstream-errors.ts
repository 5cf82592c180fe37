/**
 * Turns whatever an SDK threw into the answer the page gets. Upstream 401/403 bodies are never
 * shown (they describe our credentials); other upstream messages pass through redacted, so the
 * page learns e.g. why a tool schema was refused.
 */
import { APIConnectionError, APIError } from 'openai';
import { ProxyError } from '../errors';
import type { Redact } from '../redact';
import { messageOfBody, messageOfValue } from './error-body';
import type { UpstreamGuard } from './upstream-guard';

export type ProviderName = 'openai' | 'gemini';

const KEY_VAR: Record<ProviderName, string> = { openai: 'OPENAI_API_KEY', gemini: 'GEMINI_API_KEY' };

export interface UpstreamFailure {
  /** The error to answer with. */
  error: ProxyError;
  /** A redacted description for the log. */
  detail: string;
}

/**
 * @example
 * catch (e) { const { error } = upstreamFailure(e, 'openai', guard, redact); throw error; }
 */
export function upstreamFailure(err: unknown, provider: ProviderName, guard: UpstreamGuard, redact: Redact): UpstreamFailure {
  const failure = classify(err, provider, guard, redact);
  failure.error.detail = failure.detail;
  return failure;
}

function classify(err: unknown, provider: ProviderName, guard: UpstreamGuard, redact: Redact): UpstreamFailure {
  const detail = redact(err instanceof Error ? `${err.name}: ${err.message}` : String(err)).slice(0, 500);
  if (guard.cause === 'timeout') {
    return { detail, error: new ProxyError(504, 'upstream_timeout', `The ${provider} upstream did not answer in time.`) };
  }
  if (guard.cause === 'client') {
    return { detail, error: new ProxyError(502, 'upstream_error', 'The request was cancelled by the client.') };
  }
  const status = statusOf(err);
  if (status === undefined) {
    const unreachable = err instanceof APIConnectionError || /fetch failed|ECONNREFUSED|network|connect/i.test(detail);
    return unreachable
      ? { detail, error: new ProxyError(502, 'upstream_unreachable', `The ${provider} upstream could not be reached.`) }
      : { detail, error: new ProxyError(502, 'upstream_error', `The ${provider} upstream call failed.`) };
  }
  if (status === 401 || status === 403) {
    return {
      detail,
      error: new ProxyError(502, 'upstream_auth_failed', `The ${provider} upstream refused the proxy's credentials; check ${KEY_VAR[provider]} on the server.`),
    };
  }
  const message = redact(upstreamMessage(err)).slice(0, 1000);
  if (status === 429) {
    const retry = retryAfterOf(err);
    return {
      detail,
      error: new ProxyError(429, 'upstream_rate_limited', `The ${provider} upstream is rate limiting: ${message}`, retry ? { 'Retry-After': retry } : {}),
    };
  }
  if (status >= 400 && status < 500) {
    const s = (status === 404 || status === 409 || status === 422 ? status : 400) as 400 | 404 | 409 | 422;
    return { detail, error: new ProxyError(s, 'upstream_rejected', `The ${provider} upstream rejected the request: ${message}`) };
  }
  if (status === 504) return { detail, error: new ProxyError(504, 'upstream_timeout', `The ${provider} upstream timed out.`) };
  return { detail, error: new ProxyError(502, 'upstream_error', `The ${provider} upstream failed (HTTP ${status}).`) };
}

function statusOf(err: unknown): number | undefined {
  if (err instanceof APIError) return err.status ?? undefined;
  const s = (err as { status?: unknown } | null)?.status;
  return typeof s === 'number' && s >= 100 && s < 600 ? s : undefined;
}

/** The human part of an upstream error: the message in its body, whatever the body's shape
 * (error-body.ts; the OpenAI client's bodies were normalised by `normalisingFetch`, Gemini's
 * SDK puts the body's JSON in the message). */
function upstreamMessage(err: unknown): string {
  if (err instanceof APIError) {
    return messageOfValue(err.error) ?? err.message;
  }
  const text = err instanceof Error ? err.message : String(err);
  try {
    const parsed = JSON.parse(text) as { error?: { status?: unknown } };
    const status = typeof parsed.error?.status === 'string' ? parsed.error.status : '';
    return messageOfValue(parsed) ?? (status || text);
  } catch {
    // not JSON: use as is
  }
  return text;
}

function retryAfterOf(err: unknown): string | undefined {
  if (err instanceof APIError) {
    const h = err.headers?.get('retry-after');
    if (h && /^\d{1,6}$/.test(h.trim())) return h.trim();
    return undefined;
  }
  // Gemini puts RetryInfo in the error details: "retryDelay": "37s".
  const m = /"retryDelay"\s*:\s*"(\d+)(?:\.\d+)?s"/.exec(err instanceof Error ? err.message : '');
  return m ? m[1] : undefined;
}

/**
 * A fetch for the OpenAI SDK that rewrites every error body into `{error: {message}}` with the
 * upstream's own message (error-body.ts): the SDK reads only that shape and would otherwise
 * report vLLM's `{message}` or an empty body as "400 status code (no body)".
 */
export function normalisingFetch(inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const res = await inner(input, init);
    if (res.ok) return res;
    const body = await res.text().catch(() => '');
    let error: Record<string, unknown> = {};
    try {
      const parsed = JSON.parse(body) as { error?: unknown };
      if (parsed.error && typeof parsed.error === 'object' && !Array.isArray(parsed.error)) error = { ...(parsed.error as Record<string, unknown>) };
    } catch {
      // not JSON
    }
    error.message = messageOfBody(body, res.status, res.statusText);
    const headers = new Headers(res.headers);
    headers.set('content-type', 'application/json');
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(JSON.stringify({ error }), { status: res.status, statusText: res.statusText, headers });
  };
}
