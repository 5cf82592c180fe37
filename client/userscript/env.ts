/**
 * The userscript's environment, handed to the entry with the start (./index.ts
 * imports this first and passes `userscriptEnv` on): model calls through GM_xmlhttpRequest (strict-CSP pages), the run's
 * state in GM storage bound to this tab (cross-origin navigations), and the proxy and token
 * the Node server filled into the script when it served /pagehand.user.js. The pages it runs
 * on are not the user's own: `installedBy: 'user'`.
 */
import type { AgentEnv } from '../agent/env';
import { createGmFetch, type GmXmlHttpRequest } from './fetch';
import { createSessionTabStore } from './session-tab-store';
import { createGmStore, memoryRunStore } from './store';
import { gmTab, type GmTabGlobals } from './tab';
import { TAB_THREADS_KEY, tabThreadStore } from './thread-store';
import { TAB_KEPT_KEY, tabKeptStore } from './kept-store';
import type { KeptStore, ThreadStore } from '../ui/storage';

/** Filled in by the server (build.ts puts it in the banner with placeholders). */
declare const PAGEHAND_USERSCRIPT: { proxy: string; token: string };
declare const GM_xmlhttpRequest: GmXmlHttpRequest | undefined;
declare const GM_getValue: ((key: string, fallback?: unknown) => unknown) | undefined;
declare const GM_setValue: ((key: string, value: string) => void) | undefined;
declare const GM_deleteValue: ((key: string) => void) | undefined;
declare const GM_listValues: (() => string[]) | undefined;
declare const GM_info: { scriptHandler?: string } | undefined;
declare const GM_getTab: GmTabGlobals['GM_getTab'];
declare const GM_saveTab: GmTabGlobals['GM_saveTab'];
declare const GM: (GmTabGlobals['GM'] & { xmlHttpRequest?: GmXmlHttpRequest }) | undefined;

const filled = (v: string | undefined): string | undefined => (v && !v.startsWith('__PAGEHAND_') ? v : undefined);

export const userscriptConfig = {
  proxy: filled(typeof PAGEHAND_USERSCRIPT === 'object' ? PAGEHAND_USERSCRIPT.proxy : undefined) ?? 'http://127.0.0.1:8787',
  token: filled(typeof PAGEHAND_USERSCRIPT === 'object' ? PAGEHAND_USERSCRIPT.token : undefined),
};

// Tampermonkey and ScriptCat hand out the body as a ReadableStream; the others report progress
// as text (fetch.ts takes it as each manager gives it).
const handler = typeof GM_info === 'object' ? GM_info?.scriptHandler : undefined;
const stream = handler === 'Tampermonkey' || handler === 'ScriptCat';
// Greasemonkey 4 has only the promise API's GM.xmlHttpRequest.
const xhr: GmXmlHttpRequest | undefined =
  typeof GM_xmlhttpRequest === 'function'
    ? GM_xmlhttpRequest
    : typeof GM === 'object' && typeof GM?.xmlHttpRequest === 'function'
      ? GM.xmlHttpRequest.bind(GM)
      : undefined;

// The manager's per-tab object (Tampermonkey, ScriptCat) keeps a run in its tab on any site
// (store.ts); without it (Violentmonkey) an id in the page's sessionStorage does, on one
// site (session-tab-store.ts); without synchronous storage (Greasemonkey 4) a run stays on its page.
const tab = gmTab({
  GM_getTab: typeof GM_getTab === 'function' ? GM_getTab : undefined,
  GM_saveTab: typeof GM_saveTab === 'function' ? GM_saveTab : undefined,
  GM: typeof GM === 'object' && GM ? GM : undefined,
});
const values =
  typeof GM_getValue === 'function' && typeof GM_setValue === 'function' && typeof GM_deleteValue === 'function'
    ? { getValue: GM_getValue, setValue: GM_setValue, deleteValue: GM_deleteValue }
    : undefined;

const gmStore = values && tab ? createGmStore(values, tab) : undefined;
const store = !values
  ? memoryRunStore()
  : gmStore
    ? gmStore
    : createSessionTabStore(values, {
        session: () => window.sessionStorage,
        origin: location.origin,
        ...(typeof GM_listValues === 'function' ? { list: GM_listValues } : {}),
      });

/** The panel's conversation, in the manager's per-tab object where it has one (else it lives with the page). */
export const userscriptThreads: ThreadStore | undefined = gmStore ? tabThreadStore(gmStore.field(TAB_THREADS_KEY), location.origin) : undefined;

/** The panel's list of tasks and the run's log, there too (else nowhere: never in the page's storage). */
export const userscriptKept: KeptStore | undefined = gmStore ? tabKeptStore(gmStore.field(TAB_KEPT_KEY), location.origin) : undefined;

/** What the userscript supplies to the agent: the manager's transport and storage; the page is a stranger's. */
export const userscriptEnv: AgentEnv = {
  installedBy: 'user',
  ...(xhr ? { fetch: createGmFetch(xhr, { stream }) } : {}),
  store,
};

/*
 * The entry reads its defaults (proxy, token) from the script tag that loaded it
 * (`document.currentScript` data attributes). A userscript has no such tag: while the entry
 * runs — synchronously, right after this module — it sees a detached one carrying the
 * configuration; ./index.ts removes it again. (A hook in the entry for these
 * defaults would be cleaner; the entry is the overlay's to change.)
 */
const tag = document.createElement('script');
tag.setAttribute('data-pagehand-proxy', userscriptConfig.proxy);
// Present even when empty: like an embed, the userscript shows its launcher on every page.
tag.setAttribute('data-pagehand-token', userscriptConfig.token ?? '');
Object.defineProperty(document, 'currentScript', { get: () => tag, configurable: true });

export function restoreCurrentScript(): void {
  delete (document as { currentScript?: unknown }).currentScript;
}
