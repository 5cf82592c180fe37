/**
 * createModelClient with a scripted transport (`options.fetch`): the request it sends and how it
 * treats answers the real proxy rarely gives (HTML error pages, HTTP-date Retry-After, echoed
 * tokens, a transport that ignores the abort signal). The proxy itself: tests/server/model-client.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createModelClient, ModelError, type RetryInfo } from '../../client/llm';

const TOKEN = 'ph_unit-test-token-0123456789abcdefghij';
const ok = () =>
  new Response('data: {"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n', {
    headers: { 'content-type': 'text/event-stream' },
  });
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** A transport answering from a list (the last answer repeats), recording every call. */
function scripted(...answers: Array<Response | Error | (() => Response)>) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    const a = answers[Math.min(calls.length, answers.length) - 1]!;
    if (a instanceof Error) throw a;
    return typeof a === 'function' ? a() : a.clone();
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

const client = (fetch: typeof globalThis.fetch, o: { retries?: number; maxDelayMs?: number } = {}) =>
  createModelClient({ proxy: 'http://127.0.0.1:9/', token: TOKEN, fetch, baseDelayMs: 0, ...o });
const req = { model: 'gpt-test', messages: [{ role: 'user' as const, content: 'hi' }] };

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('createModelClient', () => {
  it('POSTs a streamed request with usage, the token and JSON, to {proxy}/v1/chat/completions', async () => {
    const t = scripted(ok());
    const reply = await client(t.fetch).chat({ ...req, tools: [{ type: 'function', function: { name: 'done' } }], tool_choice: 'auto' });
    expect(reply.content).toBe('hi');
    const [{ url, init }] = t.calls as [{ url: string; init: RequestInit }];
    expect(url).toBe('http://127.0.0.1:9/v1/chat/completions');
    expect(init.method).toBe('POST');
    expect(init.headers).toMatchObject({ Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' });
    expect(JSON.parse(String(init.body))).toEqual({
      ...req,
      tools: [{ type: 'function', function: { name: 'done' } }],
      tool_choice: 'auto',
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('uses globalThis.fetch when no transport is given', async () => {
    const t = scripted(ok());
    vi.stubGlobal('fetch', t.fetch);
    await createModelClient({ proxy: 'http://127.0.0.1:9', token: TOKEN }).chat(req);
    expect(t.calls).toHaveLength(1);
  });

  it('a non-JSON error body: a message with the status, retried as a 5xx', async () => {
    const html = () =>
      new Response('<html><body><h1>502 Bad Gateway</h1></body></html>', { status: 502, statusText: 'Bad Gateway', headers: { 'content-type': 'text/html' } });
    const t = scripted(html, html);
    const retries: RetryInfo[] = [];
    const err = await client(t.fetch, { retries: 1 })
      .chat(req, { onRetry: (r) => retries.push(r) })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect(err).toMatchObject({ code: 'http_502', status: 502 });
    expect((err as ModelError).message).toBe('The proxy answered HTTP 502 Bad Gateway without a JSON error: "502 Bad Gateway". (gave up after 2 tries)');
    expect(retries).toHaveLength(1);
  });

  it('Retry-After as an HTTP date sets the wait', async () => {
    // Only Date is faked: the wait is read against a known "now".
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse('2026-03-01T10:00:00Z'));
    const at = 'Sun, 01 Mar 2026 10:01:00 GMT';
    const t = scripted(json(429, { error: { code: 'rate_limited', message: 'Too many requests.' } }, { 'retry-after': at }));
    const ac = new AbortController();
    const retries: RetryInfo[] = [];
    const pending = client(t.fetch, { maxDelayMs: 120_000 }).chat(req, {
      signal: ac.signal,
      onRetry: (r) => {
        retries.push(r);
        ac.abort(); // the wait itself is not what this test is about
      },
    });
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
    expect(retries[0]).toMatchObject({ attempt: 1, code: 'rate_limited', reason: 'Too many requests.' });
    expect(retries[0]!.delayMs).toBe(60_000);
  });

  it('server misconfiguration (503 provider_not_configured) is not retried', async () => {
    const t = scripted(json(503, { error: { code: 'provider_not_configured', message: 'No Gemini key on the server.' } }));
    await expect(client(t.fetch).chat(req)).rejects.toMatchObject({
      code: 'provider_not_configured',
      status: 503,
      retryable: false,
      message: 'No Gemini key on the server.',
    });
    expect(t.calls).toHaveLength(1);
  });

  it('an error JSON without a code gets http_<status>', async () => {
    const t = scripted(json(400, { error: { message: 'bad thing', type: 'invalid_request_error' } }));
    await expect(client(t.fetch).chat(req)).rejects.toMatchObject({ code: 'http_400', message: 'bad thing', retryable: false });
  });

  it('never puts the token in a message, even when a server echoes it', async () => {
    const t = scripted(json(401, { error: { code: 'invalid_token', message: `Unknown token ${TOKEN}.` } }));
    const err = (await client(t.fetch)
      .chat(req)
      .catch((e: unknown) => e)) as ModelError;
    expect(err.code).toBe('invalid_token');
    expect(err.message).toBe('Unknown token [token].');
  });

  it('retries a network error up to `retries` (default 4), telling onRetry each time', async () => {
    const t = scripted(new TypeError('fetch failed'));
    const retries: RetryInfo[] = [];
    const err = await createModelClient({ proxy: 'http://127.0.0.1:9', token: TOKEN, fetch: t.fetch, baseDelayMs: 0 })
      .chat(req, { onRetry: (r) => retries.push(r) })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'network', message: 'Could not reach the proxy at http://127.0.0.1:9: fetch failed. (gave up after 5 tries)' });
    expect(t.calls).toHaveLength(5);
    expect(retries.map((r) => [r.attempt, r.code])).toEqual([
      [1, 'network'],
      [2, 'network'],
      [3, 'network'],
      [4, 'network'],
    ]);
  });

  it('an already-aborted signal rejects without a request', async () => {
    const t = scripted(ok());
    const ac = new AbortController();
    ac.abort();
    await expect(client(t.fetch).chat(req, { signal: ac.signal })).rejects.toMatchObject({ code: 'aborted' });
    expect(t.calls).toHaveLength(0);
  });

  it('aborts at once even with a transport that ignores the signal', async () => {
    const never = vi.fn(() => new Promise<Response>(() => {})) as unknown as typeof globalThis.fetch;
    const ac = new AbortController();
    const pending = client(never).chat(req, { signal: ac.signal });
    ac.abort();
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
  });

  it('a 200 JSON error body is reported as that error', async () => {
    const t = scripted(json(200, { error: { code: 'upstream_error', message: 'It broke.' } }), ok());
    const retries: RetryInfo[] = [];
    const reply = await client(t.fetch).chat(req, { onRetry: (r) => retries.push(r) });
    expect(retries).toEqual([expect.objectContaining({ code: 'upstream_error', reason: 'It broke.' })]);
    expect(reply.content).toBe('hi');
  });

  it('a web page where the stream should be is a bad response naming the proxy, not retried', async () => {
    const t = scripted(new Response('<!doctype html><title>Sign in</title>', { headers: { 'content-type': 'text/html; charset=utf-8' } }));
    const err = (await client(t.fetch)
      .chat(req)
      .catch((e: unknown) => e)) as ModelError;
    expect(err).toMatchObject({ code: 'bad_response', retryable: false });
    expect(err.message).toContain('is http://127.0.0.1:9 the pagehand proxy?');
    expect(t.calls).toHaveLength(1);
  });

  it('aborts at once while the body of a JSON answer never arrives', async () => {
    const stuck = () => new Response(new ReadableStream({ start() {} }), { headers: { 'content-type': 'application/json' } });
    const ac = new AbortController();
    const pending = client(scripted(stuck).fetch).chat(req, { signal: ac.signal });
    setTimeout(() => ac.abort(), 10);
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
  });

  it('JSON that is neither a completion nor an error is a bad response', async () => {
    const t = scripted(json(200, { hello: 'world' }));
    await expect(client(t.fetch).chat(req)).rejects.toMatchObject({ code: 'bad_response', retryable: false });
  });
});

describe('config()', () => {
  const info = {
    models: ['m'],
    defaultModel: 'm',
    providers: { openai: true, gemini: false },
    features: { streaming: true, tools: true, images: true },
    limits: { maxTokens: 1, maxN: 1, maxBodyBytes: 1, rpm: 1 },
  };

  it('GETs {proxy}/v1/config with the token', async () => {
    const t = scripted(json(200, info));
    expect(await client(t.fetch).config()).toEqual(info);
    expect(t.calls[0]!.url).toBe('http://127.0.0.1:9/v1/config');
    expect(t.calls[0]!.init).toMatchObject({ method: 'GET', headers: { Authorization: `Bearer ${TOKEN}` } });
  });

  it('does not retry a 5xx, but does retry a network error', async () => {
    const t = scripted(json(502, { error: { code: 'upstream_error', message: 'x' } }));
    await expect(client(t.fetch).config()).rejects.toMatchObject({ code: 'upstream_error' });
    expect(t.calls).toHaveLength(1);
    const n = scripted(new TypeError('fetch failed'), json(200, info));
    expect(await client(n.fetch).config()).toEqual(info);
    expect(n.calls).toHaveLength(2);
  });

  it('a config without a model list is a bad response', async () => {
    await expect(client(scripted(json(200, { ok: true })).fetch).config()).rejects.toMatchObject({ code: 'bad_response' });
  });
});
