/**
 * The embed's first file (dist/pagehand-loader.js), the one every page view of a site with the
 * embed downloads: it reads the script tag, installs the document-start hooks (closed shadow
 * roots, listener-only targets, the page's requests and timers) so nothing is lost by loading
 * the agent late, defines the `pagehand` stub (./stub.ts), shows the launcher and checks for a
 * run saved before a navigation. The agent (the panel first, the engine beside it) loads when the
 * launcher is opened, a saved run must go on, or a page script asks for it; pointing at or
 * focusing the launcher fetches it ahead.
 */
import { loadRun } from '../agent/persist';
import { readScriptTag } from '../embed/script-tag';
import * as hooks from '../page/dom/hooks';
import * as network from '../page/settle/network';
import * as animations from '../page/settle/animations';
import * as settle from '../page/settle/settle';
import { loadLayout } from '../ui/storage';
import { chunkLoader, chunkUrl } from './chunk';
import { snapshotNatives } from './handoff';
import { createStub } from './stub';
import * as webmcp from '../webmcp/polyfill';

/** The agent chunk's content-hashed file name, and the package version (build.ts puts them in). */
declare const __PAGEHAND_AGENT_FILE__: string;
/** The files the agent's entry imports (fetched ahead with it on intent). */
declare const __PAGEHAND_AGENT_IMPORTS__: readonly string[];
declare const __PAGEHAND_VERSION__: string;

// Not in a browser, or pagehand is already here (the full bundle, or this loader twice): nothing to do.
if (typeof window !== 'undefined' && !window.pagehand) {
  // Before the hooks wrap attachShadow: the agent's own closed root is made with the native one.
  const natives = snapshotNatives();
  hooks.installHooks();
  settle.installActivityHooks();
  // WebMCP's document.modelContext before the site's scripts register their tools (the chunk reads what it learned).
  webmcp.installModelContext();
  const script = document.currentScript instanceof HTMLScriptElement ? document.currentScript : null;
  const defaults = readScriptTag(script, location.href);
  const url = chunkUrl(__PAGEHAND_AGENT_FILE__, script?.src || undefined, defaults.proxy, location.href);
  const stub = createStub({
    defaults,
    natives,
    modules: { hooks, network, settle, animations, webmcp },
    chunk: chunkLoader(
      url,
      script?.nonce || undefined,
      __PAGEHAND_AGENT_IMPORTS__.map((f) => new URL(f, url).href),
    ),
    version: __PAGEHAND_VERSION__,
  });
  Object.defineProperty(window, 'pagehand', { value: stub.api, configurable: true, enumerable: false, writable: false });
  // A run saved before a navigation goes on here at once, and so does a panel left open in this tab.
  if (loadRun() || (defaults.embed && !loadLayout(true).collapsed)) stub.load();
  if (defaults.embed) stub.showLauncher();
  // A page restored from the back/forward cache may have a run to pick up since.
  addEventListener('pageshow', (e) => {
    if ((e as PageTransitionEvent).persisted && loadRun()) stub.load();
  });
}
