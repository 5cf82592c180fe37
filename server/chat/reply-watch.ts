/**
 * Reads a tool-mode reply as it passes to the page, unchanged, and reports the whole of it at
 * the end (for text-modes.ts: did the model write its call as text instead of calling?).
 * Bounded: a reply longer than the limit is not reported.
 */
import { collectBody, type Collected } from './collected';

const LIMIT = 256 * 1024;

export function watchReply(response: Response, onEnd: (reply: Collected) => void): Response {
  if (!response.body || !response.ok) return response;
  const decoder = new TextDecoder();
  let text = '';
  let over = false;
  const watch = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      controller.enqueue(chunk);
      if (over) return;
      text += decoder.decode(chunk, { stream: true });
      over = text.length > LIMIT;
    },
    flush() {
      if (over) return;
      try {
        onEnd(collectBody(text + decoder.decode()));
      } catch {
        // watching must never break the answer
      }
    },
  });
  return new Response(response.body.pipeThrough(watch), { status: response.status, statusText: response.statusText, headers: response.headers });
}
