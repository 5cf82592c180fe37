// @vitest-environment happy-dom
/**
 * The overlay's pure parts: what each run event does to the panel's view (the reducer) and what
 * it remembers (layout in localStorage, task history in sessionStorage). The languages:
 * ui-i18n.test.ts.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Ref } from '../../client/page/page-types';
import type { RunEvents, RunResult } from '../../client/agent/public-types';
import { callLabel } from '../../client/ui/labels';
import { pointFor } from '../../client/ui/mask';
import { reduce, type RunView, type UiEvent } from '../../client/ui/state';
import {
  HISTORY_KEY,
  HISTORY_MAX,
  LAYOUT_KEY,
  loadHistory,
  loadLayout,
  loadLog,
  LOG_MAX,
  placeIn,
  recordTask,
  saveLayout,
  saveLog,
} from '../../client/ui/storage';

/** Refs are branded strings in the contract. */
const ref = (r: string): Ref => r as Ref;
const usage = { promptTokens: 100, completionTokens: 20 };
const step = (p: Partial<RunEvents['step']>): UiEvent => ({
  type: 'step',
  now: 10_000,
  p: { step: 1, maxSteps: 50, phase: 'start', usage, elapsedMs: 1500, url: 'https://x.test/', ...p },
});
const result = (r: Partial<RunResult>): RunResult => ({ ok: true, summary: 'ok', steps: 2, usage, ...r });

function run(...events: UiEvent[]): RunView {
  let v = reduce(undefined, { type: 'attach', id: 'r1', task: 'Buy a grinder', paused: false, resumed: false, now: 0 });
  for (const e of events) v = reduce(v, e);
  return v!;
}

describe('reducer: run events → panel view', () => {
  it('ignores events before a run is attached', () => {
    expect(reduce(undefined, step({}))).toBeUndefined();
  });

  it('a step: start, streamed thinking, then its reasoning; progress from the event', () => {
    let v = run(step({}), step({ phase: 'thinking', text: 'I see a search box' }));
    expect(v.entries).toEqual([{ kind: 'step', step: 1, actions: [], thinking: 'I see a search box' }]);
    v = reduce(v, step({ phase: 'planned', reasoning: { evaluation: 'fine', memory: 'm', nextGoal: 'search' }, elapsedMs: 2000 }))!;
    const s = v.entries[0];
    expect(s).toMatchObject({ kind: 'step', step: 1, thinking: undefined, reasoning: { nextGoal: 'search', evaluation: 'fine', memory: 'm' } });
    expect(v).toMatchObject({ step: 1, maxSteps: 50, tokens: 120, elapsedMs: 2000, startedAt: 8000, status: 'running' });
    v = reduce(v, step({ step: 2 }))!;
    expect(v.entries.map((e) => e.kind === 'step' && e.step)).toEqual([1, 2]);
  });

  it('an action: start marks what the mask highlights, end fills in the result under the same step', () => {
    const target = { ref: ref('12'), role: 'button', name: 'Place order', rect: { x: 10, y: 20, width: 100, height: 30 } };
    const call = { name: 'click', args: { ref: '12' } };
    let v = run(step({}), { type: 'action', p: { step: 1, phase: 'start', call, target } });
    expect(v.acting).toEqual({ call, target, result: undefined });
    v = reduce(v, { type: 'action', p: { step: 1, phase: 'end', call, target, result: { ok: true, message: 'Clicked.', changes: {} } } })!;
    expect(v.acting).toBeUndefined();
    const s = v.entries[0]!;
    expect(s.kind === 'step' && s.actions).toEqual([{ call, target, result: { ok: true, message: 'Clicked.', changes: {} } }]);
  });

  it('messages and non-fatal errors are log lines; a fatal error is kept for the end card', () => {
    let v = run(
      { type: 'message', p: { text: 'Resumed on …', from: 'agent' } },
      { type: 'error', p: { message: 'rate limited', code: 'http_429', fatal: false, retryInMs: 2000, said: { code: 'model', why: 'http_429' } } },
    );
    expect(v.entries).toEqual([
      { kind: 'message', text: 'Resumed on …', from: 'agent' },
      { kind: 'error', message: 'rate limited', code: 'http_429', fatal: false, retryInMs: 2000, said: { code: 'model', why: 'http_429' } },
    ]);
    v = reduce(v, { type: 'error', p: { message: 'The model call failed: 500', code: 'http_500', fatal: true, said: { code: 'model', why: 'http_500' } } })!;
    // Kept with its code, for the end card to word in the panel's language.
    expect(v.error).toEqual({ message: 'The model call failed: 500', code: 'http_500', fatal: true, said: { code: 'model', why: 'http_500' } });
    expect(v.entries).toHaveLength(2);
    v = reduce(v, { type: 'done', now: 5000, p: { result: result({ ok: false, reason: 'model_error', summary: 'The model call failed: 500' }) } })!;
    expect(v.status).toBe('failed');
  });

  it('confirm shows the card until answered; ask until answered, and the answer goes in the log', () => {
    const respond = vi.fn();
    const request = { kind: 'payment' as const, call: { name: 'click', args: { ref: '3' } }, reason: 'It pays.' };
    let v = run({ type: 'confirm', p: { request, respond } });
    expect(v.confirm?.request).toBe(request);
    v = reduce(v, { type: 'confirmed', allowed: false })!;
    expect(v.confirm).toBeUndefined();
    // Kept for the run's report: in which step, what was asked, the answer.
    expect(v.asked).toEqual([[v.step, request, false]]);
    v = reduce(v, { type: 'ask', p: { question: 'Which size?' } })!;
    expect(v.ask).toBe('Which size?');
    v = reduce(v, { type: 'answered', text: 'Large' })!;
    expect(v.ask).toBeUndefined();
    expect(v.entries.at(-1)).toEqual({ kind: 'message', text: 'Large', from: 'user' });
  });

  it('pause drops the highlight; resume keeps running', () => {
    const call = { name: 'click', args: { ref: '1' } };
    let v = run({ type: 'action', p: { step: 1, phase: 'start', call } });
    v = reduce(v, { type: 'pause', p: { paused: true } })!;
    expect(v).toMatchObject({ paused: true, acting: undefined, status: 'running' });
    v = reduce(v, { type: 'pause', p: { paused: false } })!;
    expect(v.paused).toBe(false);
  });

  it('done: success, stopped, and a failure; a pending card goes away; a moved copy changes nothing', () => {
    const respond = vi.fn();
    const pending = run(step({}), { type: 'confirm', p: { request: { kind: 'sending', call: { name: 'click', args: {} }, reason: 'r' }, respond } });
    const ok = reduce(pending, { type: 'done', now: 9000, p: { result: result({ summary: 'Ordered.' }) } })!;
    expect(ok).toMatchObject({ status: 'done', confirm: undefined, result: { summary: 'Ordered.' }, elapsedMs: 9000 - pending.startedAt });
    expect(reduce(pending, { type: 'done', now: 1, p: { result: result({ ok: false, reason: 'stopped' }) } })!.status).toBe('stopped');
    expect(reduce(pending, { type: 'done', now: 1, p: { result: result({ ok: false, reason: 'max_steps' }) } })!.status).toBe('failed');
    expect(reduce(pending, { type: 'done', now: 1, p: { result: result({ ok: false, reason: 'moved' }) } })).toBe(pending);
  });

  it('resumed: from the attach or the first step after a navigation, until dismissed', () => {
    expect(run(step({ resumed: true })).resumed).toBe(true);
    const v = reduce(undefined, { type: 'attach', id: 'r', task: 't', paused: false, resumed: true, now: 0 })!;
    expect(v.resumed).toBe(true);
    expect(reduce(v, { type: 'dismissResume' })!.resumed).toBe(false);
  });

  it('attaching the same run again keeps its log; a new run starts clean', () => {
    const v = run(step({}));
    expect(reduce(v, { type: 'attach', id: 'r1', task: 'Buy a grinder', paused: true, resumed: false, now: 1 })).toMatchObject({
      entries: v.entries,
      paused: true,
    });
    expect(reduce(v, { type: 'attach', id: 'r2', task: 'Other', paused: false, resumed: false, now: 1 })).toMatchObject({ entries: [], task: 'Other' });
  });
});

describe('labels and the pointer', () => {
  it('a call reads as tool, ref, role, name and its main argument', () => {
    const target = { ref: ref('4'), role: 'searchbox', name: 'Search mail', rect: { x: 0, y: 0, width: 10, height: 10 } };
    expect(callLabel({ name: 'type', args: { ref: '4', text: 'ernesto' } }, target)).toBe('type [4] searchbox "Search mail" — ernesto');
    expect(callLabel({ name: 'navigate', args: { url: '/inbox' } })).toBe('navigate — /inbox');
  });

  it("the pointer goes to the middle of the target, or click_at's point", () => {
    const rect = { x: 10, y: 20, width: 100, height: 40 };
    expect(pointFor({ call: { name: 'click', args: {} }, target: { ref: ref('1'), role: 'button', name: '', rect } })).toEqual({ x: 60, y: 40 });
    expect(pointFor({ call: { name: 'click_at', args: { x: 5, y: 7 } } })).toEqual({ x: 5, y: 7 });
    expect(pointFor({ call: { name: 'wait', args: {} } })).toBeUndefined();
  });
});

describe('storage', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });

  it('layout round-trips under one pagehand: key; junk falls back to the default', () => {
    expect(loadLayout()).toMatchObject({ x: undefined, width: 380, collapsed: false });
    saveLayout({ x: 40, y: 50, width: 300, height: 400, collapsed: true });
    expect(JSON.parse(localStorage.getItem(LAYOUT_KEY)!)).toMatchObject({ x: 40, width: 300 });
    expect(loadLayout()).toEqual({ x: 40, y: 50, width: 300, height: 400, collapsed: true });
    localStorage.setItem(LAYOUT_KEY, '{not json');
    expect(loadLayout().width).toBe(380);
  });

  it('placement keeps the panel whole on screen: default corner, a 360 px phone, a saved place off screen', () => {
    const def = { width: 380, height: 540, collapsed: false };
    expect(placeIn(def, 1280, 800)).toEqual({ x: 1280 - 380 - 12, y: 800 - 540 - 12, width: 380, height: 540 });
    const phone = placeIn(def, 360, 640);
    expect(phone.width).toBe(344);
    expect(phone.x).toBeGreaterThanOrEqual(8);
    expect(phone.x + phone.width).toBeLessThanOrEqual(352);
    const off = placeIn({ ...def, x: 5000, y: -200 }, 1280, 800);
    expect(off).toMatchObject({ x: 1280 - 380 - 8, y: 8 });
  });

  it('history: newest first, one entry per task, at most HISTORY_MAX, in sessionStorage', () => {
    recordTask({ task: 'a', at: 1 });
    recordTask({ task: 'b', at: 2 });
    recordTask({ task: 'a', ok: true, at: 3 });
    expect(loadHistory()).toEqual([
      { task: 'a', ok: true, at: 3 },
      { task: 'b', at: 2 },
    ]);
    for (let i = 0; i < 20; i++) recordTask({ task: `t${i}`, at: i });
    expect(loadHistory()).toHaveLength(HISTORY_MAX);
    expect(loadHistory()[0]!.task).toBe('t19');
    expect(sessionStorage.getItem(HISTORY_KEY)).toContain('t19');
  });

  it('the log carried over a navigation is read back only by the same run, newest LOG_MAX entries', () => {
    const entries = Array.from({ length: LOG_MAX + 5 }, (_, i) => ({ kind: 'message', text: `m${i}`, from: 'agent' }));
    saveLog('run-1', entries);
    expect(loadLog('run-2')).toBeUndefined();
    const back = loadLog<{ text: string }>('run-1')!;
    expect(back).toHaveLength(LOG_MAX);
    expect(back[0]!.text).toBe('m5');
    const v = reduce(undefined, { type: 'attach', id: 'run-1', task: 't', paused: false, resumed: true, now: 0, entries: back as never });
    expect(v!.entries).toHaveLength(LOG_MAX);
  });
});
