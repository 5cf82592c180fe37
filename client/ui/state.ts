/**
 * What the panel shows, as a pure reducer over the run handle's events (plus the few things
 * the user does to the view). The panel renders this and nothing else, so every event's
 * effect is testable without a browser.
 */
import type { ActionResult, CallTarget, ConfirmRequest, PlannedCall, Reasoning, RunEvents, RunResult, Said } from '../agent/public-types';

export interface ActionView {
  call: PlannedCall;
  target?: CallTarget;
  result?: ActionResult;
}

export interface StepView {
  kind: 'step';
  step: number;
  /** The model's streamed text while it thinks; dropped once the step is planned. */
  thinking?: string;
  reasoning?: Reasoning;
  /** What the model asked for; calls that never run as actions (done, ask_user) show from here. */
  calls?: PlannedCall[];
  actions: ActionView[];
}

export type Entry =
  | StepView
  | { kind: 'message'; text: string; from: 'model' | 'agent' | 'user' }
  | { kind: 'error'; message: string; code: string; retryInMs?: number; said?: Said };

export type Status = 'running' | 'done' | 'failed' | 'stopped';

export interface RunView {
  id: string;
  task: string;
  status: Status;
  paused: boolean;
  entries: Entry[];
  step: number;
  maxSteps: number;
  /** Date.now() minus the run's elapsed time at the last event: the clock ticks from here. */
  startedAt: number;
  /** Frozen when the run ends. */
  elapsedMs: number;
  tokens: number;
  /** What the tokens cost in US dollars, when the proxy has a price for the model. */
  cost?: number;
  /** Shown after a navigation until dismissed. */
  resumed: boolean;
  confirm?: RunEvents['confirm'];
  ask?: string;
  /** The action in progress: what the mask highlights. */
  acting?: ActionView;
  result?: RunResult;
  /** Risky calls asked about: in which step, what, and whether the user allowed it. */
  asked?: Array<[number, ConfirmRequest, boolean]>;
  /** The fatal error, when the run ended on one. */
  error?: RunEvents['error'];
}

export type UiEvent =
  | { type: 'attach'; id: string; task: string; paused: boolean; resumed: boolean; now: number; entries?: Entry[] }
  | { type: 'step'; p: RunEvents['step']; now: number }
  | { type: 'action'; p: RunEvents['action'] }
  | { type: 'message'; p: RunEvents['message'] }
  | { type: 'confirm'; p: RunEvents['confirm'] }
  | { type: 'confirmed'; allowed: boolean }
  | { type: 'ask'; p: RunEvents['ask'] }
  | { type: 'answered'; text: string }
  | { type: 'pause'; p: RunEvents['pause'] }
  | { type: 'error'; p: RunEvents['error'] }
  | { type: 'done'; p: RunEvents['done']; now: number }
  | { type: 'dismissResume' };

export const newRun = (id: string, task: string, now: number): RunView => ({
  id,
  task,
  status: 'running',
  paused: false,
  entries: [],
  step: 0,
  maxSteps: 0,
  startedAt: now,
  elapsedMs: 0,
  tokens: 0,
  resumed: false,
});

/** The step entry for `step`, created at the end of the log when missing. */
function stepEntry(entries: Entry[], step: number): [Entry[], StepView] {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (e.kind === 'step' && e.step === step) {
      const copy = { ...e, actions: [...e.actions] };
      const out = entries.slice();
      out[i] = copy;
      return [out, copy];
    }
  }
  const fresh: StepView = { kind: 'step', step, actions: [] };
  return [[...entries, fresh], fresh];
}

export function reduce(view: RunView | undefined, ev: UiEvent): RunView | undefined {
  if (ev.type === 'attach') {
    // The same run seen again (open() after run()) keeps its log.
    if (view?.id === ev.id) return { ...view, paused: ev.paused };
    return { ...newRun(ev.id, ev.task, ev.now), paused: ev.paused, resumed: ev.resumed, entries: ev.entries ?? [] };
  }
  if (!view) return view;
  switch (ev.type) {
    case 'step': {
      const p = ev.p;
      const [entries, s] = stepEntry(view.entries, p.step);
      if (p.phase === 'thinking') s.thinking = p.text;
      if (p.phase === 'planned') {
        s.thinking = undefined;
        s.reasoning = p.reasoning;
        s.calls = p.calls;
      }
      return {
        ...view,
        entries,
        step: p.step,
        maxSteps: p.maxSteps,
        startedAt: ev.now - p.elapsedMs,
        elapsedMs: p.elapsedMs,
        tokens: p.usage.promptTokens + p.usage.completionTokens,
        cost: p.usage.cost,
        resumed: view.resumed || !!p.resumed,
      };
    }
    case 'action': {
      const p = ev.p;
      const [entries, s] = stepEntry(view.entries, p.step);
      const a: ActionView = { call: p.call, target: p.target, result: p.result };
      // `end` completes the last matching `start` of this step.
      let open = -1;
      // (findLastIndex is newer than the browsers the bundle targets)
      if (p.phase === 'end')
        for (let i = s.actions.length - 1; i >= 0 && open < 0; i--) if (!s.actions[i]!.result && s.actions[i]!.call.name === p.call.name) open = i;
      if (open >= 0) s.actions[open] = a;
      else s.actions.push(a);
      return { ...view, entries, acting: p.phase === 'start' ? a : undefined };
    }
    case 'message':
      return { ...view, entries: [...view.entries, { kind: 'message', text: ev.p.text, from: ev.p.from }] };
    case 'confirm':
      return { ...view, confirm: ev.p };
    case 'confirmed':
      // The question and the answer, for the run's report (ui/save.ts).
      return { ...view, confirm: undefined, asked: [...(view.asked ?? []), [view.step, view.confirm!.request, ev.allowed]] };
    case 'ask':
      return { ...view, ask: ev.p.question };
    case 'answered':
      return { ...view, ask: undefined, entries: [...view.entries, { kind: 'message', text: ev.text, from: 'user' }] };
    case 'pause':
      return { ...view, paused: ev.p.paused, acting: ev.p.paused ? undefined : view.acting };
    case 'error': {
      const p = ev.p;
      // Fatal errors are told by the end card; retries are a line in the log.
      if (p.fatal) return { ...view, error: p };
      return { ...view, entries: [...view.entries, { ...p, kind: 'error' }] };
    }
    case 'done': {
      const r = ev.p.result;
      // Another page took the run over: this copy is about to go away; leave the view be.
      if (r.reason === 'moved') return view;
      const status: Status = r.ok ? 'done' : r.reason === 'stopped' ? 'stopped' : 'failed';
      return {
        ...view,
        status,
        result: r,
        paused: false,
        confirm: undefined,
        ask: undefined,
        acting: undefined,
        elapsedMs: ev.now - view.startedAt,
        tokens: r.usage.promptTokens + r.usage.completionTokens,
        cost: r.usage.cost,
      };
    }
    case 'dismissResume':
      return { ...view, resumed: false };
  }
}
