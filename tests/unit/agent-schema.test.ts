/**
 * The answer schema of `run(task, { schema })`: the supported subset is checked exactly (each
 * keyword accepts what matches and names what does not, with the path), and a schema using
 * anything outside the subset is refused instead of being half-checked.
 */
import { describe, expect, it } from 'vitest';
import { validate } from '../../client/agent/answer-check';
import { schemaProblem, type AnswerSchema } from '../../common/answer-schema';

const product: AnswerSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 40 },
    price: { type: 'number', minimum: 0, maximum: 10_000 },
    stock: { type: 'integer' },
    tags: { type: 'array', items: { type: 'string', enum: ['new', 'sale'] }, maxItems: 2 },
    sku: { type: 'string', pattern: '^[A-Z]{3}-\\d{3}$' },
    note: { type: ['string', 'null'] },
  },
  required: ['name', 'price'],
  additionalProperties: false,
};

describe('validate', () => {
  it('accepts a value that matches every keyword', () => {
    expect(validate({ name: 'Lamp', price: 19.5, stock: 3, tags: ['sale'], sku: 'LMP-001', note: null }, product)).toEqual([]);
  });

  it('names each mismatch with its path', () => {
    const errors = validate({ name: '', price: -1, stock: 2.5, tags: ['new', 'old', 'sale'], sku: 'lmp-1', extra: 1 }, product);
    expect(errors).toEqual([
      'data.name must have at least 1 characters, got 0',
      'data.price must be at least 0, got -1',
      'data.stock must be integer, got number',
      'data.tags must have at most 2 items, got 3',
      'data.tags[1] must be one of "new", "sale", got "old"',
      'data.sku must match /^[A-Z]{3}-\\d{3}$/, got "lmp-1"',
      'data has the property "extra", which the schema does not allow',
    ]);
  });

  it('says what is missing and what type came instead', () => {
    expect(validate({ price: '12' }, product)).toEqual(['data is missing the required property "name"', 'data.price must be number, got string']);
    expect(validate(undefined, product)).toEqual(['data must be object, got nothing']);
    expect(validate([1], product)).toEqual(['data must be object, got array']);
  });

  it('counts characters, not UTF-16 units, for lengths', () => {
    expect(validate('😀😀', { type: 'string', maxLength: 2 })).toEqual([]);
    expect(validate('😀😀😀', { type: 'string', maxLength: 2 })).toEqual(['data must have at most 2 characters, got 3']);
  });

  it('checks additional properties against a schema, and const and enum structurally', () => {
    const s: AnswerSchema = { type: 'object', additionalProperties: { type: 'number' } };
    expect(validate({ a: 1, b: 2 }, s)).toEqual([]);
    expect(validate({ a: 1, b: 'x' }, s)).toEqual(['data.b must be number, got string']);
    expect(validate({ x: [1, 2] }, { const: { x: [1, 2] } })).toEqual([]);
    expect(validate({ x: [2, 1] }, { const: { x: [1, 2] } })).toEqual(['data must be {"x":[1,2]}, got {"x":[2,1]}']);
    expect(validate(3, { enum: [1, 2] })).toEqual(['data must be one of 1, 2, got 3']);
  });

  it('quotes property names that are not identifiers in paths', () => {
    expect(validate({ 'unit price': 'x' }, { properties: { 'unit price': { type: 'number' } } })).toEqual(['data["unit price"] must be number, got string']);
  });

  it('reports at most 20 errors', () => {
    expect(
      validate(
        Array.from({ length: 50 }, () => 'x'),
        { type: 'array', items: { type: 'number' } },
      ),
    ).toHaveLength(20);
  });
});

describe('schemaProblem', () => {
  it('accepts the supported subset with annotations', () => {
    expect(schemaProblem({ ...product, description: 'A product', $schema: 'https://json-schema.org/draft/2020-12/schema' })).toBeUndefined();
  });

  it.each([
    [null, 'schema must be a JSON Schema object'],
    [{ type: 'decimal' }, 'schema.type must be one of string, number, integer, boolean, object, array, null (or a list of them)'],
    [{ anyOf: [{ type: 'string' }] }, /^schema uses "anyOf", which pagehand does not check/],
    [{ properties: { a: { $ref: '#/x' } } }, /^schema\.properties\.a uses "\$ref"/],
    [{ pattern: '(' }, 'schema.pattern is not a valid regular expression'],
    [{ minLength: -1 }, 'schema.minLength must be a whole number ≥ 0'],
    [{ required: 'name' }, 'schema.required must be a list of property names'],
    [{ enum: [] }, 'schema.enum must be a non-empty list'],
    [{ items: { type: 'string', items: 3 } }, 'schema.items.items must be a JSON Schema object'],
  ])('refuses %j', (schema, message) => {
    const p = schemaProblem(schema);
    if (typeof message === 'string') expect(p).toBe(message);
    else expect(p).toMatch(message);
  });

  it('refuses a cycle instead of following it', () => {
    const s: Record<string, unknown> = { type: 'object', properties: {} };
    (s.properties as Record<string, unknown>).self = s;
    expect(schemaProblem(s)).toMatch(/nested deeper than 32 levels/);
  });
});
