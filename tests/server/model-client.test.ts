/**
 * The in-page model client (client/llm) against the real proxy (startNodeServer) and the
 * scripted fake OpenAI and Gemini upstreams, all on 127.0.0.1. Node's fetch stands in for the
 * browser's. Each provider gets its own proxy (and personal token), so the per-token rate limit
 * never interferes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assistantMessage, createModelClient, ModelError, type ChatDelta, type ChatMessage, type ModelClientOptions, type RetryInfo } from '../../client/llm';
import { startNodeServer, type NodeServer } from '../../server/node';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/fake-upstreams';
import { recorded, script, waitForRecord, type FakeScript } from './fakes/script';

let fake: FakeUpstreams;
let tmp: string;
const servers: NodeServer[] = [];

beforeAll(async () => {
  fake = await startFakeUpstreams();
  tmp = await mkdtemp(join(tmpdir(), 'pagehand-llm-'));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await fake?.close();
  await rm(tmp, { recursive: true, force: true });
});

async function startProxy(name: string, env: Record<string, string> = {}): Promise<NodeServer> {
  const server = await startNodeServer({
    env: {
      ...env,
      PORT: '0',
      OPENAI_BASE_URL: fake.openaiBaseURL,
      OPENAI_API_KEY: 'sk-test-OPENAI-k3y-0123456789abcdef',
      GEMINI_BASE_URL: fake.geminiBaseUrl,
      GEMINI_API_KEY: 'AIzaTEST-GEMINI-k3y-0123456789abcd',
      PAGEHAND_MODELS: 'gpt-test,gemini-test-flash',
    },
    tokenFile: join(tmp, `${name}-token`),
    log: () => {},
  });
  servers.push(server);
  return server;
}

let tagSeq = 0;
const newTag = (what: string) => `llm-${what}-${++tagSeq}`;

/** A one-message request carrying a fake script. */
const ask = (model: string, s: FakeScript, extra: ChatMessage[] = []) => ({
  model,
  messages: [{ role: 'system' as const, content: 'You are a test.' }, ...extra, { role: 'user' as const, content: `Go. ${script(s)}` }],
});

describe.each([
  { provider: 'openai', model: 'gpt-test' },
  { provider: 'gemini', model: 'gemini-test-flash' },
] as const)('model client → proxy → $provider', ({ provider, model }) => {
  let proxy: NodeServer;
  const client = (o: Partial<ModelClientOptions> = {}) =>
    createModelClient({ proxy: proxy.url, token: proxy.personalToken, baseDelayMs: 5, maxDelayMs: 5_000, ...o });

  beforeAll(async () => {
    proxy = await startProxy(provider);
  });

  it('streams text: onDelta gets each piece as it arrives, the reply has it all', async () => {
    const tag = newTag('text');
    const deltas: ChatDelta[] = [];
    const reply = await client().chat(ask(model, { tag, chunks: ['Hel', 'lo, ', 'world'] }), { onDelta: (d) => deltas.push({ ...d }) });
    expect(reply.content).toBe('Hello, world');
    expect(reply.finishReason).toBe('stop');
    expect(reply.toolCalls).toEqual([]);
    expect(deltas.map((d) => d.content)).toEqual(['Hel', 'lo, ', 'world']);
    expect(deltas.map((d) => d.text)).toEqual(['Hel', 'Hello, ', 'Hello, world']);
    // The proxy was asked to stream, with usage.
    const [rec] = await recorded(fake.origin, tag);
    if (provider === 'openai') expect(rec!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    else expect(rec!.path).toContain(':streamGenerateContent');
  });

  it('takes usage from the final chunk', async () => {
    const reply = await client().chat(ask(model, { text: 'counted', usage: { prompt: 123, completion: 45 } }));
    expect(reply.usage).toEqual({ promptTokens: 123, completionTokens: 45 });
  });

  it('assembles a tool call streamed in pieces', async () => {
    const deltas: ChatDelta[] = [];
    const args = { ref: '12', text: 'hello "quoted" world', submit: true };
    const reply = await client().chat(ask(model, { toolCalls: [{ name: 'type', args }] }), { onDelta: (d) => deltas.push({ ...d }) });
    expect(reply.finishReason).toBe('tool_calls');
    expect(reply.toolCalls).toHaveLength(1);
    const [call] = reply.toolCalls;
    expect(call!.name).toBe('type');
    expect(call!.id).toMatch(/\S/);
    expect(JSON.parse(call!.arguments)).toEqual(args);
    expect(deltas.at(-1)?.toolCalls).toBe(1);
  });

  it('assembles several tool calls in one reply, in order, with text before them', async () => {
    const reply = await client().chat(
      ask(model, {
        text: 'Doing both.',
        toolCalls: [
          { name: 'click', args: { ref: '3' } },
          { name: 'scroll', args: { direction: 'down', pages: 2 } },
          { name: 'done', args: { summary: 'ok' } },
        ],
      }),
    );
    expect(reply.content).toBe('Doing both.');
    expect(reply.toolCalls.map((c) => c.name)).toEqual(['click', 'scroll', 'done']);
    expect(reply.toolCalls.map((c) => JSON.parse(c.arguments))).toEqual([{ ref: '3' }, { direction: 'down', pages: 2 }, { summary: 'ok' }]);
    expect(new Set(reply.toolCalls.map((c) => c.id)).size).toBe(3);
  });

  it('retries a 500 with backoff and returns the reply of the next try', async () => {
    const tag = newTag('500');
    const retries: RetryInfo[] = [];
    const reply = await client().chat(ask(model, { tag, status: 500, failTimes: 1, text: 'recovered' }), { onRetry: (r) => retries.push(r) });
    expect(reply.content).toBe('recovered');
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ attempt: 1, code: 'upstream_error' });
    // Backoff for the first retry: within [base/2, base] (baseDelayMs 5).
    expect(retries[0]!.delayMs).toBeGreaterThanOrEqual(2);
    expect(retries[0]!.delayMs).toBeLessThanOrEqual(5);
    expect(await recorded(fake.origin, tag)).toHaveLength(2);
  });

  it('honours Retry-After on a 429: the wait comes from the header, then the retry succeeds', async () => {
    const tag = newTag('429');
    const retries: RetryInfo[] = [];
    const reply = await client().chat(ask(model, { tag, status: 429, retryAfterSeconds: 1, failTimes: 1, text: 'after the wait' }), {
      onRetry: (r) => retries.push(r),
    });
    expect(reply.content).toBe('after the wait');
    expect(retries).toEqual([expect.objectContaining({ attempt: 1, code: 'upstream_rate_limited', delayMs: 1000 })]);
  });

  it('fails with the proxy message instead of hanging when Retry-After exceeds maxDelayMs', async () => {
    const tag = newTag('429-long');
    const retries: RetryInfo[] = [];
    const err = await client({ maxDelayMs: 2_000 })
      .chat(ask(model, { tag, status: 429, retryAfterSeconds: 90, errorMessage: 'slow down please' }), { onRetry: (r) => retries.push(r) })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect(err).toMatchObject({ code: 'upstream_rate_limited', status: 429, retryAfterMs: 90_000 });
    expect((err as ModelError).message).toMatch(/rate limiting: slow down please/);
    expect((err as ModelError).message).toMatch(/wait 90 s/);
    expect(retries).toEqual([]);
    expect(await recorded(fake.origin, tag)).toHaveLength(1);
  });

  it('retries a stream cut mid-way and returns the whole reply of the next try', async () => {
    const tag = newTag('cut');
    const retries: RetryInfo[] = [];
    const deltas: ChatDelta[] = [];
    const reply = await client().chat(ask(model, { tag, chunks: ['one ', 'two ', 'three'], cutAfter: 2, failTimes: 1 }), {
      onRetry: (r) => retries.push(r),
      onDelta: (d) => deltas.push({ ...d }),
    });
    expect(reply.content).toBe('one two three');
    expect(retries).toEqual([expect.objectContaining({ attempt: 1, code: 'upstream_stream_error' })]);
    // The first try really streamed part of a reply before it broke.
    expect(deltas.length).toBeGreaterThan(3);
    const recs = await recorded(fake.origin, tag);
    expect(recs.map((r) => r.completed)).toEqual([false, true]);
  });

  it('gives up after `retries` with a clear message', async () => {
    const tag = newTag('exhausted');
    const retries: RetryInfo[] = [];
    const err = await client({ retries: 2, baseDelayMs: 1 })
      .chat(ask(model, { tag, status: 503 }), { onRetry: (r) => retries.push(r) })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect(err).toMatchObject({ code: 'upstream_error', status: 502, retryable: true });
    expect((err as ModelError).message).toMatch(new RegExp(`The ${provider} upstream failed \\(HTTP 503\\).*gave up after 3 tries`));
    expect(retries.map((r) => r.attempt)).toEqual([1, 2]);
    expect(await recorded(fake.origin, tag)).toHaveLength(3);
  });

  it('aborts at once while waiting for a slow reply, and the proxy cancels the upstream call', async () => {
    const tag = newTag('abort-wait');
    const ac = new AbortController();
    const pending = client().chat(ask(model, { tag, delayMs: 60_000 }), { signal: ac.signal });
    await waitForRecord(fake.origin, tag, (r) => r.length === 1);
    ac.abort();
    await expect(pending).rejects.toMatchObject({ name: 'ModelError', code: 'aborted' });
    const recs = await waitForRecord(fake.origin, tag, (r) => r[0]?.aborted === true);
    expect(recs[0]?.aborted).toBe(true);
  });

  it('aborts at once mid-stream, and the proxy cancels the upstream call', async () => {
    const tag = newTag('abort-stream');
    const ac = new AbortController();
    // The fake sends the first piece (OpenAI: after the role chunk), then nothing more.
    const stallAfter = provider === 'openai' ? 2 : 1;
    const pending = client().chat(ask(model, { tag, chunks: ['first ', 'never', 'sent'], stallAfter }), {
      signal: ac.signal,
      onDelta: () => ac.abort(),
    });
    await expect(pending).rejects.toMatchObject({ name: 'ModelError', code: 'aborted' });
    const recs = await waitForRecord(fake.origin, tag, (r) => r[0]?.aborted === true);
    expect(recs[0]?.aborted).toBe(true);
    expect(recs).toHaveLength(1); // no retry after an abort
  });

  it('aborts a backoff wait at once', async () => {
    const tag = newTag('abort-backoff');
    const ac = new AbortController();
    const pending = client({ baseDelayMs: 60_000, maxDelayMs: 120_000 }).chat(ask(model, { tag, status: 500 }), {
      signal: ac.signal,
      onRetry: () => ac.abort(),
    });
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
    expect(await recorded(fake.origin, tag)).toHaveLength(1);
  });
});

describe('model client → proxy (provider-independent)', () => {
  let proxy: NodeServer;
  const client = (o: Partial<ModelClientOptions> = {}) => createModelClient({ proxy: proxy.url, token: proxy.personalToken, baseDelayMs: 1, ...o });

  beforeAll(async () => {
    proxy = await startProxy('shared');
  });

  it('401 for a bad token: no retry, the proxy code and message, the token not echoed', async () => {
    const bad = 'ph_not-the-right-token-0123456789abcdefgh';
    const retries: RetryInfo[] = [];
    const err = await client({ token: bad })
      .chat(ask('gpt-test', { text: 'x' }), { onRetry: (r) => retries.push(r) })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect(err).toMatchObject({ code: 'invalid_token', status: 401, retryable: false });
    expect((err as ModelError).message).toMatch(/\w/);
    expect((err as ModelError).message).not.toContain(bad);
    expect(retries).toEqual([]);
  });

  it('401 without a token: missing_token', async () => {
    await expect(client({ token: undefined }).chat(ask('gpt-test', { text: 'x' }))).rejects.toMatchObject({ code: 'missing_token', status: 401 });
  });

  it('403 for a model the token may not use: no retry, the proxy code and message', async () => {
    const tag = newTag('403');
    const retries: RetryInfo[] = [];
    const err = await client()
      .chat(ask('gpt-not-allowed', { tag }), { onRetry: (r) => retries.push(r) })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'ModelError', code: 'model_not_allowed', status: 403, retryable: false });
    expect((err as ModelError).message).toContain('gpt-not-allowed');
    expect(retries).toEqual([]);
    expect(await recorded(fake.origin, tag)).toHaveLength(0);
  });

  it('a 400 from the upstream fails at once with the proxy message', async () => {
    const tag = newTag('400');
    const err = await client()
      .chat(ask('gpt-test', { tag, status: 400, errorMessage: 'tool schema is invalid' }))
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'upstream_rejected', status: 400, retryable: false });
    expect((err as ModelError).message).toContain('tool schema is invalid');
    expect(await recorded(fake.origin, tag)).toHaveLength(1);
  });

  it('accepts a JSON chat.completion when a stream was asked for', async () => {
    const deltas: ChatDelta[] = [];
    const reply = await client().chat(
      ask('gpt-test', { ignoreStream: true, text: 'all at once', toolCalls: [{ name: 'read', args: {} }], usage: { prompt: 9, completion: 4 } }),
      { onDelta: (d) => deltas.push(d) },
    );
    expect(reply).toMatchObject({ content: 'all at once', finishReason: 'tool_calls', usage: { promptTokens: 9, completionTokens: 4 } });
    expect(reply.toolCalls).toEqual([{ id: 'call_fake_0', name: 'read', arguments: '{}' }]);
    expect(deltas).toEqual([{ content: 'all at once', text: 'all at once', toolCalls: 1 }]);
  });

  it("round-trips Gemini's thought signature through assistantMessage", async () => {
    const tag = newTag('sig');
    const first = await client().chat(ask('gemini-test-flash', { toolCalls: [{ name: 'click', args: { ref: '4' }, thoughtSignature: 'c2lnLTE=' }] }));
    expect(first.toolCalls[0]?.extra_content).toEqual({ google: { thought_signature: 'c2lnLTE=' } });
    const history: ChatMessage[] = [
      { role: 'user', content: 'click 4' },
      assistantMessage(first),
      { role: 'tool', tool_call_id: first.toolCalls[0]!.id, content: 'clicked' },
    ];
    const second = await client().chat(ask('gemini-test-flash', { tag, text: 'next' }, history));
    expect(second.content).toBe('next');
    const [rec] = await recorded(fake.origin, tag);
    expect(JSON.stringify(rec!.body)).toContain('"thoughtSignature":"c2lnLTE="');
  });

  it("a stalled stream: the proxy's upstream_timeout event is retried", async () => {
    const impatient = await startProxy('impatient', { PAGEHAND_UPSTREAM_TIMEOUT_MS: '300' });
    const tag = newTag('stall');
    const retries: RetryInfo[] = [];
    const reply = await createModelClient({ proxy: impatient.url, token: impatient.personalToken, baseDelayMs: 1 }).chat(
      ask('gpt-test', { tag, chunks: ['slow ', 'then ', 'fine'], stallAfter: 2, failTimes: 1 }),
      { onRetry: (r) => retries.push(r) },
    );
    expect(reply.content).toBe('slow then fine');
    expect(retries).toEqual([expect.objectContaining({ attempt: 1, code: 'upstream_timeout' })]);
    expect(await recorded(fake.origin, tag)).toHaveLength(2);
  });

  it('config() returns what the token may use', async () => {
    const info = await client().config();
    expect(info.models).toEqual(['gpt-test', 'gemini-test-flash']);
    expect(info.defaultModel).toBe('gpt-test');
    expect(info.providers).toEqual({ openai: true, gemini: true });
    expect(info.features).toMatchObject({ streaming: true, tools: true });
    expect(info.limits).toMatchObject({ rpm: 60, maxN: expect.any(Number), maxTokens: expect.any(Number) });
  });

  it('config() with a bad token fails with the proxy code', async () => {
    await expect(client({ token: 'ph_wrong-token-0123456789abcdefghijklmno' }).config()).rejects.toMatchObject({ code: 'invalid_token', status: 401 });
  });

  it('a proxy that cannot be reached: network errors retried, then a message naming the address', async () => {
    // A port that was just listening and is now closed.
    const gone = await startProxy('gone');
    const url = gone.url;
    await gone.close();
    const retries: RetryInfo[] = [];
    const c = createModelClient({ proxy: url, token: 'ph_any-token-0123456789abcdefghijklmn', retries: 2, baseDelayMs: 1 });
    const err = await c.chat(ask('gpt-test', { text: 'x' }), { onRetry: (r) => retries.push(r) }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'ModelError', code: 'network' });
    expect((err as ModelError).message).toContain(`Could not reach the proxy at ${url}`);
    expect((err as ModelError).message).toMatch(/gave up after 3 tries/);
    expect(retries.map((r) => r.code)).toEqual(['network', 'network']);
    await expect(c.config()).rejects.toMatchObject({ code: 'network' });
  });
});
