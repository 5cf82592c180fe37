/**
 * `window.pagehand` from the bookmarklet's first file until its engine arrives: the shape of
 * the embed loader's stub (`PagehandLoaderApi`, client/loader/stub.ts), cut to what a stranger's
 * page may do. The panel is already there, so open/close/toggle go to it; the asynchronous calls
 * wait for the engine; the synchronous ones, `init` among them, throw until it is there (a
 * stranger's `init` may only add caution, and its checks live in the engine: the first file stays
 * small). What a page script passes to the panel goes through the guard the engine's API applies
 * (../guarded-api.ts), and to the engine only through that API, which guards it — a page cannot
 * approve, instruct or redirect the user's runs by calling early. Once the engine took over, a
 * stub kept by the page forwards every call to it.
 */
import type { OpenOptions } from '../agent/public-types';
import { pageOpenOptions } from '../guarded-api';
import { pageApiStandIn } from '../loader/page-api-stand-in';
import type { Ui } from '../ui/index';
import type { PagehandLoaderApi } from './npm-types';

type FullApi = NonNullable<Window['pagehand']>;
type PanelPart = Pick<Ui, 'open' | 'close' | 'toggle'>;

export function bookmarkletStub(ui: PanelPart, version: string) {
  let full: FullApi | undefined;
  let failed: { e: unknown } | undefined;
  const waiting: Array<[(a: FullApi) => void, (e: unknown) => void]> = [];

  const whenReady = (): Promise<FullApi> =>
    full ? Promise.resolve(full) : failed ? Promise.reject(failed.e) : new Promise<FullApi>((resolve, reject) => waiting.push([resolve, reject]));

  function sync<T>(name: string, call: (a: FullApi) => T): T {
    if (full) return call(full);
    throw new Error(
      `pagehand.${name}() is available once the agent has loaded: await pagehand.ready first (the bookmarklet loads the agent beside its panel).`,
    );
  }

  const api: PagehandLoaderApi = {
    get ready() {
      return whenReady();
    },
    version,
    init: (config) => sync('init', (a) => a.init(config)),
    run: (task, options) => whenReady().then((a) => a.run(task, options)),
    replay: (recording, options) => whenReady().then((a) => a.replay(recording, options)),
    current: () => full?.current(),
    open(options?: OpenOptions) {
      if (full) return full.open(options);
      ui.open(pageOpenOptions(options));
    },
    close: () => (full ? full.close() : ui.close()),
    toggle: () => (full ? full.toggle() : ui.toggle()),
    ...pageApiStandIn(sync, whenReady),
  };
  // Frozen like the full API: a page script cannot swap a method the first file's callers use.
  Object.freeze(api);

  return {
    api,
    /** The engine's API is here (and is `window.pagehand`): the calls waiting for it go on. */
    takeover(a: FullApi): void {
      full = a;
      for (const [resolve] of waiting.splice(0)) resolve(a);
    },
    /** The engine could not be loaded (the panel says so): `ready` and the calls waiting on it reject, for good. */
    fail(e: unknown): void {
      failed = { e };
      for (const [, reject] of waiting.splice(0)) reject(e);
    },
  };
}
