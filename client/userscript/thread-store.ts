/**
 * The panel's conversation in the userscript: kept in the manager's per-tab object (./tab.ts),
 * one entry per site, so it goes on across the pages of a site in its tab, is gone when the tab
 * closes, never reaches another tab or another site, and no page script can read it. Without a
 * per-tab object (Violentmonkey, Greasemonkey) it lives as long as the page.
 */
import { threadProblem } from '../../common/thread';
import type { PanelThread, ThreadStore } from '../ui/storage';
import type { TabField } from './store';

/** The tab object's field that holds the conversations, by origin. */
export const TAB_THREADS_KEY = 'pagehandThreads';

type ByOrigin = Record<string, PanelThread>;

const byOrigin = (v: unknown): ByOrigin => (v && typeof v === 'object' && !Array.isArray(v) ? (v as ByOrigin) : {});

export function tabThreadStore(field: TabField, origin: string): ThreadStore {
  return {
    ready: () => field.ready(),
    load() {
      const t = byOrigin(field.get())[origin];
      if (!t || threadProblem(t)) return undefined;
      return { turns: t.turns, ...(typeof t.pending === 'string' ? { pending: t.pending } : {}) };
    },
    save(thread) {
      field.set({ ...byOrigin(field.get()), [origin]: thread });
    },
    clear() {
      const rest = { ...byOrigin(field.get()) };
      delete rest[origin];
      field.set(Object.keys(rest).length ? rest : undefined);
    },
  };
}
