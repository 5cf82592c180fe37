/**
 * The proxy's behaviour, written once and run against the app on Node and inside workerd.
 * Fake upstreams on 127.0.0.1 speak the OpenAI and Gemini wire formats; the proxy reaches them
 * through the real `openai` and `@google/genai` SDKs, and the tests act as the page with the
 * real `openai` SDK (or raw fetch where the exact bytes matter).
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recorded, script, waitForRecord, type FakeScript, type RecordedRequest } from '../fakes/script';
import { KEYS, MODELS, PNG_DATA_URL, SHOP_ORIGIN, TOKENS, auth, baseVars, containsSecret, jsonHeaders, newTag, sseEvents } from './fixtures';
import type { ProxyTarget, RunningProxy } from './target';

type Provider = 'openai' | 'gemini';
const modelOf = (p: Provider) => (p === 'openai' ? MODELS.openai : MODELS.gemini);

const CLICK_TOOL = {
  type: 'function' as const,
  function: {
    name: 'click',
    description: 'Click an element by ref',
    parameters: { type: 'object', properties: { ref: { type: 'integer' } }, required: ['ref'] },
  },
};

export function defineProxySuite(target: ProxyTarget): void {
  const { fake } = target;
  const started: RunningProxy[] = [];
  const start = async (...args: Parameters<ProxyTarget['start']>) => {
    const p = await target.start(...args);
    started.push(p);
    return p;
  };
  let proxy: RunningProxy;

  const sdk = (token: string = TOKENS.personal, p: RunningProxy = proxy) =>
    new OpenAI({ apiKey: token, baseURL: `${p.base}/v1`, fetch: p.fetch, maxRetries: 0 });

  const post = (body: unknown, init: { token?: string; headers?: Record<string, string>; signal?: AbortSignal } = {}, p: RunningProxy = proxy) =>
    p.fetch(`${p.base}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...jsonHeaders(init.token), ...init.headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
      signal: init.signal,
    });

  const ask = (provider: Provider, s: FakeScript, extra: Record<string, unknown> = {}) => ({
    model: modelOf(provider),
    messages: [{ role: 'user', content: script(s) }],
    ...extra,
  });

  const only = async (tag: string): Promise<RecordedRequest> => {
    const list = await recorded(fake.origin, tag);
    expect(list).toHaveLength(1);
    return list[0]!;
  };

  beforeAll(async () => {
    proxy = await start(baseVars(fake));
  });

  afterAll(async () => {
    await Promise.all(started.map((p) => p.close()));
  });

  describe(`OpenAI-compatible upstream (${target.runtime})`, () => {
    it('passes a non-streaming reply through byte for byte, with our key and not the page token', async () => {
      const tag = newTag('oa-json');
      const res = await post(ask('openai', { tag, text: 'hello there' }));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      const text = await res.text();
      const rec = await only(tag);
      expect(text).toBe(rec.sent);
      expect(rec.path).toBe('/openai/v1/chat/completions');
      expect(rec.headers.authorization).toBe(`Bearer ${KEYS.openai}`);
      expect(JSON.stringify(rec.headers)).not.toContain(TOKENS.personal);
    });

    it('is read by the openai SDK as a normal completion', async () => {
      const reply = await sdk().chat.completions.create(ask('openai', { text: 'hello there' }) as never);
      expect((reply as OpenAI.ChatCompletion).choices[0]!.message.content).toBe('hello there');
    });

    it('passes an SSE stream through byte for byte', async () => {
      const tag = newTag('oa-sse');
      const res = await post(ask('openai', { tag, chunks: ['Hel', 'lo ', 'world'] }, { stream: true }));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
      const text = await res.text();
      const rec = await only(tag);
      expect(text).toBe(rec.sent);
      expect(sseEvents(text).at(-1)).toBe('[DONE]');
    });

    it('labels a JSON answer to a streaming request as JSON, bytes unchanged', async () => {
      const tag = newTag('oa-nostream');
      const res = await post(ask('openai', { tag, text: 'whole', ignoreStream: true }, { stream: true }));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.text()).toBe((await only(tag)).sent);
    });

    it('streams tool calls that the openai SDK assembles', async () => {
      const tag = newTag('oa-tools');
      const stream = await sdk().chat.completions.create({
        model: MODELS.openai,
        messages: [
          {
            role: 'user',
            content: script({
              tag,
              toolCalls: [
                { name: 'click', args: { ref: 12 } },
                { name: 'click', args: { ref: 13 } },
              ],
            }),
          },
        ],
        tools: [CLICK_TOOL],
        tool_choice: 'auto',
        stream: true,
      });
      const calls: { name: string; args: string }[] = [];
      let finish: string | null = null;
      for await (const chunk of stream) {
        for (const d of chunk.choices[0]?.delta.tool_calls ?? []) {
          calls[d.index] ??= { name: '', args: '' };
          calls[d.index]!.name += d.function?.name ?? '';
          calls[d.index]!.args += d.function?.arguments ?? '';
        }
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
      expect(calls.map((c) => [c.name, JSON.parse(c.args)])).toEqual([
        ['click', { ref: 12 }],
        ['click', { ref: 13 }],
      ]);
      expect(finish).toBe('tool_calls');
      const rec = await only(tag);
      expect((rec.body as { tools: unknown }).tools).toEqual([CLICK_TOOL]);
    });

    it('forwards image content parts unchanged', async () => {
      const tag = newTag('oa-image');
      const content = [
        { type: 'text', text: script({ tag }) },
        { type: 'image_url', image_url: { url: PNG_DATA_URL, detail: 'low' } },
        { type: 'image_url', image_url: { url: PNG_DATA_URL } },
      ];
      const res = await post({ model: MODELS.openai, messages: [{ role: 'user', content }] });
      expect(res.status).toBe(200);
      const rec = await only(tag);
      expect((rec.body as { messages: Array<{ content: unknown }> }).messages[0]!.content).toEqual(content);
    });

    it("drops Gemini's extra_content from tool calls sent to an OpenAI upstream", async () => {
      const tag = newTag('oa-extra');
      const res = await post({
        model: MODELS.openai,
        messages: [
          { role: 'user', content: 'click it' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'click', arguments: '{"ref":1}' }, extra_content: { google: { thought_signature: 'sig' } } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', content: 'clicked' },
          { role: 'user', content: script({ tag }) },
        ],
        tools: [CLICK_TOOL],
      });
      expect(res.status).toBe(200);
      const sent = (await only(tag)).body as { messages: Array<{ tool_calls?: unknown[] }> };
      expect(sent.messages[1]!.tool_calls).toEqual([{ id: 'call_1', type: 'function', function: { name: 'click', arguments: '{"ref":1}' } }]);
    });

    it("caps max tokens at the site's limit and sets it when absent", async () => {
      const cases: Array<[Record<string, unknown>, string, number]> = [
        [{ max_tokens: 5000 }, 'max_tokens', 100],
        [{ max_tokens: 50 }, 'max_tokens', 50],
        [{ max_completion_tokens: 5000 }, 'max_completion_tokens', 100],
        [{}, 'max_tokens', 100],
      ];
      const p = await start(baseVars(fake));
      for (const [extra, field, expected] of cases) {
        const tag = newTag('oa-cap');
        const res = await post(ask('openai', { tag }, extra), { token: TOKENS.limited }, p);
        expect(res.status).toBe(200);
        expect(((await only(tag)).body as Record<string, unknown>)[field]).toBe(expected);
      }
      // Reasoning models take max_completion_tokens.
      const tag = newTag('oa-cap-r');
      const res = await post({ model: MODELS.openaiReasoning, messages: [{ role: 'user', content: script({ tag }) }] }, { token: TOKENS.limited }, p);
      expect(res.status).toBe(200);
      const body = (await only(tag)).body as Record<string, unknown>;
      expect(body.max_completion_tokens).toBe(100);
      expect(body.max_tokens).toBeUndefined();
    });

    it('passes only allow-listed upstream headers back', async () => {
      const res = await post(ask('openai', { headers: { 'x-upstream-debug': 'internal' } }));
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toBe('req_fake_1');
      for (const h of ['set-cookie', 'x-internal-org', 'x-upstream-debug', 'content-encoding']) expect(res.headers.get(h)).toBeNull();
      const s = await post(ask('openai', {}, { stream: true }));
      await s.text();
      expect(s.headers.get('x-request-id')).toBe('req_fake_1');
      expect(s.headers.get('set-cookie')).toBeNull();
    });
  });

  describe(`Gemini upstream, converted to OpenAI (${target.runtime})`, () => {
    it('answers a non-streaming request as a chat.completion with usage and finish reason', async () => {
      const tag = newTag('gm-json');
      const reply = await sdk().chat.completions.create({
        model: MODELS.gemini,
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'user', content: script({ tag, text: 'hi from gemini', usage: { prompt: 11, completion: 7 } }) },
        ],
        temperature: 0.2,
      });
      expect(reply.object).toBe('chat.completion');
      expect(reply.model).toBe(MODELS.gemini);
      expect(reply.choices[0]!.message).toMatchObject({ role: 'assistant', content: 'hi from gemini' });
      expect(reply.choices[0]!.finish_reason).toBe('stop');
      expect(reply.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
      const rec = await only(tag);
      expect(rec.path).toBe(`/gemini/v1beta/models/${MODELS.gemini}:generateContent`);
      expect(rec.headers['x-goog-api-key']).toBe(KEYS.gemini);
      expect(rec.headers.authorization).toBeUndefined();
      const body = rec.body as Record<string, any>;
      expect(body.systemInstruction.parts).toEqual([{ text: 'You are terse.' }]);
      expect(body.contents).toEqual([{ role: 'user', parts: [{ text: expect.stringContaining(tag) }] }]);
      expect(body.generationConfig).toMatchObject({ temperature: 0.2, maxOutputTokens: 8192 });
    });

    it('streams text and function calls as OpenAI chunks the SDK assembles, ending with usage and [DONE]', async () => {
      const tag = newTag('gm-sse');
      const res = await post({
        model: MODELS.gemini,
        messages: [
          {
            role: 'user',
            content: script({
              tag,
              chunks: ['Look', 'ing…'],
              toolCalls: [{ name: 'click', args: { ref: 7 }, thoughtSignature: 'c2lnLTE=' }],
              usage: { prompt: 5, completion: 3, thoughts: 2 },
            }),
          },
        ],
        tools: [CLICK_TOOL],
        stream: true,
        stream_options: { include_usage: true },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
      const events = sseEvents(await res.text());
      expect(events.at(-1)).toBe('[DONE]');
      const chunks = events.slice(0, -1) as Array<Record<string, any>>;
      expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === MODELS.gemini)).toBe(true);
      expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
      expect(chunks[0]!.choices[0].delta.role).toBe('assistant');
      const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
      expect(text).toBe('Looking…');
      const calls = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({ index: 0, type: 'function', function: { name: 'click' }, extra_content: { google: { thought_signature: 'c2lnLTE=' } } });
      expect(JSON.parse(calls[0].function.arguments)).toEqual({ ref: 7 });
      expect(calls[0].id).toMatch(/^call_/);
      expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe('tool_calls');
      const last = chunks.at(-1)!;
      expect(last.choices).toEqual([]);
      expect(last.usage).toEqual({ prompt_tokens: 5, completion_tokens: 5, total_tokens: 10, completion_tokens_details: { reasoning_tokens: 2 } });
      expect((await only(tag)).path).toBe(`/gemini/v1beta/models/${MODELS.gemini}:streamGenerateContent?alt=sse`);
    });

    it('is consumed by the openai SDK stream helper like any OpenAI stream', async () => {
      const stream = sdk().chat.completions.stream({
        model: MODELS.gemini,
        messages: [{ role: 'user', content: script({ chunks: ['one ', 'two'], toolCalls: [{ name: 'click', args: { ref: 3 } }] }) }],
        tools: [CLICK_TOOL],
      });
      const final = await stream.finalChatCompletion();
      expect(final.choices[0]!.message.content).toBe('one two');
      expect(final.choices[0]!.message.tool_calls?.[0]).toMatchObject({ type: 'function', function: { name: 'click', arguments: '{"ref":3}' } });
      expect(final.choices[0]!.finish_reason).toBe('tool_calls');
    });

    it('converts a whole agent turn: system, images, tool calls with signatures, tool results, tools and tool_choice', async () => {
      const tag = newTag('gm-conv');
      const res = await post({
        model: MODELS.gemini,
        messages: [
          { role: 'system', content: 'Rule one.' },
          { role: 'developer', content: [{ type: 'text', text: 'Rule two.' }] },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is on screen?' },
              { type: 'image_url', image_url: { url: PNG_DATA_URL } },
            ],
          },
          {
            role: 'assistant',
            content: 'Clicking.',
            tool_calls: [
              { id: 'call_a', type: 'function', function: { name: 'click', arguments: '{"ref":4}' }, extra_content: { google: { thought_signature: 'U0lH' } } },
              { id: 'call_b', type: 'function', function: { name: 'type_text', arguments: 'not json' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_a', content: 'Clicked [4] "Buy".' },
          { role: 'tool', tool_call_id: 'call_b', content: [{ type: 'text', text: 'Typed.' }] },
          { role: 'user', content: script({ tag }) },
        ],
        tools: [CLICK_TOOL, { type: 'function', function: { name: 'type_text', parameters: { type: 'object', properties: { text: { type: 'string' } } } } }],
        tool_choice: { type: 'function', function: { name: 'click' } },
        stop: 'END',
        n: 1,
        response_format: { type: 'json_object' },
      });
      expect(res.status).toBe(200);
      const body = (await only(tag)).body as Record<string, any>;
      expect(body.systemInstruction.parts).toEqual([{ text: 'Rule one.' }, { text: 'Rule two.' }]);
      expect(body.contents).toEqual([
        { role: 'user', parts: [{ text: 'What is on screen?' }, { inlineData: { mimeType: 'image/png', data: PNG_DATA_URL.split(',')[1] } }] },
        {
          role: 'model',
          parts: [
            { text: 'Clicking.' },
            { functionCall: { name: 'click', args: { ref: 4 } }, thoughtSignature: 'U0lH' },
            { functionCall: { name: 'type_text', args: { arguments: 'not json' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'click', response: { result: 'Clicked [4] "Buy".' } } },
            { functionResponse: { name: 'type_text', response: { result: 'Typed.' } } },
            { text: expect.stringContaining(tag) },
          ],
        },
      ]);
      expect(body.tools).toEqual([
        {
          functionDeclarations: [
            { name: 'click', description: 'Click an element by ref', parametersJsonSchema: CLICK_TOOL.function.parameters },
            { name: 'type_text', parametersJsonSchema: { type: 'object', properties: { text: { type: 'string' } } } },
          ],
        },
      ]);
      expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['click'] } });
      expect(body.generationConfig).toMatchObject({ stopSequences: ['END'], responseMimeType: 'application/json' });
      expect(body.generationConfig.candidateCount).toBeUndefined();
    });

    it('maps finish reasons and reasoning tokens', async () => {
      const reply = await sdk().chat.completions.create(
        ask('gemini', { text: 'cut sh', finish: 'MAX_TOKENS', usage: { prompt: 3, completion: 4, thoughts: 6 } }) as never,
      );
      const r = reply as OpenAI.ChatCompletion;
      expect(r.choices[0]!.finish_reason).toBe('length');
      expect(r.usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 10, total_tokens: 13, completion_tokens_details: { reasoning_tokens: 6 } });
      const filtered = (await sdk().chat.completions.create(ask('gemini', { text: '', finish: 'SAFETY' }) as never)) as OpenAI.ChatCompletion;
      expect(filtered.choices[0]!.finish_reason).toBe('content_filter');
    });

    it('caps maxOutputTokens at the site limit', async () => {
      const tag = newTag('gm-cap');
      const p = await start(baseVars(fake));
      const res = await post(ask('gemini', { tag }, { max_tokens: 9999 }), { token: TOKENS.limited }, p);
      expect(res.status).toBe(200);
      expect(((await only(tag)).body as any).generationConfig.maxOutputTokens).toBe(100);
    });
  });

  describe(`upstream failures (${target.runtime})`, () => {
    for (const provider of ['openai', 'gemini'] as const) {
      it(`${provider}: a 400 passes on as 400 upstream_rejected, its message kept and any key redacted`, async () => {
        const res = await post(ask(provider, { status: 400, errorMessage: 'tool schema invalid', echoKey: true }));
        expect(res.status).toBe(400);
        const text = await res.text();
        expect(JSON.parse(text).error.code).toBe('upstream_rejected');
        expect(text).toContain('tool schema invalid');
        expect(text).toContain('[redacted]');
        expect(containsSecret(text)).toBe(false);
      });

      for (const status of [401, 403]) {
        it(`${provider}: a ${status} becomes 502 upstream_auth_failed and its body is masked`, async () => {
          const res = await post(ask(provider, { status, errorMessage: 'Incorrect API key provided: secret-details', echoKey: true }));
          expect(res.status).toBe(502);
          const text = await res.text();
          const body = JSON.parse(text);
          expect(body.error.code).toBe('upstream_auth_failed');
          expect(body.error.message).toContain(provider === 'openai' ? 'OPENAI_API_KEY' : 'GEMINI_API_KEY');
          expect(text).not.toContain('secret-details');
          expect(containsSecret(text)).toBe(false);
        });
      }

      it(`${provider}: a 429 stays 429 with Retry-After`, async () => {
        const res = await post(ask(provider, { status: 429, errorMessage: 'slow down' }));
        expect(res.status).toBe(429);
        expect(res.headers.get('retry-after')).toBe('7');
        expect((await res.json()).error.code).toBe('upstream_rate_limited');
      });

      it(`${provider}: a 500 becomes 502 upstream_error`, async () => {
        const res = await post(ask(provider, { status: 500, errorMessage: 'boom' }));
        expect(res.status).toBe(502);
        expect((await res.json()).error).toMatchObject({ code: 'upstream_error' });
      });

      it(`${provider}: no answer within the timeout gives 504 and cancels the upstream call`, async () => {
        const p = await start(baseVars(fake, { PAGEHAND_UPSTREAM_TIMEOUT_MS: '300' }));
        const tag = newTag(`${provider}-slow`);
        const res = await post(ask(provider, { tag, delayMs: 5000 }), {}, p);
        expect(res.status).toBe(504);
        expect((await res.json()).error.code).toBe('upstream_timeout');
        const recs = await waitForRecord(fake.origin, tag, (r) => r[0]?.aborted === true);
        expect(recs[0]?.aborted).toBe(true);
      });

      it(`${provider}: a stream that stalls mid-way ends with an upstream_timeout error event`, async () => {
        const p = await start(baseVars(fake, { PAGEHAND_UPSTREAM_TIMEOUT_MS: '300' }));
        const tag = newTag(`${provider}-stall`);
        const res = await post(ask(provider, { tag, chunks: ['a', 'b', 'c', 'd'], stallAfter: 2 }, { stream: true }), {}, p);
        expect(res.status).toBe(200);
        const events = sseEvents(await res.text());
        expect(events).not.toContain('[DONE]');
        expect(events.at(-1)).toEqual({ error: { code: 'upstream_timeout', message: expect.any(String) } });
        expect(events.length).toBeGreaterThanOrEqual(2);
        const recs = await waitForRecord(fake.origin, tag, (r) => r[0]?.aborted === true);
        expect(recs[0]?.aborted).toBe(true);
      });

      it(`${provider}: a stream cut mid-way ends with an upstream_stream_error event the SDK raises`, async () => {
        const body = ask(provider, { chunks: ['par', 'tial', ' answer', ' lost'], cutAfter: 2 }, { stream: true });
        const res = await post(body);
        expect(res.status).toBe(200);
        const events = sseEvents(await res.text());
        expect(events).not.toContain('[DONE]');
        expect(events.at(-1)).toEqual({ error: { code: 'upstream_stream_error', message: expect.any(String) } });
        const received = (events.slice(0, -1) as Array<any>).map((e) => e.choices?.[0]?.delta?.content ?? '').join('');
        expect(received.length).toBeGreaterThan(0);
        const stream = await sdk().chat.completions.create(body as never);
        await expect(
          (async () => {
            for await (const _ of stream as unknown as AsyncIterable<unknown>) {
              // drain
            }
          })(),
        ).rejects.toThrow(/broke off/);
      });

      it(`${provider}: a page that disconnects mid-stream cancels the upstream call`, async () => {
        const tag = newTag(`${provider}-gone`);
        const ctrl = new AbortController();
        const res = await post(ask(provider, { tag, chunks: Array.from({ length: 40 }, (_, i) => `c${i} `), chunkDelayMs: 150 }, { stream: true }), {
          signal: ctrl.signal,
        });
        expect(res.status).toBe(200);
        const reader = res.body!.getReader();
        const first = await reader.read();
        expect(first.done).toBe(false);
        ctrl.abort();
        await reader.cancel().catch(() => {});
        const recs = await waitForRecord(fake.origin, tag, (r) => r[0]?.aborted === true);
        expect(recs[0]?.aborted).toBe(true);
        expect(recs[0]?.completed).toBe(false);
      });

      it(`${provider}: an unreachable upstream gives 502 upstream_unreachable`, async () => {
        const p = await start(baseVars(fake, provider === 'openai' ? { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } : { GEMINI_BASE_URL: 'http://127.0.0.1:9' }));
        const res = await post(ask(provider, {}), {}, p);
        expect(res.status).toBe(502);
        expect((await res.json()).error.code).toMatch(/^upstream_(unreachable|error)$/);
      });
    }
  });

  describe(`sites, CORS, limits and configuration (${target.runtime})`, () => {
    const preflight = (origin: string, extra: Record<string, string> = {}, p: RunningProxy = proxy) =>
      p.fetch(`${p.base}/v1/chat/completions`, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type', ...extra },
      });
    // What Chromium adds to the preflight when a public page calls a private or loopback address.
    const PRIVATE_NETWORK = { 'Access-Control-Request-Private-Network': 'true' };
    const shopOnly = () => start(baseVars(fake, { PAGEHAND_SITES: JSON.stringify([{ token: TOKENS.shop, origins: [SHOP_ORIGIN] }]) }));

    it('answers a preflight from a configured origin', async () => {
      const res = await preflight(SHOP_ORIGIN);
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(SHOP_ORIGIN);
      expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
      expect(res.headers.get('access-control-allow-methods')).toContain('POST');
      // Not asked for private network access, so not granted.
      expect(res.headers.get('access-control-allow-private-network')).toBeNull();
    });

    it('grants private network access to a configured origin whose preflight asks for it', async () => {
      const p = await shopOnly();
      const res = await preflight(SHOP_ORIGIN, PRIVATE_NETWORK, p);
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(SHOP_ORIGIN);
      expect(res.headers.get('access-control-allow-private-network')).toBe('true');
      // The page's first call, GET /v1/config with its token, is preflighted too.
      const config = await p.fetch(`${p.base}/v1/config`, {
        method: 'OPTIONS',
        headers: { Origin: SHOP_ORIGIN, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization', ...PRIVATE_NETWORK },
      });
      expect(config.status).toBe(204);
      expect(config.headers.get('access-control-allow-private-network')).toBe('true');
    });

    it('never grants private network access to an origin no site lists: the usual refusal instead', async () => {
      const p = await shopOnly();
      const res = await preflight('https://evil.test', PRIVATE_NETWORK, p);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('access-control-allow-private-network')).toBeNull();
      const real = await post(ask('openai', {}), { token: TOKENS.shop, headers: { Origin: 'https://evil.test', ...PRIVATE_NETWORK } }, p);
      expect(real.status).toBe(403);
      expect((await real.json()).error.code).toBe('origin_not_allowed');
      expect(real.headers.get('access-control-allow-private-network')).toBeNull();
    });

    it('grants private network access on a preflight only, and only when asked with "true"', async () => {
      const p = await shopOnly();
      const unasked = await preflight(SHOP_ORIGIN, { 'Access-Control-Request-Private-Network': 'false' }, p);
      expect(unasked.headers.get('access-control-allow-origin')).toBe(SHOP_ORIGIN);
      expect(unasked.headers.get('access-control-allow-private-network')).toBeNull();
      const real = await post(ask('openai', {}), { token: TOKENS.shop, headers: { Origin: SHOP_ORIGIN, ...PRIVATE_NETWORK } }, p);
      expect(real.status).toBe(200);
      expect(real.headers.get('access-control-allow-private-network')).toBeNull();
      await real.text();
    });

    it('gives a foreign origin no CORS grant when no site allows every origin', async () => {
      const p = await start(baseVars(fake, { PAGEHAND_SITES: JSON.stringify([{ token: TOKENS.shop, origins: [SHOP_ORIGIN] }]) }));
      const res = await p.fetch(`${p.base}/v1/chat/completions`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://evil.test', 'Access-Control-Request-Method': 'POST' },
      });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      const real = await post(ask('openai', {}), { token: TOKENS.shop, headers: { Origin: 'https://evil.test' } }, p);
      expect(real.status).toBe(403);
      expect(real.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('binds a token to its origins, and puts CORS headers on errors too', async () => {
      const ok = await post(ask('openai', {}), { token: TOKENS.shop, headers: { Origin: SHOP_ORIGIN } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('access-control-allow-origin')).toBe(SHOP_ORIGIN);
      await ok.text();
      const foreign = await post(ask('openai', {}), { token: TOKENS.shop, headers: { Origin: 'https://other.test' } });
      expect(foreign.status).toBe(403);
      expect((await foreign.json()).error.code).toBe('origin_not_allowed');
      const personal = await post(ask('openai', {}), { token: TOKENS.personal, headers: { Origin: 'https://any.test' } });
      expect(personal.status).toBe(200);
      expect(personal.headers.get('access-control-allow-origin')).toBe('https://any.test');
      await personal.text();
      const noToken = await proxy.fetch(`${proxy.base}/v1/chat/completions`, { method: 'POST', headers: { Origin: SHOP_ORIGIN } });
      expect(noToken.status).toBe(401);
      expect(noToken.headers.get('access-control-allow-origin')).toBe(SHOP_ORIGIN);
    });

    it('tells a token what it may use through GET /v1/config, and nothing secret', async () => {
      const res = await proxy.fetch(`${proxy.base}/v1/config`, { headers: auth(TOKENS.limited) });
      expect(res.status).toBe(200);
      const text = await res.text();
      const body = JSON.parse(text);
      expect(body).toEqual({
        models: [MODELS.openai, MODELS.openaiReasoning, MODELS.gemini],
        defaultModel: MODELS.openai,
        providers: { openai: true, gemini: true },
        // The default vision families (gpt-5*, gemini-*) cover two of the token's three models.
        features: { streaming: true, tools: true, images: [MODELS.openaiReasoning, MODELS.gemini], geminiImages: 'data-url-only' },
        limits: { maxTokens: 100, maxN: 1, maxBodyBytes: 4 * 1024 * 1024, maxPromptTokens: 48_000, rpm: 60, clientRpm: 100_000 },
      });
      expect(containsSecret(text)).toBe(false);
      expect(text).not.toContain(fake.origin);
      const anon = await proxy.fetch(`${proxy.base}/v1/config`);
      expect(anon.status).toBe(401);
      expect((await anon.json()).error.code).toBe('missing_token');
    });

    it('says which models accept images as PAGEHAND_VISION_MODELS lists them: names, prefixes, none, and for an any-model token the entries', async () => {
      const images = async (vars: Record<string, string | undefined>, token: string = TOKENS.limited): Promise<unknown> => {
        const p = await start(baseVars(fake, vars));
        const res = await p.fetch(`${p.base}/v1/config`, { headers: auth(token) });
        expect(res.status).toBe(200);
        return (await res.json()).features.images;
      };
      expect(await images({ PAGEHAND_VISION_MODELS: MODELS.openai })).toEqual([MODELS.openai]);
      expect(await images({ PAGEHAND_VISION_MODELS: ' gemini-test* , gpt-test ' })).toEqual([MODELS.openai, MODELS.gemini]);
      expect(await images({ PAGEHAND_VISION_MODELS: 'none' })).toEqual([]);
      // The personal token follows the server list; with "*" its models cannot be listed.
      expect(await images({ PAGEHAND_MODELS: `${MODELS.openai},${MODELS.gemini}` }, TOKENS.personal)).toEqual([MODELS.gemini]);
      expect(await images({ PAGEHAND_MODELS: '*' }, TOKENS.personal)).toEqual(['gpt-4o*', 'gpt-4.1*', 'gpt-5*', 'gemini-*']);
    });

    it('uses the default model when the request names none', async () => {
      const tag = newTag('default-model');
      const res = await post({ messages: [{ role: 'user', content: script({ tag }) }] });
      expect(res.status).toBe(200);
      expect(((await only(tag)).body as { model: string }).model).toBe(MODELS.openai);
    });

    it('rate limits a token: 429 with Retry-After past its budget', async () => {
      const p = await start(baseVars(fake), { rateLimitBinding: true });
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 5; i++) {
        last = await post(ask('openai', {}), { token: TOKENS.metered }, p);
        statuses.push(last.status);
        if (last.status !== 429) await last.text();
      }
      expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
      expect(statuses.slice(3)).toEqual([429, 429]);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await last!.json()).error.code).toBe('rate_limited');
      // Another token is not affected.
      const other = await post(ask('openai', {}), { token: TOKENS.personal }, p);
      expect(other.status).toBe(200);
      await other.text();
    });

    it('refuses a body over the limit with 413, with or without Content-Length', async () => {
      const p = await start(baseVars(fake, { PAGEHAND_MAX_BODY_BYTES: '4096' }));
      const big = JSON.stringify(ask('openai', { text: 'x'.repeat(10_000) }));
      const withLength = await post(big, {}, p);
      expect(withLength.status).toBe(413);
      expect((await withLength.json()).error.code).toBe('body_too_large');
      const bytes = new TextEncoder().encode(big);
      const chunked = await p.fetch(`${p.base}/v1/chat/completions`, {
        method: 'POST',
        headers: jsonHeaders(),
        body: new ReadableStream({
          start(c) {
            for (let i = 0; i < bytes.length; i += 1000) c.enqueue(bytes.slice(i, i + 1000));
            c.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
      expect(chunked.status).toBe(413);
      expect((await chunked.json()).error.code).toBe('body_too_large');
      const small = await post(ask('openai', {}), {}, p);
      expect(small.status).toBe(200);
      await small.text();
    });

    it('says which variable to set when no provider is configured', async () => {
      const p = await start({ PAGEHAND_SITES: JSON.stringify([{ token: TOKENS.personal, origins: ['*'] }]) });
      const res = await post({ messages: [{ role: 'user', content: 'hi' }] }, {}, p);
      expect(res.status).toBe(503);
      const body = await res.json();
      expect(body.error.code).toBe('provider_not_configured');
      expect(body.error.message).toMatch(/OPENAI_API_KEY.*GEMINI_API_KEY/);
      // What a new user needs beyond the names: the model for a local server, and a restart.
      expect(body.error.message).toMatch(/OPENAI_BASE_URL and PAGEHAND_MODEL for a local server\).* where the proxy runs, then restart it\.$/);
      // Naming a model changes nothing: what is missing is a provider, not a permission.
      const named = await post({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }] }, {}, p);
      expect(named.status).toBe(503);
      expect((await named.json()).error).toMatchObject({ code: 'provider_not_configured', message: expect.stringMatching(/OPENAI_API_KEY.*GEMINI_API_KEY/) });
      const cfg = await (await p.fetch(`${p.base}/v1/config`, { headers: auth() })).json();
      expect(cfg.providers).toEqual({ openai: false, gemini: false });
      expect(cfg.models).toEqual([]);
    });

    it('routes gemini-* models to Gemini only, and says so when Gemini is not configured', async () => {
      const p = await start(baseVars(fake, { GEMINI_API_KEY: '', PAGEHAND_MODELS: `${MODELS.openai},${MODELS.gemini}` }));
      const res = await post(ask('gemini', {}), {}, p);
      expect(res.status).toBe(503);
      expect((await res.json()).error.message).toContain('GEMINI_API_KEY');
    });

    it('answers 503 no_sites_configured when PAGEHAND_SITES is missing', async () => {
      const p = await start(baseVars(fake, { PAGEHAND_SITES: undefined }));
      const res = await post(ask('openai', {}), {}, p);
      expect(res.status).toBe(503);
      expect((await res.json()).error.code).toBe('no_sites_configured');
    });
  });

  describe(`keys never leave the server (${target.runtime})`, () => {
    it('no response of a battery of error and success paths contains a key', async () => {
      const bodies: string[] = [];
      for (const provider of ['openai', 'gemini'] as const) {
        for (const status of [400, 401, 403, 404, 422, 429, 500, 503]) {
          for (const stream of [false, true]) {
            const res = await post(ask(provider, { status, errorMessage: 'bad', echoKey: true }, { stream }));
            bodies.push(`${res.status} ${JSON.stringify([...res.headers])} ${await res.text()}`);
          }
        }
        const ok = await post(ask(provider, {}, { stream: true }));
        bodies.push(`${JSON.stringify([...ok.headers])} ${await ok.text()}`);
        const cut = await post(ask(provider, { cutAfter: 1 }, { stream: true }));
        bodies.push(await cut.text());
      }
      const cfg = await proxy.fetch(`${proxy.base}/v1/config`, { headers: auth() });
      bodies.push(await cfg.text());
      expect(bodies.length).toBeGreaterThan(30);
      for (const b of bodies) expect(containsSecret(b), b.slice(0, 300)).toBe(false);
      // The echoed keys did reach the proxy (so the check above can fail), redacted on the way out.
      expect(bodies.some((b) => b.includes('[redacted]'))).toBe(true);
    });

    it('no log line of the whole suite contains a key', () => {
      const lines = started.flatMap((p) => p.logs.map((l) => JSON.stringify(l)));
      expect(lines.length).toBeGreaterThan(20);
      for (const line of lines) expect(containsSecret(line), line.slice(0, 300)).toBe(false);
      // Upstream errors were logged with detail (redacted), so the check saw real content.
      expect(lines.some((l) => l.includes('[redacted]'))).toBe(true);
    });
  });
}
