/**
 * Gemini through `@google/genai`: the request is converted from OpenAI's format, the reply (text,
 * function calls, usage, finish reason) converted back into OpenAI JSON or SSE chunks.
 */
import { GoogleGenAI, type GenerateContentResponse } from '@google/genai';
import type { GeminiProvider } from '../config';
import { addChunk, newCollected, type Collected } from './collected';
import type { Redact } from '../redact';
import { chunkFromGemini, completionFromGemini, newStreamState, usageChunk } from './gemini-response';
import { toGeminiRequest } from './gemini-request';
import type { UpstreamResult } from './openai-upstream';
import { SSE_DONE, SSE_HEADERS, sseData } from './sse';
import type { ResolvedChatRequest } from './types';
import { failStream } from './stream-failure';
import { upstreamFailure } from './upstream-errors';
import type { UpstreamGuard } from './upstream-guard';

export interface GeminiUpstream {
  complete(req: ResolvedChatRequest, guard: UpstreamGuard): Promise<UpstreamResult>;
  /** As OpenAIUpstream.open: the reply gathered whole, in OpenAI's shape. */
  open(req: ResolvedChatRequest, guard: UpstreamGuard): Promise<() => Promise<Collected>>;
}

/**
 * @example
 * const upstream = geminiUpstream({ apiKey }, redact);
 * const { response } = await upstream.complete({ model: 'gemini-2.5-flash', messages, stream: true }, guard);
 */
export function geminiUpstream(provider: GeminiProvider, redact: Redact): GeminiUpstream {
  const ai = new GoogleGenAI({
    apiKey: provider.apiKey,
    ...(provider.baseUrl ? { httpOptions: { baseUrl: provider.baseUrl } } : {}),
  });

  /** The request in Gemini's shape, bound to the guard's signal. */
  const paramsFor = (req: ResolvedChatRequest, guard: UpstreamGuard) => {
    const params = toGeminiRequest(req);
    params.config = { ...params.config, abortSignal: guard.signal };
    return params;
  };
  /** A streamed call, once the upstream answered with a status (errors before that become statuses); the guard armed for the chunks. */
  const startStream = async (req: ResolvedChatRequest, guard: UpstreamGuard): Promise<AsyncGenerator<GenerateContentResponse>> => {
    let chunks: AsyncGenerator<GenerateContentResponse>;
    try {
      chunks = await guard.race(ai.models.generateContentStream(paramsFor(req, guard)));
    } catch (e) {
      guard.dispose();
      throw upstreamFailure(e, 'gemini', guard, redact).error;
    }
    guard.arm();
    return chunks;
  };

  return {
    async complete(req, guard) {
      if (!req.stream) {
        const params = paramsFor(req, guard);
        try {
          const res = await guard.race(ai.models.generateContent(params));
          return {
            response: Response.json(completionFromGemini(res, req.model)),
            done: Promise.resolve({ ok: true }),
          };
        } catch (e) {
          throw upstreamFailure(e, 'gemini', guard, redact).error;
        } finally {
          guard.dispose();
        }
      }
      const { stream, done } = toSse(await startStream(req, guard), req, guard, redact);
      return { response: new Response(stream, { headers: SSE_HEADERS }), done };
    },

    async open(req, guard) {
      const chunks = await startStream(req, guard);
      return async () => {
        const iterator = chunks[Symbol.asyncIterator]();
        const state = newStreamState(req.model);
        const collected = newCollected();
        try {
          for (;;) {
            const next = await guard.race(iterator.next());
            guard.arm();
            if (next.done) break;
            const chunk = chunkFromGemini(next.value, state);
            if (chunk) addChunk(collected, chunk);
          }
          if (state.usage) collected.usage = state.usage;
          return collected;
        } catch (e) {
          iterator.return?.(undefined).catch(() => {});
          throw upstreamFailure(e, 'gemini', guard, redact).error;
        } finally {
          guard.dispose();
        }
      };
    },
  };
}

function toSse(
  chunks: AsyncGenerator<GenerateContentResponse>,
  req: ResolvedChatRequest,
  guard: UpstreamGuard,
  redact: Redact,
): { stream: ReadableStream<Uint8Array>; done: Promise<{ ok: boolean; detail?: string }> } {
  let settle!: (v: { ok: boolean; detail?: string }) => void;
  const done = new Promise<{ ok: boolean; detail?: string }>((r) => (settle = r));
  const state = newStreamState(req.model);
  const iterator = chunks[Symbol.asyncIterator]();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        // Loop until something is enqueued: some Gemini chunks carry nothing for the page.
        for (;;) {
          const next = await guard.race(iterator.next());
          guard.arm();
          if (next.done) {
            guard.dispose();
            if (req.stream_options?.include_usage) controller.enqueue(sseData(usageChunk(state)));
            controller.enqueue(SSE_DONE);
            controller.close();
            settle({ ok: true });
            return;
          }
          const chunk = chunkFromGemini(next.value, state);
          if (chunk) {
            controller.enqueue(sseData(chunk));
            return;
          }
        }
      } catch (e) {
        iterator.return?.(undefined).catch(() => {});
        settle(failStream(controller, e, 'gemini', guard, redact));
      }
    },
    cancel() {
      guard.abort('client');
      iterator.return?.(undefined).catch(() => {});
      settle({ ok: false, detail: 'client disconnected' });
    },
  });
  return { stream, done };
}
