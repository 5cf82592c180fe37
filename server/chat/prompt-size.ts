/**
 * A request's prompt size in tokens, estimated without a tokenizer: every character of text the
 * model reads (message text, tool calls and their arguments, tool definitions, a JSON schema
 * asked for), divided by 4 — about right for English, low for most other scripts — plus
 * IMAGE_TOKENS for each image, whatever its size: what a provider charges for one screenshot is
 * hundreds of tokens even when its bytes are few (twenty thousand tiny images are not free).
 */
import { IMAGE_TOKENS } from '../../common/image-tokens';
import type { ChatRequest, TextPart } from './types';

export { IMAGE_TOKENS };
/** Images one request may carry (a step sends at most one screenshot). */
export const MAX_IMAGES = 8;

/** How many images the request carries, in every message. */
export function imageCount(req: ChatRequest): number {
  let n = 0;
  for (const m of req.messages) if (Array.isArray(m.content)) for (const p of m.content as ReadonlyArray<{ type: string }>) if (p.type === 'image_url') n++;
  return n;
}

/**
 * @example
 * estimatePromptTokens({ messages: [{ role: 'user', content: 'x'.repeat(400) }] }); // 100
 */
export function estimatePromptTokens(req: ChatRequest): number {
  let chars = 0;
  const text = (content: string | ReadonlyArray<TextPart | { type: string }> | null | undefined): void => {
    if (typeof content === 'string') chars += content.length;
    else for (const p of content ?? []) if (p.type === 'text') chars += (p as TextPart).text.length;
  };
  for (const m of req.messages) {
    text(m.content);
    if ('name' in m && m.name) chars += m.name.length;
    if (m.role === 'assistant') for (const call of m.tool_calls ?? []) chars += call.function.name.length + call.function.arguments.length;
  }
  if (req.tools) chars += JSON.stringify(req.tools).length;
  if (req.response_format?.type === 'json_schema') chars += JSON.stringify(req.response_format.json_schema).length;
  return Math.ceil(chars / 4) + imageCount(req) * IMAGE_TOKENS;
}
