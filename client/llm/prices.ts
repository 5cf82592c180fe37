/**
 * What a model call cost, from the proxy's price table (`prices` of `GET /v1/config`: US dollars
 * per million tokens). The proxy knows the prices; the page adds them up, so a run's cost is in
 * its result and in the panel without the proxy rewriting the model's stream. Pure.
 */
import type { ProxyInfo, Usage } from './wire';

export type Price = { input: number; output: number };

/** The model's price: its own entry, else the longest prefix entry ending in `*` that matches it. */
export function priceOf(prices: ProxyInfo['prices'], model: string): Price | undefined {
  if (!prices || typeof prices !== 'object') return undefined;
  let best: string | undefined;
  for (const key of Object.keys(prices)) {
    if (key === model) return valid(prices[key]);
    if (key.endsWith('*') && model.startsWith(key.slice(0, -1)) && (!best || key.length > best.length)) best = key;
  }
  return best ? valid(prices[best]) : undefined;
}

const valid = (p: unknown): Price | undefined => {
  const o = p as Price | undefined;
  return o && Number.isFinite(o.input) && Number.isFinite(o.output) && o.input >= 0 && o.output >= 0 ? { input: o.input, output: o.output } : undefined;
};

/** The cost in dollars of `usage` at `price`. */
export const costOf = (usage: Pick<Usage, 'promptTokens' | 'completionTokens'>, price: Price): number =>
  (usage.promptTokens * price.input + usage.completionTokens * price.output) / 1_000_000;
