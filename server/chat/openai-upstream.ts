/**
 * OpenAI-compatible upstreams (OpenAI, OpenRouter, Ollama, vLLM, LM Studio — any base URL)
 * through the `openai` SDK. The SDK builds and sends the request; its raw Response is passed to
 * the page byte for byte, streaming or not.
 */
import OpenAI from 'openai';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import type { OpenAIProvider } from '../config';
import { collectBody, type Collected } from './collected';
import type { Redact } from '../redact';
import { passedHeaders } from './response-headers';
import { SSE_HEADERS } from './sse';
import type { ChatMessage, ResolvedChatRequest } from './types';
import { failStream } from './stream-failure';
import { normalisingFetch, upstreamFailure } from './upstream-errors';
import type { UpstreamGuard } from './upstream-guard';

export interface UpstreamResult {
  response: Response;
  /** Resolves when the body has been fully sent or abandoned (for the log line). */
  done: Promise<{ ok: boolean; detail?: string }>;
}

export interface OpenAIUpstream {
  complete(req: ResolvedChatRequest, guard: UpstreamGuard): Promise<UpstreamResult>;
  /** Starts a streamed call and resolves once the upstream answered with a status (an error
   * status throws here); the function returned gathers the whole reply (the text protocol's). */
  open(req: ResolvedChatRequest, guard: UpstreamGuard): Promise<() => Promise<Collected>>;
}

/**
 * @example
 * const upstream = openaiUpstream({ apiKey, baseURL: 'http://127.0.0.1:11434/v1' }, redact);
 * const { response } = await upstream.complete(request, guard);
 */
export function openaiUpstream(provider: OpenAIProvider, redact: Redact): OpenAIUpstream {
  const client = new OpenAI({
    apiKey: provider.apiKey,
    ...(provider.baseURL ? { baseURL: provider.baseURL } : {}),
    // The page retries with its own backoff; retrying here too would multiply the wait.
    maxRetries: 0,
    // Our guard enforces the real timeout (headers and gaps between chunks).
    timeout: 24 * 60 * 60 * 1000,
    // The upstream's own error message, whatever its body's shape (see normalisingFetch).
    fetch: normalisingFetch(),
  });

  return {
    async complete(req, guard) {
      let raw: Response;
      try {
        raw = await guard.race(client.chat.completions.create(toUpstreamParams(req), { signal: guard.signal }).asResponse());
      } catch (e) {
        throw upstreamFailure(e, 'openai', guard, redact).error;
      }
      guard.arm();
      const headers = passedHeaders(raw.headers);
      if (!req.stream) {
        // Buffer the (small) JSON body so a stall or a cut still gets a proper status.
        let bytes: Uint8Array<ArrayBuffer>;
        try {
          bytes = await readAll(raw.body, guard);
        } catch (e) {
          throw upstreamFailure(e, 'openai', guard, redact).error;
        } finally {
          guard.dispose();
        }
        return {
          response: new Response(bytes, { status: raw.status, headers: { ...headers, 'Content-Type': 'application/json' } }),
          done: Promise.resolve({ ok: true }),
        };
      }
      const { stream, done } = passThrough(raw.body, guard, redact);
      // Some local servers ignore `stream` and answer JSON; label the bytes for what they are.
      const json = /^application\/json/i.test(raw.headers.get('content-type') ?? '');
      const kind = json ? { 'Content-Type': 'application/json' } : SSE_HEADERS;
      return { response: new Response(stream, { status: raw.status, headers: { ...headers, ...kind } }), done };
    },

    async open(req, guard) {
      const params = { ...toUpstreamParams(req), stream: true, stream_options: { include_usage: true } } as ChatCompletionCreateParams;
      let raw: Response;
      try {
        raw = await guard.race(client.chat.completions.create(params, { signal: guard.signal }).asResponse());
      } catch (e) {
        throw upstreamFailure(e, 'openai', guard, redact).error;
      }
      guard.arm();
      return async () => {
        try {
          // Events or, from servers that ignore `stream`, one JSON completion: collectBody reads both.
          return collectBody(new TextDecoder().decode(await readAll(raw.body, guard)));
        } catch (e) {
          throw upstreamFailure(e, 'openai', guard, redact).error;
        } finally {
          guard.dispose();
        }
      };
    },
  };
}

/** The validated request as the SDK takes it: Gemini-only fields removed. */
function toUpstreamParams(req: ResolvedChatRequest): ChatCompletionCreateParams {
  const messages = req.messages.map((m): ChatMessage => {
    if (m.role !== 'assistant' || !m.tool_calls?.some((c) => c.extra_content)) return m;
    return { ...m, tool_calls: m.tool_calls.map(({ extra_content: _dropped, ...call }) => call) };
  });
  return { ...req, messages } as ChatCompletionCreateParams;
}

async function readAll(body: ReadableStream<Uint8Array> | null, guard: UpstreamGuard): Promise<Uint8Array<ArrayBuffer>> {
  if (!body) return new Uint8Array(new ArrayBuffer(0));
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await guard.race(reader.read());
      if (done) break;
      parts.push(value);
      size += value.length;
      guard.arm();
    }
  } catch (e) {
    reader.cancel().catch(() => {});
    throw e;
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/**
 * Streams the upstream body unchanged. If the upstream stalls or breaks mid-way, one error event
 * is appended so the page knows the answer is incomplete; if the page goes away, the upstream
 * read is cancelled (which closes the upstream connection).
 */
function passThrough(
  body: ReadableStream<Uint8Array> | null,
  guard: UpstreamGuard,
  redact: Redact,
): { stream: ReadableStream<Uint8Array>; done: Promise<{ ok: boolean; detail?: string }> } {
  let settle!: (v: { ok: boolean; detail?: string }) => void;
  const done = new Promise<{ ok: boolean; detail?: string }>((r) => (settle = r));
  if (!body) {
    guard.dispose();
    settle({ ok: true });
    return { stream: new ReadableStream({ start: (c) => c.close() }), done };
  }
  const reader = body.getReader();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: finished, value } = await guard.race(reader.read());
        if (finished) {
          guard.dispose();
          controller.close();
          settle({ ok: true });
          return;
        }
        guard.arm();
        controller.enqueue(value);
      } catch (e) {
        reader.cancel().catch(() => {});
        settle(failStream(controller, e, 'openai', guard, redact));
      }
    },
    cancel() {
      // The page disconnected: stop the upstream generation too.
      guard.abort('client');
      reader.cancel().catch(() => {});
      settle({ ok: false, detail: 'client disconnected' });
    },
  });
  return { stream, done };
}
