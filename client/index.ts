/**
 * The injected bundle's entry. It defines exactly one global, `pagehand`, and nothing else.
 * Loading it twice keeps the first instance (a bookmarklet clicked again must not reset refs).
 *
 * Who put it on the page decides what the page's scripts may do with it: the site's own embed
 * (or npm import) is trusted with the whole API; on a stranger's page (the bookmarklet, whose
 * loader tag carries `data-pagehand-loader`, and the userscript) page scripts get the cut-down
 * API of guarded-api.ts, and only the user approves or answers, in the panel.
 */
import { agentEnv, isUserSession, pageIsUntrusted, setAgentEnv } from './agent/env';
import { createAgentApi, type StartedBy } from './agent/api';
import type { InitConfig, Recording, ReplayOptions, RunHandle, RunOptions } from './agent/types';
import { parseInit, type ParsedInit } from './embed/init-config';
import { readScriptTag } from './embed/script-tag';
import { createPageApi } from './page/api';
import { frameConfig } from './page/frames/config';
import { installFrameBridge } from './page/frames/index';
import { installHooks } from './page/hooks';
import { installActivityHooks } from './page/settle';
import { pageHandle, pageInitConfig, pageOpenOptions, pageRunOptions } from './guarded-api';
import { createUi } from './ui/index';
import { loaderHandoff } from './loader/adopt';
import { installModelContext } from './webmcp/polyfill';
import { lendAgentLazy } from './agent/lazy';
import { lendPageLazy } from './page/lazy';

declare global {
  interface Window {
    pagehand?: ReturnType<typeof createPageApi> &
      Pick<ReturnType<typeof createAgentApi>, 'run' | 'replay' | 'current'> &
      Pick<ReturnType<typeof createUi>, 'open' | 'close' | 'toggle'> & {
        /** The site's configuration: runs (tools, deny zones, …) and the overlay (theme, launcher, …). */
        init(config?: InitConfig): { ignoredDeny: string[] };
        /** This API, at once: code written for the embed's loader (whose `ready` waits for the agent) works here too. */
        readonly ready: Promise<import('./npm-types').PagehandApi>;
      };
  }
}

// What loads on first use (one file in the embed's split build): lent to the layers below, which never import it.
const onDemand = () => import('./on-demand');
lendPageLazy(onDemand);
lendAgentLazy(onDemand);

// The embed's agent chunk takes over from the loader's stub (client/loader); other bundles have no handoff.
const handoff = loaderHandoff();
// Not in a browser (a framework rendering on the server imports this too): nothing to install.
if (typeof window !== 'undefined' && (!window.pagehand || handoff)) {
  // At document start these reveal closed shadow roots and listener-only click targets.
  installHooks();
  // Counts the page's fetch/XHR (and short timers during actions) for settle detection.
  installActivityHooks();
  // WebMCP: the page registers its tools with document.modelContext (the browser's, or ours).
  const webmcp = installModelContext();
  // The script tag that loaded the bundle: proxy, token, language, corner, model.
  const script = document.currentScript;
  // The bookmarklet's loader: the user brought pagehand to a page that is not theirs.
  const defaults = handoff?.defaults ?? readScriptTag(script, location.href);
  // Its mark on the tag, or (what the page cannot strip) the session token made for it.
  if (script?.hasAttribute('data-pagehand-loader') || isUserSession(defaults.token)) setAgentEnv({ installedBy: 'user' });
  const stranger = pageIsUntrusted();
  // The replay driver sits on the agent: lent to it here, loaded when a replay starts.
  const agent = createAgentApi(defaults, agentEnv(), { replay: async (run) => new (await onDemand()).ReplayDriver(run).loop() });
  // Frames from other origins talk to this page's pagehand only once init lists them.
  installFrameBridge(() => agent.siteSettings().page);
  /** init's model and lang: under a run's own options, over the script tag's. */
  let runDefaults: ParsedInit['runDefaults'] = {};
  /** A run's own options over init's model, lang, proxy and token. */
  const withDefaults = <O extends RunOptions>(o: O): O => {
    const d = runDefaults;
    return { ...o, model: o.model ?? d.model, lang: o.lang ?? d.lang, proxy: o.proxy ?? d.proxy, token: o.token ?? d.token };
  };
  // Runs with `ui` (the default) are shown by the overlay, which also answers their confirmations.
  const shown = (h: RunHandle, o: RunOptions): RunHandle => {
    if (o.ui !== false) ui.attach(h);
    return h;
  };
  const run = (task: string, options?: RunOptions, by?: StartedBy) => shown(agent.run(task, withDefaults(options ?? {}), by), options ?? {});
  // A recording run again, shown the same way.
  const replay = (recording: Recording, options?: ReplayOptions, by?: StartedBy) =>
    shown(agent.replay(recording, withDefaults(options ?? {}), by), options ?? {});
  const ui = createUi({ run, replay, current: agent.current, lang: defaults.lang, position: defaults.position });
  // init: the site owner's configuration. All of it is checked before any of it applies.
  const init = (config?: InitConfig): { ignoredDeny: string[] } => {
    const c = parseInit(config);
    if (c.unknown.length) console.warn(`pagehand.init: ignored unknown field${c.unknown.length > 1 ? 's' : ''} ${c.unknown.join(', ')}.`);
    // Only the site's own pagehand speaks across frames: a stranger's page lists nobody.
    const frames = frameConfig({
      origins: stranger ? [] : c.frames,
      proxy: c.runDefaults.proxy ?? defaults.proxy,
      token: c.runDefaults.token ?? defaults.token,
    });
    const out = agent.configure(c.site, { redaction: c.redaction, frames }); // throws on a bad tool, before anything changed
    // Only a browser's own document.modelContext gets the site's tools (its agent reads them).
    if (webmcp?.native) void onDemand().then((m) => m.webmcp.publishSiteTools(webmcp, c.site.tools ?? []));
    runDefaults = c.runDefaults;
    ui.configure(c.ui);
    if (c.autoOpen) ui.autoOpen();
    return out;
  };
  // What the page's scripts call. The overlay keeps the whole `run` and `current` above.
  const api = stranger
    ? {
        run: (task: string, options?: RunOptions) => pageHandle(run(task, pageRunOptions(options), 'page')),
        replay: (recording: Recording, options?: ReplayOptions) => pageHandle(replay(recording, pageRunOptions(options), 'page')),
        current: () => {
          const h = agent.current();
          return h && pageHandle(h);
        },
        init: (config?: InitConfig) => init(pageInitConfig(config)),
        open: (o?: Parameters<typeof ui.open>[0]) => ui.open(pageOpenOptions(o)),
      }
    : { run, replay, current: agent.current, init, open: ui.open };
  Object.defineProperty(window, 'pagehand', {
    value: Object.freeze({
      // On a stranger's page its scripts call this too: frames from other origins stay out of it.
      ...createPageApi(() => (stranger ? { ...agent.siteSettings().page, remoteFrames: false } : agent.siteSettings().page)),
      ...api,
      close: ui.close,
      toggle: ui.toggle,
      // What the embed loader's `ready` resolves to; here, this API at once.
      get ready() {
        return Promise.resolve(this);
      },
    }),
    configurable: true,
    enumerable: false,
    writable: false,
  });
  // A run saved before a navigation goes on here, in the overlay — unless it was started with
  // ui: false on the site's own page (a stranger's page cannot keep a run out of the user's sight).
  const resumeSaved = (): void => {
    const resumed = agent.resume();
    if (resumed && (resumed.ui || stranger)) ui.attach(resumed, true);
    // A site embed (a script tag with a token, not the bookmarklet's loader) shows its launcher.
    else if (defaults.embed) ui.launcher();
  };
  // The userscript's store first asks the manager which run this tab holds; elsewhere at once.
  const store = agentEnv().store;
  if (store?.ready) void store.ready().then(resumeSaved, resumeSaved);
  else resumeSaved();
  // The calls made to the loader's stub before the agent came, and its launcher, go over to this API.
  handoff?.takeover(window.pagehand!);
}
