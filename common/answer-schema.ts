/**
 * `run(task, { schema })`: the JSON Schema the answer's `data` must match — the schema checked
 * when the run starts, and what the model is told. The answer itself is checked by
 * ./answer-check.ts, loaded when a run with a schema ends (a small hand-written validator of the
 * subset a program's answer needs: no schema library, the bundle would double). Pure.
 *
 * Supported keywords: `type` (string, number, integer, boolean, object, array, null, or a list
 * of them), `properties`, `required`, `additionalProperties` (true, false or a schema), `items`
 * (one schema for every item), `enum`, `const`, `minimum`, `maximum`, `minLength`, `maxLength`,
 * `minItems`, `maxItems`, `pattern`. Annotations (`description`, `title`, `examples`,
 * `default`, `$schema`, `$comment`, `format`) are allowed and not checked; any other keyword
 * (`$ref`, `anyOf`, `oneOf`, …) makes `schemaProblem` refuse the schema, so nothing is silently
 * left unchecked.
 */

export type SchemaType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

/**
 * A JSON Schema for a run's answer, in the subset pagehand checks (client/agent/answer-check.ts):
 * type, properties, required, additionalProperties, items, enum, const, minimum, maximum,
 * minLength, maxLength, minItems, maxItems, pattern; annotations allowed.
 */
export interface AnswerSchema {
  type?: SchemaType | SchemaType[];
  properties?: Record<string, AnswerSchema>;
  required?: string[];
  additionalProperties?: boolean | AnswerSchema;
  items?: AnswerSchema;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  description?: string;
  title?: string;
  [annotation: string]: unknown;
}

const TYPES: readonly SchemaType[] = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];
const ANNOTATIONS = new Set(['description', 'title', 'examples', 'default', '$schema', '$comment', '$id', 'format', 'readOnly', 'writeOnly']);
const KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'pattern',
]);
/** Deeper than this is a mistake (or a cycle): refused, not followed. */
export const MAX_DEPTH = 32;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const count = (n: unknown): boolean => typeof n === 'number' && Number.isInteger(n) && n >= 0;

/** Why the schema cannot be used (an unsupported keyword, a wrong value), or undefined. */
export function schemaProblem(schema: unknown, path = 'schema', depth = 0): string | undefined {
  if (depth > MAX_DEPTH) return `${path} is nested deeper than ${MAX_DEPTH} levels`;
  if (!isObject(schema)) return `${path} must be a JSON Schema object`;
  for (const [k, v] of Object.entries(schema)) {
    if (ANNOTATIONS.has(k)) continue;
    if (!KEYWORDS.has(k)) return `${path} uses "${k}", which pagehand does not check (supported: ${[...KEYWORDS].join(', ')})`;
    const at = `${path}.${k}`;
    if (k === 'type') {
      const list = Array.isArray(v) ? v : [v];
      if (!list.length || list.some((t) => !(TYPES as readonly unknown[]).includes(t))) return `${at} must be one of ${TYPES.join(', ')} (or a list of them)`;
    } else if (k === 'properties') {
      if (!isObject(v)) return `${at} must be an object of schemas`;
      for (const [name, sub] of Object.entries(v)) {
        const p = schemaProblem(sub, `${at}.${name}`, depth + 1);
        if (p) return p;
      }
    } else if (k === 'required') {
      if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) return `${at} must be a list of property names`;
    } else if (k === 'additionalProperties') {
      if (typeof v !== 'boolean') {
        const p = schemaProblem(v, at, depth + 1);
        if (p) return p;
      }
    } else if (k === 'items') {
      const p = schemaProblem(v, at, depth + 1);
      if (p) return p;
    } else if (k === 'enum') {
      if (!Array.isArray(v) || !v.length) return `${at} must be a non-empty list`;
    } else if (k === 'minimum' || k === 'maximum') {
      if (typeof v !== 'number' || !Number.isFinite(v)) return `${at} must be a number`;
    } else if (k === 'minLength' || k === 'maxLength' || k === 'minItems' || k === 'maxItems') {
      if (!count(v)) return `${at} must be a whole number ≥ 0`;
    } else if (k === 'pattern') {
      if (typeof v !== 'string') return `${at} must be a regular expression in a string`;
      try {
        new RegExp(v, 'u');
      } catch {
        return `${at} is not a valid regular expression`;
      }
    }
  }
  return undefined;
}

/**
 * The tools with `done` asking for `data` in the run's schema (the schema as the parameter's
 * own schema, so the model's tool format carries it). Without a schema, the tools as they are.
 */
export function answerTools<T extends { function: { name: string; parameters?: { properties?: Record<string, unknown>; required?: string[] } } }>(
  tools: T[],
  schema: AnswerSchema | undefined,
): T[] {
  if (!schema) return tools;
  return tools.map((t) => {
    if (t.function.name !== 'done') return t;
    const p = t.function.parameters ?? {};
    const data = { ...schema, description: 'the answer as JSON matching this schema' };
    return { ...t, function: { ...t.function, parameters: { ...p, properties: { ...p.properties, data }, required: [...(p.required ?? []), 'data'] } } };
  });
}

/** `run`'s `schema`, checked (a mistake throws a `PagehandRunError` with code `invalid_schema`), as a JSON copy; undefined for none. */
export function answerSchema(schema: unknown): AnswerSchema | undefined {
  if (schema === undefined) return undefined;
  const problem = schemaProblem(schema);
  if (problem) throw Object.assign(new Error(`pagehand.run: ${problem}.`), { name: 'PagehandRunError', code: 'invalid_schema' });
  return JSON.parse(JSON.stringify(schema)) as AnswerSchema;
}

/** What the model is told about the answer's schema, for the system prompt; '' without one. */
export function answerPrompt(schema: AnswerSchema | undefined): string {
  return schema ? '\n\n# The answer\nFinish with done and put the answer in its data, as JSON that matches the schema given for data.' : '';
}
