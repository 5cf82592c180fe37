/**
 * Settle detection's document-start half: the hooks that learn of the page's own pending work
 * — fetch/XHR requests (network.ts) and short timers (a debounced search schedules its request
 * 200–500 ms after the last key) — installed before the page's scripts run (by the embed's
 * loader, whose instance the agent shares). The wait after an action is ./settle-watch.ts.
 *
 * Timers are tracked only while an action is being watched, only for delays up to
 * `MAX_TRACKED_DELAY`, and not when scheduled from inside a tracked timer (a polling loop
 * must not keep the page "busy" forever).
 */
import { learnLoopsBetweenActions } from './animations';
import { instrumentNetwork, mimic, onNetworkActivity, pendingRequests } from './network';

/**
 * Where settle learns of the page's own pending work. By default from hooks in this world
 * (`installActivityHooks`); in the headless runner, whose bundle runs in an isolated world where
 * hooks would see only its own calls, from the runner's page-world part (client/entries/runner-page.ts:
 * `answerActivityProbes`), handed over through DOM events (`usePageWorldActivity`). A page that
 * lies there can only make settle wait longer (up to its bound) or shorter.
 */
export interface PageActivity {
  /** The page's requests in flight that started at or after `since` (performance.now() time). */
  pendingRequests(since: number): number;
  /** Short timers the page scheduled during a watch that have not run yet. */
  pendingTimers(): number;
  /** Calls `fn` when a request starts or ends, or a tracked timer runs or is cleared. */
  onActivity(fn: () => void): () => void;
  /** A watch starts (true) or ends (false): short timers are tracked while any watch runs. */
  watch(on: boolean): void;
}

/** Timers longer than this (toasts that vanish after 3 s) are not waited for. */
export const MAX_TRACKED_DELAY = 1000;

export const DEFAULT_SETTLE_TIMEOUT = 5000;
export const DEFAULT_QUIET_WINDOW = 120;

// The page's own timer functions, captured at bundle load for pagehand's internal waits
// (outside a browser — a server rendering the site imports the npm entry — Node's own).
const timers = typeof window !== 'undefined' ? window : globalThis;
export const nativeSetTimeout: typeof setTimeout = timers.setTimeout.bind(timers);
export const nativeClearTimeout: typeof clearTimeout = timers.clearTimeout.bind(timers);

let watching = 0;
let inTrackedCallback = false;
const pendingTimers = new Set<unknown>();
const activityListeners = new Set<() => void>();
let timersInstalled = false;

function timerActivity(): void {
  for (const l of activityListeners) l();
}

/** Wraps `setTimeout`/`clearTimeout` so short timers scheduled during an action are waited for. */
export function instrumentTimers(win: Window & typeof globalThis = window): void {
  if (timersInstalled) return;
  timersInstalled = true;
  const set = win.setTimeout;
  const clear = win.clearTimeout;
  if (typeof set !== 'function' || typeof clear !== 'function') return;
  try {
    const wrappedSet = function setTimeout(this: unknown, handler: unknown, timeout?: number): number {
      // eslint-disable-next-line prefer-rest-params
      const args = Array.prototype.slice.call(arguments) as unknown[];
      const delay = Number(timeout) || 0;
      if (!watching || inTrackedCallback || typeof handler !== 'function' || delay > MAX_TRACKED_DELAY) {
        return (set as (...a: unknown[]) => number).apply(this, args);
      }
      args[0] = function (this: unknown): unknown {
        pendingTimers.delete(id);
        inTrackedCallback = true;
        try {
          // eslint-disable-next-line prefer-rest-params
          return (handler as (...a: unknown[]) => unknown).apply(this, arguments as unknown as unknown[]);
        } finally {
          inTrackedCallback = false;
          timerActivity();
        }
      };
      const id = (set as (...a: unknown[]) => number).apply(this, args);
      pendingTimers.add(id);
      return id;
    };
    const wrappedClear = function clearTimeout(this: unknown, id?: number): void {
      if (pendingTimers.delete(id)) timerActivity();
      // eslint-disable-next-line prefer-rest-params
      return (clear as (...a: unknown[]) => void).apply(this, arguments as unknown as unknown[]);
    };
    mimic(wrappedSet, set);
    mimic(wrappedClear, clear);
    win.setTimeout = wrappedSet as typeof setTimeout;
    win.clearTimeout = wrappedClear as typeof clearTimeout;
  } catch {
    /* frozen globals: settle relies on DOM quiet and network only */
  }
}

const localActivity: PageActivity = {
  pendingRequests: (since) => pendingRequests(since),
  pendingTimers: () => pendingTimers.size,
  onActivity(fn) {
    const offNetwork = onNetworkActivity(fn);
    activityListeners.add(fn);
    return () => {
      offNetwork();
      activityListeners.delete(fn);
    };
  },
  watch(on) {
    watching += on ? 1 : -1;
  },
};
let pageActivity: PageActivity = localActivity;

/** Installs everything settle detection needs; called once when the bundle loads. */
export function installActivityHooks(win: Window & typeof globalThis = window): void {
  if (pageActivity !== localActivity) return; // the page world watches the page (the runner)
  instrumentNetwork(win);
  instrumentTimers(win);
  // What animates on its own before any action (a ticker, a spinner) is learnt as a loop.
  if (win.document) learnLoopsBetweenActions([win.document], nativeSetTimeout, nativeClearTimeout, false);
}

/** The events of the hand-over between the runner's page world and its isolated world. */
export const ACTIVITY_EVENTS = {
  /** Page world → isolated world, on window: a request started or ended, a tracked timer ran. */
  activity: 'pagehand-runner-activity',
  /** Isolated → page world, on window: a watch starts / ends. */
  watchStart: 'pagehand-runner-watch-start',
  watchEnd: 'pagehand-runner-watch-end',
  /** Isolated → page world, cancelable, detail `{ since, atLeast }`: cancelled when that many requests are pending. */
  requests: 'pagehand-runner-requests',
  /** Isolated → page world, cancelable, detail `{ atLeast }`: cancelled when that many short timers are pending. */
  timers: 'pagehand-runner-timers',
} as const;

/** Counts asked one bit at a time stop here (the count only words a message). */
const MAX_COUNT = 20;

/**
 * The runner's page-world part: watches the page's requests and timers (as
 * `installActivityHooks` does) and answers the isolated world's questions about them. It
 * hands over counts and a pulse, never anything of the run's.
 */
export function answerActivityProbes(win: Window & typeof globalThis = window): void {
  installActivityHooks(win);
  const pulse = (): void => {
    try {
      win.dispatchEvent(new win.Event(ACTIVITY_EVENTS.activity));
    } catch {
      /* never break the page's own request or timer */
    }
  };
  localActivity.onActivity(pulse);
  const detail = (e: Event): { since: number; atLeast: number } => {
    const d = (e as CustomEvent).detail as { since?: unknown; atLeast?: unknown } | null;
    return { since: Number(d?.since) || 0, atLeast: Math.max(1, Number(d?.atLeast) || 1) };
  };
  // Watches are counted as the isolated world starts and ends them (never below zero).
  let open = 0;
  win.addEventListener(ACTIVITY_EVENTS.watchStart, () => {
    open++;
    localActivity.watch(true);
  });
  win.addEventListener(ACTIVITY_EVENTS.watchEnd, () => {
    if (open <= 0) return;
    open--;
    localActivity.watch(false);
  });
  win.addEventListener(ACTIVITY_EVENTS.requests, (e) => {
    const d = detail(e);
    if (localActivity.pendingRequests(d.since) >= d.atLeast) e.preventDefault();
  });
  win.addEventListener(ACTIVITY_EVENTS.timers, (e) => {
    if (localActivity.pendingTimers() >= detail(e).atLeast) e.preventDefault();
  });
}

/** In the runner's isolated world (before the bundle's entry runs): learn the page's activity from the page world. */
export function usePageWorldActivity(win: Window & typeof globalThis = window): void {
  const ask = (type: string, detail: object): boolean => !win.dispatchEvent(new CustomEvent(type, { cancelable: true, detail }));
  const count = (type: string, detail: object): number => {
    let n = 0;
    while (n < MAX_COUNT && ask(type, { ...detail, atLeast: n + 1 })) n++;
    return n;
  };
  pageActivity = {
    pendingRequests: (since) => count(ACTIVITY_EVENTS.requests, { since }),
    pendingTimers: () => count(ACTIVITY_EVENTS.timers, {}),
    onActivity(fn) {
      const listener = (): void => fn();
      win.addEventListener(ACTIVITY_EVENTS.activity, listener);
      return () => win.removeEventListener(ACTIVITY_EVENTS.activity, listener);
    },
    watch(on) {
      win.dispatchEvent(new Event(on ? ACTIVITY_EVENTS.watchStart : ACTIVITY_EVENTS.watchEnd));
    },
  };
}

/** Where the page's pending work is learnt now (this world's hooks, or the runner's page world). */
export const activitySource = (): PageActivity => pageActivity;
