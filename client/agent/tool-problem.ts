/**
 * Whether a site's own tool can be offered (a name, a description, a handler, an object
 * schema, …). Kept apart from the tool table so the embed's loader checks `init` with the
 * same words without carrying the table: it is given the built-in names instead.
 */
import type { JsonSchema } from '../llm/wire';
import type { RiskKind } from './public-types';

const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** The kinds a site tool may declare as its `risk`. */
export const TOOL_RISKS: readonly RiskKind[] = ['payment', 'deletion', 'sending', 'personal_data', 'leaving_site', 'download', 'site_tool'];

/** Why a site tool cannot be offered, or undefined when it can. `isBuiltIn` tells the names it may not take. */
export function siteToolProblem(
  t: { name?: unknown; description?: unknown; parameters?: unknown; handler?: unknown; readOnly?: unknown; risk?: unknown },
  isBuiltIn: (name: string) => boolean,
): string | undefined {
  if (typeof t.name !== 'string' || !NAME.test(t.name)) return `a tool name must be letters, digits, _ or - (got ${JSON.stringify(t.name)})`;
  if (isBuiltIn(t.name)) return `"${t.name}" is a built-in tool`;
  if (typeof t.description !== 'string' || !t.description.trim()) return `tool "${t.name}" needs a description`;
  if (typeof t.handler !== 'function') return `tool "${t.name}" needs a handler function`;
  if (t.parameters !== undefined && (typeof t.parameters !== 'object' || t.parameters === null || (t.parameters as JsonSchema).type !== 'object')) {
    return `tool "${t.name}": parameters must be a JSON Schema with type "object"`;
  }
  if (t.readOnly !== undefined && typeof t.readOnly !== 'boolean') return `tool "${t.name}": readOnly must be true or false`;
  if (t.risk !== undefined && !(TOOL_RISKS as readonly unknown[]).includes(t.risk)) return `tool "${t.name}": risk must be one of ${TOOL_RISKS.join(', ')}`;
  return undefined;
}
