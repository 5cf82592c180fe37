/**
 * The in-page model client: one streamed chat completion (or the proxy's config) per call,
 * retried as retry.ts decides, aborted at once by the caller's signal. No DOM, no Node APIs.
 *
 * @example
 * const llm = createModelClient({ proxy: 'http://127.0.0.1:8787', token });
 * const reply = await llm.chat({ model, messages, tools }, { signal, onDelta: (d) => show(d.text) });
 */
import { aborted, badResponse, errorFromEvent, errorFromResponse, networkError, withoutToken } from './errors';
import { replyFromCompletion } from './reply';
import { DEFAULT_POLICY, retryDecision, type RetryPolicy } from './retry';
import { readReplyStream } from './stream';
import { ModelError, type ChatOptions, type ChatReply, type ModelClient, type ModelClientOptions, type ProxyInfo, type RetryInfo } from './wire';

export function createModelClient(options: ModelClientOptions): ModelClient {
  const base = options.proxy.replace(/\/+$/, '');
  const token = options.token;
  const policy: RetryPolicy = {
    retries: options.retries ?? DEFAULT_POLICY.retries,
    baseDelayMs: options.baseDelayMs ?? DEFAULT_POLICY.baseDelayMs,
    maxDelayMs: options.maxDelayMs ?? DEFAULT_POLICY.maxDelayMs,
  };
  // Called unbound: a page's `fetch` throws "Illegal invocation" when detached from window.
  const transport: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  /** One HTTP exchange; every failure comes out as ModelError. */
  async function send(path: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
    if (token) headers.Authorization = `Bearer ${token}`;
    let res: Response;
    try {
      res = await untilAborted(transport(`${base}${path}`, { ...init, headers, signal }), signal);
    } catch (e) {
      throw e instanceof ModelError ? e : networkError(base, e);
    }
    if (!res.ok) throw await untilAborted(errorFromResponse(res), signal);
    return res;
  }

  async function chatOnce(body: string, { signal, onDelta }: ChatOptions): Promise<ChatReply> {
    const res = await send('/v1/chat/completions', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body }, signal);
    const type = res.headers.get('content-type') ?? '';
    if (/\bjson\b/i.test(type)) {
      // Some OpenAI-compatible servers ignore `stream` and answer one JSON completion.
      const json = await untilAborted(readJson(res), signal);
      const reply = replyFromCompletion(json);
      if (!reply) throw errorFromEvent(json) ?? badResponse('JSON that is not a chat completion');
      if (reply.content || reply.toolCalls.length) {
        try {
          onDelta?.({ content: reply.content, text: reply.content, toolCalls: reply.toolCalls.length });
        } catch {
          // a display callback must not lose the reply
        }
      }
      return reply;
    }
    // A web page where the proxy should be (wrong URL, a login portal): retrying cannot help.
    if (/html/i.test(type)) throw badResponse(`a web page (${type}) instead of an event stream; is ${base} the pagehand proxy?`);
    if (!res.body) throw badResponse('an empty body');
    return readReplyStream(res.body, onDelta, signal);
  }

  return {
    chat(request, opts = {}) {
      const body = JSON.stringify({ ...request, stream: true, stream_options: { include_usage: true } });
      return withRetries(() => chatOnce(body, opts), policy, token, opts);
    },
    config(signal) {
      // Only a network failure is worth a retry here: a 4xx/5xx config answer will not change.
      const once = async () => {
        const res = await send('/v1/config', { method: 'GET' }, signal);
        const info = (await untilAborted(readJson(res), signal)) as ProxyInfo;
        if (!info || !Array.isArray(info.models)) throw badResponse('a config without a model list');
        return info;
      };
      return withRetries(once, policy, token, { signal }, (e) => e.code === 'network');
    },
  };
}

async function readJson(res: Response): Promise<unknown> {
  try {
    return await res.json();
  } catch {
    throw badResponse('a body that is not JSON');
  }
}

/**
 * Runs `once` until it succeeds, the policy gives up, or the signal aborts (which wins over any
 * other failure and ends a backoff wait at once).
 */
async function withRetries<T>(
  once: () => Promise<T>,
  policy: RetryPolicy,
  token: string | undefined,
  opts: { signal?: AbortSignal; onRetry?: (info: RetryInfo) => void },
  worthRetrying: (e: ModelError) => boolean = () => true,
): Promise<T> {
  const { signal } = opts;
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw aborted();
    try {
      return await once();
    } catch (e) {
      if (signal?.aborted) throw aborted();
      const err = withoutToken(e instanceof ModelError ? e : new ModelError('bad_response', `The model client failed: ${String(e)}`), token);
      const decision = worthRetrying(err) ? retryDecision(err, attempt, policy) : ({ retry: false, why: 'final' } as const);
      if (!decision.retry) throw finalError(err, decision.why, attempt);
      try {
        opts.onRetry?.({ attempt, delayMs: decision.delayMs, reason: err.message, code: err.code });
      } catch {
        // a display callback must not end the run
      }
      await sleep(decision.delayMs, signal);
    }
  }
}

/** The error the caller sees, saying why no retry followed when that is not obvious. */
function finalError(err: ModelError, why: 'final' | 'exhausted' | 'wait_too_long', attempt: number): ModelError {
  const note =
    why === 'exhausted'
      ? ` (gave up after ${attempt} ${attempt === 1 ? 'try' : 'tries'})`
      : why === 'wait_too_long'
        ? ` (the server asked to wait ${Math.ceil((err.retryAfterMs ?? 0) / 1000)} s, longer than allowed)`
        : '';
  return note ? new ModelError(err.code, err.message + note, err.status, err.retryable, err.retryAfterMs) : err;
}

/** The promise, or ModelError('aborted') the moment the signal fires — for transports (a
 * userscript's GM_xmlhttpRequest wrapper) that do not honour the signal themselves. */
function untilAborted<T>(p: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return p;
  let onAbort!: () => void;
  const abort = new Promise<never>((_, reject) => {
    onAbort = () => reject(aborted());
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([p, abort]).finally(() => signal.removeEventListener('abort', onAbort));
}

/** setTimeout that rejects with ModelError('aborted') the moment the signal fires. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(aborted());
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
