/**
 * Malformed requests, one kind per case, each answered with its own 4xx status and error code —
 * never a 500, never a call upstream, always the JSON error shape. Runs on Node and in workerd.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recorded, script } from '../fakes/script';
import { MODELS, PNG_DATA_URL, SHOP_ORIGIN, TOKENS, baseVars, newTag } from './fixtures';
import type { ProxyTarget, RunningProxy } from './target';

interface FuzzCase {
  name: string;
  /** A JSON-able value, or a raw string sent as is. */
  body?: unknown;
  raw?: string | Uint8Array<ArrayBuffer>;
  method?: string;
  path?: string;
  headers?: Record<string, string | null>;
  /** Run against the app with a 4 KiB body limit. */
  smallBodyLimit?: boolean;
  status: number;
  code: string;
}

const msg = (content: unknown, extra: Record<string, unknown> = {}) => ({ model: MODELS.openai, messages: [{ role: 'user', content }], ...extra });
const tool = (fn: Record<string, unknown>, type = 'function') => ({ type, function: fn });
const CLICK = tool({ name: 'click', parameters: { type: 'object', properties: {} } });

const deep = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

export const FUZZ_CASES: FuzzCase[] = [
  // — the body itself —
  { name: 'truncated JSON', raw: '{"model":"gpt-test","messages":[', status: 400, code: 'invalid_json' },
  { name: 'empty body', raw: '', status: 400, code: 'invalid_json' },
  { name: 'JSON with a trailing comma', raw: '{"messages":[],}', status: 400, code: 'invalid_json' },
  { name: 'not JSON at all', raw: 'model=gpt-test&messages=hi', status: 400, code: 'invalid_json' },
  { name: 'invalid UTF-8 bytes', raw: new Uint8Array([0x7b, 0x22, 0x6d, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), status: 400, code: 'invalid_json' },
  { name: 'a JSON array', body: [msg('hi')], status: 400, code: 'invalid_body' },
  { name: 'a JSON string', body: 'hello', status: 400, code: 'invalid_body' },
  { name: 'JSON null', raw: 'null', status: 400, code: 'invalid_body' },
  { name: 'deeply nested arrays', raw: deep(50_000), status: 400, code: 'invalid_body' },
  { name: 'an unknown parameter', body: msg('hi', { max_token: 10 }), status: 400, code: 'unknown_parameter' },
  { name: 'a __proto__ key', raw: '{"__proto__":{"admin":true},"messages":[{"role":"user","content":"hi"}]}', status: 400, code: 'unknown_parameter' },
  // — model —
  { name: 'model as a number', body: { ...msg('hi'), model: 42 }, status: 400, code: 'invalid_model' },
  { name: 'model with spaces and a newline', body: { ...msg('hi'), model: 'gpt test\n' }, status: 400, code: 'invalid_model' },
  { name: 'an unknown model', body: { ...msg('hi'), model: 'gpt-unlisted' }, status: 403, code: 'model_not_allowed' },
  // — messages —
  { name: 'messages missing', body: { model: MODELS.openai }, status: 400, code: 'invalid_messages' },
  { name: 'messages as an object', body: { model: MODELS.openai, messages: { role: 'user', content: 'hi' } }, status: 400, code: 'invalid_messages' },
  { name: 'messages empty', body: { model: MODELS.openai, messages: [] }, status: 400, code: 'invalid_messages' },
  {
    name: 'too many messages',
    body: { model: MODELS.openai, messages: Array.from({ length: 2001 }, () => ({ role: 'user', content: 'x' })) },
    status: 400,
    code: 'invalid_messages',
  },
  { name: 'a message that is a string', body: { model: MODELS.openai, messages: ['hi'] }, status: 400, code: 'invalid_message' },
  { name: 'an unknown role', body: { model: MODELS.openai, messages: [{ role: 'root', content: 'hi' }] }, status: 400, code: 'invalid_message' },
  { name: 'user content as a number', body: msg(12), status: 400, code: 'invalid_message' },
  { name: 'user content as an empty list', body: msg([]), status: 400, code: 'invalid_message' },
  {
    name: 'a content part of unknown type',
    body: msg([{ type: 'input_audio', input_audio: { data: 'x', format: 'wav' } }]),
    status: 400,
    code: 'invalid_content_part',
  },
  { name: 'a text part without text', body: msg([{ type: 'text' }]), status: 400, code: 'invalid_content_part' },
  {
    name: 'an image URL with a javascript: scheme',
    body: msg([{ type: 'image_url', image_url: { url: 'javascript:alert(1)' } }]),
    status: 400,
    code: 'invalid_content_part',
  },
  {
    name: 'an image data URL that is not an image',
    body: msg([{ type: 'image_url', image_url: { url: 'data:text/html;base64,PGgxPg==' } }]),
    status: 400,
    code: 'invalid_content_part',
  },
  {
    name: 'an image with an unknown detail',
    body: msg([{ type: 'image_url', image_url: { url: PNG_DATA_URL, detail: 'ultra' } }]),
    status: 400,
    code: 'invalid_content_part',
  },
  {
    name: 'an image part in a system message',
    body: { model: MODELS.openai, messages: [{ role: 'system', content: [{ type: 'image_url', image_url: { url: PNG_DATA_URL } }] }] },
    status: 400,
    code: 'invalid_content_part',
  },
  {
    name: 'a tool message without tool_call_id',
    body: { model: MODELS.openai, messages: [{ role: 'tool', content: 'done' }] },
    status: 400,
    code: 'invalid_message',
  },
  {
    name: 'an assistant tool call without arguments',
    body: { model: MODELS.openai, messages: [{ role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'click' } }] }] },
    status: 400,
    code: 'invalid_message',
  },
  // — tools —
  { name: 'tools as an object', body: msg('hi', { tools: CLICK }), status: 400, code: 'invalid_tools' },
  { name: 'a tool name with spaces', body: msg('hi', { tools: [tool({ name: 'click here' })] }), status: 400, code: 'invalid_tools' },
  { name: 'a tool name of 65 characters', body: msg('hi', { tools: [tool({ name: 'a'.repeat(65) })] }), status: 400, code: 'invalid_tools' },
  { name: 'the same tool twice', body: msg('hi', { tools: [CLICK, CLICK] }), status: 400, code: 'invalid_tools' },
  { name: 'tool parameters as a string', body: msg('hi', { tools: [tool({ name: 'click', parameters: '{}' })] }), status: 400, code: 'invalid_tools' },
  {
    name: 'tool parameters of type array',
    body: msg('hi', { tools: [tool({ name: 'click', parameters: { type: 'array' } })] }),
    status: 400,
    code: 'invalid_tools',
  },
  { name: 'a tool of type retrieval', body: msg('hi', { tools: [tool({ name: 'click' }, 'retrieval')] }), status: 400, code: 'invalid_tools' },
  {
    name: 'tool_choice naming an undeclared tool',
    body: msg('hi', { tools: [CLICK], tool_choice: { type: 'function', function: { name: 'type' } } }),
    status: 400,
    code: 'invalid_tool_choice',
  },
  { name: 'tool_choice without tools', body: msg('hi', { tool_choice: 'required' }), status: 400, code: 'invalid_tool_choice' },
  { name: 'tool_choice as a number', body: msg('hi', { tools: [CLICK], tool_choice: 1 }), status: 400, code: 'invalid_tool_choice' },
  // — parameters —
  { name: 'stream as a string', body: msg('hi', { stream: 'yes' }), status: 400, code: 'invalid_parameter' },
  { name: 'stream_options as a string', body: msg('hi', { stream: true, stream_options: 'usage' }), status: 400, code: 'invalid_parameter' },
  { name: 'temperature above 2', body: msg('hi', { temperature: 5 }), status: 400, code: 'invalid_parameter' },
  { name: 'top_p as a string', body: msg('hi', { top_p: '0.9' }), status: 400, code: 'invalid_parameter' },
  { name: 'negative max_tokens', body: msg('hi', { max_tokens: -1 }), status: 400, code: 'invalid_parameter' },
  { name: 'fractional max_tokens', body: msg('hi', { max_tokens: 1.5 }), status: 400, code: 'invalid_parameter' },
  { name: 'five stop sequences', body: msg('hi', { stop: ['a', 'b', 'c', 'd', 'e'] }), status: 400, code: 'invalid_parameter' },
  { name: 'an unknown response_format', body: msg('hi', { response_format: { type: 'xml' } }), status: 400, code: 'invalid_parameter' },
  { name: 'an unknown reasoning_effort', body: msg('hi', { reasoning_effort: 'maximum' }), status: 400, code: 'invalid_parameter' },
  { name: 'n above the cap', body: msg('hi', { n: 10 }), status: 400, code: 'n_too_large' },
  // — Gemini-only limits —
  {
    name: 'Gemini with a linked image',
    body: { model: MODELS.gemini, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://img.test/x.png' } }] }] },
    status: 400,
    code: 'unsupported_image_url',
  },
  {
    name: 'Gemini with a tool result for no call',
    body: {
      model: MODELS.gemini,
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'tool', tool_call_id: 'nope', content: 'x' },
      ],
    },
    status: 400,
    code: 'invalid_message',
  },
  // — who is asking —
  { name: 'no Authorization header', body: msg('hi'), headers: { Authorization: null }, status: 401, code: 'missing_token' },
  { name: 'a wrong token', body: msg('hi'), headers: { Authorization: 'Bearer tok-wrong-0123456789abcdef' }, status: 401, code: 'invalid_token' },
  { name: 'a Basic Authorization header', body: msg('hi'), headers: { Authorization: 'Basic dXNlcjpwYXNz' }, status: 401, code: 'invalid_token' },
  { name: 'a bare Bearer with no token', body: msg('hi'), headers: { Authorization: 'Bearer' }, status: 401, code: 'invalid_token' },
  {
    name: 'a foreign origin',
    body: msg('hi'),
    headers: { Authorization: `Bearer ${TOKENS.shop}`, Origin: 'https://evil.test' },
    status: 403,
    code: 'origin_not_allowed',
  },
  // Control: the same harness lets a well-formed request through, so the rejections above are real.
  {
    name: 'a valid request from the shop origin (control)',
    body: msg('hi'),
    headers: { Authorization: `Bearer ${TOKENS.shop}`, Origin: SHOP_ORIGIN },
    status: 200,
    code: '',
  },
  // — transport —
  { name: 'a text/plain body', body: msg('hi'), headers: { 'Content-Type': 'text/plain' }, status: 415, code: 'unsupported_media_type' },
  { name: 'no Content-Type', raw: JSON.stringify(msg('hi')), headers: { 'Content-Type': null }, status: 415, code: 'unsupported_media_type' },
  { name: 'a huge body', body: msg('x'.repeat(20_000)), smallBodyLimit: true, status: 413, code: 'body_too_large' },
  { name: 'GET on the completions route', method: 'GET', status: 405, code: 'method_not_allowed' },
  { name: 'PUT on the config route', method: 'PUT', path: '/v1/config', body: {}, status: 405, code: 'method_not_allowed' },
  { name: 'an unknown route', path: '/v1/completions', body: msg('hi'), status: 404, code: 'not_found' },
  { name: 'a path traversal attempt', path: '/v1/../../etc/passwd', method: 'GET', status: 404, code: 'not_found' },
];

export function defineFuzzSuite(target: ProxyTarget): void {
  let proxy: RunningProxy;
  let small: RunningProxy;

  beforeAll(async () => {
    proxy = await target.start(baseVars(target.fake));
    small = await target.start(baseVars(target.fake, { PAGEHAND_MAX_BODY_BYTES: '4096' }));
  });
  afterAll(async () => {
    await proxy.close();
    await small.close();
  });

  describe(`malformed requests (${target.runtime})`, () => {
    it('covers at least 30 kinds, each with its own expectation', () => {
      const rejecting = FUZZ_CASES.filter((c) => c.status >= 400);
      expect(rejecting.length).toBeGreaterThanOrEqual(30);
      expect(new Set(FUZZ_CASES.map((c) => c.name)).size).toBe(FUZZ_CASES.length);
      expect(new Set(rejecting.map((c) => c.code)).size).toBeGreaterThanOrEqual(20);
    });

    for (const c of FUZZ_CASES) {
      it(`${c.name} → ${c.status}${c.code ? ` ${c.code}` : ''}`, async () => {
        const p = c.smallBodyLimit ? small : proxy;
        const tag = newTag('fuzz');
        const headers = new Headers({ Authorization: `Bearer ${TOKENS.personal}`, 'Content-Type': 'application/json' });
        for (const [k, v] of Object.entries(c.headers ?? {})) {
          if (v === null) headers.delete(k);
          else headers.set(k, v);
        }
        const method = c.method ?? 'POST';
        let body: string | Uint8Array<ArrayBuffer> | undefined;
        if (method !== 'GET') {
          // Tag the request so we can prove it never reached the upstream.
          body = c.raw ?? JSON.stringify(tagged(c.body, tag));
          // fetch would add text/plain to a string body; bytes imply no type.
          if (typeof body === 'string' && !headers.has('Content-Type')) body = new TextEncoder().encode(body);
        }
        const init: RequestInit = { method, headers, ...(body !== undefined ? { body } : {}) };
        const res = await p.fetch(`${p.base}${c.path ?? '/v1/chat/completions'}`, init);
        const text = await res.text();
        expect(res.status, text.slice(0, 300)).toBe(c.status);
        if (c.status === 200) return;
        expect(res.headers.get('content-type')).toMatch(/application\/json/);
        const json = JSON.parse(text) as { error: { code: string; message: string } };
        expect(Object.keys(json)).toEqual(['error']);
        expect(json.error.code).toBe(c.code);
        expect(typeof json.error.message).toBe('string');
        expect(json.error.message.length).toBeGreaterThan(10);
        expect(await recorded(target.fake.origin, tag)).toEqual([]);
      });
    }
  });
}

/** Puts a fake-upstream tag into the last user message, where the fake would read it. */
function tagged(body: unknown, tag: string): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const b = body as { messages?: unknown };
  const list = b.messages;
  if (!Array.isArray(list) || list.length === 0) return body;
  const messages = list.map((m: unknown, i) => {
    if (i !== list.length - 1 || typeof m !== 'object' || m === null) return m;
    const mm = m as { role?: unknown; content?: unknown };
    return mm.role === 'user' && typeof mm.content === 'string' ? { ...mm, content: mm.content + script({ tag }) } : m;
  });
  return { ...b, messages };
}
