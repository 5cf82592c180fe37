/** The public `pagehand` API of the bundle: map, describe, resolve, act. */
import { act, setBeforeNavigate, type ActionCall, type ActionResult, type ActOptions } from './actions/index';
import type { FrameScope } from './frames/config';
import { createDescriber } from './describe';
import { find, type FindResult } from './find';
import { buildMap, buildMapAsync } from './map';
import { resolveRef } from './refs';
import { screenshot } from './screenshot';
import type { MapOptions, PageMap } from './types';

export const VERSION = '0.1.0';

/**
 * `scope`: on a stranger's page (bookmarklet, userscript) the page's scripts can call this API,
 * so it keeps frames from other origins out (`remoteFrames: false`): the page must not read or
 * act in another site's frame through pagehand.
 */
export function createPageApi(scope?: FrameScope) {
  return {
    version: VERSION,
    /** The page map the model reads: text plus structured elements. */
    map: (options?: MapOptions): PageMap => buildMap(options, scope),
    /** The same map built in slices, the page running in between (no long task on big pages). */
    mapAsync: (options?: MapOptions): Promise<PageMap> => buildMapAsync(options, scope),
    /** Role and accessible name of any element, mapped or not. */
    describe: (el: Element): { role: string; name: string } => createDescriber().describe(el),
    /** The live element for a ref; throws RefError ('unknown' | 'stale') with a clear message. */
    resolve: (ref: string | number): Element => resolveRef(ref, (el) => createDescriber().describe(el)),
    /** Searches the whole page (beyond the map's budget) for elements and text; hands out refs. */
    find: (query: string): FindResult => find(String(query ?? '')),
    /** A JPEG of the viewport, with Set-of-Marks on request; `{ dataUrl: null, reason }` instead of failing. */
    screenshot,
    /** Runs one tool call (click, type, …) and reports what changed. */
    act: (call: ActionCall, options?: ActOptions): Promise<ActionResult> => act(call, options, scope),
    /** Sets the hook called before a full navigation (navigate, go_back, a link click). */
    setBeforeNavigate,
  };
}
