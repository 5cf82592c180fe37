/**
 * Reads a JSON request body safely: 415 unless it is declared JSON, 413 past the size limit
 * (checked on Content-Length first and while streaming otherwise), 400 when it does not parse.
 */
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ProxyError } from '../errors';

export interface JsonBodyOptions {
  maxBytes: number;
}

export type JsonBodyVariables = { body: unknown };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * @example
 * app.post('/v1/chat/completions', jsonBody({ maxBytes: 8 << 20 }), (c) => c.json(c.get('body')));
 */
export function jsonBody({ maxBytes }: JsonBodyOptions): MiddlewareHandler<{ Variables: JsonBodyVariables }> {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new ProxyError(413, 'body_too_large', `The request body is larger than ${maxBytes} bytes.`);
    },
  });
  return async (c, next) => {
    const type = c.req.header('content-type') ?? '';
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      throw new ProxyError(415, 'unsupported_media_type', 'Send the body as JSON with "Content-Type: application/json".');
    }
    return limit(c, async () => {
      let text: string;
      try {
        // JSON is UTF-8 (RFC 8259); a lenient decode would turn bad bytes into valid-looking text.
        text = utf8.decode(await c.req.arrayBuffer());
      } catch {
        throw new ProxyError(400, 'invalid_json', 'The request body is not valid UTF-8.');
      }
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new ProxyError(400, 'invalid_json', text.trim() === '' ? 'The request body is empty.' : 'The request body is not valid JSON.');
      }
      c.set('body', body);
      await next();
    });
  };
}
