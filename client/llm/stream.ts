/**
 * Reads the proxy's SSE body into a ChatReply: `eventsource-parser` splits the events, reply.ts
 * assembles them. Ends at `[DONE]`; an error event (the upstream broke mid-way) or a body that
 * stops before the reply finished throws a retryable ModelError.
 */
import { createParser } from 'eventsource-parser';
import { badResponse, errorFromEvent, streamCut } from './errors';
import { applyChunk, newReplyState, replyOf } from './reply';
import type { ChatDelta, ChatReply } from './wire';

/** Far beyond any real event; a server streaming garbage without newlines stops here. */
const MAX_BUFFER = 8 * 1024 * 1024;

export async function readReplyStream(body: ReadableStream<Uint8Array>, onDelta?: (d: ChatDelta) => void, signal?: AbortSignal): Promise<ChatReply> {
  const state = newReplyState();
  let done = false;
  // Events are queued and handled after feed() returns, so a throw never leaves the parser mid-line.
  const events: string[] = [];
  const parser = createParser({
    maxBufferSize: MAX_BUFFER,
    onEvent: (e) => events.push(e.data),
    onError: (e) => {
      if (e.type === 'max-buffer-size-exceeded') throw badResponse('an event larger than 8 MiB');
    },
  });
  const handle = (data: string) => {
    if (data === '[DONE]') return void (done = true);
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      throw badResponse(`an event that is not JSON ("${data.slice(0, 60)}")`);
    }
    const err = errorFromEvent(chunk);
    if (err) throw err;
    const calls = state.calls.size;
    const content = applyChunk(state, chunk);
    if ((content || state.calls.size !== calls) && onDelta) {
      try {
        onDelta({ content, text: state.content, toolCalls: state.calls.size });
      } catch {
        // A display callback that throws must not lose the reply.
      }
    }
  };

  const reader = body.getReader();
  // Not every transport (a userscript's GM_xmlhttpRequest wrapper) ties the body to the signal.
  const stop = () => void reader.cancel().catch(() => {});
  signal?.addEventListener('abort', stop, { once: true });
  const decoder = new TextDecoder();
  try {
    while (!done) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch {
        throw streamCut();
      }
      if (signal?.aborted) throw streamCut(); // the caller reports it as an abort
      if (next.done) {
        parser.feed(decoder.decode() + '\n\n'); // a last event without its blank line still counts
      } else {
        parser.feed(decoder.decode(next.value, { stream: true }));
      }
      for (const data of events.splice(0)) if (!done) handle(data);
      if (next.done) break;
    }
  } finally {
    signal?.removeEventListener('abort', stop);
    stop(); // frees the connection; after [DONE] there is nothing left to read anyway
  }
  // Some OpenAI-compatible servers omit [DONE]; a finish reason shows the reply was whole.
  if (!done && state.finishReason === null) throw streamCut();
  return replyOf(state);
}
