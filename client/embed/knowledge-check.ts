/**
 * `init({ knowledge })` checked in full, by the agent's own init (client/engine.ts) before any
 * of the configuration applies. The embed's loader checks only that it is an object (./init-config.ts):
 * its every byte goes to every page view, so a wrong route given before the agent has loaded is
 * said in the console when the agent arrives, as any disagreement of the two checks is.
 */
import type { Knowledge } from '../agent/public-types';
import { fail } from './init-config';

const PATTERN = "a path pattern starting with / (such as '/products/*'), or an array of them";

export function checkKnowledge(k: Knowledge | undefined): void {
  if (k === undefined) return;
  const { routes, llmsTxt, ...rest } = k as Knowledge & Record<string, unknown>;
  for (const key in rest) fail(`knowledge.${key}`, rest[key], 'left out: knowledge takes routes and llmsTxt');
  if (llmsTxt !== undefined && typeof llmsTxt !== 'boolean') fail('knowledge.llmsTxt', llmsTxt, 'true or false');
  if (routes !== undefined && !Array.isArray(routes)) fail('knowledge.routes', routes, 'an array of { match, instructions }');
  routes?.forEach((r: unknown, i) => {
    const at = `knowledge.routes[${i}]`;
    if (!r || typeof r !== 'object' || Array.isArray(r)) fail(at, r, 'an object { match, instructions }');
    const { match, instructions } = r as { match?: unknown; instructions?: unknown };
    const patterns = ([] as unknown[]).concat(match);
    if (!patterns.length || patterns.some((m) => typeof m !== 'string' || m[0] !== '/')) fail(`${at}.match`, match, PATTERN);
    if (typeof instructions !== 'string' || !instructions.trim()) fail(`${at}.instructions`, instructions, 'a non-empty string');
  });
}
