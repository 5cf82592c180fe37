/**
 * `pagehand.act({ name, args }, options?)` — runs one tool call and reports what changed.
 *
 * Flow: validate the call → the handler re-validates its ref, checks actionability and
 * dispatches (calling `ctx.begin()` right before its first event: snapshot + activity watch)
 * → wait until the page settles (DOM quiet, no pending requests/short timers, bounded) or a
 * navigation starts → diff the snapshots into `changes` and sentences.
 * Nothing ever throws into the host page: every failure is a result with `ok: false`.
 */
import { createDescriber } from '../describe';
import { inExcludedZone } from '../own-ui';
import { RefError, resolveRef } from '../refs';
import { DEFAULT_QUIET_WINDOW, DEFAULT_SETTLE_TIMEOUT, watchActivity, type ActivityWatch } from '../settle';
import { withStandIns } from '../widgets';
import { parseCall, type ParsedCall, type ToolArgs, type ToolName } from './args';
import { subjectOf } from './actionability';
import { clickAtPoint } from './click-at';
import { click, hover } from './click';
import type { ActionContext, Handler, Outcome } from './context';
import { ActionError } from './dom';
import { labelOf } from './hit';
import { describeChanges } from './messages';
import { goBack, navigate, watchNavigation, type NavigationWatch } from './navigate';
import { takeSnapshot, diffSnapshots, type Snapshot } from './observe';
import { pressKey } from './press';
import { keepInThisTab, type SameTabGuard } from './same-tab';
import { read } from './read';
import { scroll, scrollTo } from './scroll';
import { selectOption } from './select';
import { clear, typeText } from './type';
import type { ActionCall, ActionChanges, ActionResult, ActOptions } from './types';
import { wait } from './wait';

export type { ActionCall, ActionChanges, ActionResult, ActOptions, BeforeNavigate, ScrollReport } from './types';
export { setBeforeNavigate } from './navigate';
export { TOOL_NAMES } from './args';

export const DEFAULT_ACTION_TIMEOUT = 1000;

const handlers: { [K in ToolName]: Handler<ToolArgs[K]> } = {
  click,
  hover,
  type: typeText,
  clear,
  select_option: selectOption,
  press_key: pressKey,
  scroll,
  scroll_to: scrollTo,
  click_at: clickAtPoint,
  read,
  navigate,
  go_back: goBack,
  wait,
};

function options(o: ActOptions | undefined): Required<ActOptions> {
  const num = (v: unknown, d: number, max: number): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.min(v, max) : d);
  return {
    settleTimeout: num(o?.settleTimeout, DEFAULT_SETTLE_TIMEOUT, 60_000),
    quietWindow: num(o?.quietWindow, DEFAULT_QUIET_WINDOW, 5_000),
    actionTimeout: num(o?.actionTimeout, DEFAULT_ACTION_TIMEOUT, 30_000),
  };
}

function failure(message: string, t0: number): ActionResult {
  return { ok: false, message, changes: {}, timing: { totalMs: performance.now() - t0, settleMs: 0 } };
}

function errorMessage(e: unknown, name: string): string {
  if (e instanceof RefError || e instanceof ActionError) return e.message;
  if (e && typeof e === 'object' && 'name' in e && (e as Error).name === 'RefError') return (e as Error).message;
  const msg = e instanceof Error ? e.message : String(e);
  return `The ${name} action failed unexpectedly: ${msg}`;
}

/** Runs one tool call. Never throws; never rejects. */
export async function act(call: ActionCall, opts?: ActOptions): Promise<ActionResult> {
  const t0 = performance.now();
  let watch: ActivityWatch | undefined;
  let nav: NavigationWatch | undefined;
  let tabs: SameTabGuard | undefined;
  let name = 'requested';
  try {
    const parsed = parseCall(call);
    if (!parsed.ok) return failure(parsed.message, t0);
    const { name: tool, args } = parsed.call as ParsedCall;
    name = tool;
    const o = options(opts);
    // Stand-ins of hidden selects read as those selects here too, as the map showed them.
    const describer = withStandIns(createDescriber());
    let before: Snapshot | undefined;
    let settleMs = 0;
    const ctx: ActionContext = {
      describer,
      options: o,
      resolve: (ref) => {
        const el = resolveRef(ref, (e) => describer.describe(e));
        if (inExcludedZone(el)) throw new ActionError(`Element [${String(ref)}] is in a part of the page the site keeps pagehand out of.`);
        return el;
      },
      label: (el) => labelOf(el, describer),
      subject: (ref, el) => subjectOf(ref, el, describer),
      begin: (el) => {
        if (watch) return;
        before = takeSnapshot(document);
        const docs = [document];
        if (el && el.ownerDocument !== document) docs.push(el.ownerDocument);
        watch = watchActivity(docs);
        nav = watchNavigation(() => watch?.touch());
        tabs = keepInThisTab(docs.flatMap((d) => d.defaultView ?? []));
      },
      settle: async (timeout) => {
        if (!watch) throw new Error('settle before begin');
        const s = await watch.settle({ timeout: timeout ?? o.settleTimeout, quiet: o.quietWindow, stopWhen: () => nav?.started() !== undefined });
        settleMs += s.ms;
        return s;
      },
    };
    const handler = handlers[tool] as Handler<unknown>;
    const outcome: Outcome = await handler(args, ctx);
    const changes: ActionChanges = {};
    const messages = [outcome.message];
    if (watch) {
      let stillLoading: ActionChanges['stillLoading'];
      if (outcome.settle !== false) {
        const s = await ctx.settle();
        if (!s.settled) stillLoading = { pendingRequests: s.pendingRequests, domBusy: s.domBusy };
      }
      const navUrl = nav?.started();
      if (navUrl !== undefined) {
        changes.navigation = { url: navUrl };
        if (tabs?.kept()) messages.push('It would open a new tab; pagehand opened it in this tab instead.');
      } else {
        const download = nav?.download();
        if (download) changes.download = download;
        Object.assign(changes, diffSnapshots(before!, takeSnapshot(document), createDescriber()));
        const after = outcome.after?.();
        if (after?.message) messages.push(after.message);
        Object.assign(changes, after?.changes);
        if (stillLoading) changes.stillLoading = stillLoading;
      }
    }
    Object.assign(changes, outcome.changes);
    messages.push(describeChanges(changes));
    return {
      ok: outcome.ok ?? true,
      message: messages.filter(Boolean).join(' '),
      changes,
      timing: { totalMs: performance.now() - t0, settleMs },
    };
  } catch (e) {
    return failure(errorMessage(e, name), t0);
  } finally {
    try {
      watch?.stop();
      nav?.stop();
      tabs?.stop();
    } catch {
      /* never throw from cleanup */
    }
  }
}
