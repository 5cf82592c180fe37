/**
 * OpenAI Chat Completions request → Gemini `generateContent` parameters. Pure.
 *
 * - system/developer messages become `systemInstruction` (Gemini has no system turns);
 * - assistant tool calls become `functionCall` parts, tool results `functionResponse` parts whose
 *   name is looked up from the call they answer; adjacent turns of one role are merged, as
 *   Gemini expects all results of one model turn in a single user turn;
 * - images must be data: URLs (the proxy does not fetch pages' URLs for Gemini);
 * - tools become `functionDeclarations` with the JSON Schema passed as `parametersJsonSchema`;
 * - `reasoning_effort` becomes the family's thinking setting (quirks.ts).
 */
import { FunctionCallingConfigMode, type Content, type GenerateContentConfig, type GenerateContentParameters, type Part } from '@google/genai';
import { ProxyError } from '../errors';
import { geminiQuirks } from './quirks';
import type { ContentPart, ResolvedChatRequest, TextPart, ToolChoice } from './types';

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

/**
 * @example
 * const params = toGeminiRequest({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] });
 * await ai.models.generateContent(params);
 */
export function toGeminiRequest(req: ResolvedChatRequest): GenerateContentParameters {
  const system: Part[] = [];
  const contents: Content[] = [];
  const callNames = new Map<string, string>();

  const push = (role: 'user' | 'model', parts: Part[]) => {
    const last = contents[contents.length - 1];
    if (last && last.role === role) last.parts!.push(...parts);
    else contents.push({ role, parts });
  };

  req.messages.forEach((m, i) => {
    switch (m.role) {
      case 'system':
      case 'developer':
        system.push(...textParts(m.content));
        break;
      case 'user':
        push('user', userParts(m.content, i));
        break;
      case 'assistant': {
        const parts: Part[] = m.content ? textParts(m.content).filter((p) => p.text !== '') : [];
        for (const call of m.tool_calls ?? []) {
          callNames.set(call.id, call.function.name);
          const part: Part = { functionCall: { name: call.function.name, args: parseArgs(call.function.arguments) } };
          const sig = call.extra_content?.google?.thought_signature;
          if (sig) part.thoughtSignature = sig;
          parts.push(part);
        }
        push('model', parts.length ? parts : [{ text: '' }]);
        break;
      }
      case 'tool': {
        const name = callNames.get(m.tool_call_id);
        if (!name) {
          throw new ProxyError(400, 'invalid_message', `messages[${i}].tool_call_id "${m.tool_call_id.slice(0, 64)}" answers no earlier assistant tool call.`);
        }
        const text = textParts(m.content)
          .map((p) => p.text)
          .join('');
        push('user', [{ functionResponse: { name, response: { result: text } } }]);
        break;
      }
    }
  });

  // Thinking and safety as the model's family takes them (quirks.ts).
  const config: GenerateContentConfig = geminiQuirks(req.model, req.reasoning_effort);
  if (system.length) config.systemInstruction = { parts: system };
  if (req.tools?.length) {
    config.tools = [
      {
        functionDeclarations: req.tools.map((t) => ({
          name: t.function.name,
          ...(t.function.description ? { description: t.function.description } : {}),
          ...(t.function.parameters ? { parametersJsonSchema: t.function.parameters } : {}),
        })),
      },
    ];
  }
  if (req.tool_choice) config.toolConfig = { functionCallingConfig: callingConfig(req.tool_choice) };
  const maxTokens = req.max_completion_tokens ?? req.max_tokens;
  if (maxTokens !== undefined) config.maxOutputTokens = maxTokens;
  if (req.temperature !== undefined) config.temperature = req.temperature;
  if (req.top_p !== undefined) config.topP = req.top_p;
  if (req.stop !== undefined) config.stopSequences = typeof req.stop === 'string' ? [req.stop] : req.stop;
  if (req.presence_penalty !== undefined) config.presencePenalty = req.presence_penalty;
  if (req.frequency_penalty !== undefined) config.frequencyPenalty = req.frequency_penalty;
  if (req.seed !== undefined) config.seed = req.seed;
  if (req.n !== undefined && req.n > 1) config.candidateCount = req.n;
  if (req.response_format?.type === 'json_object') config.responseMimeType = 'application/json';
  if (req.response_format?.type === 'json_schema') {
    config.responseMimeType = 'application/json';
    if (req.response_format.json_schema.schema) config.responseJsonSchema = req.response_format.json_schema.schema;
  }
  return { model: req.model, contents, config };
}

function textParts(content: string | TextPart[]): Array<Part & { text: string }> {
  return typeof content === 'string' ? [{ text: content }] : content.map((p) => ({ text: p.text }));
}

function userParts(content: string | ContentPart[], i: number): Part[] {
  if (typeof content === 'string') return [{ text: content }];
  return content.map((p, j): Part => {
    if (p.type === 'text') return { text: p.text };
    const m = DATA_URL.exec(p.image_url.url);
    if (!m) {
      throw new ProxyError(400, 'unsupported_image_url', `messages[${i}].content[${j}]: Gemini models take images as base64 data: URLs, not links.`);
    }
    return { inlineData: { mimeType: m[1] === 'image/jpg' ? 'image/jpeg' : m[1], data: m[2]!.replace(/\s+/g, '') } };
  });
}

/** Tool arguments are a JSON string in OpenAI and an object in Gemini. A model that once wrote
 * broken JSON must not make the whole history unusable, so such text is kept under `arguments`. */
function parseArgs(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text || '{}');
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // fall through
  }
  return { arguments: text };
}

function callingConfig(choice: ToolChoice): { mode: FunctionCallingConfigMode; allowedFunctionNames?: string[] } {
  if (choice === 'none') return { mode: FunctionCallingConfigMode.NONE };
  if (choice === 'auto') return { mode: FunctionCallingConfigMode.AUTO };
  if (choice === 'required') return { mode: FunctionCallingConfigMode.ANY };
  return { mode: FunctionCallingConfigMode.ANY, allowedFunctionNames: [choice.function.name] };
}
