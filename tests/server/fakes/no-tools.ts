/**
 * What the fake upstreams play for models without tool calls, and for upstreams that refuse
 * parameters: the refusals real servers send (same status, same body shape, same words), and
 * a script's calls written as text the way such models write them.
 *
 * Runtime-neutral: no Node APIs.
 */
import type { FakeScript } from './script';

/** How a model without tool calls behaves: `reject` answers a request with tools as vLLM
 * without a tool parser does (400), `text` ignores the tools; both write calls as text. */
export type NoTools = 'reject' | 'text';

/** How calls are written as text. */
export type TextStyle = 'fence' | 'prose' | 'tags' | 'broken' | 'string-args';
/** The styles taken in turn when a script names none. Not `prose`: its sentences are text the
 * tool path's reply would not have (they would show as the step's goal). */
export const TEXT_STYLES: readonly TextStyle[] = ['fence', 'tags', 'broken', 'string-args'];

/** A refusal: status and the body as the real server sends it. */
export interface Refusal {
  status: number;
  body: unknown;
}

const hasTools = (provider: 'openai' | 'gemini', body: any): boolean =>
  provider === 'openai' ? Array.isArray(body?.tools) && body.tools.length > 0 : (body?.tools ?? []).some((t: any) => t?.functionDeclarations?.length);

/** vLLM (old releases: the message at the top level, no `error` object) and the Gemini API's words. */
export function refuseTools(provider: 'openai' | 'gemini', model: string, body: unknown): Refusal | undefined {
  if (!hasTools(provider, body)) return undefined;
  if (provider === 'openai') {
    return {
      status: 400,
      body: {
        object: 'error',
        message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
        type: 'BadRequestError',
        param: null,
        code: 400,
      },
    };
  }
  return { status: 400, body: { error: { code: 400, message: `Function calling is not enabled for models/${model}`, status: 'INVALID_ARGUMENT' } } };
}

const openaiError = (message: string, param: string): Refusal => ({
  status: 400,
  body: { error: { message, type: 'invalid_request_error', param, code: 'unsupported_parameter' } },
});
const geminiError = (message: string): Refusal => ({ status: 400, body: { error: { code: 400, message, status: 'INVALID_ARGUMENT' } } });

/**
 * What the real upstream refuses of this request, by model family (what quirks.ts must have
 * fixed before sending), or undefined.
 */
export function refuseParameters(provider: 'openai' | 'gemini', model: string, body: any): Refusal | undefined {
  if (provider === 'openai') {
    if (/^(o\d|gpt-5(?!.*-chat))/i.test(model)) {
      if (body.temperature !== undefined && body.temperature !== 1) {
        return openaiError(
          `Unsupported value: 'temperature' does not support ${body.temperature} with this model. Only the default (1) value is supported.`,
          'temperature',
        );
      }
      for (const p of ['top_p', 'presence_penalty', 'frequency_penalty', 'max_tokens']) {
        if (body[p] !== undefined) {
          const hint = p === 'max_tokens' ? " Use 'max_completion_tokens' instead." : '';
          return openaiError(`Unsupported parameter: '${p}' is not supported with this model.${hint}`, p);
        }
      }
    } else if (/^gpt-4/i.test(model) && body.reasoning_effort !== undefined) {
      return openaiError('Unrecognized request argument supplied: reasoning_effort', 'reasoning_effort');
    }
    return undefined;
  }
  const gen = body.generationConfig ?? {};
  if (/^gemini-(2\.5|3)/i.test(model) && (gen.presencePenalty !== undefined || gen.frequencyPenalty !== undefined)) {
    return geminiError(`Penalty is not enabled for models/${model}`);
  }
  if (/^gemini-2\.5-pro/i.test(model) && gen.thinkingConfig?.thinkingBudget === 0) {
    return geminiError('Budget 0 is invalid. This model only works in thinking mode.');
  }
  if (/^gemini-(1|2\.0)/i.test(model) && gen.thinkingConfig) return geminiError(`Thinking is not enabled for models/${model}`);
  if (/^gemini-3/i.test(model) && gen.thinkingConfig?.thinkingBudget !== undefined && gen.thinkingConfig?.thinkingLevel !== undefined) {
    return geminiError('You can only set either thinking budget or thinking level.');
  }
  return undefined;
}

/** The script's tool calls written into its text, as a model without tool calls writes them. */
export function callsAsText(s: FakeScript, style: TextStyle): FakeScript {
  if (!s.toolCalls?.length) return s;
  const objs = s.toolCalls.map((c) => ({ tool: c.name, arguments: style === 'string-args' ? JSON.stringify(c.args) : c.args }));
  const value = objs.length === 1 ? objs[0] : objs;
  let json = JSON.stringify(value, null, style === 'fence' ? 2 : undefined);
  if (style === 'broken') {
    // A trailing comma after the last argument, and one missing between the first two keys.
    json = json.replace(/\}\}/, '},}').replace('","arguments"', '" "arguments"');
  }
  const said = s.text ? `${s.text}\n` : '';
  const written =
    style === 'fence'
      ? `${said}\`\`\`json\n${json}\n\`\`\``
      : style === 'prose'
        ? `${said}I will do that now.\n${json}\nThat is my next action.`
        : style === 'tags'
          ? `${said}<tool_call>\n${json}\n</tool_call>`
          : `${said}${json}`;
  const { toolCalls: _gone, chunks: _chunks, ...rest } = s;
  return { ...rest, text: written };
}
