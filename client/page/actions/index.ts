/**
 * `pagehand.act({ name, args }, options?)` — runs one tool call and reports what changed.
 *
 * Flow: validate the call → the handler re-validates its ref, checks actionability and
 * dispatches (calling `ctx.begin()` right before its first event: snapshot + activity watch)
 * → wait until the page settles (DOM quiet, no pending requests/short timers, bounded) or a
 * navigation starts → diff the snapshots into `changes` and sentences.
 * Nothing ever throws into the host page: every failure is a result with `ok: false`.
 */
import type { Said } from '../../../common/said';
import { createDescriber } from '../names/describe';
import { RefError, resolveRef } from '../map/refs';
import type { Ref } from '../page-types';
import { DEFAULT_QUIET_WINDOW, DEFAULT_SETTLE_TIMEOUT } from '../settle/settle';
import { watchActivity, type ActivityWatch, type SettleResult } from '../settle/settle-watch';
import { withStandIns } from '../map/widgets';
import { parseCall, type ParsedCall, type ToolArgs, type ToolName } from './args';
import { subjectOf } from './actionability';
import { clickAtPoint } from './click-at';
import { click, doubleClick, hover, rightClick } from './click';
import type { ActionContext, Handler, Outcome } from './context';
import { ActionError } from './dom';
import type { PageSettings } from '../settings';
import { actInFrame } from '../frames/parent';
import { labelOf } from './hit';
import { describeChanges } from './messages';
import { goBack, navigate, watchNavigation, type NavigationWatch } from './navigate';
import { diffSnapshots, type Snapshot } from './observe';
import { dropAhead, walkAhead } from '../map/walk-ahead';
import { snapshotAfter, snapshotAhead, snapshotBefore } from './snapshot-reuse';
import { pressKey } from './press';
import { keepInThisTab, type SameTabGuard } from './same-tab';
import { clear, typeText } from './type';
import type { ActionCall, ActionChanges, ActionErrorKind, ActionResult, ActOptions } from './contract';
import { coveredByZone, ZONE_REFUSAL, ZoneRefusal } from './zones';
import { zoneGate } from './touches';
import { pageLazy } from '../lazy';
import { gateEffects, type EffectWatch } from '../settle/effect-gate';
import { ownerDocumentOf } from '../dom/proto';

export type { ActionCall, ActionResult, ActOptions } from './contract';

export const DEFAULT_ACTION_TIMEOUT = 1000;

/**
 * A handler whose code loads on its first call (its own chunk in the embed's split build,
 * inlined in the other bundles): for hands not every run needs. The load happens before the
 * handler looks at the page, so nothing measured goes stale while it arrives.
 */
const onDemand =
  <A>(load: () => Promise<Handler<A>>): Handler<A> =>
  async (args, ctx) =>
    (await load())(args, ctx);

const handlers: { [K in ToolName]: Handler<ToolArgs[K]> } = {
  click,
  hover,
  type: typeText,
  clear,
  select_option: onDemand(() => pageLazy().then((m) => m.selectOption)),
  press_key: pressKey,
  scroll: onDemand(() => pageLazy().then((m) => m.scroll)),
  scroll_to: onDemand(() => pageLazy().then((m) => m.scrollTo)),
  click_at: clickAtPoint,
  read: onDemand(() => pageLazy().then((m) => m.read)),
  navigate,
  go_back: goBack,
  wait: onDemand(() => pageLazy().then((m) => m.wait)),
  drag: onDemand(() => pageLazy().then((m) => m.drag)),
  double_click: doubleClick,
  right_click: rightClick,
  upload: onDemand(() => pageLazy().then((m) => m.upload)),
};

function options(o: ActOptions | undefined): Required<Omit<ActOptions, 'files'>> {
  const num = (v: unknown, d: number, max: number): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.min(v, max) : d);
  return {
    settleTimeout: num(o?.settleTimeout, DEFAULT_SETTLE_TIMEOUT, 60_000),
    quietWindow: num(o?.quietWindow, DEFAULT_QUIET_WINDOW, 5_000),
    actionTimeout: num(o?.actionTimeout, DEFAULT_ACTION_TIMEOUT, 30_000),
  };
}

function failure(message: string, t0: number, kind: ActionErrorKind, said?: Said): ActionResult {
  return { ok: false, message, error: { kind }, ...(said ? { said } : {}), changes: {}, timing: { totalMs: performance.now() - t0, settleMs: 0 } };
}

/** A failure's code for the overlay: a zone's or a vanished element's by its kind, else the action's own. */
const saidOf = (e: unknown, kind: ActionErrorKind): Said | undefined =>
  kind === 'in_deny_zone' ? { code: 'zone' } : kind === 'stale_ref' ? { code: 'gone' } : e instanceof ActionError ? e.said : undefined;

/** What kind of failure `e` is: by its class and the target's state, never by its words. */
function errorKind(e: unknown, target: Element | undefined): ActionErrorKind {
  if (e instanceof ZoneRefusal) return 'in_deny_zone';
  if (e instanceof RefError || (e && typeof e === 'object' && (e as Error).name === 'RefError'))
    return (e as RefError).code === 'unknown' ? 'unknown_ref' : 'stale_ref';
  // The element went away (re-rendered, removed) while the action waited on it.
  if (target && !target.isConnected) return 'stale_ref';
  return 'failed';
}

function errorMessage(e: unknown, name: string): string {
  if (e instanceof RefError || e instanceof ActionError) return e.message;
  if (e && typeof e === 'object' && 'name' in e && (e as Error).name === 'RefError') return (e as Error).message;
  const msg = e instanceof Error ? e.message : String(e);
  return `The ${name} action failed unexpectedly: ${msg}`;
}

/** The caller's files, kept only if they are real File objects (a page cannot pass look-alikes through a run). */
function attachedFiles(files: unknown): File[] {
  if (!Array.isArray(files)) return [];
  return files.filter((f): f is File => typeof File === 'function' && f instanceof File);
}

/** How a message names an element inside a zone. */
const ZONE_PLACE = 'a part of the page the site keeps pagehand out of';

/** Runs one tool call, as `settings` say (deny zones, masks, frames, the navigation hook). Never throws; never rejects. */
export async function act(call: ActionCall, opts: ActOptions | undefined, settings: PageSettings): Promise<ActionResult> {
  const { zones } = settings;
  const t0 = performance.now();
  let watch: ActivityWatch | undefined;
  let nav: NavigationWatch | undefined;
  let tabs: SameTabGuard | undefined;
  let effects: EffectWatch | undefined;
  let ungate: (() => void) | undefined;
  let name = 'requested';
  /** The element the call's ref resolved to, once it did. */
  let lastTarget: Element | undefined;
  try {
    const parsed = parseCall(call);
    if (!parsed.ok) return failure(parsed.message, t0, 'bad_args');
    const { name: tool, args } = parsed.call as ParsedCall;
    name = tool;
    // An element of a frame from another origin that takes part: the frame's pagehand acts on it.
    const inFrame = settings.remoteFrames ? await actInFrame(parsed.call, settings) : undefined;
    if (inFrame) return { ...inFrame, timing: { totalMs: performance.now() - t0, settleMs: inFrame.timing?.settleMs ?? 0 } };
    const o = options(opts);
    // Stand-ins of hidden selects read as those selects here too, as the map showed them.
    const describer = withStandIns(createDescriber(settings));
    let before: Snapshot | undefined;
    let settleMs = 0;
    const settleFor = async (timeout: number | undefined, whenQuiet?: () => void): Promise<SettleResult> => {
      if (!watch) throw new Error('settle before begin');
      const s = await watch.settle({ timeout: timeout ?? o.settleTimeout, quiet: o.quietWindow, stopWhen: () => nav?.started() !== undefined, whenQuiet });
      settleMs += s.ms;
      return s;
    };
    const ctx: ActionContext = {
      settings,
      describer,
      options: o,
      files: attachedFiles(opts?.files),
      resolve: (ref) => {
        // A ref the model guessed (or kept from before the zone was marked) never reaches in:
        // refused before anything about the element is compared or said.
        const el = resolveRef(ref, (e) => {
          if (zones.inside(e)) throw new ZoneRefusal(`Element [${String(ref)}] ${ZONE_REFUSAL}.`);
          return describer.describe(e);
        });
        lastTarget = el;
        return el;
      },
      // Whatever a message names (where focus went, what scrolled) is never named from a zone.
      label: (el) => (zones.inside(el) ? ZONE_PLACE : labelOf(el, describer)),
      subject: (ref, el) => (zones.inside(el) ? `Element [${String(ref)}]` : subjectOf(ref, el, describer)),
      begin: (el) => {
        if (watch) return;
        dropAhead();
        before = snapshotBefore(document, zones);
        const docs = [document];
        if (el && ownerDocumentOf(el) !== document) docs.push(ownerDocumentOf(el));
        watch = watchActivity(zones, docs);
        nav = watchNavigation(() => watch?.touch(), settings.beforeNavigate);
        tabs = keepInThisTab(docs.flatMap((d) => d.defaultView ?? []));
        // What the page causes from here to the end of the settle is held until judged.
        effects = settings.effects?.(call);
        if (effects) ungate = gateEffects(effects.gate);
      },
      settle: (timeout) => settleFor(timeout),
    };
    // One gate for deny zones: everything the call will touch, before any event is sent.
    const refused = zoneGate(parsed.call, settings, describer);
    if (refused) return failure(refused, t0, 'in_deny_zone', { code: 'zone' });
    const handler = handlers[tool] as Handler<unknown>;
    let outcome: Outcome;
    try {
      outcome = await handler(args, ctx);
    } catch (e) {
      // "Covered by …" describes the covering layer: never one that is or holds a zone.
      const ref = (args as { ref?: Ref }).ref;
      if (e instanceof ActionError && / is covered by /.test(e.message) && ref !== undefined && lastTarget && coveredByZone(lastTarget, zones)) {
        throw new ZoneRefusal(`${ctx.subject(ref, lastTarget)} is covered by a part of the page the site keeps pagehand out of, so it cannot be reached now.`);
      }
      throw e;
    }
    const changes: ActionChanges = {};
    const messages = [outcome.message];
    let downloadNote = '';
    if (watch) {
      let stillLoading: ActionChanges['stillLoading'];
      if (outcome.settle !== false) {
        // While the page is quiet inside the wait: the after-snapshot (snapshot-reuse.ts), and
        // the next map's walk (walk-ahead.ts), after a frame, in slices that go on after the wait if need be.
        const s = await settleFor(undefined, () => {
          snapshotAhead(document, zones);
          void walkAhead(settings);
        });
        if (!s.settled) stillLoading = { pendingRequests: s.pendingRequests, domBusy: s.domBusy };
      }
      // Held effects are answered before the action ends: the model reads what was blocked.
      ungate?.();
      const blocked = await effects?.done();
      if (blocked) {
        // Refused: the half-done action is put back (a select showing the option whose effect was refused).
        const undone = outcome.undo?.();
        if (undone) messages[0] = undone;
        messages.push(blocked);
      }
      await nav?.decided(); // the runner may learn the navigation was a download
      const navUrl = nav?.started();
      if (navUrl !== undefined) {
        changes.navigation = { url: navUrl };
        if (tabs?.kept()) messages.push('It would open a new tab; pagehand opened it in this tab instead.');
      } else {
        const download = nav?.download();
        if (download) changes.download = download;
        const file = nav?.file();
        // Its text (if any) comes last, after the short sentences.
        if (file) downloadNote = await (await pageLazy()).reportDownload(file, settings.masks);
        Object.assign(changes, diffSnapshots(before!, snapshotAfter(document, zones), createDescriber(settings)));
        const after = outcome.after?.();
        if (after?.message) messages.push(after.message);
        Object.assign(changes, after?.changes);
        if (stillLoading) changes.stillLoading = stillLoading;
      }
    }
    Object.assign(changes, outcome.changes);
    messages.push(describeChanges(changes));
    if (downloadNote) messages.push(downloadNote);
    const ok = outcome.ok ?? true;
    return {
      ok,
      ...(ok ? {} : { error: { kind: 'failed' as const } }),
      message: messages.filter(Boolean).join(' '),
      changes,
      timing: { totalMs: performance.now() - t0, settleMs },
    };
  } catch (e) {
    const kind = errorKind(e, lastTarget);
    return failure(errorMessage(e, name), t0, kind, saidOf(e, kind));
  } finally {
    try {
      ungate?.();
      watch?.stop();
      nav?.stop();
      tabs?.stop();
    } catch {
      /* never throw from cleanup */
    }
  }
}
