/**
 * Results that never claim what did not happen, and budgets that stop a run, end to end: the
 * real proxy (with a price table) between the scripted model and the bundle in Chromium.
 * - The user denies "Save" (it sends an email address) and the model says "Saved the profile.":
 *   the result is not ok and names the refused step; the panel does not say "Done".
 * - A send that failed, then a `done` claiming it: not ok, the failed step named.
 * - `verify: true`: one more model turn, on a fresh look at the page.
 * - `maxCost`: the run stops before the next model call, with the message (result and panel).
 * - The runner's `--max-cost`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeServer, type NodeServer } from '../../server/node';
import { startFakeUpstreams, type FakeUpstreams } from '../server/fakes/fake-upstreams';
import {
  call,
  calls,
  hasText,
  lastToolResults,
  latestMap,
  MODELS,
  openWithAgent,
  refFor,
  runAgent,
  sequence,
  type AgentStack,
  type Policy,
} from './agent-harness';
import { origin } from './harness';
import { jsonLines, proxyFlags, runCli } from './runner-cli';
import { inUi, openPanel, sendTask, useUiSession, waitIn } from './ui-kit';

const session = useUiSession();
// Dollars per million tokens; the fake upstream reports 11 prompt and 7 completion tokens a call.
const PRICE = { input: 2000, output: 8000 };
const COST_PER_CALL = (11 * PRICE.input + 7 * PRICE.output) / 1_000_000;

const stack = {} as AgentStack;
let fake: FakeUpstreams;
let proxy: NodeServer;
let dir: string;
let policy: Policy | undefined;
beforeAll(async () => {
  fake = await startFakeUpstreams({ respond: (req) => policy!(req) });
  dir = await mkdtemp(join(tmpdir(), 'pagehand-honest-'));
  proxy = await startNodeServer({
    env: {
      PORT: '0',
      HOST: '127.0.0.1',
      OPENAI_BASE_URL: fake.openaiBaseURL,
      OPENAI_API_KEY: 'sk-test-honest-0123456789abcdef',
      PAGEHAND_MODELS: MODELS.openai,
      PAGEHAND_PRICES: JSON.stringify({ [MODELS.openai]: PRICE }),
    },
    tokenFile: join(dir, 'personal-token'),
    log: () => {},
    personalRpm: 10_000,
  });
  Object.assign(stack, {
    proxyUrl: proxy.url,
    token: proxy.personalToken!,
    fake,
    proxy,
    setPolicy: (p: Policy | undefined) => (policy = p),
    requests: () => fake.modelRequests(),
    close: async () => undefined,
  });
});
afterAll(async () => {
  await proxy?.close();
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
});

const PROFILE = 'honest/profile.html';
const userText = (req: Parameters<Policy>[0]): string =>
  req.messages
    .filter((m) => m.role === 'user')
    .map((m) => m.text)
    .join('\n');

/** Fills in the email and saves; once told Save was not allowed, claims it was saved anyway (a model that obeys no one). */
const saveAnyway = (): Policy => (req) => {
  if (/did not allow/.test(lastToolResults(req).join('\n'))) return call('done', { summary: 'Saved the profile.' });
  const map = latestMap(req);
  return calls([
    { name: 'type', args: { ref: refFor(map, 'textbox', 'Email'), text: 'ada@example.org' } },
    { name: 'click', args: { ref: refFor(map, 'button', 'Save') } },
  ]);
};

describe('a done that the record contradicts', () => {
  it('the user denies Save, the model says "Saved the profile.": not ok, the refused step named', async () => {
    const page = await openWithAgent(session, PROFILE);
    await page.evaluate(() => localStorage.clear());
    stack.setPolicy(saveAnyway());
    const run = await runAgent(page, stack, 'Save my profile with the email ada@example.org', { confirm: () => false });
    const result = await run.result;
    expect(result).toMatchObject({
      ok: false,
      reason: 'refused',
      summary: 'Saved the profile.',
      refused: [{ step: 1, kind: 'personal_data', outcome: 'denied', target: 'Save', call: expect.stringMatching(/^click \[\d+\]$/) }],
    });
    expect(await page.evaluate(() => localStorage.getItem('profileSaved'))).toBeNull();
    await page.close();
  }, 60_000);

  it('in the panel: after Deny on Save it shows "Not finished" with the step, never "Done: Saved the profile."', async () => {
    const page = await openWithAgent(session, PROFILE);
    await page.evaluate(() => localStorage.clear());
    stack.setPolicy(saveAnyway());
    await openPanel(page, stack);
    await sendTask(page, 'Save my profile with the email ada@example.org');
    await waitIn(page, '[data-confirm]');
    await inUi(page, '[data-deny]').click();
    const card = await waitIn(page, '[data-end]');
    expect(await card.getAttribute('data-end')).toBe('failed');
    expect(await card.locator('h3').textContent()).toBe('Not finished');
    expect(await card.locator('[data-warnings] li').allTextContents()).toEqual(['You did not allow: personal data — Save']);
    const text = (await card.textContent()) ?? '';
    expect(text).toContain('The agent said:');
    expect(text).toContain('Saved the profile.');
    expect(text).not.toMatch(/^Done/);
    expect(await inUi(page, '[data-end="done"]').count()).toBe(0);
    await page.close();
  }, 60_000);

  it('a send that failed, then a done that claims it: not ok, the failed step named', async () => {
    const page = await openWithAgent(session, PROFILE);
    await page.evaluate(() => {
      (window as any).pagehand.init({
        tools: [
          {
            name: 'sendMessage',
            description: 'Send the message in the box to the club.',
            risk: 'sending',
            handler: () => {
              throw new Error('the mail server did not answer');
            },
          },
        ],
      });
    });
    stack.setPolicy((req) => {
      if (/sendMessage[^\n]*FAILED/.test(userText(req))) return call('done', { summary: 'Sent the message to the club.' });
      return call('sendMessage', {});
    });
    const run = await runAgent(page, stack, 'Send my message to the club', { confirm: () => true });
    const result = await run.result;
    expect(result).toMatchObject({
      ok: false,
      reason: 'refused',
      summary: 'Sent the message to the club.',
      refused: [{ step: 1, kind: 'sending', outcome: 'failed', call: expect.stringMatching(/^sendMessage/) }],
    });
    await page.close();
  }, 60_000);

  it('an answer that claims, in another language, an effect no step had: still ok, with a warning', async () => {
    const page = await openWithAgent(session, PROFILE);
    stack.setPolicy(sequence(call('done', { summary: 'Ich habe die Nachricht an den Club gesendet.' })));
    const result = await (await runAgent(page, stack, 'Schick meine Nachricht an den Club')).result;
    expect(result).toMatchObject({ ok: true, unbacked: ['sending'] });
    expect(result.refused).toBeUndefined();
    await page.close();
  }, 60_000);

  it('a denied step that a later step made good does not count against the done', async () => {
    const page = await openWithAgent(session, PROFILE);
    await page.evaluate(() => localStorage.clear());
    let asked = 0;
    stack.setPolicy((req) => {
      const map = latestMap(req);
      if (hasText(map, 'Profile saved.')) return call('done', { summary: 'Saved the profile.' });
      return calls([
        { name: 'type', args: { ref: refFor(map, 'textbox', 'Email'), text: 'ada@example.org' } },
        { name: 'click', args: { ref: refFor(map, 'button', 'Save') } },
      ]);
    });
    // No the first time, yes the second.
    const run = await runAgent(page, stack, 'Save my profile with the email ada@example.org', { confirm: () => asked++ > 0 });
    const result = await run.result;
    expect(asked).toBe(2);
    expect(result).toMatchObject({ ok: true, summary: 'Saved the profile.' });
    expect(result.refused).toBeUndefined();
    expect(await page.evaluate(() => localStorage.getItem('profileSaved'))).toBe('ada@example.org');
    await page.close();
  }, 60_000);
});

describe('verify', () => {
  it('verify: true makes one more model turn, on a fresh look at the page, before the run ends', async () => {
    const page = await openWithAgent(session, PROFILE);
    await page.evaluate(() => localStorage.clear());
    const before = stack.requests().length;
    const maps: string[] = [];
    stack.setPolicy((req) => {
      const map = latestMap(req);
      maps.push(map);
      if (hasText(map, 'Profile saved.')) return call('done', { summary: 'Saved the profile.' });
      return calls([
        { name: 'type', args: { ref: refFor(map, 'textbox', 'Email'), text: 'ada@example.org' } },
        { name: 'click', args: { ref: refFor(map, 'button', 'Save') } },
        // Claimed at once, in the same reply, before the model saw the page after Save.
        { name: 'done', args: { summary: 'Saved the profile.' } },
      ]);
    });
    const result = await (await runAgent(page, stack, 'Save my profile with the email ada@example.org', { confirm: () => true, verify: true })).result;
    expect(result).toMatchObject({ ok: true, summary: 'Saved the profile.', steps: 2 });
    const reqs = stack.requests().slice(before);
    expect(reqs).toHaveLength(2);
    // The second turn is the check: it was told so, and its map is the page after Save.
    expect(userText(reqs[1]!)).toMatch(/this run checks once before it ends/);
    expect(hasText(maps[0]!, 'Profile saved.')).toBe(false);
    expect(hasText(maps[1]!, 'Profile saved.')).toBe(true);
    await page.close();
  }, 60_000);

  it('without verify the same reply ends the run at once', async () => {
    const page = await openWithAgent(session, PROFILE);
    const before = stack.requests().length;
    stack.setPolicy((req) => {
      const map = latestMap(req);
      return calls([
        { name: 'type', args: { ref: refFor(map, 'textbox', 'Email'), text: 'ada@example.org' } },
        { name: 'click', args: { ref: refFor(map, 'button', 'Save') } },
        { name: 'done', args: { summary: 'Saved the profile.' } },
      ]);
    });
    const result = await (await runAgent(page, stack, 'Save my profile with the email ada@example.org', { confirm: () => true })).result;
    expect(result).toMatchObject({ ok: true, steps: 1 });
    expect(stack.requests().length - before).toBe(1);
    await page.close();
  }, 60_000);
});

/** A model that never finishes: it scrolls, one call a step. */
const forever: Policy = () => call('scroll', { direction: 'down' });

describe('budgets', () => {
  it('maxCost stops the run before the next model call, with the message in the result and the panel', async () => {
    const page = await openWithAgent(session, PROFILE);
    const before = stack.requests().length;
    stack.setPolicy(forever);
    await openPanel(page, stack, { maxCost: 1.5 * COST_PER_CALL });
    await sendTask(page, 'Read the whole page');
    const card = await waitIn(page, '[data-end]');
    expect(await card.getAttribute('data-end')).toBe('failed');
    expect(await card.locator('[data-summary]').textContent()).toBe("Stopped at the run's cost limit, before the task was done.");
    // Two calls: the first left some of the budget, the second spent it.
    expect(stack.requests().length - before).toBe(2);
    await page.close();
  }, 60_000);

  it('maxCost and maxTokens end the result with their own reason and a sentence that says how much', async () => {
    const page = await openWithAgent(session, PROFILE);
    stack.setPolicy(forever);
    const cost = await (await runAgent(page, stack, 'Read the whole page', { maxCost: 1.5 * COST_PER_CALL })).result;
    expect(cost).toMatchObject({ ok: false, reason: 'max_cost', steps: 2 });
    // 2 calls at $0.078 each against a budget of 1.5 calls.
    expect(cost.summary).toBe("Stopped at the run's cost budget: $0.1560 of $0.1170 spent before the task was done.");
    const tokens = await (await runAgent(page, stack, 'Read the whole page', { maxTokens: 30 })).result;
    expect(tokens).toMatchObject({
      ok: false,
      reason: 'max_tokens',
      steps: 2,
      summary: "Stopped at the run's token budget: 36 of 30 tokens used before the task was done.",
    });
    await page.close();
  }, 60_000);

  it('maxCost without a price for the model does not start the run', async () => {
    const page = await openWithAgent(session, PROFILE);
    const before = stack.requests().length;
    stack.setPolicy(forever);
    const result = await (await runAgent(page, stack, 'Read the whole page', { maxCost: 0.01, model: 'gpt-test-unpriced' })).result;
    expect(result).toMatchObject({ ok: false, reason: 'config' });
    expect(result.summary).toMatch(/maxCost needs the price of gpt-test-unpriced/);
    expect(stack.requests().length).toBe(before);
    await page.close();
  }, 60_000);

  it("the runner's --max-cost stops the run, exits 1 and says why", { timeout: 180_000 }, async () => {
    stack.setPolicy(forever);
    const url = `${origin()}/fixtures/agent/${PROFILE}`;
    const out = await runCli([
      'run',
      '--url',
      url,
      ...proxyFlags(stack, MODELS.openai),
      '--max-cost',
      String(1.5 * COST_PER_CALL),
      '--json',
      'Read the whole page',
    ]);
    expect(out.code, out.stderr).toBe(1);
    const result = jsonLines(out).find((l) => l.event === 'result');
    expect(result).toMatchObject({ ok: false, reason: 'max_cost', steps: 2 });
    const bad = await runCli(['run', '--url', url, ...proxyFlags(stack, MODELS.openai), '--max-cost', 'lots', 'Read the whole page']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--max-cost must be an amount in US dollars above 0');
  });
});
