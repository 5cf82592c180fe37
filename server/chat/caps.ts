/** Site rules applied to a validated request: which model, which provider, how many tokens. */
import type { ProviderName } from './upstream-errors';
import type { ChatRequest, ResolvedChatRequest } from './types';

/** Gemini model names go to Gemini; every other name to the OpenAI-compatible upstream. */
export function providerFor(model: string): ProviderName {
  return /^gemini-/i.test(model) ? 'gemini' : 'openai';
}

/**
 * Clamps the requested output length to the site's cap, and sets the cap when the page asked
 * for none, so no request can generate more than the operator allows. Which name the upstream
 * reads is the quirks table's business (quirks.ts).
 *
 * @example
 * capTokens({ model: 'gpt-4.1-mini', messages, max_tokens: 99999 }, 4096).max_tokens; // 4096
 */
export function capTokens(req: ChatRequest & { model: string }, cap: number): ResolvedChatRequest {
  const out: ResolvedChatRequest = { ...req };
  if (out.max_completion_tokens !== undefined) out.max_completion_tokens = Math.min(out.max_completion_tokens, cap);
  if (out.max_tokens !== undefined) out.max_tokens = Math.min(out.max_tokens, cap);
  if (out.max_tokens === undefined && out.max_completion_tokens === undefined) out.max_tokens = cap;
  return out;
}
