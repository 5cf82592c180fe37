/**
 * `pagehand.run(task, options)`: the agent half of the `pagehand` API — starting a run, the
 * current run, resuming one saved before a navigation, and the site's configuration (`init`).
 * The loop itself is run.ts (the `Run`); its calls are normalised in calls.ts and run by dispatch.ts.
 */
import { frameConfig, type FrameConfig } from '../page/frames/config';
import { type Redaction } from '../safety/masks';
import { untrustedPage, type AgentEnv } from './env';
import { filesFor, filesProblem, type RunFiles } from './files';
import { dropFiles, factsOf, keepFiles, loadFiles } from './files-store';
import { newGuardState } from './guards';
import { Run, type RunDeps } from './run';
import { fill, recordingProblem, valuesFor } from './recording/recording';
import type { ReplayState } from './recording/state';
import type { Recording, ReplayOptions } from './public-types';
import { sessionRunStore, withoutSecrets, withoutThread, type SavedRun, type StoredOptions } from './persist';
import { keptTurns, threadProblem } from '../../common/thread';
import { DEFAULT_MAX_STEPS, DEFAULT_PROMPT_BUDGET } from './request';
import { toolProblem } from './tools';
import { answerSchema } from '../../common/answer-schema';
import { runSecrets } from '../safety/secrets';
import { siteSettings, type SiteSettings } from '../safety/settings';
import type { CustomTool, RunHandle, RunOptions, SiteConfig } from './public-types';
import type { Usage } from '../llm/wire';

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
    readonly code: 'busy' | 'invalid_task' | 'invalid_tool' | 'invalid_files' | 'invalid_recording' | 'invalid_thread',
    message: string,
  ) {
    super(message);
    this.name = 'PagehandRunError';
  }
}

/** Who starts a run: the user (the panel, the site's own code) or a script of a stranger's page. */
export type StartedBy = 'user' | 'page';

const zeroUsage = (): Usage => ({ promptTokens: 0, completionTokens: 0 });
const newId = (): string => Math.random().toString(36).slice(2, 10) + Date.now().toString(36);

/** The agent half of the `pagehand` API: run, current, and resuming a saved run. */
/** What the layers above the agent lend it: the replay driver (client/replay). */
export interface AgentExtensions {
  replay?: RunDeps['replay'];
}

export function createAgentApi(defaults: ScriptDefaults, env: AgentEnv = {}, extensions: AgentExtensions = {}) {
  const untrusted = untrustedPage(env);
  // The page's sessionStorage is the page's to read: on a stranger's page neither the conversation
  // nor a secret goes there; the site's own page keeps both with the run, as it keeps the run.
  // (The userscript's and the runner's stores are out of the page's reach.)
  const store = env.store ?? (untrusted ? withoutThread(withoutSecrets(sessionRunStore())) : sessionRunStore());
  let site: SiteConfig = {};
  // Before any init: only the script tag's proxy and token (frames from other origins need init to list them).
  let settings: SiteSettings = siteSettings({}, { frames: frameConfig({ proxy: defaults.proxy, token: defaults.token }) }).site;

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
    }
    // Ended (not stepped aside for the page the run went on in): its files are forgotten.
    if (store.load()?.id !== r.state.id) dropFiles(r.state.id);
  };
  const adopt = (r: Run): RunHandle => {
    current = r;
    const h = r.handle();
    store.save(r.state);
    void r.start();
    return h;
  };
  let currentHandle: RunHandle | undefined;

  /** What a run reads of this page's pagehand: the site's configuration at each use, this API's store and environment. */
  const runDeps = (resumed: boolean, confirm: RunDeps['confirm'], ownTools?: readonly CustomTool[]): RunDeps => ({
    confirm,
    resumed,
    onEnd,
    store,
    transport: env.fetch,
    untrusted,
    replay: extensions.replay,
    siteTools: () => toolsFor(ownTools),
    site: () => site,
    siteSettings: () => settings,
    networkHold: env.networkHold,
  });

  // The last chance to save a step in progress when the page goes away by other means.
  addEventListener('pagehide', () => current?.save(true));
  // A page restored from the back/forward cache may hold a stale copy of a run: resume the saved one.
  addEventListener('pageshow', (e) => {
    if ((e as PageTransitionEvent).persisted) resume();
  });

  /** `by`: who asked — a script of a stranger's page (`'page'`) gets a run that stays out of frames from other origins. */
  function run(task: string, options: RunOptions = {}, by: StartedBy = 'user'): RunHandle {
    return start(task, options, undefined, by);
  }

  /** A run of `task`, or with `replaying`, a replay of a recording of it. */
  function start(task: string, options: RunOptions = {}, replaying?: ReplayState, by: StartedBy = 'user'): RunHandle {
    if (typeof task !== 'string' || !task.trim()) throw new RunError('invalid_task', 'pagehand.run(task): the task must be a non-empty string.');
    if (current && !current.ended) {
      throw new RunError(
        'busy',
        `pagehand.run: a run is already active ("${current.state.task.slice(0, 60)}"). Stop it with pagehand.current().stop() or wait for its result.`,
      );
    }
    const stored: StoredOptions = {
      proxy: (options.proxy ?? defaults.proxy)?.replace(/\/+$/, ''),
      token: options.token ?? defaults.token,
      model: options.model ?? defaults.model,
      maxSteps: positive(options.maxSteps) ?? DEFAULT_MAX_STEPS,
      vision: options.vision ?? 'auto',
      // The run's own; the site's (init) are read at each step, so a resumed run gets this page's.
      instructions: options.instructions,
      allowedActions: options.allowedActions,
      ui: options.ui ?? true,
      lang: options.lang ?? defaults.lang,
      toolChoice: options.toolChoice === 'required' ? 'required' : 'auto',
      maxPromptTokens: positive(options.maxPromptTokens) ?? DEFAULT_PROMPT_BUDGET,
      maxTokens: positive(options.maxTokens),
      maxCost: typeof options.maxCost === 'number' && options.maxCost > 0 ? options.maxCost : undefined,
      verify: options.verify,
    };
    const state: SavedRun = {
      v: 1,
      id: newId(),
      task: task.trim(),
      options: stored,
      step: 0,
      history: [],
      memory: '',
      usage: zeroUsage(),
      startedAt: Date.now(),
      guards: newGuardState(),
      notes: [],
      allowed: [],
      owner: '',
    };
    toolsFor(options.tools); // a bad tool is the caller's error, thrown now
    // Secrets and the answer's schema: the caller's mistakes are thrown now, too.
    const secrets = runSecrets(options.secrets);
    if (secrets) state.secrets = secrets;
    const schema = answerSchema(options.schema);
    if (schema) stored.schema = schema;
    const threadIssue = threadProblem(options.thread);
    if (threadIssue) throw new RunError('invalid_thread', `pagehand.run: ${threadIssue}.`);
    const turns = keptTurns(options.thread);
    if (turns.length) state.thread = turns;
    const filesIssue = filesProblem(options.files);
    if (filesIssue) throw new RunError('invalid_files', `pagehand.run: ${filesIssue}.`);
    const attached: RunFiles = { files: [...(options.files ?? [])], origin: location.origin };
    if (attached.files.length) {
      state.files = factsOf(attached.files);
      void keepFiles(state.id, attached.origin, attached.files);
    }
    state.startUrl = location.href;
    if (replaying) state.replay = replaying;
    if (by === 'page' && untrusted) state.byPage = true;
    const r = new Run(
      state,
      runDeps(false, () => options.confirm ?? site.confirm, options.tools),
    );
    r.useFiles(() => filesFor(attached, location.origin));
    currentHandle = adopt(r);
    if (options.signal) {
      if (options.signal.aborted) r.finish({ ok: false, summary: 'Stopped by the user.', reason: 'stopped' });
      else options.signal.addEventListener('abort', () => r.finish({ ok: false, summary: 'Stopped by the user.', reason: 'stopped' }), { once: true });
    }
    return currentHandle;
  }

  /**
   * Runs a recording again (docs/replay.md): no model call while every step matches; a step
   * that broke goes to the model, which redoes that step only. Risky steps ask as in a run.
   */
  function replay(recording: Recording, options: ReplayOptions = {}, by: StartedBy = 'user'): RunHandle {
    const problem = recordingProblem(recording);
    if (problem) throw new RunError('invalid_recording', `pagehand.replay: ${problem}.`);
    const v = valuesFor(recording, options.values);
    if ('error' in v) throw new RunError('invalid_recording', `pagehand.replay: ${v.error}.`);
    // A copy: the caller's object is theirs to change, the replay's is its own.
    const copy = JSON.parse(JSON.stringify(recording)) as Recording;
    const { values: _values, repair, ...runOptions } = options;
    const state: ReplayState = { recording: copy, values: v.values, next: 0, out: [], repaired: [], replayed: 0, modelCalls: 0, repair: repair !== false };
    return start(fill(copy.task, v.values), { ...runOptions, maxSteps: options.maxSteps ?? copy.steps.length + 20 }, state, by);
  }

  /** Picks up a run saved before a navigation, once per page load. */
  function resume(): RunHandle | undefined {
    const saved = store.load();
    if (current && !current.ended) {
      if (!saved || saved.owner === current.instance) return currentHandle;
      current.stepAside(); // a stale copy from the back/forward cache
    }
    if (!saved) return undefined;
    const r = new Run(
      saved,
      runDeps(true, () => site.confirm),
    );
    // Files kept for this run come back on pages of the origin they were attached on.
    const kept: RunFiles = { files: saved.files?.length ? loadFiles(saved.id, location.origin) : [], origin: location.origin };
    r.useFiles(() => filesFor(kept, location.origin));
    currentHandle = adopt(r);
    return currentHandle;
  }

  /**
   * The site owner's configuration for every run on this page (the embed's `init`), with what
   * init parsed for the page layer: its redaction and the frames it lists.
   */
  function configure(config: SiteConfig, page: { redaction?: Redaction; frames: FrameConfig }): { ignoredDeny: string[] } {
    const next: SiteConfig = { ...config };
    const previous = site;
    site = next;
    try {
      toolsFor(); // validate now, not at the first run
    } catch (e) {
      site = previous;
      throw e;
    }
    const parsed = siteSettings(config, page);
    settings = parsed.site;
    return { ignoredDeny: parsed.ignoredDeny };
  }

  return {
    run,
    replay,
    configure,
    /** The site's settings for the page layer now (the page API's and the frame bridge's). */
    siteSettings: (): SiteSettings => settings,
    /** The running handle (also after a resume), or undefined. */
    current: (): RunHandle | undefined => (current && !current.ended ? currentHandle : undefined),
    resume,
  };
}

const positive = (n: unknown): number | undefined => (typeof n === 'number' && Number.isFinite(n) && n >= 1 ? Math.floor(n) : undefined);
