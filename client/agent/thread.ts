/**
 * The conversation's earlier turns as a step's prompt shows them, within their share of the
 * budget: the newest turns in full, older ones compressed first (a line of each), the oldest
 * left out when even that is too much. Pure. The tasks are the user's words; each answer is the
 * model's own but may quote pages, and a URL is the page's, so those go in as data (prompt.ts).
 */
import type { ThreadTurn } from '../../common/thread';
import { estimateTokens } from '../page/map/tokens';

/** A turn as placed: `short` when it was compressed to fit. */
export interface ShownTurn {
  /** 1 for the conversation's first turn. */
  n: number;
  task: string;
  answer: string;
  status: ThreadTurn['status'];
  url: string;
  short: boolean;
}

export interface FittedThread {
  turns: ShownTurn[];
  /** Oldest turns left out to fit. */
  omitted: number;
}

/** The share of the prompt budget the earlier turns may take. */
export const THREAD_SHARE = 0.2;
const FULL_TASK = 600;
const FULL_ANSWER = 1500;
const SHORT_TASK = 120;
const SHORT_ANSWER = 200;
/** What a turn's markers and labels add to its text. */
const TURN_OVERHEAD = 30;

const oneLine = (s: string, max: number): string => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};
const clip = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

const full = (t: ThreadTurn, n: number): ShownTurn => ({
  n,
  task: clip(t.task.trim(), FULL_TASK),
  answer: clip(t.answer.trim(), FULL_ANSWER),
  status: t.status,
  url: t.url,
  short: false,
});
const short = (t: ThreadTurn, n: number): ShownTurn => ({
  n,
  task: oneLine(t.task, SHORT_TASK),
  answer: oneLine(t.answer, SHORT_ANSWER),
  status: t.status,
  url: t.url,
  short: true,
});
const cost = (s: ShownTurn): number => estimateTokens(`${s.task}\n${s.answer}\n${s.url}`) + TURN_OVERHEAD;

/** The turns that fit in `budget` tokens: oldest compressed first, then oldest left out. */
export function fitThread(turns: readonly ThreadTurn[] | undefined, budget: number): FittedThread {
  const all = turns ?? [];
  const shown = all.map((t, i) => full(t, i + 1));
  let total = shown.reduce((sum, s) => sum + cost(s), 0);
  // Compress from the oldest; the newest turn, the one a follow-up most likely means, last.
  for (let i = 0; i < shown.length && total > budget; i++) {
    const s = short(all[i]!, i + 1);
    total += cost(s) - cost(shown[i]!);
    shown[i] = s;
  }
  let omitted = 0;
  while (shown.length && total > budget) {
    total -= cost(shown.shift()!);
    omitted++;
  }
  return { turns: shown, omitted };
}

/** Tokens the fitted turns take in the prompt (with the section's heading). */
export const threadTokens = (f: FittedThread): number => (f.turns.length || f.omitted ? f.turns.reduce((sum, s) => sum + cost(s), 0) + 40 : 0);
