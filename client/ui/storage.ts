/**
 * What the overlay remembers: where the panel sits and how big it is (localStorage, one
 * `pagehand:ui` key, so every page of the site opens it in the same place); whether it is open
 * or folded to the launcher (sessionStorage `pagehand:panel`: a panel, like a run, belongs to its
 * tab — another tab of the site, or a new one, starts with the launcher); and the last few
 * tasks (sessionStorage `pagehand:history`, this tab and site only); and the language the user
 * picked in the panel's menu (localStorage `pagehand:lang`, beside the place: a preference of the
 * site's every page). Storage that throws (disabled, full, sandboxed) only loses the memory. The
 * conversation is kept in sessionStorage (`pagehand:thread`) only on the site's own pages (see
 * `sessionThreadStore`); on a stranger's page never in any of these: the page can read them. The
 * list of tasks and the run's log likewise: on a stranger's page only in a store out of its reach
 * (`KeptStore`: the userscript's tab object), else nowhere.
 */
import type { LauncherPosition, ThreadTurn } from '../agent/public-types';

export const LAYOUT_KEY = 'pagehand:ui';
export const PANEL_KEY = 'pagehand:panel';
export const HISTORY_KEY = 'pagehand:history';
export const HISTORY_MAX = 8;
export const LOG_KEY = 'pagehand:log';
export const LANG_KEY = 'pagehand:lang';
export const THREAD_KEY = 'pagehand:thread';
/** Entries carried over a navigation (the newest). */
export const LOG_MAX = 60;

export interface Layout {
  /** Top-left corner in viewport pixels; undefined means the default corner. */
  x?: number;
  y?: number;
  width: number;
  height: number;
  collapsed: boolean;
}

export interface HistoryItem {
  task: string;
  /** How it ended; absent while it runs. */
  ok?: boolean;
  at: number;
}

export const DEFAULT_LAYOUT: Layout = { width: 380, height: 540, collapsed: false };

function store(kind: 'localStorage' | 'sessionStorage'): Storage | undefined {
  try {
    return window[kind];
  } catch {
    return undefined;
  }
}

function read<T>(kind: 'localStorage' | 'sessionStorage', key: string): T | undefined {
  try {
    const raw = store(kind)?.getItem(key);
    return raw ? (JSON.parse(raw) as T) : undefined;
  } catch {
    return undefined;
  }
}

function write(kind: 'localStorage' | 'sessionStorage', key: string, value: unknown): void {
  try {
    store(kind)?.setItem(key, JSON.stringify(value));
  } catch {
    /* the memory is lost, nothing else */
  }
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** `collapsedByDefault`: for the embed, whose first look in a tab is the launcher until the user opens it. */
export function loadLayout(collapsedByDefault = false): Layout {
  const s = read<Partial<Layout>>('localStorage', LAYOUT_KEY) ?? {};
  const panel = read<string>('sessionStorage', PANEL_KEY);
  return {
    x: num(s.x),
    y: num(s.y),
    width: num(s.width) ?? DEFAULT_LAYOUT.width,
    height: num(s.height) ?? DEFAULT_LAYOUT.height,
    collapsed: panel === 'collapsed' || (panel !== 'open' && collapsedByDefault),
  };
}

export function saveLayout({ collapsed, ...box }: Layout): void {
  write('localStorage', LAYOUT_KEY, box);
  write('sessionStorage', PANEL_KEY, collapsed ? 'collapsed' : 'open');
}

/**
 * The panel's box in a viewport: the saved place, kept whole on screen (a smaller window, a
 * phone at 360 px); until the user moves it, the site's corner (default bottom-right) with a
 * 12 px margin.
 */
export function placeIn(l: Layout, vw: number, vh: number, corner: LauncherPosition = 'bottom-right'): { x: number; y: number; width: number; height: number } {
  const m = 8;
  const width = Math.max(240, Math.min(l.width, vw - 2 * m));
  const height = Math.max(200, Math.min(l.height, vh - 2 * m));
  const x = Math.min(Math.max(l.x ?? (corner.endsWith('left') ? 12 : vw - width - 12), m), Math.max(m, vw - width - m));
  const y = Math.min(Math.max(l.y ?? (corner.startsWith('top') ? 12 : vh - height - 12), m), Math.max(m, vh - height - m));
  return { x, y, width, height };
}

/** Where the tab's list of tasks and the run's log are kept, by key (values as JSON would carry them). */
export interface KeptStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
}

/** The tab's sessionStorage: a site's own pages. */
export const sessionKept: KeptStore = { get: (key) => read('sessionStorage', key), set: (key, value) => write('sessionStorage', key, value) };

export const loadHistory = (s = sessionKept): HistoryItem[] => {
  const h = s.get(HISTORY_KEY);
  return Array.isArray(h) ? (h as HistoryItem[]).filter((i) => i && typeof i.task === 'string') : [];
};

/** Newest first, one line per task text, at most HISTORY_MAX. */
export function recordTask(item: HistoryItem, s = sessionKept): HistoryItem[] {
  const list = [item, ...loadHistory(s).filter((i) => i.task !== item.task)].slice(0, HISTORY_MAX);
  s.set(HISTORY_KEY, list);
  return list;
}

/**
 * The run's log, saved as the page goes away and read back by the next page of the same run,
 * so the panel there shows the steps taken before the navigation too.
 */
export function saveLog(id: string, entries: unknown[], s = sessionKept): void {
  s.set(LOG_KEY, { id, entries: entries.slice(-LOG_MAX) });
}

export function loadLog<T>(id: string, s = sessionKept): T[] | undefined {
  const l = s.get(LOG_KEY) as { id?: string; entries?: T[] } | undefined;
  return l?.id === id && Array.isArray(l.entries) ? l.entries : undefined;
}

/** The list of tasks and the run's log, kept in `s` (none: kept nowhere). */
export const keptIn = (s: KeptStore | undefined) =>
  s && {
    history: () => loadHistory(s),
    record: (item: HistoryItem) => recordTask(item, s),
    saveLog: (id: string, entries: unknown[]) => saveLog(id, entries, s),
    loadLog: <T>(id: string) => loadLog<T>(id, s),
  };

type Box = { x: number; y: number; width: number; height: number };

/**
 * CSS offsets from the viewport edges of `corner`: anchored there, a launcher whose width
 * follows its text grows away from the edge and never off screen.
 */
export function launcherAnchor(box: Box, corner: LauncherPosition, vw: number, vh: number): Record<'left' | 'right' | 'top' | 'bottom', string | undefined> {
  const px = (n: number): string => `${Math.max(0, Math.round(n))}px`;
  const left = corner.endsWith('left');
  const top = corner.startsWith('top');
  return {
    left: left ? px(box.x) : undefined,
    right: left ? undefined : px(vw - box.x - box.width),
    top: top ? px(box.y) : undefined,
    bottom: top ? undefined : px(vh - box.y - box.height),
  };
}

/** The panel's conversation as kept between pages: its turns, and the id of its own run under way. */
export interface PanelThread {
  turns: ThreadTurn[];
  /** The run the panel started that may end on another page: its end continues this thread. */
  pending?: string;
}

/**
 * Where the panel's conversation survives a page load, for its tab and site. On a stranger's page
 * only a store out of the page's reach (the userscript's: the manager's per-tab object); without
 * one the conversation lives as long as the page does. On the site's own pages, the tab's
 * sessionStorage (`sessionThreadStore`).
 */
export interface ThreadStore {
  /** Resolves once load() can answer (the manager hands its tab object over asynchronously). */
  ready(): Promise<void>;
  load(): PanelThread | undefined;
  save(thread: PanelThread): void;
  clear(): void;
}

/**
 * The conversation in the tab's sessionStorage, for the site's own pages (the embed, npm,
 * pagehand.js): it goes on across the site's pages in this tab the way a run does, and is gone
 * with the tab. The site's scripts can read it there — as they can the run under way, its tasks
 * and the panel itself: the site is the party that put the copilot on its pages and serves the
 * code that runs it. A stranger's page never gets this store.
 */
export const sessionThreadStore = (): ThreadStore => ({
  ready: () => Promise.resolve(),
  load() {
    const t = read<PanelThread>('sessionStorage', THREAD_KEY);
    // A page script may have rewritten it: only turns of the right shape are painted.
    if (!Array.isArray(t?.turns) || !t.turns.every((x) => typeof x?.task === 'string' && typeof x.answer === 'string')) return undefined;
    return { turns: t.turns, ...(typeof t.pending === 'string' ? { pending: t.pending } : {}) };
  },
  save: (thread) => write('sessionStorage', THREAD_KEY, thread),
  clear() {
    try {
      store('sessionStorage')?.removeItem(THREAD_KEY);
    } catch {
      /* storage disabled: nothing was kept */
    }
  },
});

/** The language the user picked in the panel (a code; the caller checks it is one we have). */
export const loadLang = (): string | undefined => {
  const l = read<unknown>('localStorage', LANG_KEY);
  return typeof l === 'string' ? l : undefined;
};

export const saveLang = (lang: string): void => write('localStorage', LANG_KEY, lang);
