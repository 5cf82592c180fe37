/**
 * The page API's methods on a stand-in `pagehand` (the embed loader's, the bookmarklet's first
 * file's), before the agent is here: the synchronous ones through `sync` (answered once it is,
 * else its error), the asynchronous ones waiting for it. One list, so both stand-ins offer the
 * same methods the same way.
 */
import type { PagehandLoaderApi } from '../entries/npm-types';
import type { FullApi } from './handoff';

type PageApiPart = Pick<PagehandLoaderApi, 'map' | 'describe' | 'resolve' | 'find' | 'mapAsync' | 'act' | 'screenshot'>;

export function pageApiStandIn(sync: <T>(name: string, call: (a: FullApi) => T) => T, whenReady: () => Promise<FullApi>): PageApiPart {
  return {
    map: (options) => sync('map', (a) => a.map(options)),
    describe: (el) => sync('describe', (a) => a.describe(el)),
    resolve: (ref) => sync('resolve', (a) => a.resolve(ref)),
    find: (query) => sync('find', (a) => a.find(query)),
    mapAsync: (options) => whenReady().then((a) => a.mapAsync(options)),
    act: (call) => whenReady().then((a) => a.act(call)),
    screenshot: (options) => whenReady().then((a) => a.screenshot(options)),
  };
}
