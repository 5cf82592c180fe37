/**
 * What a run needs to know of the page's WebMCP tools before it loads the bridge (./bridge.ts,
 * loaded on first use): whether the site turned them off, whether the page offers any now, and
 * why a call of one needs the user's yes (asked when the call comes, after the bridge made it).
 */
import { cap } from '../page/format';
import type { Masks } from '../page/redact';
import type { PageTool } from './page-tool';
import { installModelContext } from './polyfill';
import type { ToolRegistry } from './types';

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

/**
 * Why a call of the tool needs the user's yes. A registered tool on a stranger's page: always
 * (its `readOnlyHint` is the page's word). On the site's own page: unless it is read-only, as a
 * site tool. A form tool: none here — its submit is judged when it comes (runPageTool).
 */
export function pageToolRisks(t: PageTool, masks: Masks): Array<{ kind: 'site_tool'; reason: string; tool: string }> {
  if (t.form) return [];
  if (t.untrusted)
    return [
      {
        kind: 'site_tool',
        reason: `"${t.name}" is this page's own code, which pagehand cannot check (whatever the page says it does): each call is yours to allow.`,
        tool: t.name,
      },
    ];
  if (t.readOnly) return [];
  return [
    {
      kind: 'site_tool',
      reason: `The site's tool "${t.name}" (${cap(t.description.trim().replace(/\.$/, ''), 200, masks)}) may change something: it is not marked read-only.`,
      tool: t.name,
    },
  ];
}
