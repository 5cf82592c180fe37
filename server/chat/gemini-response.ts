/**
 * Gemini responses → OpenAI Chat Completions objects and stream chunks, so the page reads one
 * protocol. Pure, apart from fresh ids for tool calls.
 *
 * Text parts become `content` (thought parts are skipped), function calls become `tool_calls`
 * with their arguments as a JSON string (and Gemini's thought signature under `extra_content`),
 * `usageMetadata` becomes `usage`, and finish reasons map to OpenAI's four.
 */
import type { Candidate, GenerateContentResponse, GenerateContentResponseUsageMetadata } from '@google/genai';
import type { FinishReason, ToolCall, Usage } from './types';

export interface StreamToolCallDelta extends ToolCall {
  index: number;
}

export interface ChunkChoice {
  index: number;
  delta: { role?: 'assistant'; content?: string; tool_calls?: StreamToolCallDelta[] };
  finish_reason: FinishReason | null;
}

export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: ChunkChoice[];
  usage?: Usage;
}

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{
    index: number;
    message: { role: 'assistant'; content: string | null; tool_calls?: ToolCall[]; refusal: null };
    finish_reason: FinishReason;
  }>;
  usage?: Usage;
}

/** What a stream remembers between chunks. */
export interface StreamState {
  id: string;
  created: number;
  model: string;
  /** Per choice: role already sent, tool calls emitted so far. */
  choices: Map<number, { roleSent: boolean; toolCalls: number }>;
  usage?: Usage;
}

export const newStreamState = (model: string): StreamState => ({
  id: `chatcmpl-${crypto.randomUUID()}`,
  created: Math.floor(Date.now() / 1000),
  model,
  choices: new Map(),
});

const newCallId = (): string => `call_${crypto.randomUUID().replace(/-/g, '').slice(0, 24)}`;

/** One Gemini stream chunk → at most one OpenAI chunk (null when it carries nothing to say). */
export function chunkFromGemini(res: GenerateContentResponse, state: StreamState): ChatCompletionChunk | null {
  if (res.usageMetadata) state.usage = usageFromGemini(res.usageMetadata);
  const choices: ChunkChoice[] = [];
  const candidates = res.candidates ?? [];
  if (candidates.length === 0 && res.promptFeedback?.blockReason) {
    choices.push({ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: 'content_filter' });
  }
  for (const cand of candidates) {
    const index = cand.index ?? 0;
    const seen = state.choices.get(index) ?? { roleSent: false, toolCalls: 0 };
    state.choices.set(index, seen);
    const { text, calls } = readParts(cand);
    const delta: ChunkChoice['delta'] = {};
    if (!seen.roleSent) delta.role = 'assistant';
    if (text) delta.content = text;
    if (calls.length) delta.tool_calls = calls.map((c) => ({ index: seen.toolCalls++, ...c }));
    const finish = cand.finishReason ? finishReasonFromGemini(cand.finishReason, seen.toolCalls > 0) : null;
    if (delta.content === undefined && !delta.tool_calls && finish === null) continue;
    seen.roleSent = true;
    choices.push({ index, delta, finish_reason: finish });
  }
  if (choices.length === 0) return null;
  return { id: state.id, object: 'chat.completion.chunk', created: state.created, model: state.model, choices };
}

/** The trailing usage chunk OpenAI sends when `stream_options.include_usage` is set. */
export function usageChunk(state: StreamState): ChatCompletionChunk {
  return {
    id: state.id,
    object: 'chat.completion.chunk',
    created: state.created,
    model: state.model,
    choices: [],
    usage: state.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

/** A whole Gemini response → one chat.completion. */
export function completionFromGemini(res: GenerateContentResponse, model: string): ChatCompletion {
  const candidates = res.candidates ?? [];
  const choices: ChatCompletion['choices'] = candidates.map((cand, i) => {
    const { text, calls } = readParts(cand);
    return {
      index: cand.index ?? i,
      message: {
        role: 'assistant',
        content: text === '' && calls.length ? null : text,
        ...(calls.length ? { tool_calls: calls } : {}),
        refusal: null,
      },
      finish_reason: finishReasonFromGemini(cand.finishReason, calls.length > 0),
    };
  });
  if (choices.length === 0) {
    // Prompt blocked: Gemini returns no candidate at all.
    choices.push({
      index: 0,
      message: { role: 'assistant', content: null, refusal: null },
      finish_reason: res.promptFeedback?.blockReason ? 'content_filter' : 'stop',
    });
  }
  return {
    id: `chatcmpl-${crypto.randomUUID()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices,
    ...(res.usageMetadata ? { usage: usageFromGemini(res.usageMetadata) } : {}),
  };
}

export function usageFromGemini(meta: GenerateContentResponseUsageMetadata): Usage {
  const prompt = meta.promptTokenCount ?? 0;
  const thoughts = meta.thoughtsTokenCount ?? 0;
  // OpenAI counts reasoning inside completion tokens; Gemini reports it separately.
  const completion = (meta.candidatesTokenCount ?? 0) + thoughts;
  const usage: Usage = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: meta.totalTokenCount ?? prompt + completion,
  };
  if (thoughts) usage.completion_tokens_details = { reasoning_tokens: thoughts };
  return usage;
}

export function finishReasonFromGemini(reason: string | undefined, hadToolCalls: boolean): FinishReason {
  switch (reason) {
    case 'MAX_TOKENS':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
      return 'content_filter';
    default:
      return hadToolCalls ? 'tool_calls' : 'stop';
  }
}

function readParts(cand: Candidate): { text: string; calls: ToolCall[] } {
  let text = '';
  const calls: ToolCall[] = [];
  for (const part of cand.content?.parts ?? []) {
    if (part.thought) continue;
    if (typeof part.text === 'string') text += part.text;
    if (part.functionCall?.name) {
      const call: ToolCall = {
        id: newCallId(),
        type: 'function',
        function: { name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) },
      };
      if (part.thoughtSignature) call.extra_content = { google: { thought_signature: part.thoughtSignature } };
      calls.push(call);
    }
  }
  return { text, calls };
}
