/**
 * A run's budgets and the proxy's caps, in words: the end of a run whose `maxTokens` or
 * `maxCost` is spent (checked before each model call), and what a reply cut at the proxy's
 * `maxTokens` means. Loaded on first use (client/on-demand.ts): only runs with a budget, or a
 * reply that was cut, need it. Pure.
 */
import type { Usage } from '../llm/wire';
import type { StoredOptions } from './persist';
import type { RunResult } from './public-types';

/** Dollars as the runner prints them: cents' fractions below a dollar. */
const usd = (n: number): string => `$${n < 1 ? n.toFixed(4) : n.toFixed(2)}`;

/** The run's end when its budget is spent, or undefined while some is left. */
export function budgetEnd(o: Pick<StoredOptions, 'maxTokens' | 'maxCost'>, u: Usage): Omit<RunResult, 'steps' | 'usage'> | undefined {
  const tokens = u.promptTokens + u.completionTokens;
  if (o.maxTokens && tokens >= o.maxTokens)
    return { ok: false, summary: `Stopped at the run's token budget: ${tokens} of ${o.maxTokens} tokens used before the task was done.`, reason: 'max_tokens' };
  if (o.maxCost && (u.cost ?? 0) >= o.maxCost)
    return {
      ok: false,
      summary: `Stopped at the run's cost budget: ${usd(u.cost ?? 0)} of ${usd(o.maxCost)} spent before the task was done.`,
      reason: 'max_cost',
    };
  return undefined;
}

/** Why a run with `maxCost` cannot start: nothing says what a token costs. */
export const noPrice = (model: string): string =>
  `maxCost needs the price of ${model}, and the proxy gives none (PAGEHAND_PRICES on the proxy): set a price, or use maxTokens.`;

/**
 * A reply that ended for its length: for the user (the proxy token's `maxTokens` is the usual
 * cap, `cap` when the proxy said it) and for the model's next prompt.
 */
export function cutReply(cap: number | undefined): { message: string; note: string } {
  const why = `The model's reply was cut off at ${cap ? `${cap} tokens, the most this proxy token lets a reply have (its maxTokens)` : 'its output limit'}.`;
  return { message: `${why} If this repeats, raise maxTokens for the token on the proxy.`, note: `${why} Keep replies short: one action per reply.` };
}
