/**
 * The run's state in the userscript manager's storage (GM_getValue/GM_setValue): unlike
 * sessionStorage it is shared by every origin, so a run survives a cross-origin navigation.
 *
 * GM storage is also shared by every tab and outlives them, so a saved run carries the time it
 * was saved and only a fresh one is resumed: a navigation saves right before the page goes, so
 * the next page finds it seconds old, while a run left behind by a closed tab is ignored.
 */
import { createRunStore, type KeyValue, type RunStore } from '../agent/persist';

export interface GmStorage {
  getValue(key: string, fallback?: unknown): unknown;
  setValue(key: string, value: string): void;
  deleteValue(key: string): void;
}

/** How old a saved run may be and still resume on a new page. */
export const GM_RUN_MAX_AGE_MS = 60_000;

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

export function createGmStore(gm: GmStorage): RunStore {
  const kv = gmKeyValue(gm);
  return createRunStore(() => kv);
}
