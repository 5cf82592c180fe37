/**
 * The model's tools, defined once: every action of `pagehand.act` with its exact name and
 * arguments, plus `find`, `done`, `fail` and `ask_user`. Rendered to the OpenAI `tools` format
 * (the proxy maps them to Gemini). Descriptions are terse on purpose: the whole set costs
 * under 600 prompt tokens, and the system prompt explains how to use them.
 */
import type { JsonSchema, ToolSpec } from '../llm/types';
import type { RiskKind } from './types';

const str = (description?: string): JsonSchema => (description ? { type: 'string', description } : { type: 'string' });
const num = (description?: string): JsonSchema => (description ? { type: 'number', description } : { type: 'number' });
const bool = (description?: string): JsonSchema => (description ? { type: 'boolean', description } : { type: 'boolean' });
const REF = str(); // the system prompt explains refs once, instead of in every tool

interface ToolDef {
  description: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

/** Tools that end the run or talk to the user rather than act on the page. */
export const CONTROL_TOOLS = ['done', 'fail', 'ask_user'] as const;
/** Tools the loop runs itself (not through `pagehand.act`). */
export const AGENT_TOOLS = ['find', ...CONTROL_TOOLS] as const;

export const TOOLS: Record<string, ToolDef> = {
  click: { description: 'Click an element.', properties: { ref: REF }, required: ['ref'] },
  type: {
    description: 'Type into a field (replaces its text unless replace=false).',
    properties: { ref: REF, text: str(), replace: bool(), submit: bool('press Enter after') },
    required: ['ref', 'text'],
  },
  clear: { description: 'Empty a field.', properties: { ref: REF }, required: ['ref'] },
  select_option: {
    description: 'Choose option(s) in a select, combobox or listbox.',
    properties: { ref: REF, option: { type: 'array', items: { type: 'string' }, description: 'labels or values' } },
    required: ['ref', 'option'],
  },
  hover: { description: 'Move the pointer over an element (menus, tooltips).', properties: { ref: REF }, required: ['ref'] },
  press_key: { description: 'Press a key or combo: Enter, Escape, Tab, ArrowDown, Control+a.', properties: { key: str(), ref: str('element to focus first') }, required: ['key'] },
  scroll: {
    description: 'Scroll the page or a scrollable element.',
    properties: { direction: { type: 'string', enum: ['up', 'down', 'left', 'right'] }, ref: str('scrollable, default page'), pages: num('default 1') },
  },
  scroll_to: { description: 'Scroll an element into view.', properties: { ref: REF }, required: ['ref'] },
  click_at: { description: 'Click a viewport point (0–1 fractions) for canvas, maps, images.', properties: { x: num(), y: num() }, required: ['x', 'y'] },
  read: { description: 'Read the text of the page or an element, page by page.', properties: { ref: str(), page: num('from 1') } },
  navigate: { description: 'Open a URL in this tab.', properties: { url: str() }, required: ['url'] },
  go_back: { description: 'Go back in history.' },
  wait: { description: 'Wait for text to appear, or some seconds.', properties: { text: str(), seconds: num() } },
  find: { description: 'Search the whole page beyond the map; returns refs.', properties: { query: str() }, required: ['query'] },
  done: {
    description: 'Finish: the answer or what was done, with the facts the user needs.',
    properties: { summary: str(), success: bool('false if only partly done') },
    required: ['summary'],
  },
  fail: { description: 'Give up: the task cannot be done; say why.', properties: { reason: str() }, required: ['reason'] },
  ask_user: { description: 'Ask the user for information only they have.', properties: { question: str() }, required: ['question'] },
};

export const TOOL_LIST = Object.keys(TOOLS);

/** A site's own tool, as the model is offered it (the handler stays in the loop). */
export interface ExtraTool {
  name: string;
  description: string;
  parameters?: JsonSchema;
}

const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** The kinds a site tool may declare as its `risk`. */
export const TOOL_RISKS: readonly RiskKind[] = ['payment', 'deletion', 'sending', 'personal_data', 'leaving_site', 'download', 'site_tool'];

/** Why a site tool cannot be offered, or undefined when it can. */
export function toolProblem(t: { name?: unknown; description?: unknown; parameters?: unknown; handler?: unknown; readOnly?: unknown; risk?: unknown }): string | undefined {
  if (typeof t.name !== 'string' || !NAME.test(t.name)) return `a tool name must be letters, digits, _ or - (got ${JSON.stringify(t.name)})`;
  if (Object.prototype.hasOwnProperty.call(TOOLS, t.name)) return `"${t.name}" is a built-in tool`;
  if (typeof t.description !== 'string' || !t.description.trim()) return `tool "${t.name}" needs a description`;
  if (typeof t.handler !== 'function') return `tool "${t.name}" needs a handler function`;
  if (t.parameters !== undefined && (typeof t.parameters !== 'object' || t.parameters === null || (t.parameters as JsonSchema).type !== 'object')) {
    return `tool "${t.name}": parameters must be a JSON Schema with type "object"`;
  }
  if (t.readOnly !== undefined && typeof t.readOnly !== 'boolean') return `tool "${t.name}": readOnly must be true or false`;
  if (t.risk !== undefined && !(TOOL_RISKS as readonly unknown[]).includes(t.risk)) return `tool "${t.name}": risk must be one of ${TOOL_RISKS.join(', ')}`;
  return undefined;
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
        parameters: { type: 'object', properties: t.properties ?? {}, ...(t.required ? { required: t.required } : {}) },
      },
    })),
    ...extra.map((t): ToolSpec => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters ?? { type: 'object', properties: {} } } })),
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
