/**
 * Answers the page for a text-protocol request: the upstream's whole reply is gathered, its
 * call read back (text-protocol.ts), and the result sent in the format the page asked for.
 * While the reply is gathered, a stream carries SSE comments so nothing between the page and
 * the proxy takes the silence for a dead connection (the page's parser skips them).
 */
import { ProxyError } from '../errors';
import { chunksOf, completionOf, type Collected } from './collected';
import type { UpstreamResult } from './openai-upstream';
import { SSE_DONE, SSE_HEADERS, sseData, sseError } from './sse';
import { callsFromReply } from './text-protocol';
import type { ResolvedChatRequest, ToolDef } from './types';
import type { UpstreamGuard } from './upstream-guard';

const KEEP_ALIVE_MS = 10_000;
const KEEP_ALIVE = new TextEncoder().encode(': waiting for the model\n\n');

/** The gathered reply with the calls its text wrote as tool calls. */
function readBack(c: Collected, tools: readonly ToolDef[]): Collected {
  if (c.error !== undefined) throw new ProxyError(502, 'upstream_stream_error', 'The upstream stream broke off before the end.');
  const { content, toolCalls } = callsFromReply(c.content, tools);
  return { ...c, content, toolCalls: [...c.toolCalls, ...toolCalls] };
}

/**
 * @example
 * const read = await upstream.open(toTextRequest(req), guard); // a 4xx throws here, as a status
 * return serveText(read, req, req.tools ?? [], guard);
 */
export async function serveText(
  read: () => Promise<Collected>,
  req: ResolvedChatRequest,
  tools: readonly ToolDef[],
  guard: UpstreamGuard,
): Promise<UpstreamResult> {
  if (!req.stream) {
    const reply = readBack(await read(), tools);
    return { response: Response.json(completionOf(reply, req.model)), done: Promise.resolve({ ok: true }) };
  }
  let settle!: (v: { ok: boolean; detail?: string }) => void;
  const done = new Promise<{ ok: boolean; detail?: string }>((r) => (settle = r));
  let timer: ReturnType<typeof setInterval> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      // After the page went away the stream is closed and enqueue throws: nothing to send to.
      const send = (bytes: Uint8Array) => {
        try {
          controller.enqueue(bytes);
        } catch {
          // cancelled
        }
      };
      timer = setInterval(() => send(KEEP_ALIVE), KEEP_ALIVE_MS);
      read()
        .then((c) => {
          const reply = readBack(c, tools);
          for (const chunk of chunksOf(reply, req.model, req.stream_options?.include_usage === true)) send(sseData(chunk));
          send(SSE_DONE);
          settle({ ok: true });
        })
        .catch((e: unknown) => {
          const err = e instanceof ProxyError ? e : new ProxyError(502, 'upstream_stream_error', 'The upstream stream broke off before the end.');
          if (guard.cause !== 'client') send(sseError(err));
          settle({ ok: false, detail: err.detail ?? err.message });
        })
        .finally(() => {
          clearInterval(timer);
          try {
            controller.close();
          } catch {
            // already cancelled by the page
          }
        });
    },
    cancel() {
      clearInterval(timer);
      guard.abort('client');
      settle({ ok: false, detail: 'client disconnected' });
    },
  });
  return { response: new Response(stream, { headers: SSE_HEADERS }), done };
}
