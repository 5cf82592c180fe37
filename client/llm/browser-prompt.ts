/**
 * What the browser's own model (the Prompt API) is given and what its answer becomes, pure:
 * the tools as a JSON Schema its output is held to (one action per turn), the tools as lines
 * of its system prompt (it gets no `tools` field), its JSON answer as the same ChatReply the
 * proxy path produces, and a step's text cut to its small context window (page text first).
 */
import type { ChatReply, JsonSchema, ToolSpec } from './wire';

/** JSON Schema with the two keywords the answer's shape needs beyond the tools'. */
type Schema = Omit<JsonSchema, 'properties'> & { properties?: Record<string, Schema>; oneOf?: Schema[]; const?: string };

/**
 * One answer: the three reasoning lines the tool path writes as text, then exactly one action,
 * `{ tool: NAME, arguments: {…} }` for one of the offered tools (the constraint makes any other
 * name impossible).
 */
export function answerSchema(tools: readonly ToolSpec[]): Schema {
  const str: Schema = { type: 'string' };
  return {
    type: 'object',
    properties: {
      eval: str,
      memory: str,
      goal: str,
      action: {
        oneOf: tools.map((t): Schema => ({
          type: 'object',
          properties: { tool: { const: t.function.name }, arguments: t.function.parameters ?? { type: 'object', properties: {} } },
          required: ['tool', 'arguments'],
          additionalProperties: false,
        })),
      },
    },
    required: ['eval', 'memory', 'goal', 'action'],
    additionalProperties: false,
  };
}

/** The tools as the system prompt's lines: `- name {arg: type (description), opt?: type}: what it does`. */
export function toolLines(tools: readonly ToolSpec[]): string {
  return tools
    .map(({ function: f }) => {
      const req = new Set(f.parameters?.required ?? []);
      const args = Object.entries(f.parameters?.properties ?? {}).map(([k, p]) => {
        const type = p.enum ? p.enum.map((v) => JSON.stringify(v)).join('|') : Array.isArray(p.type) ? p.type.join('|') : (p.type ?? 'any');
        return `${k}${req.has(k) ? '' : '?'}: ${type}${p.description ? ` (${p.description})` : ''}`;
      });
      return `- ${f.name} {${args.join(', ')}}: ${f.description ?? ''}`;
    })
    .join('\n');
}

/** The system prompt for the browser's model: the loop's own, with the answer's shape and the tools in words. */
export const browserSystem = (system: string, tools: readonly ToolSpec[]): string =>
  `${system}

# Your reply
You have no tool calls here: reply with one JSON object only, {"eval": "…", "memory": "…", "goal": "…", "action": {"tool": "NAME", "arguments": {…}}}. The three lines go in eval, memory and goal; the action is the one tool call of this turn (one action per reply). The tools:
${toolLines(tools)}`;

/**
 * The model's JSON answer as a ChatReply: the reasoning as the lines the reply parser reads,
 * the action as one tool call. An answer that is not that JSON (cut off, or a model that
 * ignored the constraint) stays text: the loop reports a reply without a call back to the model.
 */
export function replyFromAnswer(text: string, usage: ChatReply['usage']): ChatReply {
  let v: { eval?: unknown; memory?: unknown; goal?: unknown; action?: { tool?: unknown; arguments?: unknown } } | undefined;
  try {
    v = JSON.parse(text) as typeof v;
  } catch {
    v = undefined;
  }
  const tool = v?.action?.tool;
  if (!v || typeof tool !== 'string') return { content: text, toolCalls: [], finishReason: 'stop', usage };
  const line = (k: 'eval' | 'memory' | 'goal'): string => (typeof v[k] === 'string' && v[k].trim() ? `${k}: ${v[k].trim().replace(/\s*\n\s*/g, ' ')}` : '');
  return {
    content: [line('eval'), line('memory'), line('goal')].filter(Boolean).join('\n'),
    toolCalls: [{ id: 'call_0', name: tool, arguments: JSON.stringify(v.action?.arguments ?? {}) }],
    finishReason: 'tool_calls',
    usage,
  };
}

/**
 * The step's text with less page text: keeps `keep` (0–1) of the lines inside the last data
 * block under `# Current page` (the map: its header line first, so the page's title and URL
 * stay), and says how many were left out. At `keep` 0 the earlier steps go as well (oldest
 * first). Unchanged when the text has no such block.
 */
export function trimStep(text: string, keep: number): string {
  const at = text.lastIndexOf('\n# Current page\n');
  if (at < 0) return text;
  const head = text.slice(0, at);
  const lines = text.slice(at + '\n# Current page\n'.length).split('\n');
  // The block: its start marker, the map's lines, its end marker.
  const body = lines.slice(1, -1);
  const kept = Math.max(1, Math.floor(body.length * Math.max(0, Math.min(1, keep))));
  const cut = body.length - kept;
  const map = cut > 0 ? [...body.slice(0, kept), `(${cut} more lines of this page left out to fit the browser's model; scroll or find to see them)`] : body;
  const page = `\n# Current page\n${[lines[0], ...map, lines[lines.length - 1]].join('\n')}`;
  return (keep <= 0 ? withoutEarlierSteps(head) : head) + page;
}

/** The `# Earlier steps` section dropped (the memory and the last results stay). */
function withoutEarlierSteps(head: string): string {
  const title = '\n\n# Earlier steps\n';
  const at = head.indexOf(title);
  if (at < 0) return head;
  const from = at + title.length;
  const start = head.slice(from, head.indexOf('\n', from));
  // Its own end marker: the start marker with a slash (page text cannot hold the run's value).
  const end = head.indexOf(`\n${start.replace('⟪', '⟪/')}`, from);
  if (end < 0) return head;
  return `${head.slice(0, from)}(left out to fit the browser's model)${head.slice(end + start.length + 2)}`;
}
