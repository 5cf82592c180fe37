/**
 * A run's answer against its schema (common/answer-schema.ts says which keywords are supported; a schema
 * got here only after `schemaProblem` passed it): the validator, and what `done` leads to.
 * Loaded when a run with a schema ends (client/on-demand.ts). Pure.
 */
import { MAX_DEPTH, type AnswerSchema, type SchemaType } from '../../common/answer-schema';

/** Errors reported at most: the model needs the first few, not a flood. */
const MAX_ERRORS = 20;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

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

export type AnswerVerdict = { kind: 'finish'; data?: unknown } | { kind: 'retry'; message: string } | { kind: 'invalid'; summary: string };

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
  if (!retried)
    return {
      kind: 'retry',
      message: `Not done: the answer's data does not match the schema:\n- ${errors.join('\n- ')}\nCall done again with data that matches it.`,
    };
  return { kind: 'invalid', summary: `The answer's data did not match the schema: ${errors.join('; ')}` };
}
