/**
 * The test kit's tasks file (`pagehand test TASKS.json`, docs/testing-kit.md): a site owner's
 * copilot tasks, each with its start page, the instruction, a recording to replay, and the
 * checks that say it worked. Read and checked before anything starts: a mistake names the task
 * and the field. Pure but for reading the recordings the tasks name.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Recording } from '../client/agent/public-types';
import { recordingProblem } from '../common/recording';
import { readRecordingFile } from './recording-file';
import { splitCredentials, type UrlCredentials } from './url-credentials';

/** What is checked in the page once a task's run ended. */
export type Check =
  /** The page's visible text contains this. */
  | { text: string }
  /** The page's visible text does not contain this. */
  | { noText: string }
  /** The page's URL contains this, or matches it when written `/pattern/flags`. */
  | { url: string }
  /** The element with this role and accessible name is in this state (default: visible). */
  | { element: { role: string; name: string }; state?: ElementState }
  /** A JavaScript expression, evaluated in the page, is truthy. */
  | { js: string };

export interface ElementState {
  visible?: boolean;
  checked?: boolean;
  disabled?: boolean;
  /** A field's value. */
  value?: string;
}

export interface TestTask {
  /** Unique in the file; the test case's name in the report and the JUnit file. */
  name: string;
  /** The start page (absolute, or relative to the file's `baseUrl` / `--base-url`), without a user and password. */
  url: string;
  /** The user and password its URL was given with, for that origin's HTTP authentication. */
  credentials?: UrlCredentials;
  task: string;
  /** The recording to replay (in replay and repair modes). */
  recording?: Recording;
  values?: Record<string, string>;
  checks: Check[];
  /** Allow this task's risky actions (payment, deletion, sending, …). Default: --yes. */
  yes?: boolean;
  maxSteps?: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const STATE_KEYS = ['visible', 'checked', 'disabled', 'value'];

function check(c: unknown, where: string): Check | string {
  if (!isObject(c)) return `${where} must be an object such as {"text": "…"}`;
  const keys = Object.keys(c);
  if (typeof c.text === 'string' && keys.length === 1) return { text: c.text };
  if (typeof c.noText === 'string' && keys.length === 1) return { noText: c.noText };
  if (typeof c.url === 'string' && keys.length === 1) {
    const re = /^\/(.+)\/([a-z]*)$/.exec(c.url);
    if (re) {
      try {
        new RegExp(re[1]!, re[2]);
      } catch {
        return `${where}.url is not a valid /pattern/flags`;
      }
    }
    return { url: c.url };
  }
  if (typeof c.js === 'string' && keys.length === 1) return { js: c.js };
  if (c.element !== undefined) {
    const e = c.element;
    if (!isObject(e) || typeof e.role !== 'string' || typeof e.name !== 'string') return `${where}.element needs "role" and "name"`;
    if (keys.some((k) => k !== 'element' && k !== 'state')) return `${where}: an element check takes "element" and "state" only`;
    if (c.state !== undefined) {
      if (!isObject(c.state)) return `${where}.state must be an object`;
      for (const [k, v] of Object.entries(c.state)) {
        if (!STATE_KEYS.includes(k)) return `${where}.state.${k} is not a state (${STATE_KEYS.join(', ')})`;
        if (k === 'value' ? typeof v !== 'string' : typeof v !== 'boolean') return `${where}.state.${k} must be ${k === 'value' ? 'text' : 'true or false'}`;
      }
    }
    return { element: { role: e.role, name: e.name }, ...(c.state ? { state: c.state as ElementState } : {}) };
  }
  return `${where} must be one of {"text"}, {"noText"}, {"url"}, {"element", "state"}, {"js"}`;
}

/** The tasks in `path` (`baseUrl`: --base-url, over the file's), or the error. */
export function readTasksFile(path: string, baseUrl?: string): TestTask[] | string {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? `${path}: no such tasks file` : `${path} is not valid JSON: ${String((e as Error)?.message ?? e)}`;
  }
  const list = Array.isArray(data) ? data : isObject(data) ? data.tasks : undefined;
  if (!Array.isArray(list) || !list.length) return `${path} must hold a list of tasks (or { "tasks": [...] })`;
  const base = baseUrl ?? (isObject(data) && typeof data.baseUrl === 'string' ? data.baseUrl : undefined);
  const dir = dirname(path);
  const out: TestTask[] = [];
  for (let i = 0; i < list.length; i++) {
    const t = list[i];
    const where = `task ${i + 1}`;
    if (!isObject(t)) return `${where} must be an object`;
    const name = typeof t.name === 'string' && t.name.trim() ? t.name.trim() : typeof t.task === 'string' ? t.task.trim() : '';
    if (!name) return `${where} needs a "name" (or a "task")`;
    const label = `task "${name}"`;
    if (out.some((o) => o.name === name)) return `two tasks are named "${name}"`;
    let recording: Recording | undefined;
    if (t.recording !== undefined) {
      const r =
        typeof t.recording === 'string'
          ? readRecordingFile(resolve(dir, t.recording), `${label}: recording ${t.recording}`)
          : readRecordingObject(t.recording, label);
      if (typeof r === 'string') return r;
      recording = r;
    }
    const instruction = typeof t.task === 'string' && t.task.trim() ? t.task.trim() : recording?.task;
    if (!instruction) return `${label} needs a "task" (or a recording)`;
    const rawUrl = typeof t.url === 'string' && t.url.trim() ? t.url.trim() : recording?.url;
    if (!rawUrl) return `${label} needs a "url"`;
    let url: string;
    try {
      url = new URL(rawUrl, base).href;
    } catch {
      return `${label}: "url" ${JSON.stringify(rawUrl)} is not a URL${base ? '' : ' (a relative one needs "baseUrl" or --base-url)'}`;
    }
    if (!/^(https?|file):/.test(url)) return `${label}: "url" must be http(s) or file`;
    const start = splitCredentials(url);
    const checks: Check[] = [];
    if (t.checks !== undefined && !Array.isArray(t.checks)) return `${label}: "checks" must be a list`;
    for (let j = 0; j < ((t.checks as unknown[]) ?? []).length; j++) {
      const c = check((t.checks as unknown[])[j], `${label} check ${j + 1}`);
      if (typeof c === 'string') return c;
      checks.push(c);
    }
    if (t.values !== undefined && (!isObject(t.values) || Object.values(t.values).some((v) => typeof v !== 'string')))
      return `${label}: "values" must be an object of name → text`;
    if (t.yes !== undefined && typeof t.yes !== 'boolean') return `${label}: "yes" must be true or false`;
    if (t.maxSteps !== undefined && !(Number.isInteger(t.maxSteps) && (t.maxSteps as number) >= 1)) return `${label}: "maxSteps" must be a whole number from 1`;
    out.push({
      name,
      url: start.url,
      ...(start.credentials ? { credentials: start.credentials } : {}),
      task: instruction,
      checks,
      ...(recording ? { recording } : {}),
      ...(t.values ? { values: t.values as Record<string, string> } : {}),
      ...(t.yes !== undefined ? { yes: t.yes as boolean } : {}),
      ...(t.maxSteps !== undefined ? { maxSteps: t.maxSteps as number } : {}),
    });
  }
  return out;
}

/** A recording written inline in the tasks file, checked by the same rules as a file. */
function readRecordingObject(value: unknown, label: string): Recording | string {
  const problem = recordingProblem(value);
  return problem ? `${label}: recording: ${problem}` : (JSON.parse(JSON.stringify(value)) as Recording);
}

/**
 * The tasks of shard `index` of `total` (from 1), as Playwright Test splits a suite: the list
 * cut into `total` runs of consecutive tasks, as equal as can be.
 */
export function shardOf<T>(tasks: readonly T[], shard?: { index: number; total: number }): T[] {
  if (!shard) return [...tasks];
  const from = Math.floor(((shard.index - 1) * tasks.length) / shard.total);
  const to = Math.floor((shard.index * tasks.length) / shard.total);
  return tasks.slice(from, to);
}
