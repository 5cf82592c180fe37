/**
 * What the model is told about earlier steps, within the prompt budget: the last step's
 * results in full, every earlier step as one line (goal, calls, results, what changed), the
 * oldest left out first when the budget is short. Pure. Every part of a line the model or the
 * page wrote (a goal, a call's arguments, a result quoting the page) is cleaned of the run's
 * value on its own (`fence`: page/map/fence.ts) before it is joined to the line.
 */
import { clean } from '../page/map/fence';
import { estimateTokens } from '../page/map/tokens';
import type { RiskKind } from './public-types';

export interface ActionRecord {
  /** `click [12]`, `type [3] "ernesto"`. */
  call: string;
  ok: boolean;
  /** The action's result sentence(s), as the model read them. */
  result: string;
  /** What the call was judged to do, when it needed the user's yes (agent/honest.ts reads it at the end). */
  kind?: RiskKind;
  /** It did not run: not allowed. */
  denied?: true;
  /** The name of the element it acted on. */
  target?: string;
}

export interface StepRecord {
  step: number;
  goal?: string;
  actions: ActionRecord[];
  /** The page's URL when the step was planned. */
  url: string;
}

const LINE_RESULT_MAX = 160;
export const FULL_RESULT_MAX = 4000;

const oneLine = (s: string, max: number): string => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};

/** A short description of a call for history and messages: `click [12]`, `type [3] "ernesto" +Enter` (calls.ts gives it canonical values). */
export function describeCall(name: string, args: Record<string, unknown>): string {
  const parts = [name];
  if (args.ref !== undefined) parts.push(`[${String(args.ref)}]`);
  for (const [k, v] of Object.entries(args)) {
    if (k === 'ref' || v === undefined || v === null) continue;
    if (k === 'submit') {
      if (v === true) parts.push('+Enter');
      continue;
    }
    const s = typeof v === 'string' ? JSON.stringify(oneLine(v, 60)) : JSON.stringify(v);
    parts.push(k === 'text' || k === 'option' || k === 'query' || k === 'url' || k === 'key' ? s : `${k}=${s}`);
  }
  return parts.join(' ');
}

/** One line for an earlier step. */
export function stepLine(s: StepRecord, fence?: string): string {
  const acts = s.actions.map((a) => `${clean(a.call, fence)} → ${a.ok ? '' : 'FAILED: '}${oneLine(clean(a.result, fence), LINE_RESULT_MAX)}`).join('; ');
  return `${s.step}. ${s.goal ? `${oneLine(clean(s.goal, fence), 100)} | ` : ''}${acts || '(no action)'}`;
}

/** The last step's results, in full (bounded), one entry per call. */
export function fullResults(s: StepRecord | undefined, fence?: string, max = FULL_RESULT_MAX): string[] {
  if (!s) return [];
  const head = `Step ${s.step}${s.goal ? ` (goal: ${oneLine(clean(s.goal, fence), 160)})` : ''}:`;
  return [
    head,
    ...s.actions.map((a) => {
      const result = clean(a.result, fence);
      const r = result.length > max ? `${result.slice(0, max)}… (cut)` : result;
      return `${clean(a.call, fence)} → ${a.ok ? 'ok' : 'FAILED'}: ${r}`;
    }),
  ];
}

/** How the loop records the user's answer to ask_user (run.ts). */
const ANSWER_PREFIX = 'The user answered: ';
/** At most this many answers, the latest, each cut to ANSWER_MAX characters. */
const ANSWERS_KEPT = 5;
const ANSWER_MAX = 500;

/**
 * What the user answered to the model's ask_user questions, oldest first: the user's own words,
 * which the prompt shows apart from the step log (the question is the model's and may quote
 * the page; the answer is trusted).
 */
export function userAnswers(steps: readonly StepRecord[]): string[] {
  const out: string[] = [];
  for (const s of steps) {
    for (const a of s.actions) {
      if (!a.ok || !/^ask_user\b/.test(a.call) || !a.result.startsWith(ANSWER_PREFIX)) continue;
      const answer = oneLine(a.result.slice(ANSWER_PREFIX.length), ANSWER_MAX);
      if (answer) out.push(`Step ${s.step}: ${answer}`);
    }
  }
  return out.slice(-ANSWERS_KEPT);
}

/**
 * Earlier steps (all but the last) as lines, newest kept first, within `budget` tokens.
 * @returns the lines oldest first, and how many were left out.
 */
export function fitHistory(steps: StepRecord[], budget: number, fence?: string): { lines: string[]; omitted: number } {
  const earlier = steps.slice(0, -1);
  const lines: string[] = [];
  let used = 0;
  for (let i = earlier.length - 1; i >= 0; i--) {
    const line = stepLine(earlier[i]!, fence);
    const cost = estimateTokens(line) + 1;
    if (used + cost > budget) return { lines: lines.reverse(), omitted: i + 1 };
    used += cost;
    lines.push(line);
  }
  return { lines: lines.reverse(), omitted: 0 };
}
