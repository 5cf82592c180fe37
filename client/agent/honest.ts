/**
 * How a run ends against what happened in it. The step log records, for every call that needed
 * the user's yes, what it would have done (its risk kind) and whether it was denied, failed or
 * ran; a `done` after such a step that nothing later made good is not taken at its word. The
 * model's words are read only to warn (`unbacked`), never to decide. Loaded when a run ends
 * (client/on-demand.ts). Pure.
 */
import type { StepRecord } from './history';
import type { AgentCall } from './calls';
import type { SavedRun } from './persist';
import type { RefusedStep, RiskKind, RunResult } from './public-types';
import { judgeAnswer } from './answer-check';

/** Whole words (`latin`, letters on neither side) or, in scripts without spaces, phrases (`other`). */
const words = (latin: string, other: string): RegExp => new RegExp(`(?<![\\p{L}\\p{N}])(?:${latin})(?![\\p{L}\\p{N}])|${other}`, 'iu');

/**
 * Words that say an effect happened, in the languages the panel speaks (a model answers in the
 * user's). Past forms only: "send" in a plan is not a claim. A match only adds a warning.
 */
const CLAIMS: ReadonlyArray<[RiskKind, RegExp]> = [
  [
    'sending',
    words(
      'sent|e-?mailed|mailed|posted|submitted|enviad[oa]s?|envié|enviei|gesendet|verschickt|abgeschickt|versendet|envoyée?s?|inviat[oaie]|verzonden|verstuurd|wysłan\\p{L}*|wysłał\\p{L}*',
      '送信しました|送りました|보냈습니다|전송했습니다|已发送|已發送|已寄出|تم الإرسال|أرسلت|נשלח|שלחתי',
    ),
  ],
  [
    'payment',
    words(
      'paid|purchased|bought|charged|pagad[oa]s?|pagué|paguei|comprad[oa]s?|compré|comprei|bezahlt|gekauft|payée?s?|achetée?s?|pagat[oaie]|acquistat[oaie]|betaald|gekocht|zapłacon\\p{L}*|zapłaci\\p{L}*|kupion\\p{L}*',
      '支払いました|購入しました|결제했습니다|구매했습니다|已支付|已付款|已购买|已購買|تم الدفع|دفعت|שולם|שילמתי',
    ),
  ],
  [
    'deletion',
    words(
      'deleted|removed|erased|eliminad[oa]s?|borrad[oa]s?|gelöscht|supprimée?s?|effacée?s?|eliminat[oaie]|cancellat[oaie]|excluíd[oa]s?|apagad[oa]s?|verwijderd|usunięt\\p{L}*|usun(ął|ęła)\\p{L}*',
      '削除しました|삭제했습니다|已删除|已刪除|تم الحذف|حذفت|נמחק|מחקתי',
    ),
  ],
  [
    'personal_data',
    words(
      'saved|stored|guardad[oa]s?|gespeichert|enregistrée?s?|sauvegardée?s?|salvat[oaie]|salv[oa]s?|opgeslagen|zapisan\\p{L}*',
      '保存しました|저장했습니다|已保存|已儲存|تم الحفظ|حفظت|נשמר|שמרתי',
    ),
  ],
];

/** What the model reads after its first `done` in a run with `verify`: the next step's map is the page as it is now. */
export const VERIFY =
  'Not finished yet: this run checks once before it ends. Compare the page below (a fresh look) with the task: if it is done, call done again with your answer; if not, go on.';

/** What the end of a run is judged to be: the steps that stand against a `done`, and the claims no step backs. */
export interface EndJudgement {
  refused: RefusedStep[];
  unbacked: RiskKind[];
}

/**
 * The risky steps that did not happen (denied, or failed) and that no later step of the same
 * kind made good, oldest first; and, for a `done` whose `summary` is given, the effects its
 * words claim that no allowed step of that kind did (besides those already refused).
 */
export function judgeEnd(history: readonly StepRecord[], summary?: string): EndJudgement {
  // By what it would do; a site's tool, or a call that could not be judged, by its own name (one tool is not another).
  const open = new Map<string, RefusedStep[]>();
  const happened = new Set<RiskKind>();
  for (const s of history)
    for (const a of s.actions) {
      if (!a.kind) continue;
      const key = a.kind === 'site_tool' || a.kind === 'unjudged' ? `${a.kind}:${/^[^\s{]*/.exec(a.call)![0]}` : a.kind;
      if (a.ok) {
        // Done now: what it would have done has happened after all.
        open.delete(key);
        happened.add(a.kind);
        continue;
      }
      const list = open.get(key) ?? [];
      list.push({ step: s.step, call: a.call, ...(a.target ? { target: a.target } : {}), kind: a.kind, outcome: a.denied ? 'denied' : 'failed' });
      open.set(key, list);
    }
  const refused = [...open.values()].flat().sort((a, b) => a.step - b.step);
  const unbacked =
    summary === undefined
      ? []
      : CLAIMS.filter(([kind, words]) => !happened.has(kind) && !refused.some((r) => r.kind === kind) && words.test(summary)).map(([kind]) => kind);
  return { refused, unbacked };
}

/** What a `done` or `fail` leads to: the end of the run, or a message back to the model (one more look, or the data again). */
export type Ending = { kind: 'verify' | 'retry'; message: string } | { kind: 'finish'; result: Omit<RunResult, 'steps' | 'usage'> };

/**
 * The end a `done` or `fail` asks for, against the run so far (`history`, the step with the
 * call included): a first `done` in a run with `verify` gets one more look; data that does not
 * match the schema goes back once; a `done` after a refused or failed risky step is not `ok`.
 */
export function ending(
  call: Extract<AgentCall, { kind: 'done' | 'fail' }>,
  history: readonly StepRecord[],
  state: Pick<SavedRun, 'options' | 'verified' | 'answerRetried'>,
  verify: boolean,
): Ending {
  if (call.kind === 'fail') {
    const { refused } = judgeEnd(history);
    return {
      kind: 'finish',
      result: {
        ok: false,
        ...(call.args.reason ? { summary: call.args.reason } : { summary: 'The agent gave up without a reason.', said: { code: 'gaveUp' } }),
        reason: 'failed',
        ...(refused.length ? { refused } : {}),
      },
    };
  }
  const { success, summary } = call.args;
  if (success && verify && !state.verified) return { kind: 'verify', message: VERIFY };
  // The answer's data against the run's schema: once back to the model with the errors.
  const v = judgeAnswer(state.options.schema, call.args, !!state.answerRetried);
  if (v.kind === 'retry') return v;
  // What happened stands against what the model says: a risky step it needed that did not happen.
  const { refused, unbacked } = judgeEnd(history, success ? summary : undefined);
  const named = { ...(refused.length ? { refused } : {}), ...(unbacked.length ? { unbacked } : {}) };
  if (v.kind === 'invalid')
    return { kind: 'finish', result: { ok: false, summary: v.summary, said: { code: 'invalidData' }, reason: 'invalid_data', ...named } };
  const ok = success && !refused.length;
  return {
    kind: 'finish',
    result: {
      ok,
      ...(summary ? { summary } : { summary: '(no summary)', said: { code: 'noSummary' } }),
      ...(ok ? {} : { reason: success ? 'refused' : 'incomplete' }),
      ...(v.data !== undefined ? { data: v.data } : {}),
      ...named,
    },
  };
}
