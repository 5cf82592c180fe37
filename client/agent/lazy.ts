/**
 * The agent's code that loads on first use (the bridge to the page's own tools and their forms,
 * how a run ends: its answer against the schema and the step record, its budgets; the browser's
 * own model as a provider). The entry lends the loader
 * (client/on-demand.ts, one file in the embed's split build). Code, not configuration.
 */
import type * as bridge from '../webmcp/bridge';
import type { fillPlan, fillReport } from '../webmcp/forms';
import type { ending } from './honest';
import type { budgetEnd, cutReply, noPrice } from './budget';
import type { openBrowserModel } from '../llm/browser-model';

export interface AgentLazy {
  webmcp: typeof bridge;
  fillPlan: typeof fillPlan;
  fillReport: typeof fillReport;
  ending: typeof ending;
  budgetEnd: typeof budgetEnd;
  cutReply: typeof cutReply;
  noPrice: typeof noPrice;
  openBrowserModel: typeof openBrowserModel;
}

let loader: (() => Promise<AgentLazy>) | undefined;

/** Called once by each entry, before anything runs. */
export function lendAgentLazy(load: () => Promise<AgentLazy>): void {
  loader = load;
}

export function agentLazy(): Promise<AgentLazy> {
  return loader ? loader() : Promise.reject(new Error('pagehand: this build has no on-demand code (the entry lends it).'));
}
