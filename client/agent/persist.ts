/**
 * The run's state in sessionStorage, so a full navigation does not end it: saved after every
 * step and right before the page unloads, read back when the bundle loads on the next page
 * (same origin, same tab). Storage that throws (disabled, full) only loses the resume.
 */
import type { Usage } from '../llm/types';
import type { GuardState } from './guards';
import type { StepRecord } from './history';
import type { RiskKind, RunOptions } from './types';

export const STORAGE_KEY = 'pagehand:run';

/** The options that survive a navigation (callbacks and signals cannot). */
export type StoredOptions = Pick<RunOptions, 'proxy' | 'token' | 'model' | 'maxSteps' | 'vision' | 'instructions' | 'ui' | 'lang' | 'toolChoice' | 'maxPromptTokens'>;

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
  /** Risk kinds the user allowed for the rest of the run. */
  allowed: RiskKind[];
  /** The run instance that drives it now; a stale instance (bfcache) steps aside. */
  owner: string;
}

export function saveRun(state: SavedRun, storage: Storage | undefined = sessionStorageOrUndefined()): boolean {
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(state));
    return !!storage;
  } catch {
    return false;
  }
}

export function loadRun(storage: Storage | undefined = sessionStorageOrUndefined()): SavedRun | undefined {
  try {
    const raw = storage?.getItem(STORAGE_KEY);
    if (!raw) return undefined;
    const s = JSON.parse(raw) as SavedRun;
    return s && s.v === 1 && typeof s.task === 'string' && Array.isArray(s.history) ? s : undefined;
  } catch {
    return undefined;
  }
}

export function clearRun(storage: Storage | undefined = sessionStorageOrUndefined()): void {
  try {
    storage?.removeItem(STORAGE_KEY);
  } catch {
    /* nothing saved then */
  }
}

function sessionStorageOrUndefined(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined; // sandboxed frames and some privacy modes throw on access
  }
}
