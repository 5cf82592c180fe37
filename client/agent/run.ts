/**
 * The observe → think → act → verify loop of one run, behind its handle.
 *
 * One step: map the page → ask the model (streamed) → put its calls in canonical form
 * (calls.ts) → run them in order (dispatch.ts; risky ones only after the user's yes,
 * confirm.ts) → one history line → guards. The page is reached only through the page layer.
 * A full navigation parks the run: its state is in sessionStorage and the next page resumes it.
 */
import { pageLazy } from '../page/lazy';
import { createModelClient } from '../llm/client';
import { BROWSER_MODEL, readsImages } from '../llm/models';
import { NO_PROVIDER_FIX } from '../../common/no-provider';
import { ModelError, type ChatReply, type ModelClient, type ProxyInfo } from '../llm/wire';
import { besideBundle, screenshot } from '../page/screenshot';
import { buildMapAsync } from '../page/map/map';
import { nativeSetTimeout } from '../page/settle/settle';
import { watchActivity } from '../page/settle/settle-watch';
import { estimateTokens } from '../page/map/tokens';
import { isFence, newFence } from '../page/map/fence';
import { quote } from '../page/map/format';
import type { PageMap } from '../page/page-types';
import { callArgs, callLabel, normaliseCall, type Call, type PageCall, type SiteCall } from './calls';
import { confirmCall, type ConfirmHost } from '../safety/confirm';
import { watchEffects } from '../safety/effects';
import { targetFacts } from '../safety/facts';
import { classifyRisks, pageToolRisks, resolveUrl, siteToolRisk, unjudged, type RiskCheck } from '../safety/risk';
import { ACTION_TOOLS } from '../page/actions/args';
import { RefError } from '../page/map/refs';
import { ZoneRefusal } from '../page/actions/zones';
import { runStep, type DispatchHost, type StepOutcome } from './dispatch';
import type { ActionResult } from '../page/actions/contract';
import { createEmitter } from './events';
import { callsKey, pageKey, recordOutcome, recordStep, recordTextOnly, type Verdict } from './guards';
import type { StepRecord } from './history';
import type { RunStore, SavedRun, StoredOptions } from './persist';
import { systemPrompt } from './prompt';
import { parseReply, type ParsedReply } from './reply';
import { buildRequest, DEFAULT_MAX_STEPS, DEFAULT_PROMPT_BUDGET, planPrompt, type StepPrompt } from './request';
import { TOOL_LIST, toolSpecs, toolTokens } from './tools';
import { priceOf, costOf, type Price } from '../llm/prices';
import type { PageSettings } from '../page/settings';
import { runPageSettings, type SiteSettings } from '../safety/settings';
import type { PageTool } from '../webmcp/page-tool';
import { pageOffersTools } from '../webmcp/offer';
import { answerPrompt, answerTools } from '../../common/answer-schema';
import { maskRequest, secretsPrompt } from '../safety/secrets';
import type { CallTarget, CustomTool, Knowledge, RecordedStep, RiskKind, RunEvents, RunHandle, RunOptions, RunResult, Said } from './public-types';
import { keepLlms, llmsDataLines, llmsSystemPart, routeInstructions } from './knowledge';
import { clean } from '../page/map/fence';
import { beginStep, endStep } from './recording/recorder';
import { newRecording, pathOn } from './recording/recording';
import { recordRepairStep, recordsActions, repairLines, replayedSoFar, replayResult } from './recording/steps';
import { agentLazy } from './lazy';
import { clock, spent } from '../page/step-parts';
import { withTurn, type Thread } from '../../common/thread';

/** The most of `/llms.txt` downloaded (the prompt takes less: agent/knowledge.ts). */
const LLMS_FETCH_MAX = 64_000;
/** How long a parked run waits for the page to unload before it assumes the navigation did not happen. */
const NAVIGATION_GRACE_MS = 8000;
/** Map roles of things the map cannot see into. */
const OPAQUE_ROLES = new Set(['canvas', 'video', 'iframe', 'embed']);

const newId = (): string => Math.random().toString(36).slice(2, 10) + Date.now().toString(36);

/** What a run is made with besides its state. */
export interface RunDeps {
  /** Read at each use: a site's `init` after a resume supplies it again. */
  confirm: () => RunOptions['confirm'] | undefined;
  /** The run was saved on an earlier page and goes on here. */
  resumed: boolean;
  onEnd: (run: Run) => void;
  store: RunStore;
  transport?: typeof fetch;
  /** The page is a stranger's (bookmarklet, userscript, runner): its marks may only add caution, its tools are its own code. */
  untrusted?: boolean;
  /** The site's own tools by name, read at each use (they cannot be saved across pages: the site supplies them again). */
  siteTools: () => ReadonlyMap<string, CustomTool>;
  /**
   * The site's `init` instructions and allowed actions, read at each use: they hold for every
   * run on the page, one resumed after a navigation included (this page's init says them).
   */
  site?: () => { instructions?: string; allowedActions?: readonly string[]; knowledge?: Knowledge; verify?: boolean };
  /**
   * Drives a run that replays a recording: the recording takes the model's seat. Supplied by
   * the entry (client/replay sits on the agent, so the agent never imports it).
   */
  replay?: (run: Run) => Promise<void>;
  /** The site's settings for the page layer (its `init`), read at each step: a resumed run gets this page's. */
  siteSettings: () => SiteSettings;
  /** The runner's hold at the network layer around a page call (AgentEnv.networkHold). */
  networkHold?: () => Promise<() => Promise<void>>;
}

/** The site's instructions, then the run's own: both are the site owner's words, and both apply. */
export function joinInstructions(site: string | undefined, own: string | undefined): string | undefined {
  const parts = [site, own].map((t) => t?.trim()).filter((t): t is string => !!t);
  return parts.length ? [...new Set(parts)].join('\n\n') : undefined;
}

/** The actions both the site and the run allow (a run narrows the site's list, never widens it). */
export function joinAllowed(site: readonly string[] | undefined, own: readonly string[] | undefined): string[] | undefined {
  if (!site) return own ? [...own] : undefined;
  return own ? site.filter((a) => own.includes(a)) : [...site];
}

/** A step's plan: the model's reasoning and its calls, in canonical form. */
export interface StepPlan {
  reply: ParsedReply;
  calls: Call[];
}

export class Run implements DispatchHost {
  readonly emitter = createEmitter<RunEvents>();
  readonly instance = newId();
  readonly abort = new AbortController();
  ended = false;
  readonly result: Promise<RunResult>;
  private resolveResult!: (r: RunResult) => void;
  private pendingAnswer: ((text: string) => void) | undefined;
  /** The step being executed, saved as-is if the page unloads mid-step. */
  pending: StepRecord | undefined;
  protected client!: ModelClient;
  paused = false;
  /** What the system prompt and the tools cost, for the system prompt it was counted for (a route's instructions change it). */
  private fixed: { system: string; tokens: number } | undefined;
  /** The model reads images (the proxy's /v1/config says so). */
  private seesImages = false;
  /** Screenshot failures in a row; after two the run stays text-only. */
  private shotFailures = 0;
  /** What changed visually since the last screenshot (navigation, dialog, scroll). */
  private visualChange = true;
  private unpause: (() => void) | undefined;
  protected model = '';
  /** The model's price, when the proxy's configuration gives one: the run's usage gets a cost. */
  private price: Price | undefined;
  /** The proxy's limits for this token (GET /v1/config), when read. */
  private limits: ProxyInfo['limits'] | undefined;
  lastMap: PageMap | undefined;
  /** The run's page settings, made again only when the site's change (a new `init`). */
  private settings: { site: SiteSettings; value: PageSettings } | undefined;

  constructor(
    readonly state: SavedRun,
    readonly deps: RunDeps,
  ) {
    this.result = new Promise((r) => (this.resolveResult = r));
    state.owner = this.instance;
    // The run's marker value: made once, kept when resumed; one the page rewrote into something
    // else (a short value would strip that text from every page string) is made anew.
    if (!isFence(state.fence)) state.fence = newFence();
    // Every call that ran ends with this event: its recording step is complete then.
    this.emitter.on('action', (e) => {
      if (e.phase === 'end' && e.result) this.afterAction(e.result);
    });
  }

  /** The page is a stranger's (bookmarklet, userscript, runner): its marks may only add caution. */
  get untrustedPage(): boolean {
    return this.deps.untrusted === true;
  }

  /** The run's own `verify`, else the site's (init). */
  get verify(): boolean {
    return this.options.verify ?? this.deps.site?.().verify === true;
  }

  get holdNetwork(): RunDeps['networkHold'] {
    return this.deps.networkHold;
  }

  get options(): StoredOptions {
    return this.state.options;
  }

  /** The attached files `upload` may use on this page (none on another origin than the run's). */
  private attached: () => readonly File[] = () => [];

  files(): readonly File[] {
    return this.attached();
  }

  useFiles(files: () => readonly File[]): void {
    this.attached = files;
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  handle(): RunHandle {
    const paused = (): boolean => this.paused;
    const active = (): boolean => !this.ended;
    return {
      id: this.state.id,
      task: this.state.task,
      ui: this.state.options.ui !== false,
      on: (event, fn) => this.emitter.on(event, fn),
      stop: () => this.finish({ ok: false, summary: 'Stopped by the user.', reason: 'stopped' }),
      pause: () => this.setPaused(true),
      resume: () => this.setPaused(false),
      get paused() {
        return paused();
      },
      answer: (text: string) => {
        const pending = this.pendingAnswer;
        this.pendingAnswer = undefined;
        pending?.(String(text));
      },
      result: this.result,
      get active() {
        return active();
      },
    };
  }

  setPaused(paused: boolean): void {
    if (this.ended || this.paused === paused) return;
    this.paused = paused;
    if (!paused) {
      const go = this.unpause;
      this.unpause = undefined;
      go?.();
    }
    this.emitter.emit('pause', { paused });
  }

  /** Holds while the user has taken over; resolves at once otherwise (or when the run ends). */
  untilResumed(): Promise<void> {
    if (!this.paused) return Promise.resolve();
    return new Promise((resolve) => {
      this.unpause = resolve;
      this.abort.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  /** Saves the state (with the step in progress) for the next page; `leaving`: the page is going away. */
  save(leaving = false): void {
    if (this.ended) return;
    const t = clock();
    const history = this.pending ? [...this.state.history, this.pending] : this.state.history;
    this.deps.store.save({ ...this.state, history }, leaving);
    spent('save', t);
  }

  private elapsed(): number {
    return Date.now() - this.state.startedAt;
  }

  /** What the result carries besides the loop's own fields: the run as a recording. */
  protected resultExtras(r: Omit<RunResult, 'steps' | 'usage'>): Partial<RunResult> {
    if (this.state.replay) return replayResult(this.state.replay);
    return { recording: newRecording(this.state.task, this.state.startUrl ?? location.href, this.state.recorded ?? [], r.ok ? r.summary : undefined) };
  }

  /** The origin a recording's paths are relative to. */
  protected recordingOrigin(): string {
    try {
      return new URL(this.state.startUrl ?? location.href).origin;
    } catch {
      return location.origin;
    }
  }

  /** A page action or site tool is about to run: its recording step, kept with the state in case the page unloads. */
  beforeAction(call: PageCall | SiteCall, target: CallTarget | undefined): void {
    if (this.state.replay && !recordsActions(this.state.replay)) return;
    const t = clock();
    try {
      const step = beginStep(call, target, this.pageSettings(), this.lastMap);
      if (step) this.state.recordPending = step;
      else delete this.state.recordPending;
    } catch {
      delete this.state.recordPending; // recording never breaks a run
    }
    spent('record', t);
  }

  /** A call ran (its `action` end event): the step it was about to make, with what it led to. */
  protected afterAction(result: ActionResult): void {
    const pending = this.state.recordPending;
    delete this.state.recordPending;
    if (!pending) return;
    const t = clock();
    try {
      const step = endStep(pending, result, this.recordingOrigin(), this.pageSettings().masks, this.recordedSoFar());
      if (step) this.recordStep(step);
    } catch {
      /* recording never breaks a run */
    }
    spent('record', t);
  }

  /** The run's recording steps so far (with the values they typed). */
  protected recordedSoFar(): readonly RecordedStep[] {
    return this.state.replay ? replayedSoFar(this.state.replay) : (this.state.recorded ?? []);
  }

  /** Adds a step to the run's recording. */
  protected recordStep(step: RecordedStep): void {
    if (this.state.replay) recordRepairStep(this.state.replay, step);
    else (this.state.recorded ??= []).push(step);
  }

  /** The conversation with this run as its newest turn: the task, what it answered, how and where it ended. */
  protected threadAfter(r: Omit<RunResult, 'steps' | 'usage'>): Thread {
    const status = r.ok ? 'done' : r.reason === 'stopped' ? 'stopped' : 'failed';
    return withTurn(this.state.thread, { task: this.state.task, answer: r.summary, status, url: location.href });
  }

  finish(r: Omit<RunResult, 'steps' | 'usage'>): void {
    if (this.ended) return;
    this.ended = true;
    this.abort.abort();
    this.pendingAnswer = undefined;
    this.deps.store.clear();
    let extras: Partial<RunResult> = {};
    try {
      extras = this.resultExtras(r);
    } catch {
      /* the result goes out without them */
    }
    const result: RunResult = { ...r, steps: this.state.step, usage: { ...this.state.usage }, ...extras, thread: this.threadAfter(r) };
    this.deps.onEnd(this);
    this.resolveResult(result);
    this.emitter.emit('done', { result });
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.abort.signal.aborted) return resolve();
      const t = nativeSetTimeout(resolve, ms);
      this.abort.signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
    });
  }

  async start(): Promise<void> {
    // Let the caller attach listeners first: even an immediate failure arrives as events.
    await Promise.resolve();
    try {
      await this.loop();
    } catch (e) {
      // A bug of ours must still end the run cleanly, with a reason.
      this.emitter.emit('error', { message: String((e as Error)?.message ?? e), code: 'internal', fatal: true });
      this.finish({ ok: false, summary: `pagehand failed: ${String((e as Error)?.message ?? e)}`, reason: 'internal' });
    }
  }

  /** Connects to the proxy and picks the model; false when the run cannot go on (it ended). */
  async setUp(): Promise<boolean> {
    const o = this.options;
    if (o.model === BROWSER_MODEL) return this.setUpBrowserModel();
    if (!o.proxy) {
      this.fatal(
        'config',
        'No proxy is configured: pass { proxy } to pagehand.run, or load the bundle from the proxy (or set data-pagehand-proxy on its script tag).',
      );
      return false;
    }
    this.client = createModelClient({ proxy: o.proxy, token: o.token, ...(this.deps.transport ? { fetch: this.deps.transport } : {}) });
    this.model = o.model ?? '';
    // The proxy's configuration names the default model and the models that read images.
    if (!this.model || o.vision !== false || o.maxCost) {
      try {
        const info = await this.client.config(this.abort.signal);
        this.model ||= info.defaultModel ?? info.models[0] ?? '';
        if (!this.model && !info.providers?.openai && !info.providers?.gemini) {
          this.fatal('config', `The proxy has no model provider configured: ${NO_PROVIDER_FIX}`);
          return false;
        }
        this.seesImages = readsImages(info.features?.images, this.model);
        this.price = priceOf(info.prices, this.model);
        // The proxy refuses a prompt over its cap and cuts a reply at its own: the run plans within the one and explains the other.
        this.limits = info.limits;
        const cap = info.limits?.maxPromptTokens;
        if (cap && cap < (o.maxPromptTokens ?? DEFAULT_PROMPT_BUDGET)) o.maxPromptTokens = cap;
      } catch (e) {
        if (this.ended) return false;
        // Without a model there is nothing to run; with one, screenshots just stay off.
        if (!this.model) {
          this.fatal(e instanceof ModelError ? e.code : 'config', `Could not read the proxy's configuration: ${(e as Error).message}`);
          return false;
        }
      }
      if (o.vision === true && !this.seesImages && this.model) {
        this.emitter.emit('message', { text: `Screenshots are off: the proxy does not list ${this.model} as a model that reads images.`, from: 'agent' });
      }
      if (!this.model) {
        this.fatal('config', 'The proxy offers no model to this token: configure a provider and a model on the proxy.');
        return false;
      }
    }
    if (o.maxCost && !this.price) {
      this.fatal('config', (await agentLazy()).noPrice(this.model));
      return false;
    }
    return true;
  }

  /**
   * The browser's own model (no proxy, no key): its code loads now, the model downloads if it
   * must (said once), and the prompt budget shrinks to its window.
   */
  private async setUpBrowserModel(): Promise<boolean> {
    const o = this.options;
    let told = false;
    try {
      const client = await (
        await agentLazy()
      ).openBrowserModel({
        signal: this.abort.signal,
        onDownload: () => {
          if (!told) this.emitter.emit('message', { text: 'The browser is downloading its model; the task starts when it is here.', from: 'agent' });
          told = true;
        },
      });
      this.client = client;
      o.maxPromptTokens = Math.min(o.maxPromptTokens ?? DEFAULT_PROMPT_BUDGET, client.promptBudget);
    } catch (e) {
      this.fatal(e instanceof ModelError ? e.code : 'config', String((e as Error)?.message ?? e), 'config');
      return false;
    }
    this.model = BROWSER_MODEL;
    return !this.ended;
  }

  protected fatal(code: string, message: string, reason = code === 'config' ? 'config' : 'model_error', said?: Said): void {
    if (this.ended) return;
    this.emitter.emit('error', { message, code, fatal: true, ...(said ? { said } : {}) });
    this.finish({ ok: false, summary: message, reason, ...(said ? { said } : {}) });
  }

  /** On a page the run was resumed on: wait for it, and end the action the navigation interrupted. */
  async resumeHere(): Promise<void> {
    await pageReady(this.pageSettings());
    if (this.ended) return;
    this.emitter.emit('message', { text: `Resumed on ${location.href} after the page changed.`, from: 'agent' });
    const acting = this.state.acting;
    if (acting) {
      delete this.state.acting;
      this.emitter.emit('action', {
        ...acting,
        phase: 'end',
        result: { ok: true, message: `The page navigated to ${location.href}.`, changes: { navigation: { url: location.href } } },
      });
    }
    // The step whose action unloaded the page: it led here.
    const pending = this.state.recordPending;
    delete this.state.recordPending;
    if (pending) this.recordStep({ ...pending, expect: { url: pathOn(location.href, this.recordingOrigin()) } });
  }

  protected async loop(): Promise<void> {
    // A replay: the recording takes the model's seat; its code loads now (client/replay).
    if (this.state.replay) {
      if (this.deps.replay) return this.deps.replay(this);
      return this.finish({ ok: false, summary: 'Replaying a recording is not available here.', reason: 'internal' });
    }
    if (!(await this.setUp())) return;
    if (this.deps.resumed) {
      await this.resumeHere();
      if (this.ended) return;
    }
    let first = true;
    while (!this.ended) {
      const maxSteps = this.options.maxSteps ?? DEFAULT_MAX_STEPS;
      if (this.state.step >= maxSteps) {
        return this.finish({
          ok: false,
          summary: `Stopped at the step limit (${maxSteps}) before the task was done.`,
          reason: 'max_steps',
          said: { code: 'maxSteps', max: maxSteps },
        });
      }
      if (this.options.maxTokens || this.options.maxCost) {
        const over = (await agentLazy()).budgetEnd(this.options, this.state.usage);
        if (over) return this.finish(over);
      }
      await this.untilResumed();
      if (this.ended) return;
      const step = this.state.step + 1;
      const resumed = first && this.deps.resumed;
      first = false;
      this.emitStep({ step, phase: 'start', resumed: resumed || undefined });
      if ((await this.modelStep(step)) === 'ended') return;
    }
  }

  /** One step planned by the model: observe, think, act, check the guards. */
  async modelStep(step: number): Promise<'ended' | 'next'> {
    const t0 = performance.now();
    await this.loadPageTools();
    await this.readLlms();
    if (this.ended) return 'ended';
    const prompt = this.planPrompt(step);
    const settings = this.pageSettings();
    const tm = clock();
    const map = await safeMap(prompt.mapTokens, settings);
    spent('map', tm);
    this.lastMap = map;
    const image = await this.screenshotFor(map);
    if (this.ended) return 'ended';
    const tr = clock();
    // No secret value leaves the page, whatever carried it into the request.
    const request = maskRequest(buildRequest(prompt, this.state, this.model, map, settings, image), this.state.secrets);
    spent('prompt', tr);
    const t1 = performance.now();
    let reply: ChatReply;
    try {
      reply = await this.client.chat(request, {
        signal: this.abort.signal,
        onDelta: (d) => this.emitStep({ step, phase: 'thinking', text: d.text }),
        onRetry: (r) =>
          this.emitter.emit('error', {
            message: `${r.reason} — trying again in ${Math.round(r.delayMs / 100) / 10} s.`,
            code: r.code,
            fatal: false,
            retryInMs: r.delayMs,
            said: { code: 'model', why: r.code },
          }),
      });
    } catch (e) {
      if (this.ended) return 'ended';
      const err = e instanceof ModelError ? e : new ModelError('network', String((e as Error)?.message ?? e));
      this.fatal(err.code, `The model call failed: ${err.message}`, undefined, { code: 'model', why: err.code });
      return 'ended';
    }
    if (this.ended) return 'ended';
    const timing = { observeMs: t1 - t0, modelMs: performance.now() - t1 };
    const tp = clock();
    this.state.step = step;
    if (reply.usage) {
      this.state.usage.promptTokens += reply.usage.promptTokens;
      this.state.usage.completionTokens += reply.usage.completionTokens;
      if (this.price) this.state.usage.cost = (this.state.usage.cost ?? 0) + costOf(reply.usage, this.price);
    }
    const plan = this.readReply(reply);
    const parsed = plan.reply;
    if (parsed.reasoning.memory) this.state.memory = parsed.reasoning.memory;
    this.state.notes = [];
    if (reply.finishReason === 'length') {
      // The proxy's (or the model's) cap on a reply's tokens cut this one: said, so it is not a mystery.
      const cut = (await agentLazy()).cutReply(this.limits?.maxTokens);
      this.emitter.emit('message', { text: cut.message, from: 'agent' });
      this.state.notes.push(cut.note);
    }
    spent('parse', tp);
    this.emitStep({ step, phase: 'planned', reasoning: parsed.reasoning, calls: parsed.calls.map(({ name, args }) => ({ name, args })), timing });

    if (!plan.calls.length) {
      const text = parsed.text || reply.content.trim() || '(empty reply)';
      this.emitter.emit('message', { text, from: 'model' });
      this.state.history.push({
        step,
        goal: parsed.reasoning.nextGoal,
        actions: [{ call: 'reply', ok: false, result: `No tool call. Said: ${text}` }],
        url: location.href,
      });
      if (this.verdict(recordTextOnly(this.state.guards, true), text)) return 'ended';
      this.save();
      return 'next';
    }
    recordTextOnly(this.state.guards, false);
    return this.act(step, plan.calls, parsed.reasoning.nextGoal, map);
  }

  /** The reply's calls in canonical form. */
  protected readReply(reply: ChatReply): StepPlan {
    const siteTools = this.deps.siteTools();
    const pageTools = this.pageTools();
    const parsed = parseReply(reply, [...siteTools.keys(), ...pageTools.keys()]);
    const offered = this.tools().map((t) => t.function.name);
    const calls = parsed.calls.map((c) => normaliseCall(c, { siteTools, pageTools, allowedActions: this.allowedActions(), offered }));
    return { reply: parsed, calls };
  }

  /** Runs a step's calls (unless the user took over meanwhile) and applies the guards. */
  protected async act(step: number, calls: Call[], goal: string | undefined, map: PageMap): Promise<'ended' | 'next'> {
    if (this.paused) {
      // The user took over while the plan was made: it was made for a page the user may have
      // changed, so it is dropped and the next step looks again.
      await this.untilResumed();
      if (this.ended) return 'ended';
      this.state.history.push({
        step,
        goal,
        actions: [{ call: callLabel(calls[0]!), ok: false, result: 'Not run: the user took over meanwhile. Look at the page again.' }],
        url: location.href,
      });
      this.save();
      return 'next';
    }
    const tg = clock();
    const loop = recordStep(
      this.state.guards,
      callsKey(calls.map((c) => ({ name: c.planned.name, args: callArgs(c) }))),
      pageKey(map.text),
      calls.map(callLabel).join(', '),
    );
    spent('guards', tg);
    if (this.verdict(loop)) return 'ended';

    const outcome: StepOutcome = await runStep(this, step, calls, goal, map);
    if (this.ended || outcome === 'parked') return 'ended';
    const after = recordOutcome(this.state.guards, outcome === 'failed');
    if (this.verdict(after)) return 'ended';
    this.save();
    if (after.kind === 'backoff') await this.sleep(after.ms);
    return 'next';
  }

  /**
   * A screenshot for this step, when the `vision` option and the model allow: `true` sends one
   * on the first step and after visual changes (navigation, a dialog, a scroll); `'auto'` does
   * so only while the view holds something the map cannot show (canvas, video, a frame from
   * another site). A failure is said once; after two in a row the run stays text-only.
   */
  private async screenshotFor(map: PageMap): Promise<string | undefined> {
    const vision = this.options.vision ?? 'auto';
    // Pixels cannot be masked: with secrets or redaction set, the model reads the map only.
    const settings = this.pageSettings();
    if (vision === false || !this.seesImages || this.shotFailures >= 2 || settings.masks.any) return undefined;
    const opaque = map.elements.some((e) => OPAQUE_ROLES.has(e.role));
    if (!this.visualChange || (vision === 'auto' && !opaque)) return undefined;
    const shot = await screenshot(
      { marks: true, elements: map.elements, moduleUrl: besideBundle() ?? `${this.options.proxy}/pagehand-screenshot.js` },
      settings,
    );
    if (shot.dataUrl === null) {
      if (this.shotFailures++ === 0)
        this.emitter.emit('message', { text: `No screenshot this step (${shot.reason}); working from the page map.`, from: 'agent' });
      return undefined;
    }
    this.visualChange = false;
    this.shotFailures = 0;
    return shot.dataUrl;
  }

  visualChanged(): void {
    this.visualChange = true;
  }

  /** Applies a guard's verdict; true when the run ended. */
  protected verdict(v: Verdict, lastText?: string): boolean {
    if (v.kind === 'warn') this.state.notes.push(v.note);
    if (v.kind === 'backoff') {
      this.state.notes.push(v.note);
      return false;
    }
    if (v.kind === 'stop') {
      this.emitter.emit('error', { message: v.summary, code: v.reason, fatal: true, said: v.said });
      this.finish({ ok: false, summary: lastText ? `${v.summary} Its last words: ${lastText}` : v.summary, reason: v.reason, said: v.said });
      return true;
    }
    return false;
  }

  /**
   * The step's prompt before the map; the system prompt and the tools are counted once per run,
   * and again when the system prompt changed (a route's instructions, the site's llms.txt).
   */
  protected planPrompt(step: number): StepPrompt {
    const site = this.deps.site?.();
    // The site's instructions, then those of the route the page is on (both the site owner's), then the run's own.
    const instructions = joinInstructions(
      joinInstructions(site?.instructions, routeInstructions(site?.knowledge, location.pathname)),
      this.options.instructions,
    );
    const llms = this.llmsHere();
    const system =
      systemPrompt(this.state.fence, instructions, this.options.lang) +
      (this.untrustedPage ? '' : clean(llmsSystemPart(llms), this.state.fence)) +
      secretsPrompt(this.state.secrets) +
      answerPrompt(this.options.schema);
    const tools = this.tools();
    if (this.fixed?.system !== system) this.fixed = { system, tokens: estimateTokens(system) + toolTokens(tools, estimateTokens) };
    // What a stranger's page says its tools do, and its llms.txt, go in as page data, within the budget.
    const pageToolLines = this.webmcp?.untrustedToolLines([...this.pageTools().values()], this.pageSettings()) ?? [];
    const siteText = this.untrustedPage ? llmsDataLines(llms).map((l) => clean(l, this.state.fence)) : [];
    const p = planPrompt(this.state, step, system, tools, this.fixed.tokens, this.recordingLines());
    if (!pageToolLines.length && !siteText.length) return p;
    const extra = estimateTokens([...pageToolLines, ...siteText].join('\n'));
    return {
      ...p,
      base: { ...p.base, ...(pageToolLines.length ? { pageTools: pageToolLines } : {}), ...(siteText.length ? { siteText } : {}) },
      mapTokens: Math.max(800, p.mapTokens - extra),
    };
  }

  /** The site's llms.txt as this run read it on this origin, if the site asks for it. */
  private llmsHere() {
    const l = this.state.llms;
    return this.deps.site?.().knowledge?.llmsTxt && l?.origin === location.origin ? l : undefined;
  }

  /**
   * Reads the site's `/llms.txt` once per run and origin, when the site asks for it (`init({
   * knowledge: { llmsTxt: true } })`): kept with the run, so the pages it goes on to do not read
   * it again. A missing file is remembered as missing.
   */
  protected async readLlms(): Promise<void> {
    if (!this.deps.site?.().knowledge?.llmsTxt || this.state.llms?.origin === location.origin) return;
    // The reader loads on first use: most runs never ask for llms.txt.
    const got = await (await pageLazy()).fetchSameOrigin('/llms.txt', this.abort.signal, LLMS_FETCH_MAX);
    if (this.ended) return;
    this.state.llms = keepLlms(location.origin, got.ok && !/html/.test(got.type) ? got.text : undefined);
  }

  /** The recording shown to the model (while a replay's step is repaired), else nothing. */
  protected recordingLines(): string[] | undefined {
    return this.state.replay && repairLines(this.state.replay);
  }

  protected tools() {
    const offered = this.webmcp?.offered;
    const settings = this.pageSettings();
    return answerTools(
      toolSpecs(this.allowedActions(), [
        ...this.deps.siteTools().values(),
        ...(offered ? [...this.pageTools().values()].map((t) => offered(t, settings)) : []),
      ]),
      this.options.schema,
    );
  }

  protected allowedActions(): string[] | undefined {
    return joinAllowed(this.deps.site?.().allowedActions, this.options.allowedActions);
  }

  /** The WebMCP bridge, once the page offered a tool (its code loads on first use). */
  private webmcp: typeof import('../webmcp/bridge') | undefined;

  /** Before a step's prompt: the bridge, when the page offers tools and it is not here yet. */
  protected async loadPageTools(): Promise<void> {
    if (!this.webmcp && this.site().webmcp && pageOffersTools()) this.webmcp = (await agentLazy()).webmcp;
  }

  /** The page's WebMCP tools on offer now (never under a built-in's or a site tool's name). */
  protected pageTools(): ReadonlyMap<string, PageTool> {
    if (!this.webmcp || !this.site().webmcp) return new Map();
    return this.webmcp.pageToolsNow(new Set([...TOOL_LIST, ...this.deps.siteTools().keys()]), this.deps.untrusted === true, this.pageSettings());
  }

  private site(): SiteSettings {
    return this.deps.siteSettings();
  }

  /**
   * What this run's page operations work with: the site's deny zones, marks and frames, its
   * redaction with the run's secrets, frames from other origins only for a run the user started,
   * and a save before any navigation its actions start.
   */
  pageSettings(): PageSettings {
    const site = this.site();
    if (this.settings?.site !== site) {
      const value = runPageSettings(site, {
        secrets: this.state.secrets?.values,
        byPage: !!this.state.byPage,
        beforeNavigate: () => this.save(true),
        fence: this.state.fence!,
        // What an action makes the page do is judged as the action is, and asked about the same way.
        effects: () => watchEffects(this.confirmHost(), this.state.acting?.call ?? { name: 'action', args: {} }, this.state.acting?.target, this.own),
      });
      this.settings = { site, value };
    }
    return this.settings.value;
  }

  emitStep(p: Pick<RunEvents['step'], 'step' | 'phase'> & Partial<RunEvents['step']>): void {
    const t = clock();
    this.emitter.emit('step', {
      maxSteps: this.options.maxSteps ?? DEFAULT_MAX_STEPS,
      usage: { ...this.state.usage },
      elapsedMs: this.elapsed(),
      url: location.href,
      ...p,
    });
    if (p.phase !== 'thinking') spent('events', t);
  }

  /** The last call asked about was refused (by the user, or because no one could be asked). */
  refused = false;
  /** The first risk of the last call judged (none: it needed no yes). */
  risk: RiskKind | undefined;
  /** Where the last call judged goes itself (its effects going there were judged with it). */
  private own: readonly string[] = [];

  private confirmHost(): ConfirmHost {
    return { allowed: this.state.allowed, emitter: this.emitter, signal: this.abort.signal, confirmFn: () => this.confirmFn() };
  }

  /** Asks about a risky call: true, why it must not run, or the refusal of a call whose element is gone. */
  async confirm(call: Call, target: CallTarget | undefined, goal: string | undefined): Promise<true | string | ActionResult> {
    const t = clock();
    const check = checkRisks(call, this.pageSettings(), this.untrustedPage);
    spent('risk', t);
    // What the call would do, for the step log (a refused or failed one is named at the end).
    this.risk = check.risks[0]?.kind;
    if (check.refused) return check.refused;
    this.own = check.own ?? [];
    const answer = await confirmCall(this.confirmHost(), check.risks, call.planned, target, goal);
    this.refused = answer !== true;
    return answer;
  }

  confirmFn(): RunOptions['confirm'] | undefined {
    return this.deps.confirm();
  }

  ask(question: string): Promise<string | undefined> {
    if (this.emitter.count('ask') === 0) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.pendingAnswer = resolve;
      this.abort.signal.addEventListener('abort', () => resolve(undefined), { once: true });
      this.emitter.emit('ask', { question });
    });
  }

  /**
   * A full navigation started: the state is saved and the next page resumes the run. If the
   * page is still here after a grace period (a download, a cancelled or 204 navigation), the
   * run goes on here — unless another instance took it over meanwhile (back/forward cache).
   */
  async park(record: StepRecord): Promise<'parked' | 'ok'> {
    this.state.history.push(record);
    this.pending = undefined;
    this.save(true);
    await this.sleep(NAVIGATION_GRACE_MS);
    if (this.ended) return 'parked';
    const saved = this.deps.store.load();
    if (!saved || saved.owner !== this.instance) {
      this.stepAside();
      return 'parked';
    }
    return 'ok';
  }

  /** Another page took the run over: this copy stops without ending the run. */
  stepAside(): void {
    if (this.ended) return;
    this.ended = true;
    this.abort.abort();
    this.deps.onEnd(this);
    this.resolveResult({ ok: false, summary: 'The run continued on another page.', reason: 'moved', steps: this.state.step, usage: { ...this.state.usage } });
  }
}

/** The map in slices: a big page stays responsive while the step reads it. */
export async function safeMap(maxTokens: number, settings: PageSettings): Promise<PageMap> {
  try {
    return await buildMapAsync({ maxTokens }, settings);
  } catch (e) {
    // A page that breaks the map still gets a step: the model can scroll, navigate or fail.
    return {
      text: `page ${quote(document.title, settings)} ${quote(location.href, settings)}\n(the page map failed: ${quote(String((e as Error)?.message ?? e), settings)})`,
      elements: [],
      stats: { visited: 0, candidates: 0, listed: 0, more: { above: 0, below: 0, left: 0, right: 0, covered: 0 }, tokens: 0, ms: 0 },
    };
  }
}

/** The page is parsed and quiet enough to read (bounded): a new page, or one a replay's repair looks at. */
export async function pageReady(settings: PageSettings): Promise<void> {
  if (document.readyState === 'loading') await new Promise((r) => document.addEventListener('DOMContentLoaded', r, { once: true }));
  const watch = watchActivity(settings.zones, [document]);
  try {
    await watch.settle({ timeout: 3000, quiet: 150 });
  } finally {
    watch.stop();
  }
}

/**
 * What a call needs before it runs, judged on what it does (client/safety/risk.ts) by how its
 * tool says it is judged: nothing, the user's yes (`risks`, most telling first), or a refusal
 * (`refused`: its element is unknown or gone, which the action itself would refuse). Fails
 * closed: an error anywhere in the judging, a fact missing, asks as `unjudged`, never allows.
 */
export function checkRisks(call: Call, settings: PageSettings, untrusted: boolean): RiskCheck {
  const judge = call.kind === 'page' ? ACTION_TOOLS[call.action.name]?.judge : call.kind === 'site' || call.kind === 'page_tool' ? 'tool' : 'none';
  try {
    if (call.kind === 'site') {
      const r = siteToolRisk(call.tool);
      return { judge, risks: r ? [r] : [] };
    }
    if (call.kind === 'page_tool') return { judge, risks: pageToolRisks(call.tool, settings) };
    if (call.kind !== 'page') return { judge, risks: [] };
    if (!judge) return { judge: 'none', risks: [unjudged(`pagehand has no rule for "${call.action.name}"`)] };
    const facts = targetFacts(call.action, settings);
    const risks = classifyRisks(call.action, facts, location.href, { trustMarks: !untrusted });
    const to = call.action.name === 'navigate' ? resolveUrl(call.action.args.url, location.href) : (facts?.submits?.action ?? facts?.href);
    return { judge, risks, ...(to ? { own: [to] } : {}) };
  } catch (e) {
    // A ref the map never gave, or an element that went away: refused here with the action's own
    // words (the action must not run on what was not judged; the model looks again).
    if (e instanceof ZoneRefusal) return { judge, risks: [], refused: { ok: false, message: e.message, error: { kind: 'in_deny_zone' }, changes: {} } };
    if (e instanceof RefError)
      return { judge, risks: [], refused: { ok: false, message: e.message, error: { kind: e.code === 'unknown' ? 'unknown_ref' : 'stale_ref' }, changes: {} } };
    // Whatever the page made the check trip on: its words stay out of the reason.
    return { judge, risks: [unjudged(`reading what ${call.kind === 'page' ? call.action.name : 'this'} acts on failed`)] };
  }
}
