/**
 * Reads a model reply into reasoning and calls. Pure.
 *
 * Models differ: most return native tool calls; some write the call as JSON in the text
 * (fenced or bare, in several common shapes); some write reasoning as labelled lines, some as
 * JSON keys, some not at all. All of these work; a reply with neither a call nor JSON is text
 * for the user.
 */
import type { ChatReply } from '../llm/wire';
import { TOOLS } from './tools';
import type { PlannedCall, Reasoning } from './public-types';

/** A call as the reply gave it: the tool's name and its arguments as sent (calls.ts puts it in canonical form). */
export interface RawCall extends PlannedCall {
  /** Set when the arguments were not valid JSON: the call is reported back, not run. */
  error?: string;
}

export interface ParsedReply {
  reasoning: Reasoning;
  calls: RawCall[];
  /** The text without the reasoning lines and the JSON calls. */
  text: string;
  /** The calls came from JSON in the text, not from native tool calls. */
  fromText: boolean;
}

const LABELS: Array<[RegExp, keyof Reasoning]> = [
  [/^eval(?:uation)?(?:[ _](?:of[ _])?(?:the[ _])?(?:last|previous)[ _](?:step|goal))?$/i, 'evaluation'],
  [/^memory$/i, 'memory'],
  [/^(?:next[ _]?)?goal$|^next[ _]?step$|^plan$/i, 'nextGoal'],
];

function labelKey(label: string): keyof Reasoning | undefined {
  const l = label.trim().replace(/^[*_#\s-]+|[*_\s]+$/g, '');
  for (const [re, key] of LABELS) if (re.test(l)) return key;
  return undefined;
}

/** `eval: …` / `**Memory**: …` / `Next goal - …` lines; a label's text runs until the next label. */
export function readReasoningLines(text: string): { reasoning: Reasoning; rest: string } {
  const reasoning: Reasoning = {};
  const rest: string[] = [];
  let current: keyof Reasoning | undefined;
  for (const line of text.split('\n')) {
    const m = /^\s*[-*]?\s*([*_]{0,2}[A-Za-z][A-Za-z _]{1,40}?[*_]{0,2})(?:\s*[:：]|\s+[-–]\s)\s*(.*)$/.exec(line);
    const key = m ? labelKey(m[1]!) : undefined;
    if (key) {
      current = key;
      reasoning[key] = m![2]!.replace(/^[*_]+\s*/, '').trim();
    } else if (current && line.trim() && !/^\s*(```|[{[])/.test(line)) {
      reasoning[current] = `${reasoning[current]} ${line.trim()}`.trim();
    } else {
      current = undefined;
      rest.push(line);
    }
  }
  return { reasoning, rest: rest.join('\n').trim() };
}

/** JSON values found in the text: fenced blocks first, else the outermost balanced {…} or […]. */
export function jsonBlocks(text: string): Array<{ value: unknown; start: number; end: number }> {
  const out: Array<{ value: unknown; start: number; end: number }> = [];
  const fence = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/g;
  for (let m; (m = fence.exec(text));) {
    try {
      out.push({ value: JSON.parse(m[1]!), start: m.index, end: m.index + m[0].length });
    } catch {
      /* not JSON */
    }
  }
  if (out.length) return out;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch !== '{' && ch !== '[') continue;
    const end = balancedEnd(text, i);
    if (end < 0) continue;
    try {
      out.push({ value: JSON.parse(text.slice(i, end + 1)), start: i, end: end + 1 });
      i = end;
    } catch {
      /* not JSON; keep looking */
    }
  }
  return out;
}

function balancedEnd(s: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < s.length; i++) {
    const ch = s[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
/** Tool names by their lower-cased form: models vary the case ("Click", "addtocart"). */
type Names = ReadonlyMap<string, string>;
const BUILT_IN: Names = new Map(Object.keys(TOOLS).map((n) => [n, n]));

function namesWith(extra: readonly string[]): Names {
  if (!extra.length) return BUILT_IN;
  const m = new Map(BUILT_IN);
  for (const n of extra) m.set(n.toLowerCase(), n);
  return m;
}

/** The tool's own spelling, or undefined when no tool has that name. */
const canonical = (name: unknown, names: Names): string | undefined => (typeof name === 'string' ? names.get(name.trim().toLowerCase()) : undefined);

function argsOf(v: unknown): Record<string, unknown> {
  if (typeof v === 'string') {
    try {
      const parsed = JSON.parse(v) as unknown;
      return isObject(parsed) ? parsed : {};
    } catch {
      return {};
    }
  }
  return isObject(v) ? v : {};
}

/** Calls in the shapes models write: {name, arguments}, {tool, args}, {function: {…}}, {click: {…}}, {action: [...]}, arrays. */
export function callsFromJson(v: unknown, names: Names = BUILT_IN): PlannedCall[] {
  if (Array.isArray(v)) return v.flatMap((x) => callsFromJson(x, names));
  if (!isObject(v)) return [];
  for (const key of ['tool_calls', 'calls', 'actions']) if (Array.isArray(v[key])) return callsFromJson(v[key], names);
  if (Array.isArray(v.action)) return callsFromJson(v.action, names);
  if (isObject(v.function)) return callsFromJson(v.function, names);
  const name = canonical(v.name ?? v.tool ?? v.tool_name ?? (typeof v.action === 'string' ? v.action : undefined), names);
  if (name) {
    const args = v.arguments ?? v.args ?? v.parameters ?? v.input;
    if (args !== undefined) return [{ name, args: argsOf(args) }];
    // {"action": "click", "ref": "12"}: the rest of the object is the arguments.
    const rest = Object.fromEntries(Object.entries(v).filter(([k]) => !['name', 'tool', 'tool_name', 'action'].includes(k)));
    return [{ name, args: rest }];
  }
  // {"click": {"ref": "12"}} — one key naming a tool.
  return Object.keys(v).flatMap((k) => {
    const n = canonical(k, names);
    return n ? [{ name: n, args: argsOf(v[k]) }] : [];
  });
}

function reasoningFromJson(v: unknown): Reasoning {
  const r: Reasoning = {};
  if (!isObject(v)) return r;
  const src = isObject(v.current_state) ? v.current_state : v;
  for (const [k, val] of Object.entries(src)) {
    const key = labelKey(k.replace(/_/g, ' '));
    if (key && typeof val === 'string') r[key] = val;
  }
  return r;
}

/** `extra`: the site's own tool names, recognised in any case and in JSON written as text too. */
export function parseReply(reply: Pick<ChatReply, 'content' | 'toolCalls'>, extra: readonly string[] = []): ParsedReply {
  const names = namesWith(extra);
  const content = reply.content ?? '';
  const { reasoning, rest } = readReasoningLines(content);
  if (reply.toolCalls.length) {
    const calls = reply.toolCalls.map((tc): RawCall => {
      const name = canonical(tc.name, names) ?? tc.name.trim();
      if (!tc.arguments.trim()) return { name, args: {} };
      try {
        const parsed = JSON.parse(tc.arguments) as unknown;
        if (isObject(parsed)) return { name, args: parsed };
        return { name, args: {}, error: `the arguments of ${name} must be a JSON object, got ${tc.arguments.slice(0, 80)}` };
      } catch {
        return { name, args: {}, error: `the arguments of ${name} were not valid JSON: ${tc.arguments.slice(0, 80)}` };
      }
    });
    // Reasoning written as unlabelled prose next to the calls still tells the user what it does.
    if (!reasoning.nextGoal && !reasoning.evaluation && rest) reasoning.nextGoal = rest.slice(0, 300);
    return { reasoning, calls, text: rest, fromText: false };
  }
  // No native call: look for JSON calls in the text.
  let calls: PlannedCall[] = [];
  let text = rest;
  for (const block of jsonBlocks(rest)) {
    const found = callsFromJson(block.value, names);
    if (!found.length) continue;
    calls = calls.concat(found);
    Object.assign(reasoning, { ...reasoningFromJson(block.value), ...reasoning });
    text = text.replace(rest.slice(block.start, block.end), '').trim();
  }
  return { reasoning, calls, text, fromText: calls.length > 0 };
}
