/**
 * Validates a Chat Completions body into a clean ChatRequest. Pure: no I/O, throws ProxyError
 * (400, a specific code, a message naming the JSON path) at the first problem.
 *
 * Unknown top-level parameters are refused (a typo such as `max_token` must not silently lose
 * its meaning); unknown fields inside a message are dropped (servers add their own, e.g.
 * `reasoning_content`, and a page that echoes an assistant turn back must not fail).
 */
import { ProxyError, type ErrorCode } from '../errors';
import type { ChatMessage, ChatRequest, ContentPart, ReasoningEffort, ResponseFormat, TextPart, ToolCall, ToolChoice, ToolDef } from './types';

export interface ValidateOptions {
  /** Largest `n` accepted (the proxy uses 1). */
  maxN: number;
}

const MAX_MESSAGES = 2000;
const MAX_TOOLS = 128;
const MODEL_NAME = /^[\w.\-:/@+]{1,200}$/;
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const IMAGE_DATA_URL = /^data:image\/(png|jpeg|jpg|webp|gif|heic|heif);base64,[A-Za-z0-9+/=\s]+$/;
const REASONING_EFFORTS: readonly ReasoningEffort[] = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'];

const KNOWN_PARAMS = new Set([
  'model',
  'messages',
  'stream',
  'stream_options',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'max_tokens',
  'max_completion_tokens',
  'n',
  'temperature',
  'top_p',
  'stop',
  'presence_penalty',
  'frequency_penalty',
  'seed',
  'response_format',
  'user',
  'reasoning_effort',
]);

type Obj = Record<string, unknown>;

const fail = (code: ErrorCode, message: string): never => {
  throw new ProxyError(400, code, message);
};
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/**
 * @example
 * const req = validateChatRequest(JSON.parse(text), { maxN: 4 });
 * req.messages[0].role; // typed
 */
export function validateChatRequest(body: unknown, options: ValidateOptions): ChatRequest {
  if (!isObj(body)) fail('invalid_body', `The body must be a JSON object, got ${kind(body)}.`);
  const b = body as Obj;
  for (const key of Object.keys(b)) {
    if (!KNOWN_PARAMS.has(key)) fail('unknown_parameter', `Unknown parameter "${key.slice(0, 60)}".`);
  }

  const out: ChatRequest = { messages: messages(b.messages) };

  if (b.model !== undefined && b.model !== null) {
    if (typeof b.model !== 'string' || !MODEL_NAME.test(b.model)) {
      fail('invalid_model', 'model must be a model name (letters, digits and . - _ : / @ +, at most 200).');
    }
    out.model = b.model as string;
  }
  if (b.stream !== undefined) out.stream = bool('stream', b.stream);
  if (b.stream_options !== undefined && b.stream_options !== null) {
    if (!isObj(b.stream_options)) fail('invalid_parameter', 'stream_options must be an object.');
    const so = b.stream_options as Obj;
    out.stream_options = {};
    if (so.include_usage !== undefined) out.stream_options.include_usage = bool('stream_options.include_usage', so.include_usage);
  }
  if (b.tools !== undefined && b.tools !== null) out.tools = tools(b.tools);
  if (b.tool_choice !== undefined && b.tool_choice !== null) out.tool_choice = toolChoice(b.tool_choice, out.tools);
  if (b.parallel_tool_calls !== undefined) out.parallel_tool_calls = bool('parallel_tool_calls', b.parallel_tool_calls);

  for (const key of ['max_tokens', 'max_completion_tokens'] as const) {
    if (b[key] !== undefined && b[key] !== null) out[key] = int(key, b[key], 1, 10_000_000);
  }
  if (b.n !== undefined && b.n !== null) {
    out.n = int('n', b.n, 1, Number.MAX_SAFE_INTEGER);
    // Refused rather than clamped: a caller asking for several choices would silently get one.
    if (out.n > options.maxN) {
      fail('n_too_large', `n may be at most ${options.maxN} on this proxy (one answer per request; each choice would cost a full generation).`);
    }
  }
  if (b.temperature !== undefined && b.temperature !== null) out.temperature = num('temperature', b.temperature, 0, 2);
  if (b.top_p !== undefined && b.top_p !== null) out.top_p = num('top_p', b.top_p, 0, 1);
  if (b.presence_penalty !== undefined && b.presence_penalty !== null) out.presence_penalty = num('presence_penalty', b.presence_penalty, -2, 2);
  if (b.frequency_penalty !== undefined && b.frequency_penalty !== null) out.frequency_penalty = num('frequency_penalty', b.frequency_penalty, -2, 2);
  if (b.seed !== undefined && b.seed !== null) out.seed = int('seed', b.seed, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  if (b.stop !== undefined && b.stop !== null) out.stop = stop(b.stop);
  if (b.response_format !== undefined && b.response_format !== null) out.response_format = responseFormat(b.response_format);
  if (b.user !== undefined) {
    if (typeof b.user !== 'string' || b.user.length > 256) fail('invalid_parameter', 'user must be a string of at most 256 characters.');
    out.user = b.user as string;
  }
  if (b.reasoning_effort !== undefined && b.reasoning_effort !== null) {
    if (!REASONING_EFFORTS.includes(b.reasoning_effort as ReasoningEffort)) {
      fail('invalid_parameter', `reasoning_effort must be one of ${REASONING_EFFORTS.join(', ')}.`);
    }
    out.reasoning_effort = b.reasoning_effort as ReasoningEffort;
  }
  return out;
}

function bool(path: string, v: unknown): boolean {
  if (typeof v !== 'boolean') fail('invalid_parameter', `${path} must be true or false, got ${kind(v)}.`);
  return v as boolean;
}

function num(path: string, v: unknown, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) fail('invalid_parameter', `${path} must be a number, got ${kind(v)}.`);
  if ((v as number) < min || (v as number) > max) fail('invalid_parameter', `${path} must be between ${min} and ${max}.`);
  return v as number;
}

function int(path: string, v: unknown, min: number, max: number): number {
  const n = num(path, v, min, max);
  if (!Number.isInteger(n)) fail('invalid_parameter', `${path} must be a whole number.`);
  return n;
}

function stop(v: unknown): string | string[] {
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && v.length <= 4 && v.every((s) => typeof s === 'string')) return v as string[];
  return fail('invalid_parameter', 'stop must be a string or a list of at most 4 strings.');
}

function responseFormat(v: unknown): ResponseFormat {
  if (!isObj(v)) return fail('invalid_parameter', 'response_format must be an object.');
  if (v.type === 'text' || v.type === 'json_object') return { type: v.type };
  if (v.type === 'json_schema') {
    const js = v.json_schema;
    if (!isObj(js) || typeof js.name !== 'string' || (js.schema !== undefined && !isObj(js.schema))) {
      fail('invalid_parameter', 'response_format.json_schema must be { name, schema? } with schema an object.');
    }
    const j = js as Obj;
    return {
      type: 'json_schema',
      json_schema: {
        name: j.name as string,
        ...(typeof j.description === 'string' ? { description: j.description } : {}),
        ...(isObj(j.schema) ? { schema: j.schema } : {}),
        ...(typeof j.strict === 'boolean' ? { strict: j.strict } : {}),
      },
    };
  }
  return fail('invalid_parameter', 'response_format.type must be "text", "json_object" or "json_schema".');
}

function messages(v: unknown): ChatMessage[] {
  if (v === undefined) return fail('invalid_messages', 'messages is required: a non-empty list.');
  if (!Array.isArray(v)) return fail('invalid_messages', `messages must be a list, got ${kind(v)}.`);
  if (v.length === 0) return fail('invalid_messages', 'messages must not be empty.');
  if (v.length > MAX_MESSAGES) return fail('invalid_messages', `messages may hold at most ${MAX_MESSAGES} entries.`);
  return v.map((m, i) => message(m, `messages[${i}]`));
}

function message(v: unknown, path: string): ChatMessage {
  if (!isObj(v)) return fail('invalid_message', `${path} must be an object, got ${kind(v)}.`);
  const name = v.name === undefined ? {} : { name: str(`${path}.name`, v.name, 'invalid_message') };
  switch (v.role) {
    case 'system':
    case 'developer':
      return { role: v.role, content: textContent(v.content, `${path}.content`), ...name };
    case 'user':
      return { role: 'user', content: userContent(v.content, `${path}.content`), ...name };
    case 'assistant': {
      const content = v.content === undefined || v.content === null ? null : textContent(v.content, `${path}.content`);
      const calls = v.tool_calls === undefined || v.tool_calls === null ? undefined : toolCalls(v.tool_calls, `${path}.tool_calls`);
      if ((content === null || content === '') && !calls?.length) {
        // Empty assistant turns are legal in OpenAI; keep them as empty text so order is preserved.
        return { role: 'assistant', content: '', ...name };
      }
      return { role: 'assistant', content, ...(calls ? { tool_calls: calls } : {}), ...name };
    }
    case 'tool':
      if (typeof v.tool_call_id !== 'string' || v.tool_call_id === '') {
        return fail('invalid_message', `${path}.tool_call_id must name the tool call this result answers.`);
      }
      return { role: 'tool', content: textContent(v.content, `${path}.content`), tool_call_id: v.tool_call_id };
    default:
      return fail(
        'invalid_message',
        `${path}.role must be system, developer, user, assistant or tool, got ${JSON.stringify(v.role)?.slice(0, 40) ?? 'nothing'}.`,
      );
  }
}

function str(path: string, v: unknown, code: ErrorCode): string {
  if (typeof v !== 'string') fail(code, `${path} must be a string, got ${kind(v)}.`);
  return v as string;
}

function textContent(v: unknown, path: string): string | TextPart[] {
  if (typeof v === 'string') return v;
  if (!Array.isArray(v)) return fail('invalid_message', `${path} must be a string or a list of text parts, got ${kind(v)}.`);
  return v.map((p, i) => {
    if (!isObj(p) || p.type !== 'text' || typeof p.text !== 'string') {
      return fail('invalid_content_part', `${path}[${i}] must be { type: "text", text: string } here.`);
    }
    return { type: 'text', text: p.text };
  });
}

function userContent(v: unknown, path: string): string | ContentPart[] {
  if (typeof v === 'string') return v;
  if (!Array.isArray(v)) return fail('invalid_message', `${path} must be a string or a list of parts, got ${kind(v)}.`);
  if (v.length === 0) return fail('invalid_message', `${path} must not be an empty list.`);
  return v.map((p, i): ContentPart => {
    const at = `${path}[${i}]`;
    if (!isObj(p)) return fail('invalid_content_part', `${at} must be an object.`);
    if (p.type === 'text') {
      if (typeof p.text !== 'string') fail('invalid_content_part', `${at}.text must be a string.`);
      return { type: 'text', text: p.text as string };
    }
    if (p.type === 'image_url') {
      const img = p.image_url;
      if (!isObj(img) || typeof img.url !== 'string') fail('invalid_content_part', `${at}.image_url must be { url: string }.`);
      const { url, detail } = img as Obj;
      if (!IMAGE_DATA_URL.test(url as string)) {
        // A link would be fetched by the upstream (or the SDK) from wherever it points, internal
        // addresses included; the page sends its screenshots inline anyway.
        fail(
          /^https?:/i.test(url as string) ? 'unsupported_image_url' : 'invalid_content_part',
          `${at}.image_url.url must be a base64 data:image/… URL (png, jpeg, webp, gif, heic); this proxy does not pass on image links.`,
        );
      }
      if (detail !== undefined && detail !== 'auto' && detail !== 'low' && detail !== 'high') {
        fail('invalid_content_part', `${at}.image_url.detail must be auto, low or high.`);
      }
      return { type: 'image_url', image_url: { url: url as string, ...(detail ? { detail: detail as 'auto' } : {}) } };
    }
    return fail('invalid_content_part', `${at}.type must be "text" or "image_url", got ${JSON.stringify(p.type)?.slice(0, 40) ?? 'nothing'}.`);
  });
}

function toolCalls(v: unknown, path: string): ToolCall[] {
  if (!Array.isArray(v)) return fail('invalid_message', `${path} must be a list.`);
  return v.map((c, i): ToolCall => {
    const at = `${path}[${i}]`;
    if (!isObj(c) || typeof c.id !== 'string' || (c.type !== undefined && c.type !== 'function') || !isObj(c.function)) {
      return fail('invalid_message', `${at} must be { id, type: "function", function: { name, arguments } }.`);
    }
    const fn = c.function as Obj;
    if (typeof fn.name !== 'string' || !TOOL_NAME.test(fn.name) || typeof fn.arguments !== 'string') {
      return fail('invalid_message', `${at}.function must have a valid name and arguments as a JSON string.`);
    }
    const call: ToolCall = { id: c.id, type: 'function', function: { name: fn.name, arguments: fn.arguments } };
    const sig = isObj(c.extra_content) && isObj(c.extra_content.google) ? c.extra_content.google.thought_signature : undefined;
    if (typeof sig === 'string') call.extra_content = { google: { thought_signature: sig } };
    return call;
  });
}

function tools(v: unknown): ToolDef[] {
  if (!Array.isArray(v)) return fail('invalid_tools', `tools must be a list, got ${kind(v)}.`);
  if (v.length > MAX_TOOLS) return fail('invalid_tools', `tools may hold at most ${MAX_TOOLS} entries.`);
  const seen = new Set<string>();
  return v.map((t, i): ToolDef => {
    const at = `tools[${i}]`;
    if (!isObj(t) || t.type !== 'function' || !isObj(t.function)) {
      return fail('invalid_tools', `${at} must be { type: "function", function: { name, description?, parameters? } }.`);
    }
    const fn = t.function as Obj;
    if (typeof fn.name !== 'string' || !TOOL_NAME.test(fn.name)) {
      return fail('invalid_tools', `${at}.function.name must be 1-64 letters, digits, _ or -.`);
    }
    if (seen.has(fn.name)) return fail('invalid_tools', `${at}.function.name "${fn.name}" is declared twice.`);
    seen.add(fn.name);
    if (fn.description !== undefined && typeof fn.description !== 'string') {
      return fail('invalid_tools', `${at}.function.description must be a string.`);
    }
    if (fn.parameters !== undefined && (!isObj(fn.parameters) || (fn.parameters.type !== undefined && fn.parameters.type !== 'object'))) {
      return fail('invalid_tools', `${at}.function.parameters must be a JSON Schema object with type "object".`);
    }
    if (fn.strict !== undefined && typeof fn.strict !== 'boolean') return fail('invalid_tools', `${at}.function.strict must be a boolean.`);
    return {
      type: 'function',
      function: {
        name: fn.name,
        ...(fn.description !== undefined ? { description: fn.description as string } : {}),
        ...(fn.parameters !== undefined ? { parameters: fn.parameters as Obj } : {}),
        ...(fn.strict !== undefined ? { strict: fn.strict as boolean } : {}),
      },
    };
  });
}

function toolChoice(v: unknown, declared: ToolDef[] | undefined): ToolChoice {
  if (v === 'none') return v;
  if (!declared?.length) return fail('invalid_tool_choice', 'tool_choice needs a non-empty tools list.');
  if (v === 'auto' || v === 'required') return v;
  if (isObj(v) && v.type === 'function' && isObj(v.function) && typeof v.function.name === 'string') {
    const name = v.function.name;
    if (!declared.some((t) => t.function.name === name)) {
      return fail('invalid_tool_choice', `tool_choice names "${name.slice(0, 64)}", which is not in tools.`);
    }
    return { type: 'function', function: { name } };
  }
  return fail('invalid_tool_choice', 'tool_choice must be "none", "auto", "required" or { type: "function", function: { name } }.');
}
