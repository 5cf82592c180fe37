/**
 * How a run ends against what happened in it (client/agent/honest.ts) and its budgets
 * (client/agent/budget.ts): judged on the step record — a risky step denied or failed and not
 * made good later stands against a `done` — while the model's words only add a warning, in
 * whatever language it writes.
 */
import { describe, expect, it } from 'vitest';
import { ending, judgeEnd } from '../../client/agent/honest';
import { budgetEnd, cutReply } from '../../client/agent/budget';
import type { ActionRecord, StepRecord } from '../../client/agent/history';
import type { AgentCall } from '../../client/agent/calls';
import type { SavedRun } from '../../client/agent/persist';
import type { AnswerSchema } from '../../common/answer-schema';

const step = (n: number, ...actions: ActionRecord[]): StepRecord => ({ step: n, actions, url: 'https://club.test/' });
const typed: ActionRecord = { call: 'type [3] "ada@example.org"', ok: true, result: 'Typed.' };
const saveDenied: ActionRecord = { call: 'click [5]', ok: false, result: 'The user did not allow this.', kind: 'personal_data', denied: true, target: 'Save' };
const saved: ActionRecord = { call: 'click [5]', ok: true, result: 'Clicked.', kind: 'personal_data', target: 'Save' };
const sendFailed: ActionRecord = { call: 'sendMessage {}', ok: false, result: 'sendMessage failed: no answer', kind: 'sending' };

const done = (summary: string, success = true): Extract<AgentCall, { kind: 'done' }> => ({
  kind: 'done',
  planned: { name: 'done', args: { summary, success } },
  args: { summary, success },
});
const state = (extra: Partial<SavedRun> = {}): Pick<SavedRun, 'options' | 'verified' | 'answerRetried'> => ({ options: {}, ...extra });

describe('judgeEnd: the record', () => {
  it('a denied risky step nothing later did is named, whatever the summary says', () => {
    const j = judgeEnd([step(1, typed, saveDenied), step(2)], 'Saved the profile.');
    expect(j.refused).toEqual([{ step: 1, call: 'click [5]', target: 'Save', kind: 'personal_data', outcome: 'denied' }]);
    // Already named as refused: not warned about twice.
    expect(j.unbacked).toEqual([]);
    // The words play no part in it: a summary that claims nothing gets the same.
    expect(judgeEnd([step(1, typed, saveDenied)], 'The total is $42.').refused).toHaveLength(1);
  });

  it('a failed risky step is named as failed', () => {
    expect(judgeEnd([step(1, sendFailed)]).refused).toEqual([{ step: 1, call: 'sendMessage {}', kind: 'sending', outcome: 'failed' }]);
  });

  it('a later step of the same kind that ran makes it good; one of another kind does not', () => {
    expect(judgeEnd([step(1, saveDenied), step(2, saved)]).refused).toEqual([]);
    expect(judgeEnd([step(1, sendFailed), step(2, saved)]).refused.map((r) => r.kind)).toEqual(['sending']);
    // And a step that ran before the refusal does not: the refusal came after it.
    expect(judgeEnd([step(1, saved), step(2, saveDenied)]).refused).toHaveLength(1);
  });

  it('steps that needed no yes never count, failed or not', () => {
    expect(judgeEnd([step(1, { call: 'click [9]', ok: false, result: 'Not found.' })], 'Done.').refused).toEqual([]);
  });
});

describe('judgeEnd: the words only warn', () => {
  it.each([
    ['I sent the message.', 'sending'],
    ['Nachricht gesendet.', 'sending'],
    ['Mensaje enviado al club.', 'sending'],
    ['Message envoyé.', 'sending'],
    ['メッセージを送信しました。', 'sending'],
    ['已发送消息。', 'sending'],
    ['The order is paid.', 'payment'],
    ['Bestellung bezahlt.', 'payment'],
    ['Le compte a été supprimé.', 'deletion'],
    ['アカウントを削除しました。', 'deletion'],
    ['Saved the profile.', 'personal_data'],
    ['Profil gespeichert.', 'personal_data'],
    ['프로필을 저장했습니다.', 'personal_data'],
  ])('%j claims %s, which no step did', (summary, kind) => {
    expect(judgeEnd([step(1, typed)], summary).unbacked).toEqual([kind]);
  });

  it('a claim that a step backs, or a plan in the present tense, gives no warning', () => {
    expect(judgeEnd([step(1, saved)], 'Saved the profile.').unbacked).toEqual([]);
    expect(judgeEnd([step(1, typed)], 'Send it when you are ready.').unbacked).toEqual([]);
    expect(judgeEnd([step(1, typed)], 'The order total is $42.50.').unbacked).toEqual([]);
    // No summary to read (a fail, a done without success): nothing read.
    expect(judgeEnd([step(1, typed)]).unbacked).toEqual([]);
  });
});

describe('ending', () => {
  it('a done after a refused step is not ok, with the model’s words kept as its summary', () => {
    const e = ending(done('Saved the profile.'), [step(1, typed, saveDenied), step(2)], state(), false);
    expect(e).toMatchObject({ kind: 'finish', result: { ok: false, reason: 'refused', summary: 'Saved the profile.', refused: [{ kind: 'personal_data' }] } });
  });

  it('a done with nothing against it is ok; a warning does not change that', () => {
    expect(ending(done('Saved.'), [step(1, saved)], state(), false)).toEqual({ kind: 'finish', result: { ok: true, summary: 'Saved.' } });
    expect(ending(done('Nachricht gesendet.'), [step(1, typed)], state(), false)).toEqual({
      kind: 'finish',
      result: { ok: true, summary: 'Nachricht gesendet.', unbacked: ['sending'] },
    });
  });

  it('a done with success false stays incomplete; a fail names the refused steps and stays failed', () => {
    expect(ending(done('Could not save.', false), [step(1, saveDenied)], state(), false)).toMatchObject({
      result: { ok: false, reason: 'incomplete', refused: [{ outcome: 'denied' }] },
    });
    const fail: Extract<AgentCall, { kind: 'fail' }> = { kind: 'fail', planned: { name: 'fail', args: {} }, args: { reason: 'Not allowed.' } };
    expect(ending(fail, [step(1, saveDenied)], state(), false)).toMatchObject({
      result: { ok: false, reason: 'failed', refused: [{ kind: 'personal_data' }] },
    });
  });

  it('verify: the first done gets one more look, the second ends the run', () => {
    expect(ending(done('Saved.'), [step(1, saved)], state(), true)).toMatchObject({ kind: 'verify', message: expect.stringMatching(/checks once/) });
    expect(ending(done('Saved.'), [step(1, saved)], state({ verified: true }), true)).toMatchObject({ kind: 'finish', result: { ok: true } });
    // A done that says it failed is not checked again.
    expect(ending(done('No.', false), [], state(), true)).toMatchObject({ kind: 'finish' });
  });

  it('the answer’s data still goes back once when it does not match the schema', () => {
    const schema: AnswerSchema = { type: 'object', properties: { total: { type: 'number' } }, required: ['total'] };
    const d = { ...done('Total.'), args: { summary: 'Total.', success: true, data: { total: 'x' } } };
    expect(ending(d, [], state({ options: { schema } }), false)).toMatchObject({ kind: 'retry' });
    expect(ending(d, [], state({ options: { schema }, answerRetried: true }), false)).toMatchObject({ result: { ok: false, reason: 'invalid_data' } });
  });
});

describe('budgetEnd', () => {
  it('stops at maxTokens, at maxCost, and not before', () => {
    expect(budgetEnd({ maxTokens: 100 }, { promptTokens: 60, completionTokens: 39 })).toBeUndefined();
    expect(budgetEnd({ maxTokens: 100 }, { promptTokens: 60, completionTokens: 40 })).toMatchObject({ ok: false, reason: 'max_tokens' });
    expect(budgetEnd({ maxCost: 0.05 }, { promptTokens: 1, completionTokens: 1, cost: 0.049 })).toBeUndefined();
    expect(budgetEnd({ maxCost: 0.05 }, { promptTokens: 1, completionTokens: 1, cost: 0.05 })).toEqual({
      ok: false,
      reason: 'max_cost',
      summary: "Stopped at the run's cost budget: $0.0500 of $0.0500 spent before the task was done.",
    });
    expect(budgetEnd({}, { promptTokens: 1e9, completionTokens: 1e9, cost: 1e6 })).toBeUndefined();
  });

  it("a reply cut at the proxy's maxTokens says which limit it was", () => {
    expect(cutReply(512).message).toMatch(/cut off at 512 tokens.*maxTokens/);
    expect(cutReply(undefined).message).toMatch(/its output limit/);
  });
});

describe('judgeEnd: tools by name', () => {
  it('one site tool that ran does not make good another that was refused', () => {
    const cancel: ActionRecord = { call: 'orders_cancel {"id":"A-17"}', ok: false, result: 'The user did not allow this.', kind: 'site_tool', denied: true };
    const add: ActionRecord = { call: 'add_to_cart {"qty":2}', ok: true, result: 'Added.', kind: 'site_tool' };
    expect(judgeEnd([step(1, cancel), step(2, add)]).refused.map((r) => r.call)).toEqual(['orders_cancel {"id":"A-17"}']);
    expect(judgeEnd([step(1, cancel), step(2, { ...cancel, ok: true, denied: undefined })]).refused).toEqual([]);
  });
});
