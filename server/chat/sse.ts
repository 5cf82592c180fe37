/** Server-sent events as OpenAI streams them: `data: <json>\n\n`, ending with `data: [DONE]`. */
import type { ProxyError } from '../errors';

const encoder = new TextEncoder();

export const sseData = (value: unknown): Uint8Array => encoder.encode(`data: ${JSON.stringify(value)}\n\n`);

export const SSE_DONE = encoder.encode('data: [DONE]\n\n');

/** A failure after the stream began: the status is already sent, so the error travels as an
 * event (the shape OpenAI uses mid-stream) and the stream ends without [DONE]. */
export const sseError = (err: ProxyError): Uint8Array => sseData(err.toBody());

export const SSE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache',
  // Tells nginx-style buffering proxies in front of us to let chunks through as they come.
  'X-Accel-Buffering': 'no',
};
