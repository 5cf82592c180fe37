/**
 * Fake model servers on 127.0.0.1 speaking the real wire formats: OpenAI Chat Completions under
 * /openai/v1 and the Gemini API under /gemini/v1beta. Replies follow the script found in the
 * last user message (see script.ts); every request is recorded for tests to inspect.
 *
 * A `respond` policy (option) answers requests whose last user message holds no script: it
 * gets the request normalised from either wire format (model-request.ts) and returns the
 * script to answer with — how the agent-loop tests play a model. Those normalised requests are
 * kept too (`modelRequests()`).
 *
 * Node only (runs in the test process, in the workers project's globalSetup, and in the bench).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readScript, type FakeScript, type RecordedRequest } from './script';
import { normaliseRequest, type ModelRequest, type RespondPolicy } from './model-request';
import { traceRecord } from '../../trace/trace';
import { callsAsText, refuseParameters, refuseTools, TEXT_STYLES, type NoTools, type TextStyle } from './no-tools';

export interface FakeUpstreams {
  origin: string;
  /** For OPENAI_BASE_URL. */
  openaiBaseURL: string;
  /** For GEMINI_BASE_URL. */
  geminiBaseUrl: string;
  /** Every model request, normalised (oldest first; the last 500), with what `respond` answered. */
  modelRequests(): ModelRequest[];
  close(): Promise<void>;
}

export interface FakeUpstreamsOptions {
  port?: number;
  /** Answers requests that carry no inline script; undefined → the default reply ("ok"). */
  respond?: RespondPolicy;
  /**
   * Models without tool calls, by name (no-tools.ts): `reject` answers a request with tools
   * with vLLM's (OpenAI path) or the Gemini API's 400, `text` ignores the tools; both write a
   * reply's tool calls as text, in the script's `textStyle` or else in turn by request.
   */
  noTools?: Record<string, NoTools>;
  /** Refuse the parameters the real upstream refuses per model family (no-tools.ts refuseParameters). */
  strict?: boolean;
}

const MAX_RECORDS = 500;

export async function startFakeUpstreams(portOrOptions: number | FakeUpstreamsOptions = 0): Promise<FakeUpstreams> {
  const { port = 0, respond: policy, noTools = {}, strict = false } = typeof portOrOptions === 'number' ? { port: portOrOptions } : portOrOptions;
  const records: RecordedRequest[] = [];
  const modelRecords: ModelRequest[] = [];
  let seq = 0;
  /** Requests seen per tag, for `failTimes`. */
  const seenByTag = new Map<string, number>();
  const sockets = new Set<import('node:net').Socket>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      if (url.pathname === '/__requests') {
        const tag = url.searchParams.get('tag');
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(records.filter((r) => r.tag === tag)));
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      const provider = url.pathname.startsWith('/gemini/') ? 'gemini' : url.pathname.startsWith('/openai/') ? 'openai' : undefined;
      if (!provider) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"fake: unknown path"}}');
        return;
      }
      const s = failuresSpent(readScript(lastUserText(provider, body)) ?? {}, seenByTag);
      const record: RecordedRequest = {
        seq: ++seq,
        tag: s.tag,
        provider,
        method: req.method ?? '',
        path: url.pathname + url.search,
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body,
        sent: '',
        aborted: false,
        completed: false,
      };
      records.push(record);
      if (records.length > MAX_RECORDS) records.splice(0, records.length - MAX_RECORDS);
      res.on('close', () => {
        if (!record.completed) record.aborted = true;
      });
      const write = (text: string) => {
        record.sent += text;
        res.write(text);
      };
      const end = () => {
        record.completed = true;
        res.end();
      };
      const modelReq = normaliseRequest(provider, record.path, body, record.seq);
      modelRecords.push(modelReq);
      traceRecord('request', modelReq);
      if (modelRecords.length > MAX_RECORDS) modelRecords.splice(0, modelRecords.length - MAX_RECORDS);
      // What the real server refuses is refused before any model is asked.
      const mode = noTools[modelReq.model];
      const refusal =
        (mode === 'reject' ? refuseTools(provider, modelReq.model, body) : undefined) ??
        (strict ? refuseParameters(provider, modelReq.model, body) : undefined);
      if (refusal) {
        modelReq.reply = { status: refusal.status, errorMessage: JSON.stringify(refusal.body) };
        res.writeHead(refusal.status, { 'content-type': 'application/json' });
        write(JSON.stringify(refusal.body));
        end();
        return;
      }
      // A model without tool calls writes its calls as text.
      const asText = (reply: FakeScript): FakeScript =>
        mode ? callsAsText(reply, (reply.textStyle as TextStyle | undefined) ?? TEXT_STYLES[record.seq % TEXT_STYLES.length]!) : reply;
      if (policy && !readScript(lastUserText(provider, body))) {
        void askPolicy(policy, modelReq).then((reply) => {
          record.tag = reply.tag;
          return respond(provider, asText(reply), req, res, record, url, write, end);
        });
        return;
      }
      void respond(provider, asText(s), req, res, record, url, write, end);
    });
  });
  server.on('connection', (sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    openaiBaseURL: `${origin}/openai/v1`,
    geminiBaseUrl: `${origin}/gemini`,
    modelRequests: () => [...modelRecords],
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The policy's answer; a policy that throws answers a 400 naming the error (never retried, so
 * a broken test policy ends the run with its message instead of hanging it). */
async function askPolicy(policy: RespondPolicy, req: ModelRequest): Promise<FakeScript> {
  try {
    req.reply = (await policy(req)) ?? {};
  } catch (e) {
    req.policyError = e instanceof Error ? e.message : String(e);
    req.reply = { status: 400, errorMessage: `fake model policy failed: ${req.policyError}` };
  }
  return req.reply;
}

/** Counts the request under its tag; once `failTimes` requests have failed, the failure fields go. */
function failuresSpent(s: FakeScript, seenByTag: Map<string, number>): FakeScript {
  if (s.failTimes === undefined || !s.tag) return s;
  const nth = (seenByTag.get(s.tag) ?? 0) + 1;
  seenByTag.set(s.tag, nth);
  return nth > s.failTimes ? { ...s, status: undefined, cutAfter: undefined, stallAfter: undefined } : s;
}

function lastUserText(provider: 'openai' | 'gemini', body: unknown): string {
  const b = body as { messages?: Array<{ role: string; content: unknown }>; contents?: Array<{ role: string; parts?: Array<{ text?: string }> }> };
  if (provider === 'openai') {
    const m = [...(b?.messages ?? [])].reverse().find((x) => x.role === 'user');
    if (!m) return '';
    if (typeof m.content === 'string') return m.content;
    return Array.isArray(m.content) ? m.content.map((p: { text?: string }) => p.text ?? '').join('') : '';
  }
  const c = [...(b?.contents ?? [])].reverse().find((x) => x.role === 'user' && x.parts?.some((p) => typeof p.text === 'string'));
  return c?.parts?.map((p) => p.text ?? '').join('') ?? '';
}

async function respond(
  provider: 'openai' | 'gemini',
  s: FakeScript,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  record: RecordedRequest,
  url: URL,
  write: (t: string) => void,
  end: () => void,
): Promise<void> {
  if (s.delayMs) await sleep(s.delayMs);
  if (res.destroyed) return;
  const extra = s.headers ?? {};
  if (s.status) {
    const key = provider === 'openai' ? (req.headers.authorization ?? '').replace(/^Bearer /, '') : String(req.headers['x-goog-api-key'] ?? '');
    const message = `${s.errorMessage ?? 'fake failure'}${s.echoKey ? ` (key used: ${key})` : ''}`;
    const retryAfter = s.retryAfterSeconds ?? 7;
    const body =
      provider === 'openai'
        ? { error: { message, type: 'invalid_request_error', code: null } }
        : {
            error: {
              code: s.status,
              message,
              status: s.status === 429 ? 'RESOURCE_EXHAUSTED' : 'INVALID_ARGUMENT',
              ...(s.status === 429 ? { details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${retryAfter}s` }] } : {}),
            },
          };
    if (s.rawErrorBody !== undefined) {
      // A body of any shape (the servers that do not answer OpenAI's {error: {message}}).
      res.writeHead(s.status, { 'content-type': s.rawErrorType ?? 'application/json', ...extra });
      write(s.rawErrorBody);
      end();
      return;
    }
    res.writeHead(s.status, {
      'content-type': 'application/json',
      ...(s.status === 429 && provider === 'openai' ? { 'retry-after': String(retryAfter) } : {}),
      ...extra,
    });
    write(JSON.stringify(body));
    end();
    return;
  }
  const b = record.body as { stream?: boolean; model?: string; stream_options?: { include_usage?: boolean } };
  const streaming = !s.ignoreStream && (provider === 'openai' ? b?.stream === true : url.pathname.endsWith(':streamGenerateContent'));
  const text = s.text ?? (s.toolCalls ? '' : 'ok');
  const pieces = s.chunks ?? (text ? splitInThree(text) : []);
  const usage = s.usage ?? { prompt: 11, completion: 7 };

  if (!streaming) {
    res.writeHead(200, {
      'content-type': 'application/json',
      'x-request-id': 'req_fake_1',
      'set-cookie': 'upstream=secret',
      'x-internal-org': 'org-fake',
      ...extra,
    });
    write(JSON.stringify(provider === 'openai' ? openaiCompletion(b?.model ?? '', text, s, usage) : geminiResponse(text, s, usage, true)));
    end();
    return;
  }

  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'x-request-id': 'req_fake_1',
    'set-cookie': 'upstream=secret',
    'x-internal-org': 'org-fake',
    ...extra,
  });
  const events =
    provider === 'openai' ? openaiEvents(b?.model ?? '', pieces, s, usage, b?.stream_options?.include_usage === true) : geminiEvents(pieces, s, usage);
  for (let i = 0; i < events.length; i++) {
    if (res.destroyed) return;
    if (s.cutAfter !== undefined && i === s.cutAfter) {
      // Let what was written reach the proxy first, so the cut lands mid-stream, not before it.
      await sleep(30);
      res.socket?.destroy();
      return;
    }
    if (s.stallAfter !== undefined && i === s.stallAfter) return; // keep the socket open, send nothing
    if (i > 0 && s.chunkDelayMs) await sleep(s.chunkDelayMs);
    if (res.destroyed) return;
    write(events[i]!);
  }
  end();
}

function splitInThree(text: string): string[] {
  const n = Math.ceil(text.length / 3);
  return [text.slice(0, n), text.slice(n, 2 * n), text.slice(2 * n)].filter(Boolean);
}

type U = { prompt: number; completion: number; thoughts?: number };

function openaiCompletion(model: string, text: string, s: FakeScript, usage: U) {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text || null,
          ...(s.toolCalls
            ? {
                tool_calls: s.toolCalls.map((c, i) => ({
                  id: `call_fake_${i}`,
                  type: 'function',
                  function: { name: c.name, arguments: c.argumentsText ?? JSON.stringify(c.args) },
                })),
              }
            : {}),
        },
        finish_reason: s.finish ?? (s.toolCalls ? 'tool_calls' : 'stop'),
      },
    ],
    usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion },
  };
}

function openaiEvents(model: string, pieces: string[], s: FakeScript, usage: U, includeUsage: boolean): string[] {
  const base = { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1_700_000_000, model };
  const ev = (o: unknown) => `data: ${JSON.stringify(o)}\n\n`;
  const out = [ev({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })];
  for (const p of pieces) out.push(ev({ ...base, choices: [{ index: 0, delta: { content: p }, finish_reason: null }] }));
  (s.toolCalls ?? []).forEach((c, i) => {
    const args = c.argumentsText ?? JSON.stringify(c.args);
    const half = Math.floor(args.length / 2);
    out.push(
      ev({
        ...base,
        choices: [
          {
            index: 0,
            delta: { tool_calls: [{ index: i, id: `call_fake_${i}`, type: 'function', function: { name: c.name, arguments: args.slice(0, half) } }] },
            finish_reason: null,
          },
        ],
      }),
    );
    out.push(ev({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index: i, function: { arguments: args.slice(half) } }] }, finish_reason: null }] }));
  });
  out.push(ev({ ...base, choices: [{ index: 0, delta: {}, finish_reason: s.finish ?? (s.toolCalls ? 'tool_calls' : 'stop') }] }));
  if (includeUsage) {
    out.push(
      ev({ ...base, choices: [], usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion } }),
    );
  }
  out.push('data: [DONE]\n\n');
  return out;
}

function geminiUsage(usage: U) {
  return {
    promptTokenCount: usage.prompt,
    candidatesTokenCount: usage.completion,
    ...(usage.thoughts ? { thoughtsTokenCount: usage.thoughts } : {}),
    totalTokenCount: usage.prompt + usage.completion + (usage.thoughts ?? 0),
  };
}

function geminiCallParts(s: FakeScript) {
  return (s.toolCalls ?? []).map((c) => ({
    functionCall: { name: c.name, args: c.args },
    ...(c.thoughtSignature ? { thoughtSignature: c.thoughtSignature } : {}),
  }));
}

function geminiResponse(text: string, s: FakeScript, usage: U, final: boolean) {
  const parts = [...(text ? [{ text }] : []), ...geminiCallParts(s)];
  return {
    candidates: [{ content: { role: 'model', parts }, ...(final ? { finishReason: s.finish ?? 'STOP' } : {}), index: 0 }],
    usageMetadata: geminiUsage(usage),
    modelVersion: 'gemini-fake',
    responseId: 'resp-fake',
  };
}

function geminiEvents(pieces: string[], s: FakeScript, usage: U): string[] {
  const ev = (o: unknown) => `data: ${JSON.stringify(o)}\r\n\r\n`;
  const out = pieces.map((p) => ev({ candidates: [{ content: { role: 'model', parts: [{ text: p }] }, index: 0 }], modelVersion: 'gemini-fake' }));
  const callParts = geminiCallParts(s);
  out.push(
    ev({
      candidates: [{ content: { role: 'model', parts: callParts.length ? callParts : [{ text: '' }] }, finishReason: s.finish ?? 'STOP', index: 0 }],
      usageMetadata: geminiUsage(usage),
      modelVersion: 'gemini-fake',
    }),
  );
  return out;
}
