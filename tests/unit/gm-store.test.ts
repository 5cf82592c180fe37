/**
 * The userscript's run store: GM storage (shared by every tab) bound to one tab by the
 * manager's per-tab object. A page in the run's own tab resumes it; a page in any other tab
 * finds nothing, whichever tab API the manager offers (callback or promise). Without a tab API,
 * or when the manager never answers, nothing is resumed across page loads.
 */
import { describe, expect, it } from 'vitest';
import { newGuardState } from '../../client/agent/guards';
import type { RunStore, SavedRun } from '../../client/agent/persist';
import { createGmStore, gmRunKey, TAB_RUN_KEY, type GmStorage } from '../../client/userscript/store';
import { gmTab, type GmTab, type TabObject } from '../../client/userscript/tab';

/** The manager: one GM value store for all tabs, and a tab object per tab id. */
function fakeManager() {
  const values = new Map<string, string>();
  const tabs = new Map<string, TabObject>();
  const storage: GmStorage = { getValue: (k, d) => values.get(k) ?? d, setValue: (k, v) => void values.set(k, v), deleteValue: (k) => void values.delete(k) };
  /** Tampermonkey's callback API for one tab. */
  const callbackApi = (tabId: string): GmTab =>
    gmTab({
      GM_getTab: (cb) => setTimeout(() => cb(structuredClone(tabs.get(tabId) ?? {})), 1),
      GM_saveTab: (t) => void tabs.set(tabId, structuredClone(t as TabObject)),
    })!;
  /** The promise API (GM.getTab / GM.saveTab) for one tab. */
  const promiseApi = (tabId: string): GmTab =>
    gmTab({
      GM: {
        getTab: async () => structuredClone(tabs.get(tabId) ?? {}),
        saveTab: async (t) => void tabs.set(tabId, structuredClone(t as TabObject)),
      },
    })!;
  return { values, tabs, storage, callbackApi, promiseApi };
}

function savedRun(id: string, task = 'Sign up'): SavedRun {
  return {
    v: 1,
    id,
    task,
    options: {},
    step: 1,
    history: [],
    memory: '',
    usage: { promptTokens: 0, completionTokens: 0 },
    startedAt: 1,
    guards: newGuardState(),
    notes: [],
    allowed: [],
    owner: 'page-1',
  };
}

/** A page load: a new store over the manager, ready before the entry resumes. */
async function pageLoad(make: () => RunStore): Promise<RunStore> {
  const store = make();
  await store.ready?.();
  return store;
}

const flush = () => new Promise((r) => setTimeout(r, 5));

describe.each(['callback', 'promise'] as const)('the GM run store with the %s tab API', (api) => {
  it("resumes the run in its own tab's next page, never in another tab's", async () => {
    const m = fakeManager();
    const tabApi = api === 'callback' ? m.callbackApi : m.promiseApi;
    const a1 = await pageLoad(() => createGmStore(m.storage, tabApi('A')));
    expect(a1.load()).toBeUndefined();
    expect(a1.save(savedRun('run-1'))).toBe(true);
    await flush();
    // A page opened in tab B meanwhile: GM storage holds the run, but tab B does not.
    const b1 = await pageLoad(() => createGmStore(m.storage, tabApi('B')));
    expect(m.values.has(gmRunKey('run-1'))).toBe(true);
    expect(b1.load()).toBeUndefined();
    // Tab A's next page (after a navigation) resumes it.
    const a2 = await pageLoad(() => createGmStore(m.storage, tabApi('A')));
    expect(a2.load()?.id).toBe('run-1');
    // A run started in tab B does not replace tab A's.
    b1.save(savedRun('run-2', 'Book'));
    await flush();
    expect((await pageLoad(() => createGmStore(m.storage, tabApi('A')))).load()?.task).toBe('Sign up');
    expect((await pageLoad(() => createGmStore(m.storage, tabApi('B')))).load()?.task).toBe('Book');
    // The end of the run removes it and tab A's claim.
    a2.clear();
    await flush();
    expect(m.values.has(gmRunKey('run-1'))).toBe(false);
    expect(m.tabs.get('A')?.[TAB_RUN_KEY]).toBeUndefined();
    expect((await pageLoad(() => createGmStore(m.storage, tabApi('A')))).load()).toBeUndefined();
  });
});

describe('the GM run store', () => {
  it('a run saved before the tab object arrived is claimed for this tab once it does', async () => {
    const m = fakeManager();
    const store = createGmStore(m.storage, m.callbackApi('A'));
    store.save(savedRun('early'));
    expect(store.load()?.id).toBe('early');
    await store.ready?.();
    await flush();
    expect(m.tabs.get('A')?.[TAB_RUN_KEY]).toBe('early');
    expect((await pageLoad(() => createGmStore(m.storage, m.callbackApi('A')))).load()?.id).toBe('early');
    expect((await pageLoad(() => createGmStore(m.storage, m.callbackApi('C')))).load()).toBeUndefined();
  });

  it('a tab claim naming a run that GM storage no longer holds (or holds stale) resumes nothing', async () => {
    const m = fakeManager();
    let now = 1_000_000;
    const a1 = await pageLoad(() => createGmStore(m.storage, m.callbackApi('A'), { now: () => now }));
    a1.save(savedRun('old'));
    await flush();
    now += 120_000;
    expect((await pageLoad(() => createGmStore(m.storage, m.callbackApi('A'), { now: () => now }))).load()).toBeUndefined();
  });

  it('a manager that never answers GM_getTab: the page resumes nothing, and does not hang', async () => {
    const m = fakeManager();
    m.values.set(gmRunKey('run-1'), JSON.stringify({ at: Date.now(), value: JSON.stringify(savedRun('run-1')) }));
    const silent = gmTab({ GM_getTab: () => undefined, GM_saveTab: () => undefined })!;
    const store = await pageLoad(() => createGmStore(m.storage, silent, { tabWaitMs: 20 }));
    expect(store.load()).toBeUndefined();
  });

  it('without a tab API (Violentmonkey) a run lives only in its page: the next page load resumes nothing', async () => {
    const m = fakeManager();
    expect(gmTab({})).toBeUndefined();
    expect(gmTab({ GM: {} })).toBeUndefined();
    const page1 = await pageLoad(() => createGmStore(m.storage, undefined));
    page1.save(savedRun('run-1'));
    // The page itself still sees its own run (a navigation that did not happen goes on here).
    expect(page1.load()?.id).toBe('run-1');
    expect(m.values.size).toBe(0);
    const page2 = await pageLoad(() => createGmStore(m.storage, undefined));
    expect(page2.load()).toBeUndefined();
  });
});
