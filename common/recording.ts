/**
 * The recording format's rules (`{ "pagehand": "recording", "v": 1, … }`, docs/replay.md):
 * checking a recording that came from outside (a file, `init({ recordings })`, a replay call)
 * and filling its named values, and the recording's types. Pure and import-free, so the embed's
 * loader checks `init`'s recordings with the same words as the agent, and the CLI with them too.
 */

/**
 * The element a recorded step acts on, described the way a person would find it again after a
 * re-render: never by a ref or a CSS path.
 */
export interface RecordedTarget {
  role: string;
  name: string;
  /** The landmark around it, as `role "name"` (`navigation "Primary"`, `form "Sign up"`, `main`). */
  landmark?: string;
  /** The nearest heading before it. */
  heading?: string;
  /** Text of the row, card or block it sits in (its own name left out), for controls named alike ("Open"). */
  near?: string;
  /** Its place (from 1) among the elements that match all of the above, and how many there were. */
  nth?: number;
  of?: number;
}

/** What a recorded step expected to see after it; any part may be missing (then the step's success is enough). */
export interface RecordedExpectation {
  /** The page it led to: path and query (`/shop/checkout.html`, `/mail/inbox.html?q={query}`). */
  url?: string;
  /** The title of a dialog that opened. */
  dialog?: string;
  /** An element that became visible. */
  visible?: { role: string; name: string };
}

export interface RecordedStep {
  /** A page action (`click`, `type`, `select_option`, …), or a site tool's name when `tool` is set. */
  action: string;
  /** The step calls the site's own tool `action` (init's or the run's `tools`). */
  tool?: true;
  /** The element it acts on, for actions that take a `ref`. */
  target?: RecordedTarget;
  /**
   * The arguments without the ref: text as the model gave it (a secret as `<secret:NAME>`, never
   * its value; a named value as `{name}`).
   */
  args: Record<string, unknown>;
  expect?: RecordedExpectation;
  /** The step was made anew by the model when this recording was last replayed. */
  repaired?: true;
}

/** A solved task, to run again with no model call: `pagehand.replay(recording)`. JSON; docs/replay.md. */
export interface Recording {
  pagehand: 'recording';
  v: 1;
  /** The task, as the user gave it (named values as `{name}`). */
  task: string;
  /** The page the run started on. */
  url: string;
  /**
   * Named values and the value each was recorded with: `{name}` in the task and in the steps'
   * arguments and expectations is filled with `replay(…, { values })`'s value, else with this.
   */
  params?: Record<string, string>;
  steps: RecordedStep[];
  /** The run's summary when it was recorded. */
  summary?: string;
  /** When it was recorded or last repaired (ISO 8601). */
  created?: string;
  /** The steps (numbered from 1) the last replay repaired. */
  repaired?: number[];
}

export const RECORDING_KIND = 'recording';
export const RECORDING_VERSION = 1;
/** A recording longer than this is refused (a hand-made or hostile file, not a run). */
export const MAX_RECORDED_STEPS = 500;
const MAX_TEXT = 4000;
const PARAM_NAME = /^[A-Za-z][A-Za-z0-9_]{0,31}$/;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isText = (v: unknown, max = MAX_TEXT): v is string => typeof v === 'string' && v.length <= max;

/** Why `r` is not a recording pagehand can replay, or undefined when it is. */
export function recordingProblem(r: unknown): string | undefined {
  if (!isObject(r)) return "a recording must be an object (the JSON a run's result.recording holds)";
  if (r.pagehand !== RECORDING_KIND) return 'not a pagehand recording: "pagehand" must be "recording"';
  if (r.v !== RECORDING_VERSION) return `unsupported recording version ${JSON.stringify(r.v)} (this pagehand reads version ${RECORDING_VERSION})`;
  if (!isText(r.task) || !r.task.trim()) return 'the recording has no task';
  if (!isText(r.url)) return 'the recording has no start url';
  if (r.params !== undefined) {
    if (!isObject(r.params)) return '"params" must be an object of name → value';
    for (const [name, value] of Object.entries(r.params)) {
      if (!PARAM_NAME.test(name)) return `a value's name must be a letter then letters, digits or _ (got ${JSON.stringify(name)})`;
      if (!isText(value)) return `the value "${name}" must be a string`;
    }
  }
  if (!Array.isArray(r.steps)) return 'the recording has no "steps" list';
  if (r.steps.length > MAX_RECORDED_STEPS) return `the recording has ${r.steps.length} steps; at most ${MAX_RECORDED_STEPS} are replayed`;
  for (let i = 0; i < r.steps.length; i++) {
    const problem = stepProblem(r.steps[i]);
    if (problem) return `step ${i + 1}: ${problem}`;
  }
  return undefined;
}

function stepProblem(s: unknown): string | undefined {
  if (!isObject(s)) return 'a step must be an object';
  if (typeof s.action !== 'string' || !/^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(s.action)) return '"action" must be a tool name';
  if (s.tool !== undefined && s.tool !== true) return '"tool" must be true or absent';
  if (!isObject(s.args)) return '"args" must be an object';
  if (JSON.stringify(s.args).length > MAX_TEXT * 4) return '"args" is too long';
  if (s.target !== undefined) {
    const t = s.target;
    if (!isObject(t) || !isText(t.role, 64) || !isText(t.name, MAX_TEXT)) return '"target" needs a role and a name';
    for (const k of ['landmark', 'heading', 'near'] as const) if (t[k] !== undefined && !isText(t[k], MAX_TEXT)) return `"target.${k}" must be text`;
    for (const k of ['nth', 'of'] as const)
      if (t[k] !== undefined && !(Number.isInteger(t[k]) && (t[k] as number) >= 1)) return `"target.${k}" must be a whole number from 1`;
  }
  if (s.expect !== undefined) {
    const e = s.expect;
    if (!isObject(e)) return '"expect" must be an object';
    if (e.url !== undefined && !isText(e.url)) return '"expect.url" must be text';
    if (e.dialog !== undefined && !isText(e.dialog)) return '"expect.dialog" must be text';
    if (e.visible !== undefined && !(isObject(e.visible) && isText(e.visible.role, 64) && isText(e.visible.name)))
      return '"expect.visible" needs a role and a name';
  }
  return undefined;
}

/**
 * The values a replay fills in: the recording's own, overridden by `given`. A given name the
 * recording does not have is an error (a typo would otherwise replay the recorded value).
 */
export function valuesFor(r: Recording, given: unknown): { values: Record<string, string> } | { error: string } {
  const values: Record<string, string> = { ...(r.params ?? {}) };
  if (given === undefined) return { values };
  if (!isObject(given)) return { error: 'values must be an object of name → text' };
  for (const [name, value] of Object.entries(given)) {
    if (!Object.prototype.hasOwnProperty.call(values, name)) {
      const names = Object.keys(values);
      return { error: `the recording has no value named "${name}"${names.length ? ` (it has ${names.map((n) => `{${n}}`).join(', ')})` : ' (it names none)'}` };
    }
    if (typeof value !== 'string' && typeof value !== 'number') return { error: `the value "${name}" must be text` };
    values[name] = String(value);
  }
  return { values };
}

/** `{name}` of a declared value, filled in; other braces are left alone. */
export function fill<T>(v: T, values: Record<string, string>): T {
  if (typeof v === 'string')
    return v.replace(/\{([A-Za-z][A-Za-z0-9_]{0,31})\}/g, (all, name: string) =>
      Object.prototype.hasOwnProperty.call(values, name) ? values[name]! : all,
    ) as T;
  if (Array.isArray(v)) return v.map((x) => fill(x, values)) as T;
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x, values)])) as T;
  return v;
}
