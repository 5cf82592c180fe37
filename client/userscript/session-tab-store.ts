/**
 * The run store for managers with storage but no per-tab object (Violentmonkey): a run goes on
 * across the pages of one site in its tab, and no other tab picks it up.
 *
 * The tab is named by a random id in the page's sessionStorage (each tab has its own, for each
 * origin); the run's state lives in the manager's storage under that id and the origin, where
 * the page cannot read it. Three rules keep a run in its tab:
 * - The id changes at every page load: the new page takes the run over under an id of its own,
 *   so an id a page saw is good for no other page after the next load.
 * - A page takes over only a run its page left (saved as the page went away) and fresh (60 s):
 *   a tab that copied the id (window.open, "Duplicate tab") while the run went on in its own
 *   tab finds a run still at work and leaves it there.
 * - One page takes it: the run moves from the old id to the new one, and the old id holds nothing.
 * A run that leaves the site does not follow (sessionStorage belongs to one origin).
 *
 * @example
 * const store = createSessionTabStore(gmStorage, { session: () => sessionStorage, origin: location.origin });
 * await store.ready?.(); // then store.load() is this tab's run, if its last page left one
 */
import { createRunStore, type RunStore } from '../agent/persist';
import { GM_RUN_MAX_AGE_MS, memoryRunStore, type GmStorage } from './store';

/** The page's sessionStorage key of the tab's id. */
export const TAB_ID_KEY = 'pagehand:tab';
const PREFIX = 'pagehand:run:tab:';
/** The GM key of the run a tab holds on one origin. */
export const tabRunKey = (origin: string, id: string): string => `${PREFIX}${origin} ${id}`;
const ID = /^[A-Za-z0-9_-]{16,64}$/;

interface Entry {
  at: number;
  value: string;
  /** Saved as its page went away: the tab's next page may take it. */
  leaving?: true;
}

export interface SessionTabStoreOptions {
  /** The page's sessionStorage (undefined or throwing where storage is off: then nothing resumes). */
  session: () => Pick<Storage, 'getItem' | 'setItem'> | undefined;
  origin: string;
  now?: () => number;
  newId?: () => string;
  /** GM_listValues, where granted: entries left by closed tabs are swept. */
  list?: () => string[];
}

/** 128 random bits, URL-safe. */
export function randomTabId(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...b))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

export function createSessionTabStore(gm: GmStorage, o: SessionTabStoreOptions): RunStore {
  let session: Pick<Storage, 'getItem' | 'setItem'> | undefined;
  try {
    session = o.session();
  } catch {
    session = undefined;
  }
  if (!session) return memoryRunStore();
  const tabs = session;
  const now = o.now ?? Date.now;
  const newId = o.newId ?? randomTabId;

  const read = (key: string): Entry | undefined => {
    try {
      const raw = gm.getValue(key, null);
      const e = typeof raw === 'string' ? (JSON.parse(raw) as Entry) : undefined;
      return e && typeof e.at === 'number' && typeof e.value === 'string' ? e : undefined;
    } catch {
      return undefined;
    }
  };
  const fresh = (e: Entry): boolean => now() - e.at <= GM_RUN_MAX_AGE_MS;

  const sweep = (): void => {
    let keys: string[];
    try {
      keys = o.list?.() ?? [];
    } catch {
      return;
    }
    for (const k of keys) {
      if (typeof k !== 'string' || !k.startsWith(PREFIX)) continue;
      const e = read(k);
      // A run still at work saves again before its page goes: deleting a quiet one loses nothing.
      if (!e || !fresh(e)) gm.deleteValue(k);
    }
  };

  let key: string | undefined;
  /** This page's key: taken once, moving the run its tab's last page left (if any) under it. */
  const mine = (): string => {
    if (key) return key;
    const id = newId();
    key = tabRunKey(o.origin, id);
    try {
      const prev = tabs.getItem(TAB_ID_KEY);
      if (prev && ID.test(prev)) {
        const old = tabRunKey(o.origin, prev);
        const e = read(old);
        if (e?.leaving && fresh(e)) {
          gm.setValue(key, JSON.stringify({ at: e.at, value: e.value }));
          gm.deleteValue(old);
        }
      }
      tabs.setItem(TAB_ID_KEY, id);
      sweep();
    } catch {
      /* storage refused: this page's run stays on this page */
    }
    return key;
  };

  const store = createRunStore(() => ({
    get: () => {
      const e = read(mine());
      return e && fresh(e) ? e.value : null;
    },
    set: (_k, value, leaving) => gm.setValue(mine(), JSON.stringify({ at: now(), value, ...(leaving ? { leaving: true } : {}) })),
    remove: () => gm.deleteValue(mine()),
  }));
  return {
    ...store,
    ready: async () => void mine(),
  };
}
