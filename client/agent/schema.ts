/**
 * `run(task, { schema })`: the JSON Schema the answer's `data` must match, checked by a small
 * hand-written validator of the subset a program's answer needs (no schema library: the bundle
 * would double). Pure.
 *
 * Supported keywords: `type` (string, number, integer, boolean, object, array, null, or a list
 * of them), `properties`, `required`, `additionalProperties` (true, false or a schema), `items`
 * (one schema for every item), `enum`, `const`, `minimum`, `maximum`, `minLength`, `maxLength`,
 * `minItems`, `maxItems`, `pattern`. Annotations (`description`, `title`, `examples`,
 * `default`, `$schema`, `$comment`, `format`) are allowed and not checked; any other keyword
 * (`$ref`, `anyOf`, `oneOf`, …) makes `schemaProblem` refuse the schema, so nothing is silently
 * left unchecked.
 */

import type { AnswerSchema, SchemaType } from './types';

export type { AnswerSchema, SchemaType };

const TYPES: readonly SchemaType[] = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];
const ANNOTATIONS = new Set(['description', 'title', 'examples', 'default', '$schema', '$comment', '$id', 'format', 'readOnly', 'writeOnly']);
const KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'pattern']);
/** Deeper than this is a mistake (or a cycle): refused, not followed. */
const MAX_DEPTH = 32;
/** Errors reported at most: the model needs the first few, not a flood. */
const MAX_ERRORS = 20;

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

function typeOf(v: unknown): SchemaType | 'undefined' | 'other' {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'string' || typeof v === 'boolean' || typeof v === 'object') return typeof v as SchemaType;
  return v === undefined ? 'undefined' : 'other';
}

function fits(v: unknown, t: SchemaType): boolean {
  const actual = typeOf(v);
  if (t === 'number') return actual === 'number' || actual === 'integer';
  return actual === t;
}

/** Structural equality of JSON values (for enum and const). */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

const shown = (v: unknown): string => {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 40 ? `${s.slice(0, 40)}…` : s;
};

/** Characters of a string as the schema counts them (code points, not UTF-16 units). */
const length = (s: string): number => [...s].length;

/**
 * The ways `value` does not match `schema`, one sentence each with the path (`data.items[2].price`);
 * empty when it matches. The schema is assumed to have passed `schemaProblem`.
 */
export function validate(value: unknown, schema: AnswerSchema, path = 'data'): string[] {
  const errors: string[] = [];
  check(value, schema, path, errors, 0);
  return errors.slice(0, MAX_ERRORS);
}

function check(v: unknown, s: AnswerSchema, path: string, errors: string[], depth: number): void {
  if (errors.length >= MAX_ERRORS || depth > MAX_DEPTH) return;
  const err = (message: string): void => void errors.push(`${path} ${message}`);
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (!types.some((t) => fits(v, t))) {
      const actual = typeOf(v);
      return err(`must be ${types.join(' or ')}, got ${actual === 'integer' ? 'number' : actual === 'undefined' ? 'nothing' : actual}`);
    }
  }
  if (s.enum !== undefined && !s.enum.some((e) => same(e, v))) err(`must be one of ${s.enum.map(shown).join(', ')}, got ${shown(v)}`);
  if ('const' in s && !same(s.const, v)) err(`must be ${shown(s.const)}, got ${shown(v)}`);
  if (typeof v === 'number') {
    if (s.minimum !== undefined && v < s.minimum) err(`must be at least ${s.minimum}, got ${v}`);
    if (s.maximum !== undefined && v > s.maximum) err(`must be at most ${s.maximum}, got ${v}`);
  }
  if (typeof v === 'string') {
    if (s.minLength !== undefined && length(v) < s.minLength) err(`must have at least ${s.minLength} characters, got ${length(v)}`);
    if (s.maxLength !== undefined && length(v) > s.maxLength) err(`must have at most ${s.maxLength} characters, got ${length(v)}`);
    if (s.pattern !== undefined && !new RegExp(s.pattern, 'u').test(v)) err(`must match /${s.pattern}/, got ${shown(v)}`);
  }
  if (Array.isArray(v)) {
    if (s.minItems !== undefined && v.length < s.minItems) err(`must have at least ${s.minItems} items, got ${v.length}`);
    if (s.maxItems !== undefined && v.length > s.maxItems) err(`must have at most ${s.maxItems} items, got ${v.length}`);
    if (s.items) v.forEach((item, i) => check(item, s.items!, `${path}[${i}]`, errors, depth + 1));
  }
  if (isObject(v)) {
    for (const name of s.required ?? []) if (!Object.prototype.hasOwnProperty.call(v, name)) err(`is missing the required property "${name}"`);
    const props = s.properties ?? {};
    for (const [name, item] of Object.entries(v)) {
      const at = /^[A-Za-z_$][\w$]*$/.test(name) ? `${path}.${name}` : `${path}[${JSON.stringify(name)}]`;
      if (Object.prototype.hasOwnProperty.call(props, name)) check(item, props[name]!, at, errors, depth + 1);
      else if (s.additionalProperties === false) err(`has the property "${name}", which the schema does not allow`);
      else if (isObject(s.additionalProperties)) check(item, s.additionalProperties, at, errors, depth + 1);
    }
  }
}

/**
 * The tools with `done` asking for `data` in the run's schema (the schema as the parameter's
 * own schema, so the model's tool format carries it). Without a schema, the tools as they are.
 */
export function answerTools<T extends { function: { name: string; parameters?: { properties?: Record<string, unknown>; required?: string[] } } }>(tools: T[], schema: AnswerSchema | undefined): T[] {
  if (!schema) return tools;
  return tools.map((t) => {
    if (t.function.name !== 'done') return t;
    const p = t.function.parameters ?? {};
    const data = { ...schema, description: 'the answer as JSON matching this schema' };
    return { ...t, function: { ...t.function, parameters: { ...p, properties: { ...p.properties, data }, required: [...(p.required ?? []), 'data'] } } };
  });
}

/** Data a model wrote as a JSON string where the schema wants a value: the value it means. */
function readData(data: unknown, schema: AnswerSchema): unknown {
  if (typeof data !== 'string') return data;
  const wantsString = schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'));
  if (wantsString) return data;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
}

export type AnswerVerdict =
  | { kind: 'finish'; data?: unknown }
  | { kind: 'retry'; message: string }
  | { kind: 'invalid'; summary: string };

/**
 * `done` in a run with a schema: its data matches (finish with it), or the model gets the
 * errors once (retry), or it missed twice (invalid: the run ends without data). A `done` with
 * `success: false` finishes with its data only when that data matches.
 */
export function judgeAnswer(schema: AnswerSchema | undefined, done: { success: boolean; data?: unknown }, retried: boolean): AnswerVerdict {
  if (!schema) return { kind: 'finish' };
  const data = readData(done.data, schema);
  const errors = done.data === undefined ? ['data is missing: done needs "data", the answer as JSON matching the schema'] : validate(data, schema);
  if (!errors.length) return { kind: 'finish', data };
  if (!done.success) return { kind: 'finish' };
  if (!retried) return { kind: 'retry', message: `Not done: the answer's data does not match the schema:\n- ${errors.join('\n- ')}\nCall done again with data that matches it.` };
  return { kind: 'invalid', summary: `The answer's data did not match the schema: ${errors.join('; ')}` };
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
