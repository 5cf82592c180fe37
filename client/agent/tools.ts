/**
 * The model's tools, from one table: every page action of `pagehand.act` (its table in
 * page/actions/args.ts: description, arguments, parser) plus the tools the loop runs itself —
 * `find`, `done`, `fail` and `ask_user` — defined here the same way. The schemas sent to the
 * model, the calls' normaliser (calls.ts) and the dispatch (dispatch.ts) all read this table.
 * Rendered to the OpenAI `tools` format (the proxy maps them to Gemini).
 */
import type { JsonSchema, ToolSpec } from '../llm/wire';
import { ACTION_TOOLS, ArgError, assertJudged, type ArgSchema, type Judge } from '../page/actions/args';
import { siteToolProblem } from './tool-problem';

const str = (description?: string): ArgSchema => (description ? { type: 'string', description } : { type: 'string' });
const bool = (description?: string): ArgSchema => (description ? { type: 'boolean', description } : { type: 'boolean' });

interface ToolDef {
  description: string;
  /** How the risk check judges a call of it (page/actions/args.ts): the loop's own tools act on nothing. */
  judge: Judge;
  properties?: Record<string, ArgSchema>;
  required?: string[];
}

/** The typed arguments of the tools the loop runs itself. */
export interface AgentToolArgs {
  find: { query: string };
  /** `data`: the answer as JSON, for a run with a `schema` (the tool offers it only then). */
  done: { summary: string; success: boolean; data?: unknown };
  fail: { reason: string };
  ask_user: { question: string };
}
export type AgentToolName = keyof AgentToolArgs;

type Args = Record<string, unknown>;
/** done and fail take their text under any of these names (models mix them up). */
const endText = (a: Args): string => String(a.summary ?? a.reason ?? a.text ?? '').trim();

export const AGENT_TOOL_TABLE: { [K in AgentToolName]: ToolDef & { parse(args: Args): AgentToolArgs[K] } } = {
  find: {
    description: 'Search the whole page; returns refs.',
    judge: 'none',
    properties: { query: str() },
    required: ['query'],
    parse: (a) => {
      const query = String(a.query ?? '').trim();
      if (!query) throw new ArgError('find needs "query": words to look for.');
      return { query };
    },
  },
  done: {
    description: 'Finish: the answer or what was done, with the facts needed.',
    judge: 'none',
    properties: { summary: str(), success: bool('false if only partly done') },
    required: ['summary'],
    parse: (a) => ({ summary: endText(a), success: a.success !== false && a.success !== 'false', ...(a.data !== undefined ? { data: a.data } : {}) }),
  },
  fail: {
    description: 'Give up, saying why it cannot be done.',
    judge: 'none',
    properties: { reason: str() },
    required: ['reason'],
    parse: (a) => ({ reason: endText(a) }),
  },
  ask_user: {
    description: 'Ask the user what only they know.',
    judge: 'none',
    properties: { question: str() },
    required: ['question'],
    parse: (a) => ({ question: String(a.question ?? '').trim() }),
  },
};

/** Tools the loop runs itself (not through `pagehand.act`). */
export const AGENT_TOOLS = Object.keys(AGENT_TOOL_TABLE) as readonly AgentToolName[];

/** Every built-in tool, page actions first, in the order the model is offered them. */
export const TOOLS: Readonly<Record<string, ToolDef>> = { ...ACTION_TOOLS, ...AGENT_TOOL_TABLE };

assertJudged(TOOLS);

export const TOOL_LIST = Object.keys(TOOLS);

/** A site's own tool, as the model is offered it (the handler stays in the loop). */
export interface ExtraTool {
  name: string;
  description: string;
  parameters?: JsonSchema;
}

/** Why a site tool cannot be offered, or undefined when it can. */
export function toolProblem(t: Parameters<typeof siteToolProblem>[0]): string | undefined {
  return siteToolProblem(t, (name) => Object.prototype.hasOwnProperty.call(TOOLS, name));
}

/**
 * The tools in the OpenAI Chat Completions `tools` format: the built-ins (page actions limited
 * to `allowed` when given; find, done, fail and ask_user always) and the site's own.
 */
export function toolSpecs(allowed?: readonly string[], extra: readonly ExtraTool[] = []): ToolSpec[] {
  const builtIn = Object.entries(TOOLS).filter(([name]) => !allowed || allowed.includes(name) || (AGENT_TOOLS as readonly string[]).includes(name));
  return [
    ...builtIn.map(([name, t]): ToolSpec => ({
      type: 'function',
      function: {
        name,
        description: t.description,
        parameters: { type: 'object', properties: (t.properties ?? {}) as Record<string, JsonSchema>, ...(t.required ? { required: t.required } : {}) },
      },
    })),
    ...extra.map((t): ToolSpec => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters ?? { type: 'object', properties: {} } },
    })),
  ];
}

/**
 * Prompt tokens the tools cost, by the method OpenAI documents for its chat models (per
 * function: 7 + "name:description"; per parameter: 3 + "name:type:description", enums 3 per
 * item; 12 for the block): the model reads a rendering of the tools, not their JSON.
 * `count` is a tokenizer (the bench's real one) or the bundle's estimate.
 */
export function toolTokens(tools: ToolSpec[], count: (text: string) => number): number {
  let n = 12;
  for (const t of tools) {
    const f = t.function;
    n += 7 + count(`${f.name}:${(f.description ?? '').replace(/\.$/, '')}`);
    const props = Object.entries(f.parameters?.properties ?? {});
    if (props.length) n += 3;
    for (const [key, p] of props) {
      n += 3;
      if (p.enum) n += p.enum.reduce<number>((sum, item) => sum + 3 + count(String(item)), -3);
      n += count(`${key}:${Array.isArray(p.type) ? p.type.join('|') : String(p.type ?? '')}:${(p.description ?? '').replace(/\.$/, '')}`);
    }
  }
  return n;
}
