/**
 * Reads a tool-mode reply as it passes to the page, unchanged, and reports the whole of it at
 * the end (for text-modes.ts: did the model write its call as text instead of calling?).
 * Bounded: a reply longer than the limit is not reported.
 */
import { collectBody, type Collected } from './collected';

const LIMIT = 256 * 1024;

export function watchReply(response: Response, onEnd: (reply: Collected) => void): Response {
  if (!response.body || !response.ok) return response;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const watch = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      controller.enqueue(chunk);
      // Kept as bytes, read once at the end: nothing on the way to the page waits for the reading.
      if (size <= LIMIT) chunks.push(chunk);
      size += chunk.byteLength;
    },
    flush() {
      if (size > LIMIT) return;
      // After the answer has gone: the reading and the judging never delay its end.
      setTimeout(() => {
        try {
          onEnd(collectBody(new TextDecoder().decode(concat(chunks, size))));
        } catch {
          // watching must never break the answer
        }
      }, 0);
    },
  });
  return new Response(response.body.pipeThrough(watch), { status: response.status, statusText: response.statusText, headers: response.headers });
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return all;
}
