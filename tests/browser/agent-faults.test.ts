/**
 * Faults never hang the loop: invented refs, malformed arguments, a 500, a 429 with
 * Retry-After, a stream cut mid-way and a reply without a tool call are recovered from; a
 * looping model, a model that never calls a tool, the step limit, stop(), a refused token
 * and a second run each end with a clear reason.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countTokens, countToolTokens } from '../../bench/lib/count-tokens';
import { startNodeServer } from '../../server/node';
import { waitForRecord } from '../server/fakes/script';
import { call, latestMap, MODELS, refFor, sequence, type ModelRequest, type Policy, useAgentStack } from './agent-harness';
import { runLog, startRun, waitForResult } from './agent-run';
import { open, useSession } from './harness';

const session = useSession();
const stack = useAgentStack();

// Served by the static server (a page fulfilled by the test itself would sit in no address
// space Chromium trusts, and its calls to the proxy on loopback would be refused).
const PAGE = 'agent/counter.html';

const userOf = (req: ModelRequest): string => req.messages.find((m) => m.role === 'user')?.text ?? '';
const doneReply = call('done', { summary: 'finished' });

async function runOn(
  policy: Policy,
  options: Record<string, unknown> = {},
): Promise<{ page: Page; result: Awaited<ReturnType<typeof waitForResult>>; log: any[]; reqs: ModelRequest[] }> {
  stack.setPolicy(policy);
  const before = stack.requests().length;
  const page = await open(session, PAGE);
  await startRun(page, 'Add one to the counter', { proxy: stack.proxyUrl, token: stack.token, model: MODELS.openai, ...options });
  const result = await waitForResult(page);
  const log = await runLog(page);
  const reqs = stack.requests().slice(before);
  await page.close();
  return { page, result, log, reqs };
}

describe('recovered faults', () => {
  it('an invented ref is rejected with the refs that exist, and the model corrects itself', async () => {
    const { result, reqs } = await runOn(
      sequence(call('click', { ref: '999' }), (req) => call('click', { ref: refFor(latestMap(req), 'button', 'Add one') }), doneReply),
    );
    expect(result.ok).toBe(true);
    expect(userOf(reqs[1]!)).toMatch(/click \[999\] → FAILED: There is no element \[999\][^\n]*Refs in the last map: \d+/);
  });

  it('malformed arguments are reported back, not guessed', async () => {
    const { result, reqs } = await runOn(sequence({ toolCalls: [{ name: 'click', args: {}, argumentsText: '{"ref": ' }] }, doneReply));
    expect(result.ok).toBe(true);
    expect(userOf(reqs[1]!)).toMatch(/FAILED: Not run: the arguments of click were not valid JSON/);
  });

  it('a 500 is retried and the run goes on', async () => {
    const { result, log, reqs } = await runOn(sequence({ status: 500, errorMessage: 'upstream exploded' }, doneReply));
    expect(result.ok).toBe(true);
    expect(reqs).toHaveLength(2); // the same step, asked twice
    expect(result.steps).toBe(1);
    expect(log.find((e) => e.type === 'error')).toMatchObject({ fatal: false });
  });

  it('a 429 waits for Retry-After', async () => {
    const { result, log } = await runOn(sequence({ status: 429, retryAfterSeconds: 1 }, doneReply));
    expect(result.ok).toBe(true);
    const err = log.find((e) => e.type === 'error');
    expect(err).toMatchObject({ fatal: false });
    expect(err.message).toMatch(/1 s/);
  });

  it('a stream cut mid-way is retried', async () => {
    const { result, reqs } = await runOn(sequence({ toolCalls: [{ name: 'done', args: { summary: 'cut' } }], cutAfter: 2 }, doneReply));
    expect(result).toMatchObject({ ok: true, summary: 'finished', steps: 1 });
    expect(reqs).toHaveLength(2);
  });

  it('a reply without a tool call reaches the user, and the model is nudged', async () => {
    const { result, log, reqs } = await runOn(sequence({ text: 'The counter is at zero.' }, doneReply));
    expect(result.ok).toBe(true);
    expect(log.find((e) => e.type === 'message')).toMatchObject({ text: 'The counter is at zero.', from: 'model' });
    expect(userOf(reqs[1]!)).toMatch(/called no tool/);
  });

  it('a call written as JSON in the text is run', async () => {
    const { result } = await runOn(sequence({ text: 'eval: ok\n```json\n{"name": "done", "arguments": {"summary": "from the text"}}\n```' }));
    expect(result).toMatchObject({ ok: true, summary: 'from the text', steps: 1 });
  });

  it('take over while the model thinks: its plan is dropped, the run holds, resume looks again', async () => {
    const add = (req: ModelRequest) => call('click', { ref: refFor(latestMap(req), 'button', 'Add one') });
    stack.setPolicy(sequence((req) => ({ ...add(req), delayMs: 1500 }), add, doneReply));
    const before = stack.requests().length;
    const page = await open(session, PAGE);
    await startRun(page, 'Add one', { proxy: stack.proxyUrl, token: stack.token, model: MODELS.openai });
    // Take over once the model is thinking about step 1 (its reply is held back 1.5 s).
    for (let i = 0; i < 100 && stack.requests().length === before; i++) await new Promise((r) => setTimeout(r, 20));
    await page.evaluate(() => (window as any).pagehand.current().pause());
    // The first reply arrives while the user has the page: nothing is clicked, nothing more is asked.
    await new Promise((r) => setTimeout(r, 2500));
    expect(stack.requests().length - before).toBe(1);
    expect(await page.textContent('#n')).toBe('Count: 0');
    expect(await page.evaluate(() => (window as any).pagehand.current().paused)).toBe(true);
    await page.evaluate(() => (window as any).pagehand.current().resume());
    const result = await waitForResult(page);
    expect(result).toMatchObject({ ok: true, steps: 3 });
    expect(await page.textContent('#n')).toBe('Count: 1');
    expect(userOf(stack.requests()[before + 1]!)).toMatch(/the user took over meanwhile/);
    expect((await runLog(page)).filter((e) => e.type === 'pause').map((e) => e.paused)).toEqual([true, false]);
    await page.close();
  });

  it('several calls run in order in one step', async () => {
    const { result, reqs } = await runOn((req) => {
      const map = latestMap(req);
      if (/Count: 2/.test(map)) return doneReply;
      const add = refFor(map, 'button', 'Add one');
      return {
        toolCalls: [
          { name: 'click', args: { ref: add } },
          { name: 'click', args: { ref: add } },
        ],
      };
    });
    expect(result).toMatchObject({ ok: true, steps: 2 });
    expect(reqs).toHaveLength(2);
  });
});

describe('the prompt budget', () => {
  it('every request fits maxPromptTokens; the oldest steps are left out first', async () => {
    const budget = 2800;
    const { result, reqs } = await runOn(
      (req) => {
        const map = latestMap(req);
        if (/Count: 14/.test(map)) return doneReply;
        // Long results and goals make the history outgrow the budget quickly.
        return call('click', { ref: refFor(map, 'button', 'Add one') }, `goal: ${'add one more to the counter, carefully, '.repeat(4)}`);
      },
      { maxPromptTokens: budget },
    );
    expect(result).toMatchObject({ ok: true, steps: 15 });
    for (const r of reqs) {
      const body = r.body as { messages: Array<{ content: string }>; tools: Parameters<typeof countToolTokens>[0] };
      // Tools as the model is billed for them (see bench/lib/count-tokens.ts).
      const tokens = body.messages.reduce((n, m) => n + countTokens(m.content), 0) + countToolTokens(body.tools);
      expect(tokens).toBeLessThanOrEqual(budget);
    }
    const last = userOf(reqs.at(-1)!);
    expect(last).toMatch(/\(\d+ earlier steps? left out\)/);
    expect(last).toMatch(/^13\. /m); // the newest earlier step is kept
  });
});

describe('clear stops', () => {
  it('a looping model is warned, then stopped', async () => {
    const { result, reqs } = await runOn((req) => call('click', { ref: refFor(latestMap(req), 'button', 'Do nothing') }));
    expect(result.ok).toBe(false);
    expect(result.reason).toBe('loop');
    expect(result.summary).toMatch(/repeated click \[\d+\] 3 times on an unchanged page/);
    expect(reqs.some((r) => /It is not working: do something different/.test(userOf(r)))).toBe(true);
    // Three repeats → a warning; three more → the stop (one more step when focus moved on the first click).
    expect(result.steps).toBeGreaterThanOrEqual(6);
    expect(result.steps).toBeLessThanOrEqual(7);
  });

  it('a model that never calls a tool is stopped after the nudge', async () => {
    const { result, reqs } = await runOn(() => ({ text: 'Hmm.' }));
    expect(result).toMatchObject({ ok: false, reason: 'no_tool_call', steps: 3 });
    expect(reqs).toHaveLength(3);
  });

  it('the step limit is exact', async () => {
    let n = 0;
    const { result, reqs } = await runOn(
      (req) => {
        n++;
        return call('click', { ref: refFor(latestMap(req), 'button', 'Add one') });
      },
      { maxSteps: 3 },
    );
    expect(result).toMatchObject({ ok: false, reason: 'max_steps', steps: 3 });
    expect(reqs).toHaveLength(3);
    expect(n).toBe(3);
  });

  it('stop() ends the run at once and aborts the model request in flight', async () => {
    stack.setPolicy(() => ({ tag: 'agent-stop', delayMs: 10_000, toolCalls: [{ name: 'done', args: { summary: 'too late' } }] }));
    const page = await open(session, PAGE);
    await startRun(page, 'Add one', { proxy: stack.proxyUrl, token: stack.token, model: MODELS.gemini });
    await waitForRecord(stack.fake.origin, 'agent-stop', (r) => r.length > 0);
    await page.evaluate(() => (window as any).pagehand.current().stop());
    const result = await waitForResult(page, 5000);
    expect(result).toMatchObject({ ok: false, reason: 'stopped' });
    const rec = await waitForRecord(stack.fake.origin, 'agent-stop', (r) => r[0]?.aborted === true);
    expect(rec[0]!.aborted).toBe(true);
    expect(await page.evaluate(() => (window as any).pagehand.current())).toBeUndefined();
    await page.close();
  });

  it('a second run while one is active is a clear error', async () => {
    stack.setPolicy(() => ({ delayMs: 3000, toolCalls: [{ name: 'done', args: { summary: 'x' } }] }));
    const page = await open(session, PAGE);
    const message = await page.evaluate(
      ({ proxy, token }) => {
        const ph = (window as any).pagehand;
        const first = ph.run('one', { proxy, token, ui: false });
        try {
          ph.run('two', { proxy, token, ui: false });
          return 'no error';
        } catch (e) {
          first.stop();
          return (e as Error).message;
        }
      },
      { proxy: stack.proxyUrl, token: stack.token },
    );
    expect(message).toMatch(/a run is already active \("one"\)/);
    await page.close();
  });

  it("a refused token stops the run with the proxy's message", async () => {
    stack.setPolicy(() => doneReply);
    const page = await open(session, PAGE);
    await startRun(page, 'Add one', { proxy: stack.proxyUrl, token: 'not-a-real-token-000000', model: MODELS.openai });
    const result = await waitForResult(page);
    expect(result).toMatchObject({ ok: false, reason: 'model_error', steps: 0 });
    expect(result.summary).toMatch(/token/i);
    await page.close();
  });

  it('without a proxy the run says how to configure one', async () => {
    const page = await open(session, PAGE);
    await startRun(page, 'Add one', {});
    const result = await waitForResult(page);
    expect(result).toMatchObject({ ok: false, reason: 'config' });
    expect(result.summary).toMatch(/No proxy is configured/);
    await page.close();
  });

  it('a proxy with no model provider says what to set', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pagehand-noprovider-'));
    const bare = await startNodeServer({ env: { PORT: '0', HOST: '127.0.0.1' }, tokenFile: join(dir, 'token'), log: () => {} });
    try {
      const page = await open(session, PAGE);
      await startRun(page, 'Add one', { proxy: bare.url, token: bare.personalToken });
      const result = await waitForResult(page);
      expect(result).toMatchObject({ ok: false, reason: 'config', steps: 0 });
      expect(result.summary).toMatch(/no model provider configured: set OPENAI_API_KEY/);
      await page.close();
    } finally {
      await bare.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('five failed steps in a row stop the run', async () => {
    const { result, reqs } = await runOn((req) => call('click', { ref: String(900 + req.seq) }));
    expect(result).toMatchObject({ ok: false, reason: 'errors', steps: 5 });
    expect(reqs.some((r) => /3 steps in a row failed/.test(userOf(r)))).toBe(true);
  });
});
