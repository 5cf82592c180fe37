/**
 * Models without tool calls, through the real proxy, read with the real `openai` SDK client as
 * a page's code would: an upstream that refuses `tools` (vLLM's 400; the Gemini API's for
 * Gemma-like models), one that answers only in text, one configured for text. The call
 * arrives as a tool call either way. Also: an upstream's error message reaches the client
 * whatever its body's shape, and the quirks table sends what a strict upstream accepts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeServer, type NodeServer } from '../../server/node';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/fake-upstreams';
import { recorded, script, type FakeScript } from './fakes/script';

const MODELS = {
  vllm: 'local-vllm-plain',
  textOnly: 'local-text-only',
  configured: 'small-local-model',
  gemma: 'gemini-gemma-like',
  o3: 'o3-mini',
  gpt4: 'gpt-4.1-mini',
  pro: 'gemini-2.5-pro',
  flash: 'gemini-2.5-flash',
  old: 'gemini-2.0-flash',
  g3: 'gemini-3-pro-preview',
};

let fake: FakeUpstreams;
let proxy: NodeServer;
let tmp: string;
let sdk: OpenAI;

beforeAll(async () => {
  fake = await startFakeUpstreams({
    noTools: { [MODELS.vllm]: 'reject', [MODELS.gemma]: 'reject', [MODELS.textOnly]: 'text', [MODELS.configured]: 'text' },
    strict: true,
  });
  tmp = await mkdtemp(join(tmpdir(), 'pagehand-text-'));
  proxy = await startNodeServer({
    env: {
      PORT: '0',
      OPENAI_BASE_URL: fake.openaiBaseURL,
      OPENAI_API_KEY: 'sk-test-TEXT-k3y-0123456789abcdef',
      GEMINI_BASE_URL: fake.geminiBaseUrl,
      GEMINI_API_KEY: 'AIzaTEST-TEXT-k3y-0123456789abcd',
      PAGEHAND_MODELS: Object.values(MODELS).join(','),
      PAGEHAND_TEXT_MODELS: 'small-local-*',
    },
    tokenFile: join(tmp, 'token'),
    log: () => {},
    personalRpm: 10_000,
  });
  sdk = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: proxy.personalToken!, maxRetries: 0 });
});
afterAll(async () => {
  await proxy?.close();
  await fake?.close();
  await rm(tmp, { recursive: true, force: true });
});

const TOOLS: ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'click',
      description: 'Click an element by its ref.',
      parameters: { type: 'object', properties: { ref: { type: 'string' } }, required: ['ref'] },
    },
  },
  { type: 'function', function: { name: 'done', description: 'Finish.', parameters: { type: 'object', properties: { summary: { type: 'string' } } } } },
];

let tagSeq = 0;
const newTag = (what: string) => `text-${what}-${++tagSeq}`;
const clickRef = (ref: string, extra: Partial<FakeScript> = {}): FakeScript => ({ toolCalls: [{ name: 'click', args: { ref } }], ...extra });

const params = (model: string, s: FakeScript) => ({
  model,
  messages: [
    { role: 'system' as const, content: 'You drive a page.' },
    { role: 'user' as const, content: `Click Next. ${script(s)}` },
  ],
  tools: TOOLS,
  tool_choice: 'auto' as const,
});

/** Streams through the SDK and returns the calls and text it assembled. */
async function streamed(model: string, s: FakeScript) {
  const stream = await sdk.chat.completions.create({ ...params(model, s), stream: true, stream_options: { include_usage: true } });
  let content = '';
  const calls: Array<{ name: string; arguments: string }> = [];
  let finish: string | null = null;
  for await (const chunk of stream) {
    const choice = chunk.choices[0];
    if (!choice) continue;
    content += choice.delta.content ?? '';
    for (const d of choice.delta.tool_calls ?? []) {
      const c = (calls[d.index] ??= { name: '', arguments: '' });
      c.name += d.function?.name ?? '';
      c.arguments += d.function?.arguments ?? '';
    }
    finish = choice.finish_reason ?? finish;
  }
  return { content, calls, finish };
}

type Sent = { tools?: unknown; tool_choice?: unknown; messages: Array<{ role: string; content: string }> };

describe('an upstream that refuses tools (vLLM without --enable-auto-tool-choice)', () => {
  it('retries the request once in text and answers with the tool call; later requests go straight to text', async () => {
    const tag = newTag('vllm');
    const got = await streamed(MODELS.vllm, clickRef('7', { tag, text: 'goal: go on' }));
    expect(got.calls).toEqual([{ name: 'click', arguments: '{"ref":"7"}' }]);
    expect(got.content).toBe('goal: go on');
    expect(got.finish).toBe('tool_calls');
    const [refused, retried] = (await recorded(fake.origin, tag)).map((r) => r.body as Sent);
    expect(refused!.tools).toHaveLength(2);
    expect(retried!.tools).toBeUndefined();
    expect(retried!.tool_choice).toBeUndefined();
    expect(retried!.messages[0]!.content).toContain('You drive a page.');
    expect(retried!.messages[0]!.content).toContain('{"tool": "<name>", "arguments": {…}}');
    expect(retried!.messages[0]!.content).toMatch(/## click\nClick an element by its ref\.\narguments: \{"type":"object"/);

    // Remembered: the next request is not refused first.
    const next = newTag('vllm-next');
    const res = await sdk.chat.completions.create(params(MODELS.vllm, { tag: next, toolCalls: [{ name: 'done', args: { summary: 'ok' } }] }));
    expect(res.choices[0]!.message.tool_calls).toMatchObject([{ type: 'function', function: { name: 'done', arguments: '{"summary":"ok"}' } }]);
    expect(res.choices[0]!.finish_reason).toBe('tool_calls');
    expect(await recorded(fake.origin, next)).toHaveLength(1);
  });

  it('works the same when the upstream is Gemini', async () => {
    const tag = newTag('gemma');
    const got = await streamed(MODELS.gemma, clickRef('4', { tag }));
    expect(got.calls).toEqual([{ name: 'click', arguments: '{"ref":"4"}' }]);
    const [refused, retried] = (await recorded(fake.origin, tag)).map(
      (r) => r.body as { tools?: unknown; systemInstruction?: { parts: Array<{ text: string }> } },
    );
    expect(refused!.tools).toBeDefined();
    expect(retried!.tools).toBeUndefined();
    expect(retried!.systemInstruction!.parts.map((p) => p.text).join('')).toContain('## click');
  });
});

describe('a model configured for text (PAGEHAND_TEXT_MODELS)', () => {
  it.each(['fence', 'prose', 'tags', 'broken', 'string-args'])('reads a call written as %s', async (textStyle) => {
    const tag = newTag(`style-${textStyle}`);
    const got = await streamed(MODELS.configured, clickRef('12', { tag, textStyle, text: 'goal: press it' }));
    expect(got.calls).toEqual([{ name: 'click', arguments: '{"ref":"12"}' }]);
    expect(got.content).toMatch(/^goal: press it/);
    expect(got.content).not.toContain('"tool"');
    // Sent without tools the first time: no refusal needed.
    const sent = await recorded(fake.origin, tag);
    expect(sent).toHaveLength(1);
    expect((sent[0]!.body as Sent).tools).toBeUndefined();
  });

  it('passes a reply with no call on as text', async () => {
    const res = await sdk.chat.completions.create(params(MODELS.configured, { text: 'The total is $42.' }));
    expect(res.choices[0]!.message.content).toBe('The total is $42.');
    expect(res.choices[0]!.message.tool_calls).toBeUndefined();
    expect(res.choices[0]!.finish_reason).toBe('stop');
  });

  it('renders earlier calls and their results as text turns', async () => {
    const tag = newTag('history');
    await sdk.chat.completions.create({
      model: MODELS.configured,
      messages: [
        { role: 'system', content: 'You drive a page.' },
        { role: 'user', content: 'Click Next.' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'click', arguments: '{"ref":"3"}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'clicked Next' },
        { role: 'user', content: `Now finish. ${script({ tag })}` },
      ],
      tools: TOOLS,
    });
    const sent = (await recorded(fake.origin, tag))[0]!.body as Sent;
    expect(sent.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(sent.messages[2]!.content).toBe('{"tool":"click","arguments":{"ref":"3"}}');
    expect(JSON.stringify(sent.messages[3]!.content)).toContain('Result of click:\\nclicked Next');
  });
});

describe('a model that answers in text though it was given tools', () => {
  it('gets text mode after writing its call as text twice in a row', async () => {
    const tags = [newTag('t1'), newTag('t2'), newTag('t3')];
    for (const tag of tags.slice(0, 2)) {
      // Passed on as the model wrote it (the page reads calls in text too).
      const got = await streamed(MODELS.textOnly, clickRef('5', { tag, textStyle: 'fence' }));
      expect(got.calls).toEqual([]);
      expect(got.content).toContain('"tool": "click"');
      expect((await recorded(fake.origin, tag))[0]!.body).toHaveProperty('tools');
    }
    const got = await streamed(MODELS.textOnly, clickRef('5', { tag: tags[2] }));
    expect(got.calls).toEqual([{ name: 'click', arguments: '{"ref":"5"}' }]);
    expect((await recorded(fake.origin, tags[2]!))[0]!.body).not.toHaveProperty('tools');
  });
});

describe("an upstream's error message reaches the client", () => {
  it.each([
    ['OpenAI JSON', '{"error":{"message":"bad things happened"}}', 'application/json', 'bad things happened'],
    [
      'vLLM (message at the top)',
      '{"object":"error","message":"max_tokens is too large","type":"BadRequestError","code":400}',
      'application/json',
      'max_tokens is too large',
    ],
    [
      'Ollama (error as a string)',
      '{"error":"model \\"llama9\\" not found, try pulling it first"}',
      'application/json',
      'model "llama9" not found, try pulling it first',
    ],
    ['FastAPI (detail)', '{"detail":[{"loc":["body","messages"],"msg":"field required"}]}', 'application/json', 'field required'],
    ['plain text', 'context length exceeded', 'text/plain', 'context length exceeded'],
    ['an empty body', '', 'text/plain', 'Bad Request (HTTP 400, empty body)'],
  ])('%s', async (_name, rawErrorBody, rawErrorType, message) => {
    const err = await sdk.chat.completions.create(params('gpt-4.1-mini', { status: 400, rawErrorBody, rawErrorType })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect((err as InstanceType<typeof OpenAI.APIError>).message).toBe(`400 The openai upstream rejected the request: ${message}`);
    expect((err as InstanceType<typeof OpenAI.APIError>).message).not.toContain('no body');
  });

  it('from Gemini too, and never with a key in it', async () => {
    const err = await sdk.chat.completions
      .create(params(MODELS.flash, { status: 400, errorMessage: 'Request contains an invalid argument.', echoKey: true }))
      .catch((e: unknown) => e);
    const message = (err as Error).message;
    expect(message).toContain('Request contains an invalid argument.');
    expect(message).not.toContain('AIzaTEST-TEXT-k3y');
  });
});

describe('the quirks table: accepted the first time by an upstream that refuses what the real one refuses', () => {
  it.each([
    ['o3-mini with temperature, top_p and max_tokens', MODELS.o3, { temperature: 0.2, top_p: 0.9, max_tokens: 500 }],
    ['gpt-4.1 with reasoning_effort', MODELS.gpt4, { reasoning_effort: 'low' }],
    ['gemini-2.5-pro asked not to think', MODELS.pro, { reasoning_effort: 'none' }],
    ['gemini-2.5-flash with penalties', MODELS.flash, { presence_penalty: 0.5, frequency_penalty: 0.5 }],
    ['gemini-2.0-flash with reasoning_effort', MODELS.old, { reasoning_effort: 'high' }],
    ['gemini-3 with reasoning_effort', MODELS.g3, { reasoning_effort: 'high' }],
  ])('%s', async (_name, model, extra) => {
    const tag = newTag('quirk');
    const res = await sdk.chat.completions.create({ model, messages: [{ role: 'user', content: script({ tag }) }], ...extra } as never);
    expect(res.choices[0]!.message.content).toBe('ok');
    expect(await recorded(fake.origin, tag)).toHaveLength(1);
  });

  it('keeps the cap under the name the family reads', async () => {
    const tag = newTag('quirk-cap');
    await sdk.chat.completions.create({ model: MODELS.o3, messages: [{ role: 'user', content: script({ tag }) }], max_tokens: 300 });
    const body = (await recorded(fake.origin, tag))[0]!.body as Record<string, unknown>;
    expect(body.max_completion_tokens).toBe(300);
    expect(body.max_tokens).toBeUndefined();
  });

  it("sets Gemini's thinking within the family's range", async () => {
    const tag = newTag('quirk-think');
    await sdk.chat.completions.create({ model: MODELS.pro, messages: [{ role: 'user', content: script({ tag }) }], reasoning_effort: 'minimal' });
    const body = (await recorded(fake.origin, tag))[0]!.body as { generationConfig: { thinkingConfig: unknown } };
    expect(body.generationConfig.thinkingConfig).toEqual({ thinkingBudget: 128 });
  });
});
