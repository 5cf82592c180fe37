/**
 * The run's state in the userscript manager's storage (GM_getValue/GM_setValue): unlike
 * sessionStorage it is shared by every origin, so a run survives a cross-origin navigation.
 *
 * GM storage is also shared by every tab and outlives them, so two things keep a run where it
 * belongs:
 * - A run belongs to one tab. The manager's per-tab object (tab.ts) names the run this tab
 *   holds, and a page resumes only that run: a page opened in another tab finds no run of its
 *   own and starts none. Each run has its own key, so runs in two tabs do not overwrite each
 *   other. Where the manager has no per-tab object there is no way to tell this tab's next page
 *   from another tab's, so a run is kept only in memory and does not go on after a page load.
 * - A saved run carries the time it was saved and only a fresh one is resumed: a navigation
 *   saves right before the page goes, so the next page finds it seconds old, while a run left
 *   behind by a page that never came back is ignored.
 */
import { createRunStore, STORAGE_KEY, type KeyValue, type RunStore } from '../agent/persist';
import type { GmTab, TabObject } from './tab';

export interface GmStorage {
  getValue(key: string, fallback?: unknown): unknown;
  setValue(key: string, value: string): void;
  deleteValue(key: string): void;
}

/** How old a saved run may be and still resume on a new page. */
export const GM_RUN_MAX_AGE_MS = 60_000;
/** Where the tab object names the run this tab holds. */
export const TAB_RUN_KEY = 'pagehandRun';
/** How long the page waits for the manager's tab object before it resumes nothing. */
export const TAB_WAIT_MS = 3000;

/** The GM key of one run's state. */
export const gmRunKey = (id: string): string => `${STORAGE_KEY}:${id}`;

export function gmKeyValue(gm: GmStorage, now: () => number = Date.now): KeyValue {
  return {
    get(key) {
      const raw = gm.getValue(key, null);
      if (typeof raw !== 'string') return null;
      try {
        const { at, value } = JSON.parse(raw) as { at?: number; value?: string };
        return typeof value === 'string' && typeof at === 'number' && now() - at <= GM_RUN_MAX_AGE_MS ? value : null;
      } catch {
        return null;
      }
    },
    set(key, value) {
      gm.setValue(key, JSON.stringify({ at: now(), value }));
    },
    remove(key) {
      gm.deleteValue(key);
    },
  };
}

/** A store that lives as long as the page: the run can tell a navigation that did not happen, and never resumes. */
export function memoryRunStore(): RunStore {
  const m = new Map<string, string>();
  return createRunStore(() => ({ get: (k) => m.get(k), set: (k, v) => void m.set(k, v), remove: (k) => void m.delete(k) }));
}

export interface GmStoreOptions {
  now?: () => number;
  tabWaitMs?: number;
}

/** One field of the manager's per-tab object, kept for as long as the tab is open, out of the page's reach. */
export interface TabField {
  ready(): Promise<void>;
  get(): unknown;
  set(value: unknown): void;
}

/**
 * The userscript's run store: GM storage bound to this tab, or memory only when either is
 * missing. `field(name)` gives other fields of the same tab object (the panel's conversation),
 * written through the same copy so neither overwrites the other.
 */
export function createGmStore(gm: GmStorage, tab: GmTab, opts?: GmStoreOptions): RunStore & { field(name: string): TabField };
export function createGmStore(gm: GmStorage | undefined, tab: GmTab | undefined, opts?: GmStoreOptions): RunStore;
export function createGmStore(gm: GmStorage | undefined, tab: GmTab | undefined, opts: GmStoreOptions = {}): RunStore & { field?(name: string): TabField } {
  if (!gm || !tab) return memoryRunStore();
  const kv = gmKeyValue(gm, opts.now);
  /** One run's state, under its own key. */
  const slot = (id: string): RunStore =>
    createRunStore(() => ({ get: () => kv.get(gmRunKey(id)), set: (_k, v) => kv.set(gmRunKey(id), v), remove: () => kv.remove(gmRunKey(id)) }));

  /** The tab object once the manager gave it; until then, what was written meanwhile. */
  let known: TabObject | undefined;
  let early: TabObject | undefined;
  /** One field of the tab object: written at once when the manager gave it, else once it does. */
  const setField = (name: string, value: unknown): void => {
    if (!known) {
      (early ??= {})[name] = value;
      return;
    }
    if (known[name] === value) return;
    const next = { ...known };
    if (value === undefined) delete next[name];
    else next[name] = value;
    known = next;
    try {
      tab.save(next);
    } catch {
      /* the manager refused: this page's run still ends or goes on here */
    }
  };
  const field = (name: string): unknown => (known ?? early ?? {})[name];
  const claimed = (): string | undefined => {
    const id = field(TAB_RUN_KEY);
    return typeof id === 'string' ? id : undefined;
  };
  const claim = (id: string | undefined): void => setField(TAB_RUN_KEY, id);

  let readying: Promise<void> | undefined;
  const ready = (): Promise<void> =>
    (readying ??= (async () => {
      let got: TabObject;
      try {
        got = await new Promise<TabObject>((resolve, reject) => {
          const t = setTimeout(() => reject(new Error('no tab object')), opts.tabWaitMs ?? TAB_WAIT_MS);
          tab
            .get()
            .then(resolve, reject)
            .finally(() => clearTimeout(t));
        });
      } catch {
        got = {}; // no answer from the manager: this tab holds no run
      }
      known = got;
      if (early) {
        const written = early;
        early = undefined;
        for (const [name, value] of Object.entries(written)) setField(name, value);
      }
    })());

  return {
    ready,
    load() {
      const id = claimed();
      const state = id === undefined ? undefined : slot(id).load();
      return state && state.id === id ? state : undefined;
    },
    save(state) {
      const ok = slot(state.id).save(state);
      claim(state.id);
      return ok;
    },
    clear() {
      const id = claimed();
      if (id !== undefined) slot(id).clear();
      claim(undefined);
    },
    field: (name) => ({ ready, get: () => field(name), set: (value) => setField(name, value) }),
  };
}
