/**
 * One step's calls, run in order: each is confirmed when risky, announced (`action` start),
 * run by whoever runs its kind — `pagehand.act` for page actions, `find` and the site's tools
 * here — reported (`action` end) and written to the step's history record. The batch stops at
 * the first failure, when the user takes over, and when the page changed under the calls that
 * were planned for it. A full navigation parks the run (the next page goes on with it).
 */
import { act } from '../page/actions/index';
import type { ActionChanges, ActionResult } from '../page/actions/contract';
import { find } from '../page/map/find';
import type { PageSettings } from '../page/settings';
import type { PageMap, Ref } from '../page/page-types';
import { callLabel, callRef, type Call, type PageCall, type SiteCall } from './calls';
import { runExtended } from './dispatch-extras';
import type { ActionRecord, StepRecord } from './history';
import type { SavedRun } from './persist';
import type { CallTarget, CustomTool, PlannedCall, RiskKind, RunEvents, RunResult } from './public-types';
import type { Emitter } from './events';
import { agentLazy } from './lazy';
import { clock, spent } from '../page/step-parts';

export type StepOutcome = 'ok' | 'failed' | 'parked' | 'ended';

/** What a page action did, for whoever records the run (recording.ts). */
export interface ActionDone {
  step: number;
  call: PageCall;
  target?: CallTarget;
  result: ActionResult;
}

/** What the dispatch needs from its run. */
export interface DispatchHost {
  readonly state: SavedRun;
  readonly emitter: Emitter<RunEvents>;
  readonly ended: boolean;
  readonly paused: boolean;
  /** The map the calls were planned on (for the refs a rejected ref is told about). */
  readonly lastMap: PageMap | undefined;
  /** The step record in progress: saved with the state if the page unloads mid-step. */
  pending: StepRecord | undefined;
  finish(r: Omit<RunResult, 'steps' | 'usage'>): void;
  ask(question: string): Promise<string | undefined>;
  /** The first risk of the call `confirm` judged last (none: it needed no yes). */
  readonly risk?: RiskKind;
  /** Check the page once more before the run ends (`verify`). */
  readonly verify?: boolean;
  /** true: run it; a sentence: the user (or nobody) did not allow it; a result: the risk check refused it (its element is gone). */
  confirm(call: Call, target: CallTarget | undefined, goal: string | undefined): Promise<true | string | ActionResult>;
  /** An allowed page action or site tool is about to run: its recording step begins. */
  beforeAction(call: PageCall | SiteCall, target: CallTarget | undefined): void;
  /** A full navigation started: save and wait for the next page. */
  park(record: StepRecord): Promise<'parked' | 'ok'>;
  /** Something the map cannot show may have changed (a screenshot may help next step). */
  visualChanged(): void;
  /** Called after every page action that ran (also when it failed). */
  onAction?(done: ActionDone): void;
  /** The files `upload` may use here (the run's attached files, on the origin where it started). */
  files?(): readonly File[];
  /** What the page layer acts with: the site's zones and masks, the run's secrets and frames. */
  pageSettings(): PageSettings;
  /** The runner's hold at the network layer, put on around each call that acts on the page (AgentEnv.networkHold). */
  readonly holdNetwork?: () => Promise<() => Promise<void>>;
}

/** Changes after which the rest of a batch was planned on a page that no longer exists. */
function pageChanged(c: ActionChanges): boolean {
  return !!(c.navigation || c.url || c.dialogOpened?.length || c.dialogClosed?.length);
}

/** The element a call acts on, as the map showed it. */
export function targetOf(ref: Ref | undefined, map: PageMap): CallTarget | undefined {
  if (ref === undefined) return undefined;
  const el = map.elements.find((e) => e.ref === ref);
  return el ? { ref: el.ref, role: el.role, name: el.name, rect: el.rect } : undefined;
}

/** Runs one step's calls in order. */
export async function runStep(host: DispatchHost, step: number, calls: Call[], goal: string | undefined, map: PageMap): Promise<StepOutcome> {
  const record: StepRecord = { step, goal, actions: [], url: location.href };
  host.pending = record;
  const push = (a: ActionRecord): void => void record.actions.push(a);
  const notes = host.state.notes;
  let failed = false;
  try {
    for (let i = 0; i < calls.length; i++) {
      if (host.ended) return 'ended';
      if (host.paused && i > 0) {
        notes.push(`The user took over, so the ${calls.length - i} call${calls.length - i === 1 ? '' : 's'} after ${callLabel(calls[i - 1]!)} did not run.`);
        break;
      }
      const call = calls[i]!;
      const label = callLabel(call);
      let effect: Pick<ActionRecord, 'kind' | 'target'> = {};
      if (call.kind === 'rejected') {
        push({ call: label, ok: false, result: call.message });
        failed = true;
        break;
      }
      if (call.kind === 'done' || call.kind === 'fail') {
        // How it ends is judged on the record (agent/honest.ts, loaded now).
        const end = (await agentLazy()).ending(call, [...host.state.history, record], host.state, !!host.verify);
        if (host.ended) return 'ended';
        if (end.kind !== 'finish') {
          push({ call: label, ok: false, result: end.message });
          if (end.kind === 'verify') host.state.verified = true;
          else failed = host.state.answerRetried = true;
          break;
        }
        host.state.history.push(record);
        host.pending = undefined;
        host.finish(end.result);
        return 'ended';
      }
      if (call.kind === 'ask_user') {
        const answer = await host.ask(call.args.question);
        if (host.ended) return 'ended';
        push({
          call: label,
          ok: answer !== undefined,
          result: answer === undefined ? 'No one is there to answer. Go on with what you know, or finish with done or fail.' : `The user answered: ${answer}`,
        });
        continue;
      }
      const onPage = call.kind === 'page' || (call.kind === 'bad_args' && call.runs === 'page');
      const target = onPage ? targetOf(callRef(call), map) : undefined;
      if (call.kind === 'page' || call.kind === 'site' || call.kind === 'page_tool') {
        const allowed = await host.confirm(call, target, goal);
        if (host.ended) return 'ended';
        // What it would do, for the end of the run (agent/honest.ts): only a call that needed a yes.
        if (host.risk) effect = { kind: host.risk, ...(target ? { target: target.name } : {}) };
        if (typeof allowed === 'object') {
          // Refused before it ran, as the action would have been: the model looks again.
          push({ call: label, ok: false, result: withRefHint(allowed, host.lastMap), ...effect });
          failed = true;
          break;
        }
        if (allowed !== true) {
          push({ call: label, ok: false, result: allowed, denied: true, ...effect });
          notes.push(`The user did not allow ${label}. Do not try it again; go on without it or finish.`);
          break;
        }
        if (call.kind !== 'page_tool') host.beforeAction(call, target);
      }
      const planned: PlannedCall = call.planned;
      const te = clock();
      host.emitter.emit('action', { step, phase: 'start', call: planned, target });
      spent('events', te);
      const current: ActionRecord = { call: label, ok: true, result: '(the page started to navigate)', ...effect };
      push(current);
      host.state.acting = { step, call: planned, ...(target ? { target } : {}) };
      const ta = clock();
      const result = await holding(host, call, () => runExtended(host, call, goal, () => run(call, host)));
      spent('act', ta);
      delete host.state.acting;
      if (host.ended) return 'ended';
      current.ok = result.ok;
      current.result = result.ok ? result.message : withRefHint(result, host.lastMap);
      const tf = clock();
      host.emitter.emit('action', { step, phase: 'end', call: planned, target, result });
      spent('events', tf);
      if (call.kind === 'page') host.onAction?.({ step, call, target, result });
      if (result.changes.navigation) return await host.park(record);
      // What the map cannot show may have changed: a new view, or a click on opaque content.
      const c = result.changes;
      if (c.url || c.dialogOpened || c.dialogClosed || c.scroll || (call.kind === 'page' && call.action.name === 'click_at')) host.visualChanged();
      if (!result.ok) {
        failed = true;
        break;
      }
      const rest = calls.length - i - 1;
      if (rest > 0 && pageChanged(result.changes)) {
        notes.push(`The page changed after ${label}, so the ${rest} call${rest === 1 ? '' : 's'} after it did not run. Plan again from the new map.`);
        break;
      }
    }
  } finally {
    if (host.pending === record) {
      host.state.history.push(record);
      host.pending = undefined;
    }
  }
  return failed ? 'failed' : 'ok';
}

/**
 * A call that acts on the page (an action, a page's tool) runs inside the runner's network hold
 * when there is one: on before the call starts, off once its page has settled and what it held
 * is answered. A hold that cannot be set fails closed: the call does not run.
 */
async function holding(host: DispatchHost, call: Call, go: () => Promise<ActionResult>): Promise<ActionResult> {
  const hold = call.kind === 'page' || call.kind === 'page_tool' ? host.holdNetwork : undefined;
  if (!hold) return go();
  let release: () => Promise<void>;
  try {
    release = await hold();
  } catch {
    return { ok: false, message: 'Not done: the runner could not watch what this call would make the page send.', error: { kind: 'failed' }, changes: {} };
  }
  try {
    return await go();
  } finally {
    await release().catch(() => undefined);
  }
}

/** Runs a call of a kind that acts: a page action, find, a site tool, or one whose arguments did not parse. */
function run(call: Call, host: DispatchHost): Promise<ActionResult> {
  switch (call.kind) {
    case 'page':
      return act(call.action, { files: host.files?.() ?? [] }, host.pageSettings());
    case 'find':
      return Promise.resolve(findResult(call.args.query, host.pageSettings()));
    case 'site':
      return runCustomTool(call.tool, call.args);
    case 'bad_args':
      return Promise.resolve({
        ok: false,
        message: call.message,
        error: { kind: 'bad_args' },
        changes: {},
        ...(call.runs === 'page' ? { timing: { totalMs: 0, settleMs: 0 } } : {}),
      });
    default:
      return Promise.resolve({ ok: false, message: `"${call.planned.name}" cannot run here.`, error: { kind: 'failed' }, changes: {} });
  }
}

/** A rejected ref gets the refs that do exist, so the model can correct itself. */
function withRefHint(result: ActionResult, map: PageMap | undefined): string {
  const kind = result.error?.kind;
  if (kind !== 'unknown_ref' && kind !== 'stale_ref') return result.message;
  const refs = [...new Set((map?.elements ?? []).map((e) => e.ref))].slice(0, 20);
  const more = new Set((map?.elements ?? []).map((e) => e.ref)).size > refs.length;
  return refs.length ? `${result.message} Refs in the last map: ${refs.join(', ')}${more ? ', …' : ''}; the new map is below.` : result.message;
}

const CUSTOM_RESULT_MAX = 4000;

/** Runs a site tool's handler; its value (or error) becomes the sentence the model reads. */
async function runCustomTool(tool: CustomTool, args: Record<string, unknown>): Promise<ActionResult> {
  try {
    const value = await tool.handler(args);
    let text = typeof value === 'string' ? value : value === undefined ? 'Done.' : JSON.stringify(value);
    if (text === undefined) text = String(value);
    return { ok: true, message: text.length > CUSTOM_RESULT_MAX ? `${text.slice(0, CUSTOM_RESULT_MAX)}… (cut)` : text, changes: {} };
  } catch (e) {
    return { ok: false, message: `${tool.name} failed: ${String((e as Error)?.message ?? e)}`, error: { kind: 'failed' }, changes: {} };
  }
}

/** `find {query}` on the whole page, as an action result. */
function findResult(query: string, settings: PageSettings): ActionResult {
  try {
    return { ok: true, message: find(query, settings).text, changes: {} };
  } catch (e) {
    return { ok: false, message: `find failed: ${String((e as Error)?.message ?? e)}`, error: { kind: 'failed' }, changes: {} };
  }
}
