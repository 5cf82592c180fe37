/**
 * Guards that keep a run from wasting steps: consecutive failures (back off at 3, stop at 5),
 * loops (the same action on an unchanged page 3 times, or A-B-A-B) — first a warning in the
 * prompt, then a stop — and replies without a tool call (a nudge, then a stop). Pure state,
 * serialisable so a run resumed after a navigation keeps counting.
 */
import type { Said } from './public-types';

export interface GuardState {
  /** Steps in a row with a failed call. */
  failures: number;
  /** Replies in a row without a tool call. */
  textOnly: number;
  /** `callsKey@pageKey` of recent steps, newest last. */
  recent: string[];
  /** A loop warning was already given. */
  warned: boolean;
}

export const FAILURES_BACKOFF = 3;
export const FAILURES_STOP = 5;
export const TEXT_ONLY_STOP = 3;
const RECENT = 6;

export const newGuardState = (): GuardState => ({ failures: 0, textOnly: 0, recent: [], warned: false });

export type Verdict =
  | { kind: 'ok' }
  | { kind: 'warn'; note: string }
  | { kind: 'backoff'; ms: number; note: string }
  | { kind: 'stop'; reason: string; summary: string; said: Said };

/** A short, stable key for a batch of calls. */
export function callsKey(calls: Array<{ name: string; args: Record<string, unknown> }>): string {
  return calls.map((c) => `${c.name}${JSON.stringify(c.args, Object.keys(c.args).sort())}`).join(';');
}

/** A key for what the page showed: the map without the new-ref marks (which differ each step). */
export function pageKey(mapText: string): string {
  const s = mapText.replace(/\*\[/g, '[');
  // FNV-1a: enough to tell "unchanged" from "changed".
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

/** Records one step's calls on the page they were planned on; says whether this is a loop. */
export function recordStep(g: GuardState, calls: string, page: string, describe: string): Verdict {
  g.recent = [...g.recent, `${calls}@${page}`].slice(-RECENT);
  const r = g.recent;
  const n = r.length;
  const same3 = n >= 3 && r[n - 1] === r[n - 2] && r[n - 2] === r[n - 3];
  const abab = n >= 4 && r[n - 1] === r[n - 3] && r[n - 2] === r[n - 4] && r[n - 1] !== r[n - 2];
  if (!same3 && !abab) return { kind: 'ok' };
  const what = same3 ? `repeated ${describe} 3 times on an unchanged page` : `alternated between the same two actions (${describe}) without progress`;
  if (g.warned) {
    return { kind: 'stop', reason: 'loop', summary: `Stopped: the agent ${what}, even after a warning.`, said: { code: 'loop' } };
  }
  g.warned = true;
  g.recent = [];
  return {
    kind: 'warn',
    note: `You ${what}. It is not working: do something different (scroll, find, another control, a direct URL) or finish with done/fail.`,
  };
}

/** Records whether the step's calls all worked. */
export function recordOutcome(g: GuardState, failed: boolean): Verdict {
  g.failures = failed ? g.failures + 1 : 0;
  if (g.failures >= FAILURES_STOP) {
    return { kind: 'stop', reason: 'errors', summary: `Stopped after ${g.failures} failed steps in a row.`, said: { code: 'errors', count: g.failures } };
  }
  if (g.failures >= FAILURES_BACKOFF) {
    return {
      kind: 'backoff',
      ms: 1000 * 2 ** (g.failures - FAILURES_BACKOFF),
      note: `${g.failures} steps in a row failed. Read the errors, look at the current map, and change approach.`,
    };
  }
  return { kind: 'ok' };
}

/** Records a reply with (false) or without (true) a tool call. */
export function recordTextOnly(g: GuardState, textOnly: boolean): Verdict {
  g.textOnly = textOnly ? g.textOnly + 1 : 0;
  if (g.textOnly >= TEXT_ONLY_STOP) {
    return { kind: 'stop', reason: 'no_tool_call', summary: 'Stopped: the model kept answering without calling a tool.', said: { code: 'noToolCall' } };
  }
  if (g.textOnly === 2) {
    return {
      kind: 'warn',
      note: 'Your last two replies called no tool. Every reply must call a tool: done {summary} to answer or finish, or an action to go on.',
    };
  }
  if (g.textOnly === 1) return { kind: 'warn', note: 'Your last reply called no tool. If it was your answer, call done with it.' };
  return { kind: 'ok' };
}
