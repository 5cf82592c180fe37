/**
 * The engine: everything of pagehand but the panel — the document-start hooks, the page API
 * (map, actions), the agent (loop, model client, safety) and `window.pagehand` — wired to an
 * overlay the entry made first. The single-file bundles (pagehand.js, the userscript, the runner,
 * the npm entry) import it with the panel (client/entries/index.ts); the embed's agent and the
 * bookmarklet load the panel and import this beside it, so the visitor can type while it arrives
 * (client/loader/agent.ts, client/entries/bookmarklet.ts).
 *
 * Who put it on the page decides what the page's scripts may do with it: the site's own embed
 * (or npm import) is trusted with the whole API; on a stranger's page (the bookmarklet, whose
 * loader tag carries `data-pagehand-loader`, and the userscript) page scripts get the cut-down
 * API of guarded-api.ts, and only the user approves or answers, in the panel.
 */
import { pageEnv, untrustedPage, type AgentEnv } from './agent/env';
import { createAgentApi, type StartedBy } from './agent/api';
import type { InitConfig, Recording, ReplayOptions, RunHandle, RunOptions } from './agent/public-types';
import { parseInit, type ParsedInit } from './embed/init-config';
import { checkKnowledge } from './embed/knowledge-check';
import type { EmbedDefaults } from './embed/script-tag';
import { createPageApi } from './page/api';
import { revealRef } from './page/reveal';
import { frameConfig } from './page/frames/config';
import { installFrameBridge } from './page/frames/index';
import { targetFacts } from './safety/facts';
import { installHooks } from './page/dom/hooks';
import { installActivityHooks } from './page/settle/settle';
import { installEffectHooks } from './page/settle/effects';
import { pageHandle, pageInitConfig, pageOpenOptions, pageRunOptions } from './guarded-api';
import type { Ui } from './ui/index';
import type { Handoff } from './loader/handoff';
import { installModelContext } from './webmcp/polyfill';
import { lendAgentLazy } from './agent/lazy';
import { lendPageLazy } from './page/lazy';

declare global {
  interface Window {
    pagehand?: ReturnType<typeof createPageApi> &
      Pick<ReturnType<typeof createAgentApi>, 'run' | 'replay' | 'current'> &
      Pick<Ui, 'open' | 'close' | 'toggle'> & {
        /** The site's configuration: runs (tools, deny zones, …) and the overlay (theme, launcher, …). */
        init(config?: InitConfig): { ignoredDeny: string[] };
        /** This API, at once: code written for the embed's loader (whose `ready` waits for the agent) works here too. */
        readonly ready: Promise<import('./entries/npm-types').PagehandApi>;
      };
  }
}

// What loads on first use (one file in the embed's split build): lent to the layers below, which never import it.
const onDemand = () => import('./on-demand');
lendPageLazy(onDemand);
lendAgentLazy(onDemand);

export interface EngineStart {
  /** The overlay, made before the engine (it may already show the panel). */
  ui: Ui;
  /** The script tag's configuration (or the embed loader's). */
  defaults: EmbedDefaults;
  /** The tag that loaded the bundle (null for the embed's modules). */
  script: HTMLOrSVGScriptElement | null;
  /** The embed loader's hand-off; undefined in the single-file bundles. */
  handoff?: Handoff;
  /** What the embedding supplies (the userscript's transport and store, the runner's); default none. */
  env?: AgentEnv;
}

/** Installs the engine, connects the overlay to it, defines `window.pagehand` and returns that API. */
export function startEngine({ ui, defaults, script, handoff, env: given = {} }: EngineStart): NonNullable<Window['pagehand']> {
  // At document start these reveal closed shadow roots and listener-only click targets.
  installHooks();
  // Counts the page's fetch/XHR (and short timers during actions) for settle detection.
  installActivityHooks();
  // Beacons, windows and navigations an action causes are held until judged (the embed's loader
  // leaves them to the engine, to stay small; in the runner's isolated world only navigations are
  // seen: the page's own world keeps its beacons and windows).
  installEffectHooks();
  // WebMCP: the page registers its tools with document.modelContext (the browser's, or ours).
  const webmcp = installModelContext();
  // The bookmarklet's loader mark on the tag, or (what the page cannot strip) the session token made for it.
  const env: AgentEnv = pageEnv(given, script, defaults.token);
  // Page scripts reach the API on a stranger's page (not in the runner's isolated world): they get the guarded one.
  const stranger = untrustedPage(env) && !env.isolated;
  // The replay driver sits on the agent: lent to it here, loaded when a replay starts.
  const agent = createAgentApi(defaults, env, { replay: async (run) => new (await onDemand()).ReplayDriver(run).loop() });
  // Frames from other origins talk to this page's pagehand only once init lists them.
  installFrameBridge(() => agent.siteSettings().page, targetFacts);
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
  // init: the site owner's configuration. All of it is checked before any of it applies.
  const init = (config?: InitConfig): { ignoredDeny: string[] } => {
    const c = parseInit(config);
    checkKnowledge(c.site.knowledge);
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
  // On a stranger's page its scripts call the page API too: frames from other origins stay out of it.
  const pageSettings = () => (stranger ? { ...agent.siteSettings().page, remoteFrames: false } : agent.siteSettings().page);
  const full: NonNullable<Window['pagehand']> = Object.freeze({
    ...createPageApi(pageSettings),
    ...api,
    close: ui.close,
    toggle: ui.toggle,
    // What the embed loader's `ready` resolves to; here, this API at once.
    get ready() {
      return Promise.resolve(full);
    },
  });
  Object.defineProperty(window, 'pagehand', { value: full, configurable: true, enumerable: false, writable: false });
  // The overlay's Send reaches the agent from now on (a task typed and sent while it loaded starts now).
  // An answer's "Show me" finds its element through the ref table, never in a deny zone. A rating
  // is the site's to hear (an event on its window) only on its own pages: on a stranger's page
  // the page has no business with what the user thought.
  ui.connect({
    run,
    replay,
    current: agent.current,
    reveal: (ref) => revealRef(ref, pageSettings()),
    markdown: async () => (await onDemand()).markdown,
    save: async (what) => (await onDemand()).saveFile(what),
    browserModel: async (show) => (await onDemand()).watchBrowserModel(show),
    feedback: untrustedPage(env) ? undefined : (f) => dispatchEvent(new CustomEvent('pagehand:feedback', { detail: Object.freeze({ ...f }) })),
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
  const store = env.store;
  if (store?.ready) void store.ready().then(resumeSaved, resumeSaved);
  else resumeSaved();
  // The calls made to the loader's stub before the agent came, and its launcher, go over to this API.
  handoff?.takeover(full);
  return full;
}
