/**
 * `pagehand.init(config)` before the agent has loaded: the same checks as the agent's own
 * init (client/entries/index.ts: fields, custom tools, deny selectors), so a mistake throws the same
 * error at the same moment whichever has loaded. Nothing is applied here: the checked config
 * is queued and replayed on the agent's init when it arrives.
 */
import { siteToolProblem } from '../agent/tool-problem';
import type { InitConfig, UiConfig } from '../agent/public-types';
import { INIT_KEYS, parseInit } from '../embed/init-config';
import { checkedSelectors } from '../safety/selectors';

/** The built-in tool names, from the tool table at build time (the loader does not carry the table). */
declare const __PAGEHAND_BUILTIN_TOOLS__: readonly string[];
const BUILT_IN_TOOLS: readonly string[] = typeof __PAGEHAND_BUILTIN_TOOLS__ === 'undefined' ? [] : __PAGEHAND_BUILTIN_TOOLS__;

export interface CheckedInit {
  /** The config without the fields init does not know (warned about once, here). */
  queued: InitConfig;
  ui: UiConfig;
  autoOpen: boolean;
  /** What the agent's init returns for it. */
  result: { ignoredDeny: string[] };
}

/** As the agent's RunError('invalid_tool'): same name, code and message. */
function toolError(message: string): Error {
  return Object.assign(new Error(message), { name: 'PagehandRunError', code: 'invalid_tool' });
}

export function checkInit(config: unknown, warn: (message: string) => void = console.warn): CheckedInit {
  const c = parseInit(config);
  if (c.unknown.length) warn(`pagehand.init: ignored unknown field${c.unknown.length > 1 ? 's' : ''} ${c.unknown.join(', ')}.`);
  for (const t of c.site.tools ?? []) {
    const problem = siteToolProblem(t, (name) => BUILT_IN_TOOLS.includes(name));
    if (problem) throw toolError(`pagehand: ${problem}.`);
  }
  // The agent's own parse check: the same answer the agent's init gives.
  const { ignored } = checkedSelectors(c.site.deny ?? []);
  const source = (config ?? {}) as Record<string, unknown>;
  const queued: Record<string, unknown> = {};
  for (const k of INIT_KEYS) if (source[k] !== undefined) queued[k] = source[k];
  return { queued: queued as InitConfig, ui: c.ui, autoOpen: c.autoOpen, result: { ignoredDeny: ignored } };
}
