/**
 * The panel's list of tasks and the run's log for its next page, in the userscript: kept in the
 * manager's per-tab object (./tab.ts), one entry per site, out of the page's reach — a
 * stranger's page reads its own sessionStorage, where a site's own pages keep them. Without a
 * per-tab object they are kept nowhere (client/ui/index.tsx).
 */
import type { KeptStore } from '../ui/storage';
import type { TabField } from './store';

/** The tab object's field that holds them, by origin. */
export const TAB_KEPT_KEY = 'pagehandKept';

type ByOrigin = Record<string, Record<string, unknown>>;

const plain = <T>(v: unknown): T => (v && typeof v === 'object' && !Array.isArray(v) ? (v as T) : ({} as T));

export function tabKeptStore(field: TabField, origin: string): KeptStore {
  return {
    get: (key) => plain<Record<string, unknown>>(plain<ByOrigin>(field.get())[origin])[key],
    set(key, value) {
      const all = plain<ByOrigin>(field.get());
      field.set({ ...all, [origin]: { ...plain<Record<string, unknown>>(all[origin]), [key]: value } });
    },
  };
}
