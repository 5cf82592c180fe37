/**
 * `pagehand.replay(recording)`: the run loop with the recording in the model's seat (the run
 * loads this on first use and hands it the run: client/agent/run.ts).
 *
 * Each recorded step: find its target on the live page (locate.ts), run the action through the
 * same dispatch as a model's call — the same risk check and confirmation, every time — and
 * check what it expected to see. No model call while every step matches. When a target is
 * missing or ambiguous, the action fails, or the expectation does not show, the model gets the
 * task, the recording and the page, and redoes that step only (its calls this turn take the
 * step's place); then the replay goes on. The result carries the recording as replayed, its
 * repaired steps marked.
 *
 * The replay's place lives in the run's saved state, so a step that loads another page goes on
 * there (and what it expected is checked there).
 */
import { act } from '../page/actions';
import { parseCall } from '../page/actions/args';
import { createDescriber } from '../page/names/describe';
import type { PageMap, Ref } from '../page/page-types';
import type { Call, PageCall, SiteCall } from '../agent/calls';
import { runStep } from '../agent/dispatch';
import { pageReady, safeMap, type Run } from '../agent/run';
import type { RecordedExpectation, RecordedStep, RecordedTarget, RunResult } from '../agent/public-types';
import { expectationHolds, locate, pageCandidates, type Candidate, type Located } from '../agent/recording/locate';
import { fill, pathOn, stepText, urlMatches } from '../agent/recording/recording';
import { replayStepAt } from '../agent/recording/steps';
import type { ReplayState } from '../agent/recording/state';

/** How long a step waits for its target, or for what it expected, to show. */
const SHOW_WAIT_MS = 3000;
const POLL_MS = 200;
/** How long a missing target is scrolled for at most, while the page grows (a lazy list). */
const SCROLL_ON_MS = 20_000;
/** How long the page's height holds still after a replayed scroll before the next step. */
const GROWN_QUIET_MS = 300;
/** Model turns one broken step may take. */
const REPAIR_TURNS = 3;
/** The map a replayed step's events show (the model does not read it). */
const MAP_TOKENS = 3000;

export class ReplayDriver {
  constructor(private readonly run: Run) {}

  /** Set up (the proxy's config read) once a repair needs the model. */
  private modelReady = false;
  /** The last located target, for the events and the confirmation (it may lie outside the map). */
  private located: { ref: Ref; candidate: Candidate } | undefined;

  private get rs(): ReplayState {
    return this.run.state.replay!;
  }

  /** The recording's steps, values filled. */
  private stepAt(i: number): RecordedStep {
    return replayStepAt(this.rs, i);
  }

  async loop(): Promise<void> {
    if (this.run.deps.resumed) {
      await this.run.resumeHere();
      if (this.run.ended) return;
    }
    let first = true;
    while (!this.run.ended) {
      const rs = this.rs;
      const maxSteps = this.run.options.maxSteps ?? rs.recording.steps.length + 20;
      if (this.run.state.step >= maxSteps) {
        return this.run.finish({
          ok: false,
          summary: `Stopped at the step limit (${maxSteps}) before the replay was done.`,
          reason: 'max_steps',
          said: { code: 'replayMaxSteps', max: maxSteps },
        });
      }
      await this.run.untilResumed();
      if (this.run.ended) return;
      // A step that loaded this page: what it expected is checked here.
      if (rs.check) {
        const { index, expect } = rs.check;
        rs.check = undefined;
        const seen = await this.landed(index, expect);
        if (this.run.ended) return;
        if (!seen.ok && !this.breaks(index, `after it, ${seen.why}`, true)) return;
      }
      const resumed = first && this.run.deps.resumed;
      first = false;
      if (rs.repairing) {
        if ((await this.repairTurn(resumed)) === 'ended') return;
        continue;
      }
      if (!rs.started) {
        if ((await this.toStart(resumed)) === 'ended') return;
        continue;
      }
      if (rs.next >= rs.recording.steps.length) return this.run.finish(this.summary());
      if ((await this.replayStep(rs.next, resumed)) === 'ended') return;
      this.run.save();
    }
  }

  /** The replay begins on the recording's start page: elsewhere, it goes there first. */
  private async toStart(resumed: boolean): Promise<'ended' | 'next'> {
    const rs = this.rs;
    rs.started = true;
    const start = fill(rs.recording.url, rs.values);
    let here: boolean;
    try {
      const u = new URL(start, location.href);
      here = u.origin === location.origin && urlMatches(`${u.pathname}`, location.href, location.origin);
    } catch {
      here = true; // no usable start URL: the replay starts where it is
    }
    if (here) return 'next';
    const step = this.run.state.step + 1;
    this.run.emitStep({ step, phase: 'start', resumed: resumed || undefined });
    this.run.state.step = step;
    const call = pageCall('navigate', { url: start });
    if (!call) return 'next';
    const map = await safeMap(MAP_TOKENS, this.run.pageSettings());
    this.run.lastMap = map;
    this.run.emitStep({ step, phase: 'planned', reasoning: { nextGoal: 'Go to the page the recording starts on.' }, calls: [call.planned] });
    rs.check = { index: -1, expect: { url: pathOn(new URL(start, location.href).href, location.origin).split('?')[0]! } };
    this.run.refused = false;
    const outcome = await runStep(this.run, step, [call], 'Go to the page the recording starts on.', map);
    if (this.run.ended || outcome === 'parked') return 'ended';
    rs.check = undefined;
    if (this.run.refused) {
      this.run.finish({
        ok: false,
        summary: `The user did not allow opening ${start}, where the recording starts.`,
        reason: 'denied',
        said: { code: 'replayStartDenied', url: start },
      });
      return 'ended';
    }
    return 'next';
  }

  /** Replays recorded step `index` as recorded; a step that breaks goes to repair. */
  private async replayStep(index: number, resumed: boolean): Promise<'ended' | 'next'> {
    const rs = this.rs;
    const rec = this.stepAt(index);
    const total = rs.recording.steps.length;
    const step = this.run.state.step + 1;
    this.run.emitStep({ step, phase: 'start', resumed: resumed || undefined });
    this.run.state.step = step;
    const map = await safeMap(MAP_TOKENS, this.run.pageSettings());
    this.run.lastMap = map;
    if (this.run.ended) return 'ended';
    const made = await this.callFor(rec, index);
    if (this.run.ended) return 'ended';
    if ('why' in made) return this.breaks(index, made.why, false) ? 'next' : 'ended';
    const goal = `Step ${index + 1} of ${total} from the recording: ${stepText(rec)}`;
    this.run.emitStep({ step, phase: 'planned', reasoning: { nextGoal: goal }, calls: [made.call.planned] });
    // Saved before it runs: a step that loads another page goes on there.
    rs.next = index + 1;
    rs.out.push(rs.recording.steps[index]!);
    rs.replayed++;
    rs.check = rec.expect ? { index, expect: rec.expect } : undefined;
    this.run.refused = false;
    const outcome = await runStep(this.run, step, [made.call], goal, this.withLocated(map));
    if (this.run.ended || outcome === 'parked') return 'ended';
    if (this.run.refused) {
      this.run.finish({
        ok: false,
        summary: `The user did not allow step ${index + 1} of the recording (${stepText(rec)}), so the replay stopped there.`,
        reason: 'denied',
        said: { code: 'replayDenied', step: index + 1 },
      });
      return 'ended';
    }
    if (outcome === 'failed') {
      rs.next = index;
      rs.out.pop();
      rs.replayed--;
      rs.check = undefined;
      const last = this.run.state.history[this.run.state.history.length - 1]?.actions[0];
      return this.breaks(index, `its ${rec.action} failed: ${last?.result ?? 'no result'}`, false) ? 'next' : 'ended';
    }
    // A scroll may load more (a lazy list): give it the moment the model's turn gave it when recorded.
    if (rec.action === 'scroll' && !rec.target) await this.grown();
    const check = rs.check;
    rs.check = undefined;
    if (check) {
      const seen = await this.landed(index, check.expect);
      if (this.run.ended) return 'ended';
      if (!seen.ok) return this.breaks(index, `after it, ${seen.why}`, true) ? 'next' : 'ended';
    }
    return 'next';
  }

  /**
   * Near the end of the page (where a lazy list loads more), waits until the page stops growing
   * (its height the same for GROWN_QUIET_MS), bounded.
   */
  private async grown(): Promise<void> {
    const end = document.documentElement.scrollHeight - (scrollY + innerHeight);
    if (end > innerHeight * 1.5) return;
    const until = Date.now() + SHOW_WAIT_MS;
    let height = document.documentElement.scrollHeight;
    let since = Date.now();
    while (Date.now() < until && !this.run.ended) {
      await this.run.sleep(POLL_MS / 2);
      const now = document.documentElement.scrollHeight;
      if (now !== height) [height, since] = [now, Date.now()];
      else if (Date.now() - since >= GROWN_QUIET_MS) return;
    }
  }

  /** The map with the located target in it (the events and the confirmation name it; it may lie outside the map). */
  private withLocated(map: PageMap): PageMap {
    const l = this.located;
    if (!l || map.elements.some((e) => e.ref === l.ref)) return map;
    const c = l.candidate;
    return {
      ...map,
      elements: [...map.elements, { ref: l.ref, role: c.role, name: c.name, rect: c.item.rect, states: {}, tag: c.item.el.localName, isNew: false }],
    };
  }

  /** The call a recorded step makes on this page, or why it cannot be made. */
  private async callFor(rec: RecordedStep, index: number): Promise<{ call: Call } | { why: string }> {
    if (rec.tool) {
      const tool = this.run.deps.siteTools().get(rec.action);
      if (!tool) return { why: `the site offers no tool "${rec.action}" on this page` };
      const call: SiteCall = { kind: 'site', planned: { name: rec.action, args: { ...rec.args } }, tool, args: { ...rec.args } };
      return { call };
    }
    let args = rec.args;
    this.located = undefined;
    if (rec.target) {
      const found = await this.locateWithin(rec, index);
      if (!found.ok) return { why: found.why };
      this.located = { ref: found.ref, candidate: found.candidate };
      args = { ...args, ref: found.ref };
    }
    const call = pageCall(rec.action, args);
    return call ? { call } : { why: `its action ${JSON.stringify(rec.action)} with ${JSON.stringify(rec.args)} is not one pagehand can run` };
  }

  /**
   * Finds a step's target, giving a page that is still loading a moment. When the step before
   * it scrolled the page, a target not found (or not yet told apart by its row) is looked for as
   * a person would: by scrolling on the same way. A lazy list may have loaded less than it had
   * when the step was recorded: the replay scrolls faster than the model did.
   */
  private async locateWithin(rec: RecordedStep, index: number): Promise<Located> {
    const start = Date.now();
    let until = start + SHOW_WAIT_MS;
    const before = index > 0 ? this.stepAt(index - 1) : undefined;
    const scrollOn = before && before.action === 'scroll' && !before.target ? { name: 'scroll', args: { ...before.args } } : undefined;
    let height = document.documentElement.scrollHeight;
    const from = { x: scrollX, y: scrollY };
    let scrolled = false;
    for (;;) {
      let found: Located;
      try {
        const describer = createDescriber(this.run.pageSettings());
        found = locate(rec.target!, pageCandidates(describer), describer);
      } catch (e) {
        found = { ok: false, problem: 'missing', why: `the page could not be read (${String((e as Error)?.message ?? e)})` };
      }
      if (found.ok || Date.now() >= until || this.run.ended) {
        // Not found: the page is left where the recording had it (for the repair to look at).
        if (!found.ok && scrolled) scrollTo(from.x, from.y);
        return found;
      }
      if (scrollOn) {
        scrolled = true;
        await act(scrollOn, undefined, this.run.pageSettings()).catch(() => undefined);
        // While the page keeps growing under the scroll, it is still loading what was recorded.
        const now = document.documentElement.scrollHeight;
        if (now > height) until = Math.min(Math.max(until, Date.now() + SHOW_WAIT_MS), start + SCROLL_ON_MS);
        height = now;
      }
      await this.run.sleep(POLL_MS);
    }
  }

  /**
   * Whether step `index` led where it should: what it expected shows — or, for what it expected
   * to see (a dialog's title, an element) but not for the page it expected to lead to, the next
   * step's target is there: the page is where the recording goes on, whatever changed around it.
   */
  private async landed(index: number, e: RecordedExpectation): Promise<{ ok: true } | { ok: false; why: string }> {
    const seen = await this.expectation(e);
    if (seen.ok || e.url !== undefined || index < 0) return seen;
    const next = index + 1 < this.rs.recording.steps.length ? this.stepAt(index + 1) : undefined;
    return next?.target && this.findsNow(next) ? { ok: true } : seen;
  }

  /** Whether a step's target is on the page now (no waiting). */
  private findsNow(rec: RecordedStep): boolean {
    try {
      const describer = createDescriber(this.run.pageSettings());
      return locate(rec.target!, pageCandidates(describer), describer).ok;
    } catch {
      return false;
    }
  }

  /** Whether what a step expected shows, giving it a moment. */
  private async expectation(e: RecordedExpectation): Promise<{ ok: true } | { ok: false; why: string }> {
    const filled = fill(e, this.rs.values);
    const until = Date.now() + SHOW_WAIT_MS;
    for (;;) {
      let seen: { ok: true } | { ok: false; why: string };
      try {
        seen = expectationHolds(filled, this.run.pageSettings());
      } catch (err) {
        seen = { ok: false, why: `the page could not be read (${String((err as Error)?.message ?? err)})` };
      }
      if (seen.ok || Date.now() >= until || this.run.ended) return seen;
      await this.run.sleep(POLL_MS);
    }
  }

  /**
   * Step `index` broke: it goes to the model, or (repair off) the replay ends here. True when
   * the replay goes on.
   */
  private breaks(index: number, why: string, acted: boolean): boolean {
    const rs = this.rs;
    if (index < 0) {
      // The start page did not come up: the first step will tell.
      return true;
    }
    if (!rs.repair) {
      this.run.finish({
        ok: false,
        summary: `Step ${index + 1} of the recording (${stepText(this.stepAt(index))}) needs repair: ${why}.`,
        reason: 'needs_repair',
        said: { code: 'replayNeedsRepair', step: index + 1 },
      });
      return false;
    }
    rs.repairing = { index, why, turns: 0, made: [], acted };
    if (acted) rs.next = index + 1;
    else rs.next = index;
    return true;
  }

  /** One model turn on the broken step; its successful page actions take the step's place. */
  private async repairTurn(resumed: boolean): Promise<'ended' | 'next'> {
    const rs = this.rs;
    const rp = rs.repairing!;
    if (!this.modelReady) {
      if (!(await this.run.setUp())) return 'ended';
      this.modelReady = true;
    }
    if (rp.turns >= REPAIR_TURNS) {
      this.run.finish({
        ok: false,
        summary: `Step ${rp.index + 1} of the recording could not be repaired in ${REPAIR_TURNS} tries: ${rp.why}.`,
        reason: 'errors',
        said: { code: 'replayUnrepaired', step: rp.index + 1, tries: REPAIR_TURNS },
      });
      return 'ended';
    }
    rp.turns++;
    rs.modelCalls++;
    const step = this.run.state.step + 1;
    this.run.emitStep({ step, phase: 'start', resumed: resumed || undefined, repairs: rp.index + 1 });
    const before = this.run.state.history.length;
    const made = rp.made.length;
    this.run.state.notes.push(
      `You are repairing a replay of a recording of this task: step ${rp.index + 1} of the recording below could not be replayed (it says why). ` +
        `Do now, on the page as it is, what that step did${rp.acted ? ' (its action ran; do what is still needed for it to take effect)' : ''}. ` +
        'Your calls this turn take its place, and the replay goes on with the recorded steps after it: do not do those. Call done only if the whole task is already done.',
    );
    // A step often breaks while the page is still loading (a lazy list, a dialog on its way): the
    // model looks at the page once it is quiet, or after the bound.
    await pageReady(this.run.pageSettings());
    if (this.run.ended) return 'ended';
    const r = await this.run.modelStep(step);
    if (r === 'ended' || this.run.ended) return 'ended';
    const record = this.run.state.history.slice(before).pop();
    const allOk = !!record && record.actions.length > 0 && record.actions.every((a) => a.ok);
    if (!allOk || rp.made.length === made) return 'next'; // another turn (bounded)
    // Repaired. What the model did either cleared the way for the step (closed a dialog that
    // covered its target: the step runs next, as recorded) or did the step itself (its target
    // was renamed or moved: the model's steps take its place). A step is redone at most once.
    const k = rp.index;
    const rec = this.stepAt(k);
    const redo = !rp.acted && !!rec.target && !(rs.redone ?? []).includes(k) && !rp.made.some((s) => sameTarget(s.target, rec.target)) && this.findsNow(rec);
    for (const s of rp.made) {
      rs.out.push({ ...s, repaired: true });
      rs.repaired.push(rs.out.length);
    }
    if (redo) (rs.redone ??= []).push(k);
    rs.next = redo ? k : k + 1;
    rs.repairing = undefined;
    return 'next';
  }

  private summary(): Omit<RunResult, 'steps' | 'usage'> {
    const rs = this.rs;
    const repaired = rs.repaired.length;
    return {
      ok: true,
      summary: `Replayed the recording: ${rs.replayed} step${rs.replayed === 1 ? '' : 's'} as recorded${repaired ? `, ${repaired} made anew by the model` : ''}.`,
      said: { code: 'replayed', replayed: rs.replayed, repaired },
    };
  }
}

const sameTarget = (a: RecordedTarget | undefined, b: RecordedTarget | undefined): boolean => !!a && !!b && a.role === b.role && a.name === b.name;

/** A page action in canonical form, as the dispatch takes it; undefined when it does not parse. */
function pageCall(name: string, args: Record<string, unknown>): PageCall | undefined {
  const p = parseCall({ name, args });
  return p.ok ? { kind: 'page', planned: { name, args: { ...args } }, action: p.call } : undefined;
}
