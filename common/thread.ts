/**
 * A conversation (`run(task, { thread })`, `result.thread`, the runner's `--thread FILE`, the
 * panel): the earlier tasks, their answers and where each ended. The rule for a thread a caller
 * hands in and how a turn is added, checked by the bundle and the CLI alike. Pure.
 *
 * What it carries is plain text, never a permission: a "yes" the user gave in one turn is not
 * in it, so it cannot answer a question of a later one.
 */

/** One earlier task of the conversation and how it ended. */
export interface ThreadTurn {
  /** What the user asked. */
  task: string;
  /** The answer (or, when it did not finish, what the run said about it). */
  answer: string;
  status: 'done' | 'failed' | 'stopped';
  /** The page the turn ended on. */
  url: string;
}

export interface Thread {
  /** Oldest first. */
  turns: ThreadTurn[];
}

/** Turns kept (the oldest go first); a prompt shows fewer when its budget is short. */
export const THREAD_TURNS_MAX = 20;
const TASK_MAX = 2000;
const ANSWER_MAX = 4000;
const URL_MAX = 500;
const STATUSES: ReadonlySet<string> = new Set(['done', 'failed', 'stopped']);

const cut = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** Why `thread` cannot be continued, or undefined. */
export function threadProblem(thread: unknown): string | undefined {
  if (thread === undefined) return undefined;
  if (typeof thread !== 'object' || thread === null || !Array.isArray((thread as Thread).turns))
    return 'thread must be { turns: [...] } (a previous result.thread)';
  for (const [i, t] of (thread as Thread).turns.entries()) {
    if (typeof t !== 'object' || t === null) return `thread.turns[${i}] must be an object`;
    for (const k of ['task', 'answer', 'url'] as const) if (typeof t[k] !== 'string') return `thread.turns[${i}].${k} must be a string`;
    if (!STATUSES.has(t.status)) return `thread.turns[${i}].status must be "done", "failed" or "stopped"`;
  }
  return undefined;
}

/** A checked thread's turns as kept: a copy, only the known fields, each cut to size, the newest THREAD_TURNS_MAX. */
export function keptTurns(thread: Thread | undefined): ThreadTurn[] {
  return (thread?.turns ?? []).slice(-THREAD_TURNS_MAX).map((t) => ({
    task: cut(t.task, TASK_MAX),
    answer: cut(t.answer, ANSWER_MAX),
    status: t.status,
    url: cut(t.url, URL_MAX),
  }));
}

/** The thread with one more turn at its end. */
export function withTurn(turns: readonly ThreadTurn[] | undefined, turn: ThreadTurn): Thread {
  return { turns: keptTurns({ turns: [...(turns ?? []), turn] }) };
}
