/** Real token counts with an o200k tokenizer (the GPT-4o family's encoding). */
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { toolTokens } from '../../client/agent/tools';
import type { ToolSpec } from '../../client/llm/wire';

export function countTokens(text: string): number {
  return encode(text).length;
}

interface ToolLike {
  function: { name: string; description?: string; parameters?: { properties?: Record<string, { type?: unknown; description?: string; enum?: unknown[] }> } };
}

/** Prompt tokens a `tools` array costs, counted as OpenAI documents it (see client/agent/tools). */
export function countToolTokens(tools: ToolLike[]): number {
  return toolTokens(tools as ToolSpec[], countTokens);
}

interface Schema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  const?: unknown;
  default?: unknown;
}

/** A JSON Schema as the TypeScript-like type OpenAI's chat models are shown. */
function tsType(s: Schema | undefined): string {
  if (!s) return 'any';
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  const union = s.anyOf ?? s.oneOf;
  if (union) return union.map((u) => `${u.description ? `\n// ${u.description}\n` : ''}${tsType(u)}`).join(' | ');
  const types = Array.isArray(s.type) ? s.type : [s.type ?? (s.properties ? 'object' : 'any')];
  return types
    .map((t) => (t === 'integer' || t === 'number' ? 'number' : t === 'array' ? `${tsType(s.items)}[]` : t === 'object' ? objectType(s) : t))
    .join(' | ');
}

function objectType(s: Schema): string {
  const props = Object.entries(s.properties ?? {});
  if (!props.length) return '{}';
  const lines = props.map(([k, p]) => {
    const notes = [p.description, p.default !== undefined ? `default: ${JSON.stringify(p.default)}` : ''].filter(Boolean).join(' ');
    return `${notes ? `// ${notes}\n` : ''}${k}${s.required?.includes(k) ? '' : '?'}: ${tsType(p)},`;
  });
  return `{\n${lines.join('\n')}\n}`;
}

/**
 * The tools rendered the way OpenAI's chat models read them (a TypeScript-like `functions`
 * namespace): a measure that treats flat and nested schemas alike, for comparing agents
 * whose tool designs differ (one tool per action vs one tool with a union of actions).
 */
export function renderToolsForModel(tools: ToolLike[]): string {
  const body = tools
    .map((t) => {
      const f = t.function as ToolLike['function'] & { parameters?: Schema };
      return `${f.description ? `// ${f.description}\n` : ''}type ${f.name} = (_: ${objectType(f.parameters ?? {})}) => any;`;
    })
    .join('\n\n');
  return `namespace functions {\n\n${body}\n\n} // namespace functions`;
}
