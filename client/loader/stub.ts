/**
 * `window.pagehand` until the agent chunk arrives: usable from the first moment, and cheap.
 *
 * - `ready`: a promise of the full API; reading it starts loading the agent.
 * - `init`: checked at once (same errors as the agent's), applied to the launcher at once,
 *   queued for the agent. It does not load the agent (a site calls it on every page), except
 *   with `autoOpen: true`.
 * - `run`, `mapAsync`, `act`, `screenshot`: load the agent and resolve through it (`run`: a
 *   promise of the handle).
 * - `map`, `describe`, `resolve`, `find`: synchronous, so available after `ready`; before,
 *   they start loading the agent and throw a clear error.
 * - `open`, `close`, `toggle`: the launcher's state now; `open` loads the agent. Once the
 *   agent's panel is there (it comes before the engine), they go to the panel.
 * - `current()`: undefined (no run can be active before the agent).
 * Once the agent took over, a stub kept by the page forwards every call to the full API.
 */
import type { EmbedDefaults } from '../embed/script-tag';
import type { InitConfig, UiConfig } from '../agent/public-types';
import type { OpenOptions, PagehandLoaderApi } from '../entries/npm-types';
import type { ChunkLoader } from './chunk';
import { HANDOFF, type FullApi, type Handoff, type LoaderModules, type NativeSnapshot, type PanelHandle } from './handoff';
import { checkInit } from './init-check';
import { createLauncher, type LauncherLook } from './launcher';
import { pageApiStandIn } from './page-api-stand-in';

export interface StubDeps {
  defaults: EmbedDefaults;
  modules: LoaderModules;
  natives: NativeSnapshot;
  chunk: ChunkLoader;
  version: string;
}

interface Deferred {
  promise: Promise<FullApi>;
  resolve(api: FullApi): void;
  reject(e: unknown): void;
}

function deferred(): Deferred {
  const d = {} as Deferred;
  d.promise = new Promise<FullApi>((resolve, reject) => Object.assign(d, { resolve, reject }));
  // Callers that chained on it get the rejection; nobody else sees an unhandled one.
  d.promise.catch(() => {});
  return d;
}

export function createStub(deps: StubDeps) {
  const { defaults, chunk } = deps;
  let full: FullApi | undefined;
  let loading = false;
  let ready = deferred();
  const inits: InitConfig[] = [];
  /** init's overlay settings (each call replaces them all, as the agent's init does). */
  let site: UiConfig = {};
  /** Shown: the launcher (an embed), or the panel once the agent is there. */
  let visible = false;
  /** open() was called (options merged, as the overlay merges them); the agent opens the panel. */
  let opening: OpenOptions | undefined;
  /** close() was called last: the agent's overlay must start hidden too. */
  let closed = false;
  /** The agent's overlay, once its entry ran (before the engine): open/close/toggle go to it. */
  let panel: PanelHandle | undefined;
  /** The engine could not be loaded: `ready` stays rejected with it. */
  let broken = false;

  const look = (): LauncherLook => ({
    text: site.launcherText,
    theme: opening?.theme ?? site.theme,
    position: site.position ?? defaults.position,
  });
  const launcher = createLauncher(
    deps.natives,
    () => api.open(),
    () => chunk.warm(),
  );

  function fail(e: unknown): void {
    loading = false;
    launcher.busy(false);
    const d = ready;
    ready = deferred();
    console.error(String((e as Error)?.message ?? e));
    d.reject(e);
  }

  function load(): void {
    if (full || loading || broken) return;
    loading = true;
    chunk.load().then(() => {
      // The entry ran: it shows the panel and the engine follows (or says it failed).
      if (!full && !panel) fail(new Error(`pagehand: the agent from ${chunk.url} ran but did not start (its error is above).`));
    }, fail);
  }

  const whenReady = (): Promise<FullApi> => {
    load();
    return ready.promise;
  };

  /** The synchronous calls need the agent's page layer. */
  function sync<T>(name: string, call: (a: FullApi) => T): T {
    if (full) return call(full);
    load();
    throw new Error(`pagehand.${name}() is available once the agent has loaded: await pagehand.ready first (the embed loads the agent on demand).`);
  }

  const api: PagehandLoaderApi = {
    get ready() {
      return whenReady();
    },
    version: deps.version,
    init(config?: InitConfig) {
      if (full) return full.init(config);
      const c = checkInit(config);
      inits.push(c.queued);
      site = { ...c.ui };
      if (panel) panel.configure(site);
      else if (visible) launcher.show(look());
      if (c.autoOpen) load();
      return c.result;
    },
    run: (task, options) => whenReady().then((a) => a.run(task, options)),
    replay: (recording, options) => whenReady().then((a) => a.replay(recording, options)),
    current: () => full?.current(),
    open(options?: OpenOptions) {
      if (full) return full.open(options);
      if (panel) return panel.open(options);
      opening = { ...opening, ...options };
      closed = false;
      visible = true;
      launcher.show(look());
      launcher.busy(true);
      load();
    },
    close() {
      if (full) return full.close();
      if (panel) return panel.close();
      opening = undefined;
      closed = true;
      visible = false;
      launcher.hide();
    },
    toggle() {
      if (full) return full.toggle();
      if (panel) return panel.toggle();
      if (visible) api.close();
      else api.open();
    },
    ...pageApiStandIn(sync, whenReady),
  };

  const handoff: Handoff = Object.freeze({
    modules: Object.freeze({ ...deps.modules }),
    natives: deps.natives,
    defaults: Object.freeze({ ...defaults }),
    agentUrl: chunk.url,
    takeover(a: FullApi) {
      if (full) return;
      full = a;
      loading = false;
      // Errors here were the agent's own checks disagreeing with the loader's: said, not thrown.
      for (const c of inits.splice(0)) {
        try {
          a.init(c);
        } catch (e) {
          console.error(e);
        }
      }
      if (!panel) {
        if (opening) a.open(opening);
        else if (closed) a.close();
      }
      launcher.remove();
      ready.resolve(a);
    },
    showPanel(p: PanelHandle) {
      if (full || panel) return;
      panel = p;
      launcher.remove();
      p.configure(site);
      if (opening) p.open(opening);
      else if (closed) p.close();
      opening = undefined;
    },
    engineFailed(e: unknown) {
      // Said in the panel; `ready` stays rejected (a reload tries again).
      broken = true;
      ready.reject(e);
    },
  });

  // Like the full API (frozen), except that the handoff can be taken off it.
  for (const key of Object.keys(api)) {
    const d = Object.getOwnPropertyDescriptor(api, key)!;
    Object.defineProperty(api, key, { ...d, ...('value' in d ? { writable: false } : {}), configurable: false, enumerable: true });
  }
  Object.defineProperty(api, HANDOFF, { value: handoff, configurable: true, enumerable: false, writable: false });
  Object.preventExtensions(api);

  return {
    api,
    load,
    /** The embed's start: the launcher (the agent shows the panel instead when it was left open). */
    showLauncher() {
      visible = true;
      launcher.show(look());
    },
  };
}
