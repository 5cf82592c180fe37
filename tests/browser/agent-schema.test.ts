/**
 * `run(task, { schema })` end to end (real proxy, scripted model, Chromium): `done` asks for
 * `data` in the schema; an answer that does not match goes back to the model once, with the
 * errors; the matching one is `result.data`; a second miss ends the run without data.
 */
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../server/fakes/model-request';
import { call, lastToolResults, openWithAgent, runAgent, sequence, useAgentStack } from './agent-harness';
import { useSession } from './harness';

const session = useSession();
const stack = useAgentStack();

const SCHEMA = {
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 1 },
    count: { type: 'integer', minimum: 0 },
    tags: { type: 'array', items: { type: 'string', enum: ['demo', 'counter'] } },
  },
  required: ['title', 'count'],
  additionalProperties: false,
};

type ToolSpec = { function: { name: string; parameters?: { properties?: Record<string, unknown>; required?: string[] } } };
const doneSpec = (req: ModelRequest) => (req.body as { tools: ToolSpec[] }).tools.find((t) => t.function.name === 'done')!.function;

describe('an answer with a schema', () => {
  it('goes back to the model once with the errors, and result.data holds the answer that matches', async () => {
    const page = await openWithAgent(session, 'counter.html');
    let spec: ReturnType<typeof doneSpec> | undefined;
    let told: string[] = [];
    let system = '';
    stack.setPolicy(
      sequence(
        (req) => {
          spec = doneSpec(req);
          system = req.messages[0]!.text;
          return call('done', { summary: 'The page is a counter.', data: { title: 'Counter', count: '3', extra: true } });
        },
        (req) => {
          told = lastToolResults(req);
          // Some models send the data as a JSON string: it is read as the value it means.
          return call('done', { summary: 'The page is a counter.', data: JSON.stringify({ title: 'Counter', count: 3, tags: ['demo'] }) });
        },
      ),
    );
    const run = await runAgent(page, stack, 'What is this page?', { schema: SCHEMA as never });
    const result = await run.result;
    expect(result).toMatchObject({ ok: true, summary: 'The page is a counter.', data: { title: 'Counter', count: 3, tags: ['demo'] }, steps: 2 });
    // The schema travels as done's data parameter; the model is told to fill it.
    expect(spec?.parameters?.properties?.data).toEqual({ ...SCHEMA, description: 'the answer as JSON matching this schema' });
    expect(spec?.parameters?.required).toEqual(['summary', 'data']);
    expect(system).toContain('put the answer in its data');
    // The errors, once, as the last step's result.
    expect(told.join('\n')).toContain("Not done: the answer's data does not match the schema:");
    expect(told.join('\n')).toContain('- data.count must be integer, got string');
    expect(told.join('\n')).toContain('- data has the property "extra", which the schema does not allow');
    await page.close();
  }, 60_000);

  it('a second mismatch ends the run without data', async () => {
    const page = await openWithAgent(session, 'counter.html');
    stack.setPolicy(sequence(call('done', { summary: 'x', data: { title: '' } }), call('done', { summary: 'x', data: { count: -1 } })));
    const run = await runAgent(page, stack, 'What is this page?', { schema: SCHEMA as never });
    const result = await run.result;
    expect(result.ok).toBe(false);
    expect(result.reason).toBe('invalid_data');
    expect(result.data).toBeUndefined();
    expect(result.summary).toMatch(
      /^The answer's data did not match the schema: data is missing the required property "title"; data.count must be at least 0, got -1$/,
    );
    await page.close();
  }, 60_000);

  it('a schema pagehand cannot check is refused at once', async () => {
    const page = await openWithAgent(session, 'counter.html');
    const thrown = await page.evaluate(() => {
      try {
        (window as any).pagehand.run('x', { schema: { oneOf: [{ type: 'string' }] }, ui: false });
        return null;
      } catch (e) {
        return { name: (e as Error).name, code: (e as { code?: string }).code, message: (e as Error).message };
      }
    });
    expect(thrown).toEqual({
      name: 'PagehandRunError',
      code: 'invalid_schema',
      message: expect.stringMatching(/^pagehand\.run: schema uses "oneOf", which pagehand does not check/),
    });
    await page.close();
  });
});
