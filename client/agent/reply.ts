/**
 * Reads a model reply into reasoning and calls. Pure.
 *
 * Models differ: most return native tool calls; some write the call as JSON in the text
 * (fenced, tagged or bare, in several common shapes; read by common/text-calls.ts); some write reasoning as labelled lines, some as
 * JSON keys, some not at all. All of these work; a reply with neither a call nor JSON is text
 * for the user.
 */
import type { ChatReply } from '../llm/wire';
import { TOOLS } from './tools';
import type { PlannedCall, Reasoning } from './public-types';
import { callsInText, canonical, toolNames, type ToolNames } from '../../common/text-calls';

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

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const BUILT_IN: ToolNames = toolNames(Object.keys(TOOLS));

const namesWith = (extra: readonly string[]): ToolNames => (extra.length ? toolNames([...Object.keys(TOOLS), ...extra]) : BUILT_IN);

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
  // No native call: look for calls written in the text (common/text-calls.ts reads them tolerantly).
  const found = callsInText(rest, names);
  for (const block of found.blocks) Object.assign(reasoning, { ...reasoningFromJson(block), ...reasoning });
  return { reasoning, calls: found.calls, text: found.rest, fromText: found.calls.length > 0 };
}
