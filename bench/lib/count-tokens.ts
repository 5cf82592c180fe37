/** Real token counts with an o200k tokenizer (the GPT-4o family's encoding). */
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

export function countTokens(text: string): number {
  return encode(text).length;
}

interface ToolLike {
  function: { name: string; description?: string; parameters?: { properties?: Record<string, { type?: unknown; description?: string; enum?: unknown[] }> } };
}

/**
 * Prompt tokens that a `tools` array costs, by the method OpenAI documents for its chat models
 * (per function: 7 + "name:description"; per parameter: 3 + "name:type:description", enums 3 per
 * item; 12 for the block): the model reads a rendering of the tools, not their JSON.
 */
export function countToolTokens(tools: ToolLike[]): number {
  let n = 0;
  for (const t of tools) {
    const f = t.function;
    n += 7 + countTokens(`${f.name}:${(f.description ?? '').replace(/\.$/, '')}`);
    const props = Object.entries(f.parameters?.properties ?? {});
    if (props.length) n += 3;
    for (const [key, p] of props) {
      n += 3;
      if (Array.isArray(p.enum)) {
        n -= 3;
        for (const item of p.enum) n += 3 + countTokens(String(item));
      }
      n += countTokens(`${key}:${Array.isArray(p.type) ? p.type.join('|') : String(p.type ?? '')}:${(p.description ?? '').replace(/\.$/, '')}`);
    }
  }
  return n + 12;
}
