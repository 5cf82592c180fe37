/**
 * Tool calls written as text, read tolerantly. Pure; shared by the bundle (a reply whose calls
 * came as text) and the proxy (the text protocol for models without tool calls), so both read
 * the same shapes the same way.
 *
 * Found: fenced blocks (```json … ```), `<tool_call>…</tool_call>` tags, else every outermost
 * balanced {…} or […] in prose. Repaired: trailing commas, a missing comma between values,
 * single-quoted strings, arguments given as a JSON string.
 */

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** A call as text gave it: the tool's own name and its arguments. */
export interface TextCall {
  name: string;
  args: Obj;
}

/** Tool names by their lower-cased form (models vary the case: "Click", "addtocart"). */
export type ToolNames = ReadonlyMap<string, string>;

export const toolNames = (names: readonly string[]): ToolNames => new Map(names.map((n) => [n.toLowerCase(), n]));

/**
 * JSON.parse, then once more after the small mistakes models make are repaired. Throws when
 * neither reads.
 */
export function parseLooseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return JSON.parse(repairJson(text));
  }
}

/** Single quotes → double, a missing comma between two values added, trailing commas removed.
 * Walks the text once so nothing inside a string is touched. */
function repairJson(t: string): string {
  let out = '';
  let quote = '';
  // The last character outside strings but spaces (a closed string's is its quote).
  let last = '';
  for (let i = 0; i < t.length; i++) {
    let c = t[i]!;
    if (quote) {
      // \' is no JSON escape; a " inside a single-quoted string needs one.
      if (c === '\\') c = t[++i] === "'" ? "'" : c + (t[i] ?? '');
      else if (c === quote) {
        c = last = '"';
        quote = '';
      } else if (c === '"') c = '\\"';
    } else if (/\S/.test(c)) {
      // Two values in a row (`"a": 1 "b": 2`, `} {`) need a comma between them.
      if (/["'{[\w-]/.test(c) && (/["}\]]/.test(last) || (/\w/.test(last) && /\s/.test(t[i - 1]!)))) out += ',';
      if (c === '}' || c === ']') out = out.replace(/,(\s*)$/, '$1');
      if (c === '"' || c === "'") {
        quote = c;
        c = '"';
      }
      last = quote ? '' : c;
    }
    out += c;
  }
  return out;
}

/** JSON values found in the text: fenced or tagged blocks first, else each outermost balanced
 * {…} or […], with where each was. */
export function jsonBlocks(text: string): Array<{ value: unknown; start: number; end: number }> {
  const out: Array<{ value: unknown; start: number; end: number }> = [];
  const wrapped = /```(?:json|JSON)?\s*\n?([\s\S]*?)```|<tool_call>([\s\S]*?)<\/tool_call>/g;
  for (let m; (m = wrapped.exec(text));) {
    try {
      out.push({ value: parseLooseJson((m[1] ?? m[2]!).trim()), start: m.index, end: m.index + m[0].length });
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
      out.push({ value: parseLooseJson(text.slice(i, end + 1)), start: i, end: end + 1 });
      i = end;
    } catch {
      /* not JSON; keep looking */
    }
  }
  return out;
}

function balancedEnd(s: string, start: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = start; i < s.length; i++) {
    const ch = s[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '"' || (ch === "'" && !/\w/.test(s[i - 1] ?? ''))) quote = ch;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** The tool's own spelling, or undefined when no tool has that name. */
export const canonical = (name: unknown, names: ToolNames): string | undefined => (typeof name === 'string' ? names.get(name.trim().toLowerCase()) : undefined);

/** Arguments as an object; a JSON string of them is read too (some models quote the object). */
function argsOf(v: unknown): Obj {
  if (typeof v === 'string') {
    try {
      const parsed = parseLooseJson(v);
      return isObject(parsed) ? parsed : {};
    } catch {
      return {};
    }
  }
  return isObject(v) ? v : {};
}

/** Calls in the shapes models write: {name, arguments}, {tool, args}, {function: {…}}, {click: {…}}, {action: [...]}, arrays. */
export function callsFromJson(v: unknown, names: ToolNames): TextCall[] {
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

/**
 * The calls written in a text and the text without them (the prose around the calls: a
 * model's reasoning). `blocks` lets a caller that needs each block's value (the bundle reads
 * reasoning keys from them) get them without a second parse.
 *
 * @example
 * callsInText('I will search.\n```json\n{"tool": "type", "arguments": {"ref": "2", "text": "x",}}\n```', toolNames(['type']));
 * // { calls: [{ name: 'type', args: { ref: '2', text: 'x' } }], rest: 'I will search.', blocks: [...] }
 */
export function callsInText(text: string, names: ToolNames): { calls: TextCall[]; rest: string; blocks: unknown[] } {
  let calls: TextCall[] = [];
  let rest = text;
  const blocks: unknown[] = [];
  for (const block of jsonBlocks(text)) {
    const found = callsFromJson(block.value, names);
    if (!found.length) continue;
    calls = calls.concat(found);
    blocks.push(block.value);
    rest = rest.replace(text.slice(block.start, block.end), '');
  }
  return { calls, rest: rest.trim(), blocks };
}
