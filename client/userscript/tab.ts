/**
 * The userscript manager's per-tab object: Tampermonkey's `GM_getTab(callback)` /
 * `GM_saveTab(tab)`, or the promise API's `GM.getTab()` / `GM.saveTab(tab)`. The manager keeps
 * it for as long as the tab is open, across navigations to any site, and no other tab sees it:
 * what a run needs to know that it is in its own tab.
 */

export type TabObject = Record<string, unknown>;

export interface GmTab {
  get(): Promise<TabObject>;
  save(tab: TabObject): void;
}

/** The manager's tab functions, where it has them (each may be missing). */
export interface GmTabGlobals {
  GM_getTab?: (callback: (tab: unknown) => void) => void;
  GM_saveTab?: (tab: unknown, callback?: () => void) => void;
  GM?: { getTab?: () => Promise<unknown>; saveTab?: (tab: unknown) => Promise<void> | void };
}

const plain = (t: unknown): TabObject => (t && typeof t === 'object' && !Array.isArray(t) ? { ...(t as TabObject) } : {});

/** One interface over either API; undefined when the manager has neither (Violentmonkey, Greasemonkey). */
export function gmTab(g: GmTabGlobals): GmTab | undefined {
  const { GM_getTab: getTab, GM_saveTab: saveTab, GM: gm } = g;
  if (typeof getTab === 'function' && typeof saveTab === 'function') {
    return {
      get: () => new Promise((resolve) => getTab((t) => resolve(plain(t)))),
      save: (tab) => saveTab(tab),
    };
  }
  if (gm && typeof gm.getTab === 'function' && typeof gm.saveTab === 'function') {
    return {
      get: async () => plain(await gm.getTab!()),
      save: (tab) => void Promise.resolve(gm.saveTab!(tab)).catch(() => undefined),
    };
  }
  return undefined;
}
