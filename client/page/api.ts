/** The public `pagehand` API of the bundle: map, describe, resolve, act. */
import { act, setBeforeNavigate } from './actions/index';
import { createDescriber } from './describe';
import { find, type FindResult } from './find';
import { buildMap, buildMapAsync } from './map';
import { resolveRef } from './refs';
import { screenshot } from './screenshot';
import type { MapOptions, PageMap } from './types';

export const VERSION = '0.1.0';

export function createPageApi() {
  return {
    version: VERSION,
    /** The page map the model reads: text plus structured elements. */
    map: (options?: MapOptions): PageMap => buildMap(options),
    /** The same map built in slices, the page running in between (no long task on big pages). */
    mapAsync: (options?: MapOptions): Promise<PageMap> => buildMapAsync(options),
    /** Role and accessible name of any element, mapped or not. */
    describe: (el: Element): { role: string; name: string } => createDescriber().describe(el),
    /** The live element for a ref; throws RefError ('unknown' | 'stale') with a clear message. */
    resolve: (ref: string | number): Element => resolveRef(ref, (el) => createDescriber().describe(el)),
    /** Searches the whole page (beyond the map's budget) for elements and text; hands out refs. */
    find: (query: string): FindResult => find(String(query ?? '')),
    /** A JPEG of the viewport, with Set-of-Marks on request; `{ dataUrl: null, reason }` instead of failing. */
    screenshot,
    /** Runs one tool call (click, type, …) and reports what changed. */
    act,
    /** Sets the hook called before a full navigation (navigate, go_back, a link click). */
    setBeforeNavigate,
  };
}
