/** The public `pagehand` API of the bundle: map, describe, resolve, act. */
import { act, type ActionCall, type ActionResult, type ActOptions } from './actions/index';
import type { BeforeNavigate } from './actions/contract';
import { createDescriber } from './names/describe';
import { find, type FindResult } from './map/find';
import { buildMap, buildMapAsync } from './map/map';
import { resolveRef } from './map/refs';
import { screenshot, type Screenshot, type ScreenshotOptions } from './screenshot';
import type { PageSettings } from './settings';
import type { MapOptions, PageMap } from './page-types';

export const VERSION = '0.1.0';

/**
 * The page's own calls, each made with `settings()` at the time of the call (the entry's: the
 * site's `init`; on a stranger's page, frames from other origins kept out — the page must not
 * read or act in another site's frame through pagehand). The hook set with `setBeforeNavigate`
 * is this API's own: a run has its own in its settings, so neither replaces the other.
 */
export function createPageApi(settings: () => PageSettings) {
  let beforeNavigate: BeforeNavigate | undefined;
  const now = (): PageSettings => (beforeNavigate ? { ...settings(), beforeNavigate } : settings());
  return {
    version: VERSION,
    /** The page map the model reads: text plus structured elements. */
    map: (options?: MapOptions): PageMap => buildMap(options ?? {}, now()),
    /** The same map built in slices, the page running in between (no long task on big pages). */
    mapAsync: (options?: MapOptions): Promise<PageMap> => buildMapAsync(options ?? {}, now()),
    /** Role and accessible name of any element, mapped or not. */
    describe: (el: Element): { role: string; name: string } => createDescriber(now()).describe(el),
    /** The live element for a ref; throws RefError ('unknown' | 'stale') with a clear message. */
    resolve: (ref: string | number): Element => {
      const d = createDescriber(now());
      return resolveRef(ref, (el) => d.describe(el));
    },
    /** Searches the whole page (beyond the map's budget) for elements and text; hands out refs. */
    find: (query: string): FindResult => find(String(query ?? ''), now()),
    /** A JPEG of the viewport, with Set-of-Marks on request; `{ dataUrl: null, reason }` instead of failing. */
    screenshot: (options?: ScreenshotOptions): Promise<Screenshot> => screenshot(options, now()),
    /** Runs one tool call (click, type, …) and reports what changed. */
    act: (call: ActionCall, options?: ActOptions): Promise<ActionResult> => act(call, options, now()),
    /** Sets (or clears, with undefined) the hook called before a full navigation an `act` starts. */
    setBeforeNavigate: (fn: BeforeNavigate | undefined): void => {
      beforeNavigate = typeof fn === 'function' ? fn : undefined;
    },
  };
}
