/**
 * The page actions' one table (pure; no DOM): each tool's description and arguments as the
 * model is offered them, and the parser that puts a call in its canonical form. The agent's
 * tool schemas, `pagehand.act`'s dispatch and every check that reads a call come from here.
 *
 * Models make small mistakes — a ref as a number, "true" as a string, an extra field — so
 * harmless ones are accepted; anything that would change the meaning gets a clear error naming
 * the tool, the argument and the fix.
 */
import type { Ref } from '../page-types';
import { ArgError, numArg, refArg, show, type Args } from './arg-check';
import { downloadArg, handsParsers, holdMs, type HandsArgs, type Hold } from './hands-args';

export type Direction = 'up' | 'down' | 'left' | 'right';

export interface ToolArgs extends HandsArgs {
  /** `hold`: press and hold (from `hold_ms`), absent for a plain click. */
  click: { ref: Ref; hold?: Hold };
  type: { ref: Ref; text: string; replace: boolean; submit: boolean };
  clear: { ref: Ref };
  select_option: { ref: Ref; option: string[] };
  hover: { ref: Ref };
  press_key: { key: string; ref?: Ref };
  scroll: { direction: Direction; ref?: Ref; pages: number };
  scroll_to: { ref: Ref };
  click_at: { x: number; y: number };
  /** `download`: the name of a file the page handed out; `url`: another page of this site; instead of this page's text. */
  read: { ref?: Ref; page: number; download?: string; url?: string };
  navigate: { url: string };
  go_back: Record<string, never>;
  wait: { seconds?: number; text?: string };
}

export type ToolName = keyof ToolArgs;
export type ParsedCall = { [K in ToolName]: { name: K; args: ToolArgs[K] } }[ToolName];

/** The longest `wait {seconds}` honoured. */
export const MAX_WAIT_SECONDS = 30;
export const MAX_SCROLL_PAGES = 20;

export { ArgError };

function ref(tool: string, args: Args, required: true): Ref;
function ref(tool: string, args: Args, required: boolean): Ref | undefined;
function ref(tool: string, args: Args, required: boolean): Ref | undefined {
  return refArg(tool, args, 'ref', required);
}

function bool(tool: string, args: Args, key: string, dflt: boolean): boolean {
  const v = args[key];
  if (v === undefined || v === null) return dflt;
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  throw new ArgError(`${tool}: "${key}" must be true or false, got ${show(v)}.`);
}

const num = numArg;

function str(tool: string, args: Args, key: string, required: boolean): string | undefined {
  const v = args[key];
  if (v === undefined || v === null) {
    if (required) throw new ArgError(`${tool} needs "${key}" (a string).`);
    return undefined;
  }
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v !== 'string') throw new ArgError(`${tool}: "${key}" must be a string, got ${show(v)}.`);
  return v;
}

/**
 * What the risk check (client/safety/facts.ts, risk.ts) reads to judge a call's effect:
 * - `target`: the control it acts on, judged as a click on it (click, double_click, hover,
 *   right_click: a page's mouse handlers act on any of them);
 * - `key`: what the key does where it lands (press_key); `typed`: the Enter or line break
 *   typing ends with (type); `point`: the control under the point (click_at);
 * - `drop`: the element the drag lets go on, by to_ref, at to_x/to_y or by dx/dy (drag), the
 *   one under a point judged as click_at's;
 * - `option`: the option it chooses, by its own words (select_option);
 * - `destination`: the URL it opens, as a link there (navigate);
 * - `fetch`: the URL it GETs when it has one (read {url}), as a link there; a URL on another
 *   origin is the action's to refuse, so it is not asked about;
 * - `none`: it reads, waits, scrolls, empties a field or puts an attached file into one.
 */
export type Judge = 'target' | 'key' | 'typed' | 'point' | 'drop' | 'option' | 'destination' | 'fetch' | 'none';
const JUDGES: readonly string[] = ['target', 'key', 'typed', 'point', 'drop', 'option', 'destination', 'fetch', 'none'];

/** Throws when a tool of the table does not say how its effect is judged (checked as the table loads). */
export function assertJudged(table: Readonly<Record<string, { judge?: unknown }>>): void {
  for (const [name, t] of Object.entries(table)) {
    if (!JUDGES.includes(t.judge as string)) throw new Error(`pagehand: the tool "${name}" does not declare how its effect is judged for risk.`);
  }
}

/** One argument's JSON Schema, as the model is shown it (the subset the tools use). */
export interface ArgSchema {
  type?: string;
  description?: string;
  enum?: string[];
  items?: ArgSchema;
}

/**
 * One page action as a tool: what the model is told (description, arguments) and how its
 * arguments become the typed, defaulted form every later stage reads. Adding an action is
 * one entry here, its `ToolArgs` type, and its handler in index.ts.
 */
export interface ActionTool<A> {
  description: string;
  /** How the risk check judges what a call of it does: required, so no tool goes unjudged. */
  judge: Judge;
  properties?: Record<string, ArgSchema>;
  required?: string[];
  parse(args: Args): A;
}

const S = (description?: string): ArgSchema => (description ? { type: 'string', description } : { type: 'string' });
const N = (description?: string): ArgSchema => (description ? { type: 'number', description } : { type: 'number' });
const B = (description?: string): ArgSchema => (description ? { type: 'boolean', description } : { type: 'boolean' });
const REF = S(); // the system prompt explains refs once, instead of in every tool

/**
 * The page actions, in the order the model is offered them. Descriptions are terse on purpose:
 * the whole tool set costs under 700 prompt tokens, and the system prompt explains their use.
 */
export const ACTION_TOOLS: { [K in ToolName]: ActionTool<ToolArgs[K]> } = {
  click: {
    description: 'Click an element.',
    judge: 'target',
    properties: { ref: REF, hold_ms: N() },
    required: ['ref'],
    parse: (a) => {
      const hold = holdMs(a);
      return hold ? { ref: ref('click', a, true), hold } : { ref: ref('click', a, true) };
    },
  },
  type: {
    description: 'Type into a field; replace=false appends; submit presses Enter.',
    judge: 'typed',
    properties: { ref: REF, text: S(), replace: B(), submit: B() },
    required: ['ref', 'text'],
    parse: (a) => ({
      ref: ref('type', a, true),
      text: str('type', a, 'text', true)!,
      replace: bool('type', a, 'replace', true),
      submit: bool('type', a, 'submit', false),
    }),
  },
  clear: { description: 'Empty a field.', judge: 'none', properties: { ref: REF }, required: ['ref'], parse: (a) => ({ ref: ref('clear', a, true) }) },
  select_option: {
    description: 'Choose options by label or value.',
    judge: 'option',
    properties: { ref: REF, option: { type: 'array', items: { type: 'string' } } },
    required: ['ref', 'option'],
    parse: (a) => {
      const v = a.option ?? a.value ?? a.label;
      const list = Array.isArray(v) ? v : [v];
      if (v === undefined || v === null || list.length === 0) {
        throw new ArgError('select_option needs "option": the label or value to choose, e.g. {"ref": "4", "option": "France"}.');
      }
      const option = list.map((o) => {
        if (typeof o === 'number') return String(o);
        if (typeof o !== 'string' || o.trim() === '') throw new ArgError(`select_option: "option" must be a non-empty string, got ${show(o)}.`);
        return o;
      });
      return { ref: ref('select_option', a, true), option };
    },
  },
  hover: {
    description: 'Hover (menus, tooltips).',
    judge: 'target',
    properties: { ref: REF },
    required: ['ref'],
    parse: (a) => ({ ref: ref('hover', a, true) }),
  },
  double_click: { description: 'Double-click.', judge: 'target', properties: { ref: REF }, required: ['ref'], parse: handsParsers.double_click },
  right_click: { description: 'Right-click (context menu).', judge: 'target', properties: { ref: REF }, required: ['ref'], parse: handsParsers.right_click },
  drag: {
    description: 'Drag ref or x,y to to_ref, to_x,to_y or by dx,dy px.',
    judge: 'drop',
    properties: { ref: REF, x: N(), y: N(), to_ref: S(), to_x: N(), to_y: N(), dx: N(), dy: N() },
    parse: handsParsers.drag,
  },
  upload: {
    description: 'Upload attached files.',
    judge: 'none',
    properties: { ref: REF, files: { type: 'array', items: { type: 'string' } } },
    required: ['ref', 'files'],
    parse: handsParsers.upload,
  },
  press_key: {
    description: 'Press a key or combo, e.g. Enter, Control+a.',
    judge: 'key',
    properties: { key: S(), ref: REF },
    required: ['key'],
    parse: (a) => {
      const key = str('press_key', a, 'key', true)!;
      if (!key.trim() && key !== ' ') throw new ArgError('press_key: "key" is empty; use a key name like "Enter", "Escape", "ArrowDown" or "Control+a".');
      return { key, ref: ref('press_key', a, false) };
    },
  },
  scroll: {
    description: 'Scroll page or element.',
    judge: 'none',
    properties: { direction: { type: 'string', enum: ['up', 'down', 'left', 'right'] }, ref: REF, pages: N() },
    parse: (a) => {
      const d = str('scroll', a, 'direction', false)?.trim().toLowerCase() ?? 'down';
      if (d !== 'up' && d !== 'down' && d !== 'left' && d !== 'right') {
        throw new ArgError(`scroll: "direction" must be up, down, left or right, got ${show(a.direction)}.`);
      }
      const pages = num('scroll', a, 'pages') ?? 1;
      if (pages <= 0 || pages > MAX_SCROLL_PAGES)
        throw new ArgError(`scroll: "pages" must be between 0 and ${MAX_SCROLL_PAGES} (fractions like 0.5 are fine), got ${pages}.`);
      return { direction: d, ref: ref('scroll', a, false), pages };
    },
  },
  scroll_to: {
    description: 'Scroll to an element.',
    judge: 'none',
    properties: { ref: REF },
    required: ['ref'],
    parse: (a) => ({ ref: ref('scroll_to', a, true) }),
  },
  click_at: {
    description: 'Click at viewport fractions x, y (0–1).',
    judge: 'point',
    properties: { x: N(), y: N() },
    required: ['x', 'y'],
    parse: (a) => {
      const x = num('click_at', a, 'x');
      const y = num('click_at', a, 'y');
      if (x === undefined || y === undefined)
        throw new ArgError('click_at needs "x" and "y": fractions of the viewport from 0 to 1, e.g. {"x": 0.5, "y": 0.25}.');
      if (x < 0 || x > 1 || y < 0 || y > 1) {
        throw new ArgError(`click_at: "x" and "y" are fractions of the viewport from 0 (left/top) to 1 (right/bottom), got x=${x}, y=${y}.`);
      }
      return { x, y };
    },
  },
  read: {
    description: 'Read page, element, download or site url by page.',
    judge: 'fetch',
    properties: { ref: S(), page: N(), download: S(), url: S() },
    parse: (a) => {
      const page = num('read', a, 'page') ?? 1;
      if (!Number.isInteger(page) || page < 1) throw new ArgError(`read: "page" must be a whole number from 1, got ${show(a.page)}.`);
      const download = downloadArg(a);
      if (download !== undefined) return { page, download };
      const url = str('read', a, 'url', false)?.trim();
      if (url) return { page, url };
      return { ref: ref('read', a, false), page };
    },
  },
  navigate: {
    description: 'Open a URL in this tab.',
    judge: 'destination',
    properties: { url: S() },
    required: ['url'],
    parse: (a) => {
      const url = str('navigate', a, 'url', true)!.trim();
      if (!url) throw new ArgError('navigate needs "url" (absolute, or relative to the current page).');
      return { url };
    },
  },
  go_back: { description: 'Go back.', judge: 'none', parse: () => ({}) },
  wait: {
    description: 'Wait for text or seconds.',
    judge: 'none',
    properties: { text: S(), seconds: N() },
    parse: (a) => {
      const seconds = num('wait', a, 'seconds');
      const text = str('wait', a, 'text', false);
      if (seconds === undefined && (text === undefined || !text.trim())) {
        throw new ArgError(`wait needs "seconds" (up to ${MAX_WAIT_SECONDS}) or "text" to wait for.`);
      }
      if (seconds !== undefined && seconds < 0) throw new ArgError(`wait: "seconds" must be positive, got ${seconds}.`);
      return { seconds, text: text?.trim() || undefined };
    },
  },
};

assertJudged(ACTION_TOOLS);

/** The action names, in the table's order. */
export const TOOL_NAMES = Object.keys(ACTION_TOOLS) as readonly ToolName[];

/** Calls this module made: already in their one canonical form, so they are never parsed twice. */
const canonical = new WeakSet<object>();

/**
 * Parses `{ name, args }` into a typed call (defaults applied, the ref parsed), or returns the
 * error sentence for the model. A call it returned before comes back as it is.
 */
export function parseCall(call: unknown): { ok: true; call: ParsedCall } | { ok: false; message: string } {
  if (call && typeof call === 'object' && canonical.has(call)) return { ok: true, call: call as ParsedCall };
  if (!call || typeof call !== 'object') return { ok: false, message: 'An action must be an object like {"name": "click", "args": {"ref": "12"}}.' };
  const { name, args } = call as { name?: unknown; args?: unknown };
  const tool = typeof name === 'string' ? name.trim().toLowerCase() : '';
  if (!Object.prototype.hasOwnProperty.call(ACTION_TOOLS, tool)) {
    return { ok: false, message: `Unknown action ${show(name)}. Available: ${TOOL_NAMES.join(', ')}.` };
  }
  if (args !== undefined && args !== null && (typeof args !== 'object' || Array.isArray(args))) {
    return { ok: false, message: `${tool}: "args" must be an object, got ${show(args)}.` };
  }
  try {
    const parsed = (ACTION_TOOLS[tool as ToolName].parse as (a: Args) => unknown)((args ?? {}) as Args);
    const typed = Object.freeze({ name: tool, args: Object.freeze(parsed) }) as ParsedCall;
    canonical.add(typed);
    return { ok: true, call: typed };
  } catch (e) {
    if (e instanceof ArgError) return { ok: false, message: e.message };
    throw e;
  }
}
