/**
 * The run's state in sessionStorage, so a full navigation does not end it: saved after every
 * step and right before the page unloads, read back when the bundle loads on the next page
 * (same origin, same tab). Storage that throws (disabled, full) only loses the resume.
 */
import type { Usage } from '../llm/wire';
import type { FileFacts } from '../page/actions/upload-files';
import type { GuardState } from './guards';
import type { RunSecrets } from '../safety/secrets';
import type { StepRecord } from './history';
import type { Allowance, CallTarget, PlannedCall, RecordedStep, RunOptions } from './public-types';
import type { ReplayState } from './recording/state';
import type { ThreadTurn } from '../../common/thread';
import type { LlmsTxt } from './knowledge';

export const STORAGE_KEY = 'pagehand:run';

/** The options that survive a navigation (callbacks and signals cannot). */
export type StoredOptions = Pick<
  RunOptions,
  | 'proxy'
  | 'token'
  | 'model'
  | 'maxSteps'
  | 'vision'
  | 'instructions'
  | 'ui'
  | 'lang'
  | 'toolChoice'
  | 'maxPromptTokens'
  | 'allowedActions'
  | 'schema'
  | 'maxTokens'
  | 'maxCost'
  | 'verify'
>;

export interface SavedRun {
  v: 1;
  id: string;
  task: string;
  options: StoredOptions;
  /** Model turns taken. */
  step: number;
  history: StepRecord[];
  memory: string;
  usage: Usage;
  /** Date.now() at the start of the run. */
  startedAt: number;
  guards: GuardState;
  /** Notes for the next prompt (warnings, denials). */
  notes: string[];
  /** Risk kinds (and site tools, `tool:NAME`) the user allowed for the rest of the run. */
  allowed: Allowance[];
  /** The run instance that drives it now; a stale instance (bfcache) steps aside. */
  owner: string;
  /** Started by a script of a stranger's page (not the user): frames from other origins stay out of it. */
  byPage?: true;
  /** The attached files as the model knows them (name, type, size); their bytes are kept apart (files-store.ts). */
  files?: FileFacts[];
  /**
   * The values the agent may type but not see, and the origin they may be typed on. Kept with
   * the run so a form on the next page of the same site can take them; never in a prompt.
   */
  secrets?: RunSecrets;
  /** The answer's data did not match the schema once already: the next mismatch ends the run. */
  answerRetried?: boolean;
  /** The model was asked once to check the page before finishing (`verify`). */
  verified?: boolean;
  /**
   * The action under way when the page unloaded: its `end` event could not be sent there,
   * so the next page sends it (every `start` gets its `end`).
   */
  acting?: { step: number; call: PlannedCall; target?: CallTarget };
  /** The page the run started on (a recording's `url`). */
  startUrl?: string;
  /** The run's page actions so far, as recording steps (`result.recording`). */
  recorded?: RecordedStep[];
  /** The step of the action under way, recorded on the next page if the page unloaded meanwhile. */
  recordPending?: RecordedStep;
  /** Set when the run replays a recording (client/replay). */
  replay?: ReplayState;
  /**
   * The conversation's earlier turns this run continues (`run(task, { thread })`). On a
   * stranger's page saved only in a store out of the page's reach (see `withoutThread`).
   */
  thread?: ThreadTurn[];
  /**
   * The value the run's data markers carry (page/map/fence.ts), kept so a resumed run's prompt
   * reads as before. The page can read it here: every page string is cleaned of it anyway.
   */
  fence?: string;
  /**
   * The site's `/llms.txt` as read on `origin` (init's `knowledge.llmsTxt`): read once per run
   * and origin, so the pages the run goes on to do not fetch it again.
   */
  llms?: LlmsTxt;
}

/** Where a run's state lives between pages: sessionStorage by default, GM storage in the userscript. */
export interface RunStore {
  /**
   * Resolves once load() can answer, for a store that must look something up first (the
   * userscript asks its manager which run this tab holds). The entry resumes after it.
   */
  ready?(): Promise<void>;
  load(): SavedRun | undefined;
  /**
   * False when nothing could be saved (the run then cannot resume after a navigation).
   * `leaving`: the page is going away (a navigation started, or pagehide) — a store that must
   * tell the tab's next page from a copy of this one resumes only a run its page left.
   */
  save(state: SavedRun, leaving?: boolean): boolean;
  clear(): void;
}

/** A key-value backend: `sessionStorage`, or GM_getValue/GM_setValue in a userscript. */
export interface KeyValue {
  get(key: string): string | null | undefined;
  set(key: string, value: string, leaving?: boolean): void;
  remove(key: string): void;
}

/** A store over any key-value backend; a backend that throws (disabled, full) only loses the resume. */
export function createRunStore(kv: () => KeyValue | undefined): RunStore {
  return {
    save(state, leaving) {
      try {
        const b = kv();
        b?.set(STORAGE_KEY, JSON.stringify(state), leaving);
        return !!b;
      } catch {
        return false;
      }
    },
    load() {
      try {
        return savedRun(kv()?.get(STORAGE_KEY));
      } catch {
        return undefined;
      }
    },
    clear() {
      try {
        kv()?.remove(STORAGE_KEY);
      } catch {
        /* nothing saved then */
      }
    },
  };
}

/** The default: this tab's sessionStorage (same origin only). */
export const sessionRunStore = (): RunStore =>
  createRunStore(() => {
    try {
      const s = window.sessionStorage;
      return { get: (k) => s.getItem(k), set: (k, v) => s.setItem(k, v), remove: (k) => s.removeItem(k) };
    } catch {
      return undefined; // sandboxed frames and some privacy modes throw on access
    }
  });

/** A saved run's JSON read back, or undefined when it is not one. Throws on JSON that does not parse. */
function savedRun(raw: string | null | undefined): SavedRun | undefined {
  const s = raw ? (JSON.parse(raw) as SavedRun) : undefined;
  return s && s.v === 1 && typeof s.task === 'string' && Array.isArray(s.history) ? s : undefined;
}

/** The run saved in this tab's sessionStorage, if any (read directly: the embed's loader carries this, not the store). */
export function loadRun(): SavedRun | undefined {
  try {
    return savedRun(sessionStorage.getItem(STORAGE_KEY));
  } catch {
    return undefined; // sandboxed frames and some privacy modes throw on access
  }
}

/**
 * A run store that keeps the secrets out of what it saves: on a stranger's page the run's
 * state goes to the page's own sessionStorage, where the page's scripts could read a value
 * the agent was never asked to type. (The bookmarklet's run does not go on after a full
 * navigation anyway; the userscript and the runner keep runs out of the page's reach.)
 */
export function withoutSecrets(store: RunStore): RunStore {
  return {
    ...store,
    save(state, leaving) {
      if (!state.secrets) return store.save(state, leaving);
      const copy: SavedRun = { ...state };
      delete copy.secrets;
      return store.save(copy, leaving);
    },
  };
}

/**
 * A run store that keeps the conversation out of what it saves, on a stranger's page: the tab's
 * sessionStorage is the page's to read, and the thread (the user's earlier tasks and the answers)
 * is never put where a stranger's page can read it. A run resumed from such a store goes on
 * without its earlier turns.
 */
export function withoutThread(store: RunStore): RunStore {
  return {
    ...store,
    save(state, leaving) {
      if (!state.thread) return store.save(state, leaving);
      const copy: SavedRun = { ...state };
      delete copy.thread;
      return store.save(copy, leaving);
    },
  };
}
