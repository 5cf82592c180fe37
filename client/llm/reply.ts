/**
 * Builds a ChatReply from OpenAI Chat Completions data: stream chunks one at a time, or a whole
 * `chat.completion` object (servers that answer JSON even when asked to stream). Pure; only
 * choice 0 is read (the client never asks for n > 1).
 */
import type { ChatMessage, ChatReply, ToolCall, ToolCallExtra, Usage } from './wire';

/** The reply so far, while chunks stream in. */
export interface ReplyState {
  content: string;
  /** By the stream's tool-call `index`. */
  calls: Map<number, ToolCall>;
  finishReason: string | null;
  usage: Usage | null;
}

export const newReplyState = (): ReplyState => ({ content: '', calls: new Map(), finishReason: null, usage: null });

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Applies one `chat.completion.chunk` and returns the new content text it carried ('' if none). */
export function applyChunk(state: ReplyState, chunk: unknown): string {
  if (!isObj(chunk)) return '';
  const usage = usageOf(chunk.usage);
  if (usage) state.usage = usage;
  const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
  const choice = choices.find((c) => isObj(c) && (c.index ?? 0) === 0);
  if (!isObj(choice)) return '';
  if (typeof choice.finish_reason === 'string') state.finishReason = choice.finish_reason;
  const delta = isObj(choice.delta) ? choice.delta : {};
  const piece = str(delta.content);
  state.content += piece;
  if (Array.isArray(delta.tool_calls)) for (const d of delta.tool_calls) if (isObj(d)) applyToolCallDelta(state, d);
  return piece;
}

/**
 * id and name arrive in a call's first delta, the arguments in pieces after it, all under one
 * `index`. Some OpenAI-compatible servers omit `index`: then a new id starts a new call and a
 * delta without one continues the last.
 */
function applyToolCallDelta(state: ReplyState, d: Obj): void {
  const id = str(d.id);
  let index: number;
  if (typeof d.index === 'number') index = d.index;
  else {
    const last = state.calls.size ? Math.max(...state.calls.keys()) : -1;
    const known = id !== '' && [...state.calls.values()].some((c) => c.id === id);
    index = last < 0 || (id !== '' && !known) ? last + 1 : last;
  }
  let call = state.calls.get(index);
  if (!call) state.calls.set(index, (call = { id: '', name: '', arguments: '' }));
  const fn = isObj(d.function) ? d.function : {};
  if (!call.id && id) call.id = id;
  if (!call.name && str(fn.name)) call.name = str(fn.name);
  call.arguments += str(fn.arguments);
  if (isObj(d.extra_content)) call.extra_content = d.extra_content as ToolCallExtra;
}

/** The finished reply. Calls come in index order; a call the server sent without an id gets one,
 * because the next request must answer it by id. */
export function replyOf(state: ReplyState): ChatReply {
  const toolCalls = [...state.calls.entries()].sort(([a], [b]) => a - b).map(([, c], i) => ({ ...c, id: c.id || `call_${i}` }));
  return { content: state.content, toolCalls, finishReason: state.finishReason, usage: state.usage };
}

/** A whole `chat.completion` object → ChatReply (null when it is not one). */
export function replyFromCompletion(body: unknown): ChatReply | null {
  if (!isObj(body) || !Array.isArray(body.choices)) return null;
  const choice = body.choices.find((c) => isObj(c) && (c.index ?? 0) === 0);
  if (!isObj(choice) || !isObj(choice.message)) return null;
  const state = newReplyState();
  const m = choice.message;
  state.content = str(m.content);
  if (Array.isArray(m.tool_calls)) m.tool_calls.forEach((c, i) => isObj(c) && applyToolCallDelta(state, { ...c, index: i }));
  state.finishReason = typeof choice.finish_reason === 'string' ? choice.finish_reason : null;
  state.usage = usageOf(body.usage);
  return replyOf(state);
}

export function usageOf(u: unknown): Usage | null {
  if (!isObj(u) || typeof u.prompt_tokens !== 'number' || typeof u.completion_tokens !== 'number') return null;
  return { promptTokens: u.prompt_tokens, completionTokens: u.completion_tokens };
}

/**
 * The assistant message to send back in the next request's history. Tool calls keep their
 * `extra_content` (Gemini's thought signature must round-trip, or Gemini rejects the turn).
 */
export function assistantMessage(reply: ChatReply): ChatMessage {
  return {
    role: 'assistant',
    content: reply.content || null,
    ...(reply.toolCalls.length
      ? {
          tool_calls: reply.toolCalls.map((c) => ({
            id: c.id,
            type: 'function' as const,
            function: { name: c.name, arguments: c.arguments },
            ...(c.extra_content ? { extra_content: c.extra_content } : {}),
          })),
        }
      : {}),
  };
}
