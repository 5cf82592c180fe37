/**
 * Settle detection: after an action, wait until the DOM has been quiet for a short window and
 * the page has no pending work that the action started — fetch/XHR requests (see network.ts)
 * and short timers (a debounced search schedules its request 200–500 ms after the last key) —
 * bounded by a maximum. No fixed sleeps: the wait ends as soon as the page is quiet.
 *
 * Timers are tracked only while an action is being watched, only for delays up to
 * `MAX_TRACKED_DELAY`, and not when scheduled from inside a tracked timer (a polling loop
 * must not keep the page "busy" forever).
 */
import { instrumentNetwork, mimic, onNetworkActivity, pendingRequests } from './network';

/** Timers longer than this (toasts that vanish after 3 s) are not waited for. */
export const MAX_TRACKED_DELAY = 1000;
/** An element whose inline style changed this often during one watch is animating; ignore it. */
const ANIMATION_MUTATIONS = 6;

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
      let id: number;
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
      id = (set as (...a: unknown[]) => number).apply(this, args);
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

/** Installs everything settle detection needs; called once when the bundle loads. */
export function installActivityHooks(win: Window & typeof globalThis = window): void {
  instrumentNetwork(win);
  instrumentTimers(win);
}

export interface SettleOptions {
  /** Upper bound in ms (default 5000). */
  timeout?: number;
  /** Quiet window in ms (default 120). */
  quiet?: number;
  /** Checked on every activity; true ends the wait at once (e.g. a navigation started). */
  stopWhen?: () => boolean;
}

export interface SettleResult {
  /** True when the page went quiet (or `stopWhen` fired) before the bound. */
  settled: boolean;
  stopped: boolean;
  ms: number;
  pendingRequests: number;
  pendingTimers: number;
  /** The DOM was still changing when the bound was hit. */
  domBusy: boolean;
}

export interface ActivityWatch {
  /** Mutations seen so far (added/removed nodes and attribute changes). */
  readonly mutations: number;
  settle(options?: SettleOptions): Promise<SettleResult>;
  /** Records activity from outside (e.g. a navigation started): restarts the quiet window. */
  touch(): void;
  /** Stops observing; call once when the action is done. */
  stop(): void;
}

/**
 * Starts watching the page for activity: DOM mutations in `docs`, requests and short timers
 * started from now on. Call right before an action dispatches its first event.
 */
export function watchActivity(docs: Document[] = [document]): ActivityWatch {
  const since = performance.now();
  let lastActivity = since;
  let lastMutation = since;
  let mutations = 0;
  let stopped = false;
  let poke: (() => void) | undefined;
  const styleChanges = new WeakMap<Node, number>();

  const activity = (): void => {
    lastActivity = performance.now();
    poke?.();
  };
  const observer = new MutationObserver((records) => {
    let counted = false;
    for (const r of records) {
      if (r.type === 'attributes' && r.attributeName === 'style') {
        const n = (styleChanges.get(r.target) ?? 0) + 1;
        styleChanges.set(r.target, n);
        if (n > ANIMATION_MUTATIONS) continue; // an animation loop, not a reaction to the action
      }
      mutations++;
      counted = true;
    }
    if (counted) {
      lastMutation = performance.now();
      activity();
    }
  });
  for (const d of new Set(docs)) {
    try {
      observer.observe(d, { subtree: true, childList: true, attributes: true, characterData: true });
    } catch {
      /* a document that went away */
    }
  }
  const offNetwork = onNetworkActivity(activity);
  activityListeners.add(activity);
  watching++;

  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    observer.disconnect();
    offNetwork();
    activityListeners.delete(activity);
    watching--;
    poke = undefined;
  };

  const settle = (options: SettleOptions = {}): Promise<SettleResult> => {
    const timeout = Math.max(0, options.timeout ?? DEFAULT_SETTLE_TIMEOUT);
    const quiet = Math.max(0, options.quiet ?? DEFAULT_QUIET_WINDOW);
    const start = performance.now();
    return new Promise<SettleResult>((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let deadline: ReturnType<typeof setTimeout> | undefined;
      let done = false;
      const finish = (settled: boolean, byStop: boolean): void => {
        if (done) return;
        done = true;
        if (timer !== undefined) nativeClearTimeout(timer);
        if (deadline !== undefined) nativeClearTimeout(deadline);
        poke = undefined;
        const now = performance.now();
        resolve({
          settled,
          stopped: byStop,
          ms: now - start,
          pendingRequests: pendingRequests(since),
          pendingTimers: pendingTimers.size,
          domBusy: now - lastMutation < quiet,
        });
      };
      const check = (): void => {
        if (done) return;
        if (options.stopWhen?.()) return finish(true, true);
        const now = performance.now();
        const busy = pendingRequests(since) > 0 || pendingTimers.size > 0;
        const quietFor = now - lastActivity;
        if (!busy && quietFor >= quiet) return finish(true, false);
        if (timer !== undefined) nativeClearTimeout(timer);
        // While requests/timers are pending, their completion pokes us; otherwise re-check
        // when the quiet window would have elapsed.
        timer = busy ? undefined : nativeSetTimeout(check, Math.max(1, quiet - quietFor));
      };
      poke = check;
      deadline = nativeSetTimeout(() => {
        if (options.stopWhen?.()) return finish(true, true);
        finish(false, false);
      }, timeout);
      check();
    });
  };

  return {
    get mutations() {
      return mutations;
    },
    settle,
    touch: activity,
    stop,
  };
}
