/**
 * Validates a tool call's arguments (pure; no DOM). Models make small mistakes — a ref as a
 * number, "true" as a string, an extra field — so harmless ones are accepted; anything that
 * would change the meaning gets a clear error naming the tool, the argument and the fix.
 */
import { parseRef } from '../refs';
import type { Ref } from '../types';

export type Direction = 'up' | 'down' | 'left' | 'right';

export interface ToolArgs {
  click: { ref: Ref };
  type: { ref: Ref; text: string; replace: boolean; submit: boolean };
  clear: { ref: Ref };
  select_option: { ref: Ref; option: string[] };
  hover: { ref: Ref };
  press_key: { key: string; ref?: Ref };
  scroll: { direction: Direction; ref?: Ref; pages: number };
  scroll_to: { ref: Ref };
  click_at: { x: number; y: number };
  read: { ref?: Ref; page: number };
  navigate: { url: string };
  go_back: Record<string, never>;
  wait: { seconds?: number; text?: string };
}

export type ToolName = keyof ToolArgs;
export type ParsedCall = { [K in ToolName]: { name: K; args: ToolArgs[K] } }[ToolName];

/** The longest `wait {seconds}` honoured. */
export const MAX_WAIT_SECONDS = 30;
export const MAX_SCROLL_PAGES = 20;

export const TOOL_NAMES: readonly ToolName[] = [
  'click', 'type', 'clear', 'select_option', 'hover', 'press_key', 'scroll', 'scroll_to',
  'click_at', 'read', 'navigate', 'go_back', 'wait',
];

class ArgError extends Error {}

type Args = Record<string, unknown>;

function ref(tool: string, args: Args, required: true): Ref;
function ref(tool: string, args: Args, required: false): Ref | undefined;
function ref(tool: string, args: Args, required: boolean): Ref | undefined {
  const v = args.ref;
  if (v === undefined || v === null || v === '') {
    if (required) throw new ArgError(`${tool} needs "ref": the number shown in brackets in the page map, e.g. {"ref": "12"}.`);
    return undefined;
  }
  const r = parseRef(v);
  if (!r) throw new ArgError(`${tool}: "ref" must be the number shown in brackets (like "12" or "f2:7"), got ${show(v)}.`);
  return r;
}

function bool(tool: string, args: Args, key: string, dflt: boolean): boolean {
  const v = args[key];
  if (v === undefined || v === null) return dflt;
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  throw new ArgError(`${tool}: "${key}" must be true or false, got ${show(v)}.`);
}

function num(tool: string, args: Args, key: string): number | undefined {
  const v = args[key];
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw new ArgError(`${tool}: "${key}" must be a number, got ${show(v)}.`);
  return n;
}

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

function show(v: unknown): string {
  try {
    const s = JSON.stringify(v);
    return s === undefined ? String(v) : s.length > 40 ? `${s.slice(0, 40)}…` : s;
  } catch {
    return String(v);
  }
}

const parsers: { [K in ToolName]: (a: Args) => ToolArgs[K] } = {
  click: (a) => ({ ref: ref('click', a, true) }),
  hover: (a) => ({ ref: ref('hover', a, true) }),
  clear: (a) => ({ ref: ref('clear', a, true) }),
  scroll_to: (a) => ({ ref: ref('scroll_to', a, true) }),
  type: (a) => ({
    ref: ref('type', a, true),
    text: str('type', a, 'text', true)!,
    replace: bool('type', a, 'replace', true),
    submit: bool('type', a, 'submit', false),
  }),
  select_option: (a) => {
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
  press_key: (a) => {
    const key = str('press_key', a, 'key', true)!;
    if (!key.trim() && key !== ' ') throw new ArgError('press_key: "key" is empty; use a key name like "Enter", "Escape", "ArrowDown" or "Control+a".');
    return { key, ref: ref('press_key', a, false) };
  },
  scroll: (a) => {
    const d = str('scroll', a, 'direction', false)?.trim().toLowerCase() ?? 'down';
    if (d !== 'up' && d !== 'down' && d !== 'left' && d !== 'right') {
      throw new ArgError(`scroll: "direction" must be up, down, left or right, got ${show(a.direction)}.`);
    }
    const pages = num('scroll', a, 'pages') ?? 1;
    if (pages <= 0 || pages > MAX_SCROLL_PAGES) throw new ArgError(`scroll: "pages" must be between 0 and ${MAX_SCROLL_PAGES} (fractions like 0.5 are fine), got ${pages}.`);
    return { direction: d, ref: ref('scroll', a, false), pages };
  },
  click_at: (a) => {
    const x = num('click_at', a, 'x');
    const y = num('click_at', a, 'y');
    if (x === undefined || y === undefined) throw new ArgError('click_at needs "x" and "y": fractions of the viewport from 0 to 1, e.g. {"x": 0.5, "y": 0.25}.');
    if (x < 0 || x > 1 || y < 0 || y > 1) {
      throw new ArgError(`click_at: "x" and "y" are fractions of the viewport from 0 (left/top) to 1 (right/bottom), got x=${x}, y=${y}.`);
    }
    return { x, y };
  },
  read: (a) => {
    const page = num('read', a, 'page') ?? 1;
    if (!Number.isInteger(page) || page < 1) throw new ArgError(`read: "page" must be a whole number from 1, got ${show(a.page)}.`);
    return { ref: ref('read', a, false), page };
  },
  navigate: (a) => {
    const url = str('navigate', a, 'url', true)!.trim();
    if (!url) throw new ArgError('navigate needs "url" (absolute, or relative to the current page).');
    return { url };
  },
  go_back: () => ({}),
  wait: (a) => {
    const seconds = num('wait', a, 'seconds');
    const text = str('wait', a, 'text', false);
    if (seconds === undefined && (text === undefined || !text.trim())) {
      throw new ArgError(`wait needs "seconds" (up to ${MAX_WAIT_SECONDS}) or "text" to wait for.`);
    }
    if (seconds !== undefined && seconds < 0) throw new ArgError(`wait: "seconds" must be positive, got ${seconds}.`);
    return { seconds, text: text?.trim() || undefined };
  },
};

/** Parses `{ name, args }` into a typed call, or returns the error sentence for the model. */
export function parseCall(call: unknown): { ok: true; call: ParsedCall } | { ok: false; message: string } {
  if (!call || typeof call !== 'object') return { ok: false, message: 'An action must be an object like {"name": "click", "args": {"ref": "12"}}.' };
  const { name, args } = call as { name?: unknown; args?: unknown };
  const tool = typeof name === 'string' ? name.trim().toLowerCase() : '';
  if (!(TOOL_NAMES as readonly string[]).includes(tool)) {
    return { ok: false, message: `Unknown action ${show(name)}. Available: ${TOOL_NAMES.join(', ')}.` };
  }
  if (args !== undefined && args !== null && (typeof args !== 'object' || Array.isArray(args))) {
    return { ok: false, message: `${tool}: "args" must be an object, got ${show(args)}.` };
  }
  try {
    const parsed = parsers[tool as ToolName]((args ?? {}) as Args);
    return { ok: true, call: { name: tool, args: parsed } as ParsedCall };
  } catch (e) {
    if (e instanceof ArgError) return { ok: false, message: e.message };
    throw e;
  }
}
