/**
 * A model request as a scripted policy reads it: one shape for both wire formats. OpenAI Chat
 * Completions `messages` and Gemini `systemInstruction` + `contents` both become a list of
 * `{ role, text }` turns (Gemini `model` → `assistant`; `functionResponse` parts → `tool` turns;
 * `functionCall` parts → the assistant turn's `toolCalls`).
 *
 * Runtime-neutral: no Node APIs.
 */
import type { FakeScript } from './script';

export interface ModelMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  /** The text parts joined; for a tool turn, the result text the model was given. */
  text: string;
  /** Assistant turns: the tool calls the model made earlier in the conversation. */
  toolCalls?: Array<{ name: string; args: Record<string, unknown> }>;
  /** User turns: how many image parts came with the text. */
  images?: number;
}

export interface ModelRequest {
  /** Order of arrival at the fake, from 1. */
  seq: number;
  provider: 'openai' | 'gemini';
  model: string;
  stream: boolean;
  messages: ModelMessage[];
  /** Names of the tools offered. */
  tools: string[];
  /** The raw JSON body the fake received. */
  body: unknown;
  path: string;
  /** What the policy answered (after defaults), or why it failed. */
  reply?: FakeScript;
  policyError?: string;
}

/** Answers a request with a script, or undefined for the fake's default reply ("ok"). */
export type RespondPolicy = (req: ModelRequest) => FakeScript | undefined | Promise<FakeScript | undefined>;

type OpenAIBody = {
  model?: string;
  stream?: boolean;
  messages?: Array<{ role?: string; content?: unknown; tool_calls?: Array<{ function?: { name?: string; arguments?: string } }> }>;
  tools?: Array<{ function?: { name?: string } }>;
};
type GeminiPart = {
  text?: string;
  thought?: boolean;
  functionCall?: { name?: string; args?: Record<string, unknown> };
  functionResponse?: { name?: string; response?: unknown };
  inlineData?: unknown;
};
type GeminiBody = {
  contents?: Array<{ role?: string; parts?: GeminiPart[] }>;
  systemInstruction?: { parts?: GeminiPart[] } | string;
  tools?: Array<{ functionDeclarations?: Array<{ name?: string }> }>;
};

export function normaliseRequest(provider: 'openai' | 'gemini', path: string, body: unknown, seq: number): ModelRequest {
  return provider === 'openai' ? fromOpenAI(path, (body ?? {}) as OpenAIBody, seq) : fromGemini(path, (body ?? {}) as GeminiBody, seq);
}

function fromOpenAI(path: string, b: OpenAIBody, seq: number): ModelRequest {
  const messages: ModelMessage[] = [];
  for (const m of b.messages ?? []) {
    const role = m.role === 'developer' ? 'system' : m.role;
    if (role !== 'system' && role !== 'user' && role !== 'assistant' && role !== 'tool') continue;
    const msg: ModelMessage = { role, text: contentText(m.content) };
    const images = Array.isArray(m.content) ? m.content.filter((p: { type?: string }) => p?.type === 'image_url').length : 0;
    if (images) msg.images = images;
    if (m.tool_calls?.length) msg.toolCalls = m.tool_calls.map((c) => ({ name: c.function?.name ?? '', args: parseArgs(c.function?.arguments) }));
    messages.push(msg);
  }
  return {
    seq,
    provider: 'openai',
    model: b.model ?? '',
    stream: b.stream === true,
    messages,
    tools: (b.tools ?? []).map((t) => t.function?.name ?? ''),
    body: b,
    path,
  };
}

function fromGemini(path: string, b: GeminiBody, seq: number): ModelRequest {
  const messages: ModelMessage[] = [];
  const sys = typeof b.systemInstruction === 'string' ? b.systemInstruction : (b.systemInstruction?.parts ?? []).map((p) => p.text ?? '').join('');
  if (sys) messages.push({ role: 'system', text: sys });
  for (const c of b.contents ?? []) {
    const parts = c.parts ?? [];
    if (c.role === 'model') {
      const calls = parts.filter((p) => p.functionCall).map((p) => ({ name: p.functionCall!.name ?? '', args: p.functionCall!.args ?? {} }));
      const msg: ModelMessage = {
        role: 'assistant',
        text: parts
          .filter((p) => !p.thought)
          .map((p) => p.text ?? '')
          .join(''),
      };
      if (calls.length) msg.toolCalls = calls;
      messages.push(msg);
      continue;
    }
    // A user turn may hold the tool results of the last model turn followed by user text (the
    // proxy merges adjacent turns): keep their order, one turn per result, text runs grouped.
    let run: ModelMessage | undefined;
    for (const p of parts) {
      if (p.functionResponse) {
        run = undefined;
        const r = p.functionResponse.response as { result?: unknown } | undefined;
        const text = typeof r?.result === 'string' ? r.result : JSON.stringify(r ?? {});
        messages.push({ role: 'tool', text });
      } else {
        if (!run) messages.push((run = { role: 'user', text: '' }));
        if (typeof p.text === 'string') run.text += p.text;
        if (p.inlineData) run.images = (run.images ?? 0) + 1;
      }
    }
  }
  const m = /\/models\/([^/:]+):(\w+)/.exec(path);
  return {
    seq,
    provider: 'gemini',
    model: m?.[1] ?? '',
    stream: m?.[2] === 'streamGenerateContent',
    messages,
    tools: (b.tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((d) => d.name ?? '')),
    body: b,
    path,
  };
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p: { type?: string; text?: string }) => (p?.type === 'text' || typeof p?.text === 'string' ? (p.text ?? '') : '')).join('');
}

function parseArgs(text: string | undefined): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text || '{}');
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // fall through
  }
  return { arguments: text ?? '' };
}
