/**
 * What a run needs to know of the page's WebMCP tools before it loads the bridge (./bridge.ts,
 * loaded on first use): whether the site turned them off, whether the page offers any now, and
 * why a call of one needs the user's yes (asked when the call comes, after the bridge made it).
 */
import { installModelContext } from './polyfill';
import type { ToolRegistry } from './webmcp-types';

let source: ToolRegistry | undefined;

/**
 * Where the page's registered tools are read when not on this world's `document.modelContext`:
 * the headless runner's isolated world reads the page world's (./runner-registry.ts).
 */
export function setPageToolRegistry(registry: ToolRegistry): void {
  source = registry;
}

/** The registry the page's tools are read from: the one set above, else `document.modelContext`'s. */
export const pageToolRegistry = (): ToolRegistry | undefined => source ?? installModelContext();

/** True when the page may offer tools now: some registered, or a form declared as one. Never throws. */
export function pageOffersTools(): boolean {
  try {
    if ((pageToolRegistry()?.tools().length ?? 0) > 0) return true;
    return !!document.querySelector('form[toolname]');
  } catch {
    return false;
  }
}
