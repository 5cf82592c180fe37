/**
 * A whole reply gathered from OpenAI-format output (stream chunks, SSE text or a
 * `chat.completion`), and the same reply written back out as a completion or as stream chunks.
 * The text protocol needs the whole reply before it can read the call in it; the tool path's
 * watcher reads the same shape. Pure, apart from fresh ids and the clock.
 */
import type { ChatCompletion, ChatCompletionChunk } from './gemini-response';
import type { FinishReason, ToolCall, Usage } from './types';

export interface Collected {
  content: string;
  toolCalls: ToolCall[];
  finish: FinishReason | null;
  usage?: Usage;
  /** An error the upstream sent in the stream. */
  error?: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export const newCollected = (): Collected => ({ content: '', toolCalls: [], finish: null });

/** Applies one `chat.completion.chunk` (choice 0) or a whole `chat.completion`. */
export function addChunk(c: Collected, chunk: unknown): void {
  if (!isObj(chunk)) return;
  if (isObj(chunk.error)) c.error = typeof chunk.error.message === 'string' ? chunk.error.message : 'error';
  if (isObj(chunk.usage)) c.usage = chunk.usage as unknown as Usage;
  const choice = Array.isArray(chunk.choices) ? chunk.choices.find((x) => isObj(x) && (x.index ?? 0) === 0) : undefined;
  if (!isObj(choice)) return;
  if (typeof choice.finish_reason === 'string') c.finish = choice.finish_reason as FinishReason;
  const part = isObj(choice.delta) ? choice.delta : isObj(choice.message) ? choice.message : {};
  if (typeof part.content === 'string') c.content += part.content;
  if (!Array.isArray(part.tool_calls)) return;
  part.tool_calls.forEach((d: unknown, i) => {
    if (!isObj(d)) return;
    const index = typeof d.index === 'number' ? d.index : isObj(choice.message) ? i : c.toolCalls.length - (typeof d.id === 'string' ? 0 : 1);
    const fn = isObj(d.function) ? d.function : {};
    const call = (c.toolCalls[index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
    if (typeof d.id === 'string' && !call.id) call.id = d.id;
    if (typeof fn.name === 'string' && !call.function.name) call.function.name = fn.name;
    if (typeof fn.arguments === 'string') call.function.arguments += fn.arguments;
  });
}

/** An OpenAI-format body as text: SSE events, or one JSON completion. */
export function collectBody(text: string): Collected {
  const c = newCollected();
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      addChunk(c, JSON.parse(trimmed));
      return c;
    } catch {
      // not one JSON value: read it as events
    }
  }
  for (const line of text.split(/\r?\n/)) {
    const m = /^data:\s?(.*)$/.exec(line);
    if (!m || m[1]!.trim() === '[DONE]') continue;
    try {
      addChunk(c, JSON.parse(m[1]!));
    } catch {
      // a broken event: skip it
    }
  }
  return c;
}

const head = (model: string) => ({
  id: `chatcmpl-${crypto.randomUUID()}`,
  created: Math.floor(Date.now() / 1000),
  model,
});

const finishOf = (c: Collected): FinishReason => (c.toolCalls.length ? 'tool_calls' : c.finish === 'tool_calls' ? 'stop' : (c.finish ?? 'stop'));

export function completionOf(c: Collected, model: string): ChatCompletion {
  return {
    ...head(model),
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: c.content || (c.toolCalls.length ? null : ''),
          ...(c.toolCalls.length ? { tool_calls: c.toolCalls } : {}),
          refusal: null,
        },
        finish_reason: finishOf(c),
      },
    ],
    ...(c.usage ? { usage: c.usage } : {}),
  };
}

/** The reply as stream chunks: the text, each call, the finish, and usage when asked for. */
export function chunksOf(c: Collected, model: string, includeUsage: boolean): ChatCompletionChunk[] {
  const h = { ...head(model), object: 'chat.completion.chunk' as const };
  const out: ChatCompletionChunk[] = [{ ...h, choices: [{ index: 0, delta: { role: 'assistant', content: c.content }, finish_reason: null }] }];
  c.toolCalls.forEach((call, index) => out.push({ ...h, choices: [{ index: 0, delta: { tool_calls: [{ index, ...call }] }, finish_reason: null }] }));
  out.push({ ...h, choices: [{ index: 0, delta: {}, finish_reason: finishOf(c) }] });
  if (includeUsage) out.push({ ...h, choices: [], usage: c.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } });
  return out;
}
