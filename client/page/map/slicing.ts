/**
 * Work in slices: a long job checks a budget as it goes and, when its slice is used up, hands
 * the main thread back to the page (input, rendering) before going on. One implementation
 * serves both ways of running it: drained at once (no budget ever runs out) or sliced.
 *
 * A job is a generator that yields when `budget.due()` says its slice is over, and before a step
 * known to be costly (so that it starts a slice of its own); what it returns is the result. Inner loops too hot for a generator frame (the walk) take the budget and stop
 * early themselves, and the generator yields for them.
 */

/**
 * Work per slice of a sliced map or walk (ms). A long task is 50 ms of wall time: on a busy
 * machine the thread can be descheduled or collect garbage in the middle of a step that cannot
 * stop, so a slice aims far under that (15 ms slices still made 56 ms tasks at load 5 on 2 cores).
 */
export const SLICE_MS = 10;

/** Says when the current slice is used up. */
export interface Budget {
  /** True once the slice's time is spent; cheap enough to call per element. */
  due(): boolean;
}

/** A budget whose slices can be started again after a yield. */
export interface SliceBudget extends Budget {
  /** Starts a new slice (after the job yielded and got the thread back). */
  restart(): void;
}

/** A job that yields between slices and returns `T`. */
export type Sliced<T> = Generator<void, T, void>;

/** The budget of a job run in one go: never due. */
export const UNLIMITED: Budget = { due: () => false };

export interface SliceOptions {
  /** Work per slice, in ms: well under the 50 ms of a long task, with room for one costly step. */
  sliceMs: number;
  /** Read the clock only every this many `due()` calls (most calls just count down). */
  checkEvery?: number;
  now?: () => number;
}

export function sliceBudget({ sliceMs, checkEvery = 8, now = () => performance.now() }: SliceOptions): SliceBudget {
  let end = now() + sliceMs;
  let left = checkEvery;
  return {
    due() {
      if (--left > 0) return false;
      left = checkEvery;
      return now() >= end;
    },
    restart() {
      end = now() + sliceMs;
      left = checkEvery;
    },
  };
}

/** Runs a job to its end without yielding (its budget never runs out). */
export function runNow<T>(job: Sliced<T>): T {
  for (;;) {
    const r = job.next();
    if (r.done) return r.value;
  }
}

/** Runs a job slice by slice, handing the thread back to the page between slices. */
export async function runSliced<T>(job: Sliced<T>, budget: SliceBudget, pause: () => Promise<void> = pauses()): Promise<T> {
  for (;;) {
    const r = job.next();
    if (r.done) return r.value;
    await pause();
    budget.restart();
  }
}

interface Scheduler {
  yield(): Promise<void>;
}

export interface PauseOptions {
  /** The page's ordinary tasks wait at most about this long (ms) for the job. */
  plainEveryMs?: number;
  now?: () => number;
  /** A pause that keeps the job's place ahead of ordinary tasks. Default: `scheduler.yield()` where it exists. */
  prioritized?: (() => Promise<void>) | null;
  plain?: () => Promise<void>;
}

/**
 * Pauses between slices. `scheduler.yield()` lets input and rendering in and keeps the job
 * ahead of the page's ordinary tasks — which Chromium then runs only once the job is done
 * (timers, a framework's MessageChannel renders). So the first pause, and then one at least
 * every `plainEveryMs`, is a plain task instead, queued behind them. Without
 * `scheduler.yield()`, every pause is plain.
 */
export function pauses({
  plainEveryMs = 50,
  now = () => performance.now(),
  prioritized = schedulerYield(),
  plain = nextTask,
}: PauseOptions = {}): () => Promise<void> {
  let lastPlain = -Infinity;
  return () => {
    const t = now();
    if (prioritized && t - lastPlain < plainEveryMs) return prioritized();
    lastPlain = t;
    return plain();
  };
}

function schedulerYield(): (() => Promise<void>) | null {
  const s = (globalThis as { scheduler?: Partial<Scheduler> }).scheduler;
  return s && typeof s.yield === 'function' ? () => s.yield!.call(s) : null;
}

/**
 * Resolves in a later task, queued behind what the page queued meanwhile: a MessageChannel
 * message — not a zero timeout, which browsers clamp to 4 ms once nested.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}
