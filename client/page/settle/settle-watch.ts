/**
 * Settle detection's wait (the hooks that feed it are ./settle.ts): after an action, until the
 * DOM has been quiet for a short window, the page has no pending requests or short timers the
 * action started, and what moves ends — bounded by a maximum. No fixed sleeps.
 */
import { animationsEndIn } from './animations-end';
import { learnLoopsBetweenActions, stopLearningLoops, styleChurn } from './animations';
import { activitySource, DEFAULT_QUIET_WINDOW, DEFAULT_SETTLE_TIMEOUT, nativeClearTimeout, nativeSetTimeout } from './settle';
import type { Zones } from '../settings';

export interface SettleOptions {
  /** Upper bound in ms (default 5000). */
  timeout?: number;
  /** Quiet window in ms (default 120). */
  quiet?: number;
  /** Checked on every activity; true ends the wait at once (e.g. a navigation started). */
  stopWhen?: () => boolean;
  /**
   * Called when the page has been quiet for half the window (again after later activity, up to
   * WHEN_QUIET_CALLS times in one wait): work that needs a quiet page is done inside the wait
   * instead of after it.
   */
  whenQuiet?: () => void;
}

/** A page busy in bursts would have `whenQuiet`'s work done over and over: it stops here. */
const WHEN_QUIET_CALLS = 3;

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
 * started from now on. Call right before an action dispatches its first event. Animations in
 * `zones` do not count.
 */
export function watchActivity(zones: Zones, docs: Document[] = [document]): ActivityWatch {
  const since = performance.now();
  let lastActivity = since;
  let lastMutation = since;
  let mutations = 0;
  let stopped = false;
  let poke: (() => void) | undefined;
  const watched = [...new Set(docs)];
  // Inline-style changes are activity (a script animation), unless the element is a loop or
  // was already moving right before the action.
  const counts = styleChurn(stopLearningLoops(nativeClearTimeout));

  const activity = (): void => {
    lastActivity = performance.now();
    poke?.();
  };
  const observer = new MutationObserver((records) => {
    let counted = false;
    for (const r of records) {
      if (r.type === 'attributes' && r.attributeName === 'style' && !counts(r.target, performance.now())) continue;
      mutations++;
      counted = true;
    }
    if (counted) {
      lastMutation = performance.now();
      activity();
    }
  });
  for (const d of watched) {
    try {
      observer.observe(d, { subtree: true, childList: true, attributes: true, characterData: true });
    } catch {
      /* a document that went away */
    }
  }
  const source = activitySource();
  const offActivity = source.onActivity(activity);
  source.watch(true);

  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    observer.disconnect();
    offActivity();
    source.watch(false);
    poke = undefined;
    learnLoopsBetweenActions(watched, nativeSetTimeout, nativeClearTimeout);
  };

  const settle = (options: SettleOptions = {}): Promise<SettleResult> => {
    const timeout = Math.max(0, options.timeout ?? DEFAULT_SETTLE_TIMEOUT);
    const quiet = Math.max(0, options.quiet ?? DEFAULT_QUIET_WINDOW);
    const start = performance.now();
    return new Promise<SettleResult>((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let done = false;
      const finish = (settled: boolean, byStop: boolean): void => {
        if (done) return;
        done = true;
        if (timer !== undefined) nativeClearTimeout(timer);
        nativeClearTimeout(deadline);
        poke = undefined;
        const now = performance.now();
        resolve({
          settled,
          stopped: byStop,
          ms: now - start,
          pendingRequests: source.pendingRequests(since),
          pendingTimers: source.pendingTimers(),
          domBusy: now - lastMutation < quiet,
        });
      };
      /** The activity time `whenQuiet` was last called after, and how many times it was. */
      let aheadOf = -1;
      let aheadCalls = 0;
      const check = (): void => {
        if (done) return;
        if (options.stopWhen?.()) return finish(true, true);
        const now = performance.now();
        const busy = source.pendingRequests(since) > 0 || source.pendingTimers() > 0;
        const quietFor = now - lastActivity;
        if (timer !== undefined) nativeClearTimeout(timer);
        if (!busy && quietFor >= quiet) {
          // Quiet, but still moving: animations and transitions that end within the bound.
          const moving = animationsEndIn(watched, start + timeout - now, zones);
          if (!moving) return finish(true, false);
          timer = nativeSetTimeout(check, moving + 16);
          return;
        }
        if (!busy && options.whenQuiet && aheadOf !== lastActivity && aheadCalls < WHEN_QUIET_CALLS) {
          if (quietFor < quiet / 2) {
            timer = nativeSetTimeout(check, Math.max(1, quiet / 2 - quietFor));
            return;
          }
          aheadOf = lastActivity;
          aheadCalls++;
          try {
            options.whenQuiet();
          } catch {
            /* the work is redone after the wait */
          }
        }
        // While requests/timers are pending, their completion pokes us; otherwise re-check
        // when the quiet window would have elapsed.
        timer = busy ? undefined : nativeSetTimeout(check, Math.max(1, quiet - (performance.now() - lastActivity)));
      };
      poke = check;
      const deadline = nativeSetTimeout(() => {
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
