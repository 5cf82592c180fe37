/**
 * `pagehand.run(task, options)`: the observe → think → act → verify loop behind a handle.
 *
 * One step: map the page → ask the model (streamed) → run its calls in order through
 * `pagehand.act` (risky ones only after the user's yes; the batch stops when the page changes)
 * → record one history line → guards. The page is reached only through the page layer.
 * A full navigation parks the run: its state is in sessionStorage and the next page resumes it.
 */
import { createModelClient } from '../llm/client';
import { readsImages } from '../llm/models';
import { NO_PROVIDER_FIX } from '../llm/no-provider';
import { ModelError, type ChatReply, type ModelClient, type Usage } from '../llm/types';
import { act, setBeforeNavigate, TOOL_NAMES } from '../page/actions/index';
import type { ActionChanges, ActionResult } from '../page/actions/types';
import { targetFacts } from '../page/facts';
import { find } from '../page/find';
import { besideBundle, screenshot } from '../page/screenshot';
import { buildMapAsync } from '../page/map';
import { nativeSetTimeout, watchActivity } from '../page/settle';
import { estimateTokens } from '../page/tokens';
import type { MappedElement, PageMap } from '../page/types';
import { agentEnv, pageIsUntrusted, type AgentEnv } from './env';
import { createEmitter } from './events';
import { callsKey, newGuardState, pageKey, recordOutcome, recordStep, recordTextOnly, type Verdict } from './guards';
import { describeCall, fitHistory, fullResults, userAnswers, type ActionRecord, type StepRecord } from './history';
import { sessionRunStore, type RunStore, type SavedRun, type StoredOptions } from './persist';
import { stepMessage, systemPrompt } from './prompt';
import { parseReply, type ParsedCall } from './reply';
import { classifyRisks, siteToolRisk, type Risk } from './risk';
import { toolProblem, toolSpecs, toolTokens } from './tools';
import { setDenyZones } from '../page/own-ui';
import { setRiskMarks } from '../page/risk-marks';
import type { Allowance, CallTarget, ConfirmRequest, CustomTool, PlannedCall, RunEvents, RunHandle, RunOptions, RunResult, SiteConfig } from './types';

export const DEFAULT_MAX_STEPS = 50;
export const DEFAULT_PROMPT_BUDGET = 12_000;
const MAP_MAX_TOKENS = 3000;
const MAP_MIN_TOKENS = 800;
/** How long a parked run waits for the page to unload before it assumes the navigation did not happen. */
const NAVIGATION_GRACE_MS = 8000;

/** Where the bundle's script tag says the proxy is (read once at load by the entry). */
export interface ScriptDefaults {
  proxy?: string;
  token?: string;
  model?: string;
  lang?: string;
  /** Loaded by a site's own script tag (not the bookmarklet): show the launcher. */
  embed?: boolean;
}

export class RunError extends Error {
  constructor(
    readonly code: 'busy' | 'invalid_task' | 'invalid_tool',
    message: string,
  ) {
    super(message);
    this.name = 'PagehandRunError';
  }
}

const zeroUsage = (): Usage => ({ promptTokens: 0, completionTokens: 0 });
const newId = (): string => Math.random().toString(36).slice(2, 10) + Date.now().toString(36);

/** Changes after which the rest of a batch was planned on a page that no longer exists. */
function pageChanged(c: ActionChanges): boolean {
  return !!(c.navigation || c.url || c.dialogOpened?.length || c.dialogClosed?.length);
}

class Run {
  readonly emitter = createEmitter<RunEvents>();
  readonly instance = newId();
  readonly abort = new AbortController();
  ended = false;
  readonly result: Promise<RunResult>;
  private resolveResult!: (r: RunResult) => void;
  private pendingAnswer: ((text: string) => void) | undefined;
  /** The step being executed, saved as-is if the page unloads mid-step. */
  private pending: StepRecord | undefined;
  private client!: ModelClient;
  paused = false;
  private fixed: number | undefined;
  /** The model reads images (the proxy's /v1/config says so). */
  private seesImages = false;
  /** Screenshot failures in a row; after two the run stays text-only. */
  private shotFailures = 0;
  /** What changed visually since the last screenshot (navigation, dialog, scroll). */
  private visualChange = true;
  private unpause: (() => void) | undefined;
  private model = '';
  private lastMap: PageMap | undefined;

  constructor(
    readonly state: SavedRun,
    /** Read at each use: a site's `init` after a resume supplies it again. */
    private readonly confirmFn: () => RunOptions['confirm'] | undefined,
    private readonly resumed: boolean,
    private readonly onEnd: (run: Run) => void,
    private readonly store: RunStore,
    private readonly transport: typeof fetch | undefined,
    /** The site's own tools by name, read at each use (they cannot be saved across pages: the site supplies them again). */
    private readonly siteTools: () => ReadonlyMap<string, CustomTool>,
  ) {
    this.result = new Promise((r) => (this.resolveResult = r));
    state.owner = this.instance;
  }

  get options(): StoredOptions {
    return this.state.options;
  }

  handle(): RunHandle {
    const self = this;
    return {
      id: this.state.id,
      task: this.state.task,
      ui: this.state.options.ui !== false,
      on: (event, fn) => this.emitter.on(event, fn),
      stop: () => this.finish({ ok: false, summary: 'Stopped by the user.', reason: 'stopped' }),
      pause: () => this.setPaused(true),
      resume: () => this.setPaused(false),
      get paused() {
        return self.paused;
      },
      answer: (text: string) => {
        const pending = this.pendingAnswer;
        this.pendingAnswer = undefined;
        pending?.(String(text));
      },
      result: this.result,
      get active() {
        return !self.ended;
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
  private untilResumed(): Promise<void> {
    if (!this.paused) return Promise.resolve();
    return new Promise((resolve) => {
      this.unpause = resolve;
      this.abort.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  /** Saves the state (with the step in progress) for the next page. */
  save(): void {
    if (this.ended) return;
    const history = this.pending ? [...this.state.history, this.pending] : this.state.history;
    this.store.save({ ...this.state, history });
  }

  private elapsed(): number {
    return Date.now() - this.state.startedAt;
  }

  finish(r: Omit<RunResult, 'steps' | 'usage'>): void {
    if (this.ended) return;
    this.ended = true;
    this.abort.abort();
    this.pendingAnswer = undefined;
    this.store.clear();
    const result: RunResult = { ...r, steps: this.state.step, usage: { ...this.state.usage } };
    this.onEnd(this);
    this.resolveResult(result);
    this.emitter.emit('done', { result });
  }

  private sleep(ms: number): Promise<void> {
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

  private async setUp(): Promise<boolean> {
    const o = this.options;
    if (!o.proxy) {
      this.fatal('config', 'No proxy is configured: pass { proxy } to pagehand.run, or load the bundle from the proxy (or set data-pagehand-proxy on its script tag).');
      return false;
    }
    this.client = createModelClient({ proxy: o.proxy, token: o.token, ...(this.transport ? { fetch: this.transport } : {}) });
    this.model = o.model ?? '';
    // The proxy's configuration names the default model and the models that read images.
    if (!this.model || o.vision !== false) {
      try {
        const info = await this.client.config(this.abort.signal);
        this.model ||= info.defaultModel ?? info.models[0] ?? '';
        if (!this.model && !info.providers?.openai && !info.providers?.gemini) {
          this.fatal('config', `The proxy has no model provider configured: ${NO_PROVIDER_FIX}`);
          return false;
        }
        this.seesImages = readsImages(info.features?.images, this.model);
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
    return true;
  }

  private fatal(code: string, message: string, reason = code === 'config' ? 'config' : 'model_error'): void {
    if (this.ended) return;
    this.emitter.emit('error', { message, code, fatal: true });
    this.finish({ ok: false, summary: message, reason });
  }

  private async loop(): Promise<void> {
    if (!(await this.setUp())) return;
    if (this.resumed) {
      await pageReady();
      if (this.ended) return;
      this.emitter.emit('message', { text: `Resumed on ${location.href} after the page changed.`, from: 'agent' });
      const acting = this.state.acting;
      if (acting) {
        delete this.state.acting;
        this.emitter.emit('action', { ...acting, phase: 'end', result: { ok: true, message: `The page navigated to ${location.href}.`, changes: { navigation: { url: location.href } } } });
      }
    }
    let first = true;
    while (!this.ended) {
      const maxSteps = this.options.maxSteps ?? DEFAULT_MAX_STEPS;
      if (this.state.step >= maxSteps) {
        return this.finish({ ok: false, summary: `Stopped at the step limit (${maxSteps}) before the task was done.`, reason: 'max_steps' });
      }
      await this.untilResumed();
      if (this.ended) return;
      const step = this.state.step + 1;
      const resumed = first && this.resumed;
      first = false;
      this.emitStep({ step, phase: 'start', resumed: resumed || undefined });

      const t0 = performance.now();
      const map = await safeMap(this.mapBudget());
      this.lastMap = map;
      const image = await this.screenshotFor(map);
      if (this.ended) return;
      const request = this.request(step, map, image);
      const t1 = performance.now();
      let reply: ChatReply;
      try {
        reply = await this.client.chat(request, {
          signal: this.abort.signal,
          onDelta: (d) => this.emitStep({ step, phase: 'thinking', text: d.text }),
          onRetry: (r) => this.emitter.emit('error', { message: `${r.reason} — trying again in ${Math.round(r.delayMs / 100) / 10} s.`, code: r.code, fatal: false, retryInMs: r.delayMs }),
        });
      } catch (e) {
        if (this.ended) return;
        const err = e instanceof ModelError ? e : new ModelError('network', String((e as Error)?.message ?? e));
        return this.fatal(err.code, `The model call failed: ${err.message}`);
      }
      if (this.ended) return;
      const timing = { observeMs: t1 - t0, modelMs: performance.now() - t1 };
      this.state.step = step;
      if (reply.usage) {
        this.state.usage.promptTokens += reply.usage.promptTokens;
        this.state.usage.completionTokens += reply.usage.completionTokens;
      }
      const parsed = parseReply(reply, [...this.siteTools().keys()]);
      if (parsed.reasoning.memory) this.state.memory = parsed.reasoning.memory;
      this.state.notes = [];
      this.emitStep({ step, phase: 'planned', reasoning: parsed.reasoning, calls: parsed.calls.map(({ name, args }) => ({ name, args })), timing });

      if (!parsed.calls.length) {
        const text = parsed.text || reply.content.trim() || '(empty reply)';
        this.emitter.emit('message', { text, from: 'model' });
        this.state.history.push({ step, goal: parsed.reasoning.nextGoal, actions: [{ call: 'reply', ok: false, result: `No tool call. Said: ${text}` }], url: location.href });
        if (this.verdict(recordTextOnly(this.state.guards, true), text)) return;
        this.save();
        continue;
      }
      recordTextOnly(this.state.guards, false);
      if (this.paused) {
        // The user took over while the model was thinking: its plan was made for a page the
        // user may have changed, so it is dropped and the next step looks again.
        await this.untilResumed();
        if (this.ended) return;
        this.state.history.push({ step, goal: parsed.reasoning.nextGoal, actions: [{ call: describeCall(parsed.calls[0]!.name, parsed.calls[0]!.args), ok: false, result: 'Not run: the user took over meanwhile. Look at the page again.' }], url: location.href });
        this.save();
        continue;
      }
      const loop = recordStep(this.state.guards, callsKey(parsed.calls), pageKey(map.text), parsed.calls.map((c) => describeCall(c.name, c.args)).join(', '));
      if (this.verdict(loop)) return;

      const outcome = await this.execute(step, parsed.calls, parsed.reasoning.nextGoal, map);
      if (this.ended || outcome === 'parked') return;
      const after = recordOutcome(this.state.guards, outcome === 'failed');
      if (this.verdict(after)) return;
      this.save();
      if (after.kind === 'backoff') await this.sleep(after.ms);
    }
  }

  /**
   * A screenshot for this step, when the `vision` option and the model allow: `true` sends one
   * on the first step and after visual changes (navigation, a dialog, a scroll); `'auto'` does
   * so only while the view holds something the map cannot show (canvas, video, a frame from
   * another site). A failure is said once; after two in a row the run stays text-only.
   */
  private async screenshotFor(map: PageMap): Promise<string | undefined> {
    const vision = this.options.vision ?? 'auto';
    if (vision === false || !this.seesImages || this.shotFailures >= 2) return undefined;
    const opaque = map.elements.some((e) => OPAQUE_ROLES.has(e.role));
    if (!this.visualChange || (vision === 'auto' && !opaque)) return undefined;
    const shot = await screenshot({ marks: true, elements: map.elements, moduleUrl: besideBundle() ?? `${this.options.proxy}/pagehand-screenshot.js` });
    if (shot.dataUrl === null) {
      if (this.shotFailures++ === 0) this.emitter.emit('message', { text: `No screenshot this step (${shot.reason}); working from the page map.`, from: 'agent' });
      return undefined;
    }
    this.visualChange = false;
    this.shotFailures = 0;
    return shot.dataUrl;
  }

  /** Applies a guard's verdict; true when the run ended. */
  private verdict(v: Verdict, lastText?: string): boolean {
    if (v.kind === 'warn') this.state.notes.push(v.note);
    if (v.kind === 'backoff') {
      this.state.notes.push(v.note);
      return false;
    }
    if (v.kind === 'stop') {
      this.emitter.emit('error', { message: v.summary, code: v.reason, fatal: true });
      this.finish({ ok: false, summary: lastText ? `${v.summary} Its last words: ${lastText}` : v.summary, reason: v.reason });
      return true;
    }
    return false;
  }

  /** Tokens of the system prompt and the tools: the same every step. */
  private fixedTokens(): number {
    return (this.fixed ??= estimateTokens(systemPrompt(this.options.instructions, this.options.lang)) + toolTokens(this.tools(), estimateTokens));
  }

  private mapBudget(): number {
    const budget = this.options.maxPromptTokens ?? DEFAULT_PROMPT_BUDGET;
    const fixed = this.fixedTokens();
    const last = this.state.history[this.state.history.length - 1];
    // The data blocks' markers (memory, steps, results, map) count too.
    const essentials = estimateTokens(`${this.state.task}\n${this.state.memory}\n${this.state.notes.join('\n')}\n${fullResults(last).join('\n')}\n${userAnswers(this.state.history).join('\n')}`) + 140;
    // Keep room for about ten history lines.
    return Math.max(MAP_MIN_TOKENS, Math.min(MAP_MAX_TOKENS, budget - fixed - essentials - 600));
  }

  private request(step: number, map: PageMap, image?: string) {
    const o = this.options;
    const system = systemPrompt(o.instructions, o.lang);
    const tools = this.tools();
    const budget = o.maxPromptTokens ?? DEFAULT_PROMPT_BUDGET;
    const last = this.state.history[this.state.history.length - 1];
    const base = {
      task: this.state.task,
      step,
      maxSteps: o.maxSteps ?? DEFAULT_MAX_STEPS,
      memory: this.state.memory,
      lastResults: fullResults(last),
      answers: userAnswers(this.state.history),
      notes: this.state.notes,
      map: map.text,
    };
    const used = this.fixedTokens() + estimateTokens(stepMessage({ ...base, history: [], omitted: 0 }));
    const { lines, omitted } = fitHistory(this.state.history, Math.max(0, budget - used));
    return {
      model: this.model,
      messages: [
        { role: 'system' as const, content: system },
        {
          role: 'user' as const,
          content: image
            ? [
                { type: 'text' as const, text: `${stepMessage({ ...base, history: lines, omitted })}\n\nA screenshot of the viewport is attached; the numbers drawn on it are the refs of the map.` },
                { type: 'image_url' as const, image_url: { url: image } },
              ]
            : stepMessage({ ...base, history: lines, omitted }),
        },
      ],
      tools,
      tool_choice: o.toolChoice ?? 'auto',
    };
  }

  private tools() {
    return toolSpecs(this.options.allowedActions, [...this.siteTools().values()]);
  }

  private emitStep(p: Pick<RunEvents['step'], 'step' | 'phase'> & Partial<RunEvents['step']>): void {
    this.emitter.emit('step', {
      maxSteps: this.options.maxSteps ?? DEFAULT_MAX_STEPS,
      usage: { ...this.state.usage },
      elapsedMs: this.elapsed(),
      url: location.href,
      ...p,
    });
  }

  /** Runs one step's calls in order. */
  private async execute(step: number, calls: ParsedCall[], goal: string | undefined, map: PageMap): Promise<'ok' | 'failed' | 'parked' | 'ended'> {
    const record: StepRecord = { step, goal, actions: [], url: location.href };
    this.pending = record;
    const push = (a: ActionRecord): void => void record.actions.push(a);
    let failed = false;
    try {
      for (let i = 0; i < calls.length; i++) {
        if (this.ended) return 'ended';
        if (this.paused && i > 0) {
          this.state.notes.push(`The user took over, so the ${calls.length - i} call${calls.length - i === 1 ? '' : 's'} after ${describeCall(calls[i - 1]!.name, calls[i - 1]!.args)} did not run.`);
          break;
        }
        const call = calls[i]!;
        const label = describeCall(call.name, call.args);
        if (call.error) {
          push({ call: label, ok: false, result: `Not run: ${call.error}. Send the arguments as a JSON object.` });
          failed = true;
          break;
        }
        if (call.name === 'done' || call.name === 'fail') {
          if (failed) break;
          const summary = String(call.args.summary ?? call.args.reason ?? call.args.text ?? '').trim();
          this.state.history.push(record);
          this.pending = undefined;
          if (call.name === 'fail') this.finish({ ok: false, summary: summary || 'The agent gave up without a reason.', reason: 'failed' });
          else {
            const ok = call.args.success !== false && call.args.success !== 'false';
            this.finish({ ok, summary: summary || '(no summary)', ...(ok ? {} : { reason: 'incomplete' }) });
          }
          return 'ended';
        }
        if (call.name === 'ask_user') {
          const answer = await this.ask(String(call.args.question ?? '').trim());
          if (this.ended) return 'ended';
          push({ call: label, ok: answer !== undefined, result: answer === undefined ? 'No one is there to answer. Go on with what you know, or finish with done or fail.' : `The user answered: ${answer}` });
          continue;
        }
        // Who runs it: find and the site's own tools run here, page actions through pagehand.act.
        const custom = this.siteTools().get(call.name);
        const offered = this.options.allowedActions;
        const isAction = (TOOL_NAMES as readonly string[]).includes(call.name);
        if (call.name !== 'find' && !custom && (!isAction || (offered && !offered.includes(call.name)))) {
          const names = this.tools().map((t) => t.function.name);
          push({ call: label, ok: false, result: `${isAction ? `"${call.name}" is not allowed on this site` : `Unknown tool "${call.name}"`}. Tools: ${names.join(', ')}.` });
          failed = true;
          break;
        }
        const target = isAction ? targetOf(call, map) : undefined;
        if (call.name !== 'find') {
          const allowed = await this.allowed(call, target, goal, custom);
          if (this.ended) return 'ended';
          if (allowed !== true) {
            push({ call: label, ok: false, result: allowed });
            this.state.notes.push(`The user did not allow ${label}. Do not try it again; go on without it or finish.`);
            break;
          }
        }
        const planned: PlannedCall = { name: call.name, args: call.args };
        this.emitter.emit('action', { step, phase: 'start', call: planned, target });
        const current: ActionRecord = { call: label, ok: true, result: '(the page started to navigate)' };
        push(current);
        this.state.acting = { step, call: planned, ...(target ? { target } : {}) };
        const result = call.name === 'find' ? findResult(call.args) : custom ? await runCustomTool(custom, call.args) : await act({ name: call.name, args: call.args });
        delete this.state.acting;
        if (this.ended) return 'ended';
        current.ok = result.ok;
        current.result = result.ok ? result.message : this.withRefHint(result.message);
        this.emitter.emit('action', { step, phase: 'end', call: planned, target, result });
        if (result.changes.navigation) return await this.park(record);
        // What the map cannot show may have changed: a new view, or a click on opaque content.
        if (result.changes.url || result.changes.dialogOpened || result.changes.dialogClosed || result.changes.scroll || call.name === 'click_at') this.visualChange = true;
        if (!result.ok) {
          failed = true;
          break;
        }
        const rest = calls.length - i - 1;
        if (rest > 0 && pageChanged(result.changes)) {
          this.state.notes.push(`The page changed after ${label}, so the ${rest} call${rest === 1 ? '' : 's'} after it did not run. Plan again from the new map.`);
          break;
        }
      }
    } finally {
      if (this.pending === record) {
        this.state.history.push(record);
        this.pending = undefined;
      }
    }
    return failed ? 'failed' : 'ok';
  }

  /** A rejected ref gets the refs that do exist, so the model can correct itself. */
  private withRefHint(message: string): string {
    if (!/no element \[|no longer on the page|changed: it was/i.test(message)) return message;
    const refs = (this.lastMap?.elements ?? []).slice(0, 20).map((e) => e.ref);
    return refs.length ? `${message} Refs in the last map: ${refs.join(', ')}${(this.lastMap?.elements.length ?? 0) > 20 ? ', …' : ''}; the new map is below.` : message;
  }

  /**
   * true, or the sentence the model reads when the user (or nobody) said no. Judged on what
   * the call will do (targetFacts), or for a site tool on what it declares (readOnly, risk).
   * The user's "always" holds for a kind, and for a site tool by its name only.
   */
  private async allowed(call: ParsedCall, target: CallTarget | undefined, goal: string | undefined, tool?: CustomTool): Promise<true | string> {
    let risks: Risk[];
    try {
      if (tool) {
        const r = siteToolRisk(tool);
        risks = r ? [r] : [];
      } else {
        risks = classifyRisks(call, targetFacts(call), location.href, { trustMarks: !pageIsUntrusted() });
      }
    } catch {
      risks = [];
    }
    const allowance = (r: Risk): Allowance => (r.tool ? `tool:${r.tool}` : r.kind);
    const granted = (r: Risk): boolean => this.state.allowed.includes(allowance(r)) || (r.kind !== 'site_tool' && this.state.allowed.includes(r.kind));
    const risk = risks.find((r) => !granted(r));
    if (!risk) return true;
    const request: ConfirmRequest = { kind: risk.kind, call: { name: call.name, args: call.args }, target, reason: risk.reason, goal };
    let yes = false;
    let asked = true;
    const confirmFn = this.confirmFn();
    if (confirmFn) {
      try {
        yes = (await confirmFn(request)) === true;
      } catch {
        yes = false;
      }
    } else if (this.emitter.count('confirm') > 0) {
      yes = await new Promise<boolean>((resolve) => {
        let answered = false;
        const respond = (allowed: boolean, always?: boolean): void => {
          if (answered) return;
          answered = true;
          if (allowed && always && !this.state.allowed.includes(allowance(risk))) this.state.allowed.push(allowance(risk));
          resolve(allowed === true);
        };
        this.abort.signal.addEventListener('abort', () => respond(false), { once: true });
        this.emitter.emit('confirm', { request, respond });
      });
    } else asked = false;
    // One question per call, about its first risk not yet allowed: an "always" for sending
    // does not let a "Send" button that also pays through.
    if (yes) return true;
    return asked
      ? `The user did not allow this: ${risk.reason}`
      : `Not done: ${risk.reason} Such actions need the user's confirmation and no one could be asked.`;
  }

  private ask(question: string): Promise<string | undefined> {
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
  private async park(record: StepRecord): Promise<'parked' | 'ok'> {
    this.state.history.push(record);
    this.pending = undefined;
    this.save();
    await this.sleep(NAVIGATION_GRACE_MS);
    if (this.ended) return 'parked';
    const saved = this.store.load();
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
    this.onEnd(this);
    this.resolveResult({ ok: false, summary: 'The run continued on another page.', reason: 'moved', steps: this.state.step, usage: { ...this.state.usage } });
  }
}

const CUSTOM_RESULT_MAX = 4000;
/** Map roles of things the map cannot see into. */
const OPAQUE_ROLES = new Set(['canvas', 'video', 'iframe', 'embed']);

/** Runs a site tool's handler; its value (or error) becomes the sentence the model reads. */
async function runCustomTool(tool: CustomTool, args: Record<string, unknown>): Promise<ActionResult> {
  try {
    const value = await tool.handler(args);
    let text = typeof value === 'string' ? value : value === undefined ? 'Done.' : JSON.stringify(value);
    if (text === undefined) text = String(value);
    return { ok: true, message: text.length > CUSTOM_RESULT_MAX ? `${text.slice(0, CUSTOM_RESULT_MAX)}… (cut)` : text, changes: {} };
  } catch (e) {
    return { ok: false, message: `${tool.name} failed: ${String((e as Error)?.message ?? e)}`, changes: {} };
  }
}

/** `find {query}` on the whole page, as an action result. */
function findResult(args: Record<string, unknown>): ActionResult {
  const query = String(args.query ?? '').trim();
  if (!query) return { ok: false, message: 'find needs "query": words to look for.', changes: {} };
  try {
    return { ok: true, message: find(query).text, changes: {} };
  } catch (e) {
    return { ok: false, message: `find failed: ${String((e as Error)?.message ?? e)}`, changes: {} };
  }
}

/** The map in slices: a big page stays responsive while the step reads it. */
async function safeMap(maxTokens: number): Promise<PageMap> {
  try {
    return await buildMapAsync({ maxTokens });
  } catch (e) {
    // A page that breaks the map still gets a step: the model can scroll, navigate or fail.
    return { text: `page ${JSON.stringify(document.title)} ${location.href}\n(the page map failed: ${String((e as Error)?.message ?? e)})`, elements: [], stats: { visited: 0, candidates: 0, listed: 0, more: { above: 0, below: 0, left: 0, right: 0, covered: 0 }, tokens: 0, ms: 0 } };
  }
}

function targetOf(call: ParsedCall, map: PageMap): CallTarget | undefined {
  const ref = call.args.ref;
  if (ref === undefined || ref === null) return undefined;
  const want = String(ref).replace(/^\s*\*?\[?|\]?\s*$/g, '');
  const el: MappedElement | undefined = map.elements.find((e) => e.ref === want);
  return el ? { ref: el.ref, role: el.role, name: el.name, rect: el.rect } : undefined;
}

/** The new page is parsed and quiet enough to read (bounded). */
async function pageReady(): Promise<void> {
  if (document.readyState === 'loading') await new Promise((r) => document.addEventListener('DOMContentLoaded', r, { once: true }));
  const watch = watchActivity([document]);
  try {
    await watch.settle({ timeout: 3000, quiet: 150 });
  } finally {
    watch.stop();
  }
}

/** The agent half of the `pagehand` API: run, current, and resuming a saved run. */
export function createAgentApi(defaults: ScriptDefaults, env: AgentEnv = agentEnv()) {
  const store = env.store ?? sessionRunStore();
  let site: SiteConfig = {};

  /** The run's tools: the site's, overridden by the run's own of the same name. */
  const toolsFor = (own: readonly CustomTool[] = []): Map<string, CustomTool> => {
    const m = new Map<string, CustomTool>();
    for (const t of [...(site.tools ?? []), ...own]) {
      const problem = toolProblem(t);
      if (problem) throw new RunError('invalid_tool', `pagehand: ${problem}.`);
      m.set(t.name, t);
    }
    return m;
  };
  let current: Run | undefined;
  const onEnd = (r: Run): void => {
    if (current === r) {
      current = undefined;
      setBeforeNavigate(undefined);
    }
  };
  const adopt = (r: Run): RunHandle => {
    current = r;
    const h = r.handle();
    setBeforeNavigate(() => r.save());
    store.save(r.state);
    void r.start();
    return h;
  };
  let currentHandle: RunHandle | undefined;

  // The last chance to save a step in progress when the page goes away by other means.
  addEventListener('pagehide', () => current?.save());
  // A page restored from the back/forward cache may hold a stale copy of a run: resume the saved one.
  addEventListener('pageshow', (e) => {
    if ((e as PageTransitionEvent).persisted) resume();
  });

  function run(task: string, options: RunOptions = {}): RunHandle {
    if (typeof task !== 'string' || !task.trim()) throw new RunError('invalid_task', 'pagehand.run(task): the task must be a non-empty string.');
    if (current && !current.ended) {
      throw new RunError('busy', `pagehand.run: a run is already active ("${current.state.task.slice(0, 60)}"). Stop it with pagehand.current().stop() or wait for its result.`);
    }
    const stored: StoredOptions = {
      proxy: (options.proxy ?? defaults.proxy)?.replace(/\/+$/, ''),
      token: options.token ?? defaults.token,
      model: options.model ?? defaults.model,
      maxSteps: positive(options.maxSteps) ?? DEFAULT_MAX_STEPS,
      vision: options.vision ?? 'auto',
      instructions: options.instructions ?? site.instructions,
      allowedActions: options.allowedActions ?? site.allowedActions,
      ui: options.ui ?? true,
      lang: options.lang ?? defaults.lang,
      toolChoice: options.toolChoice === 'required' ? 'required' : 'auto',
      maxPromptTokens: positive(options.maxPromptTokens) ?? DEFAULT_PROMPT_BUDGET,
    };
    const state: SavedRun = {
      v: 1, id: newId(), task: task.trim(), options: stored, step: 0, history: [], memory: '', usage: zeroUsage(),
      startedAt: Date.now(), guards: newGuardState(), notes: [], allowed: [], owner: '',
    };
    toolsFor(options.tools); // a bad tool is the caller's error, thrown now
    const r = new Run(state, () => options.confirm ?? site.confirm, false, onEnd, store, env.fetch, () => toolsFor(options.tools));
    currentHandle = adopt(r);
    if (options.signal) {
      if (options.signal.aborted) r.finish({ ok: false, summary: 'Stopped by the user.', reason: 'stopped' });
      else options.signal.addEventListener('abort', () => r.finish({ ok: false, summary: 'Stopped by the user.', reason: 'stopped' }), { once: true });
    }
    return currentHandle;
  }

  /** Picks up a run saved before a navigation, once per page load. */
  function resume(): RunHandle | undefined {
    const saved = store.load();
    if (current && !current.ended) {
      if (!saved || saved.owner === current.instance) return currentHandle;
      current.stepAside(); // a stale copy from the back/forward cache
    }
    if (!saved) return undefined;
    const r = new Run(saved, () => site.confirm, true, onEnd, store, env.fetch, () => toolsFor());
    currentHandle = adopt(r);
    return currentHandle;
  }

  /** The site owner's configuration for every run on this page (the embed's `init`). */
  function configure(config: SiteConfig): { ignoredDeny: string[] } {
    const next: SiteConfig = { ...config };
    const previous = site;
    site = next;
    try {
      toolsFor(); // validate now, not at the first run
    } catch (e) {
      site = previous;
      throw e;
    }
    setRiskMarks(config.risky ?? []);
    return { ignoredDeny: setDenyZones(config.deny ?? []).ignored };
  }

  return {
    run,
    configure,
    /** The running handle (also after a resume), or undefined. */
    current: (): RunHandle | undefined => (current && !current.ended ? currentHandle : undefined),
    resume,
  };
}

const positive = (n: unknown): number | undefined => (typeof n === 'number' && Number.isFinite(n) && n >= 1 ? Math.floor(n) : undefined);
