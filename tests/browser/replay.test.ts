/**
 * Recordings and replay on the agent fixtures: a finished run's result carries its recording
 * (targets by role, name and context, never refs; what each step expected), and replaying it
 * on the unchanged site makes no model call at all — the fake model server is closed first, so
 * any call would fail the run, and none reaches it. Risky steps ask on every replay; a
 * recording's named values fill it for other inputs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Recording, RunResult } from '../../client/agent/public-types';
import { MODELS, openWithAgent, startAgentStack, type AgentStack } from './agent-harness';
import { runLog, startRun, waitForResult } from './agent-run';
import { origin, useSession } from './harness';
import { startReplay, task, type FixtureTask } from './replay-kit';

const session = useSession();
let stack: AgentStack;
const recordings = new Map<string, Recording>();
let upstreamRequests = 0;

async function record(t: FixtureTask): Promise<RunResult> {
  stack.setPolicy(t.model());
  const page = await openWithAgent(session, t.path, { early: t.early });
  await t.reset(page);
  await startRun(page, t.task, { proxy: stack.proxyUrl, token: stack.token, model: MODELS.openai }, { confirm: t.confirm ? 'allow' : 'deny' });
  const result = await waitForResult(page);
  expect(result.ok, JSON.stringify((await runLog(page)).slice(-4))).toBe(true);
  expect(await t.solved(page)).toBe(true);
  await page.close();
  return result;
}

beforeAll(async () => {
  stack = await startAgentStack();
  for (const id of ['shop', 'wizard', 'webmail', 'lazy'] as const) {
    const r = await record(task(id));
    recordings.set(id, r.recording!);
  }
  // From here on no model server runs: a model call could only fail.
  upstreamRequests = stack.requests().length;
  await stack.fake.close();
}, 120_000);

afterAll(async () => {
  await stack?.proxy.close();
});

describe('a run as a recording', () => {
  it('every finished run has one: versioned JSON, targets described without refs, typed text as given', () => {
    const shop = recordings.get('shop')!;
    expect(shop).toMatchObject({
      pagehand: 'recording',
      v: 1,
      task: 'Buy the espresso grinder',
      url: `${origin()}/fixtures/agent/shop/index.html`,
      summary: 'The order was placed.',
    });
    expect(shop.steps.map((s) => s.action)).toEqual(['type', 'click', 'click', 'click']);
    expect(shop.steps[0]).toMatchObject({ action: 'type', target: { role: 'searchbox', name: 'Search products' }, args: { text: 'espresso' } });
    expect(shop.steps[1]!.target).toMatchObject({ role: 'button', name: 'Add Espresso grinder to cart' });
    // The checkout link led to the checkout page: that is what the step expects.
    expect(shop.steps[2]).toMatchObject({ target: { role: 'link', name: 'Checkout' }, expect: { url: '/fixtures/agent/shop/checkout.html' } });
    expect(shop.steps[3]!.target).toMatchObject({ role: 'button', name: 'Place order' });
    // No ref anywhere: not in the arguments, not in the targets.
    expect(JSON.stringify(shop)).not.toMatch(/"ref"/);
    // Repeated controls are told apart by the row they are in.
    const lazy = recordings.get('lazy')!;
    const open = lazy.steps.find((s) => s.action === 'click')!;
    expect(open.target).toMatchObject({ role: 'button', name: 'Open', near: expect.stringContaining('Quantum widget') });
    expect(lazy.steps.filter((s) => s.action === 'scroll').length).toBeGreaterThan(0);
  });
});

describe('replay with no model', () => {
  it.each(['shop', 'wizard', 'webmail', 'lazy'] as const)('%s: solved again with zero model calls', async (id) => {
    const t = task(id);
    const page = await openWithAgent(session, t.path, { early: t.early });
    await t.reset(page);
    await startReplay(page, recordings.get(id)!, { proxy: stack.proxyUrl, token: stack.token, model: MODELS.openai }, t.confirm ? 'allow' : 'deny');
    const result = await waitForResult(page);
    const log = await runLog(page);
    expect(result, JSON.stringify(log.filter((e) => e.type !== 'step').slice(-6))).toMatchObject({
      ok: true,
      replay: { modelCalls: 0, repaired: 0, replayed: recordings.get(id)!.steps.length },
    });
    expect(await t.solved(page)).toBe(true);
    expect(stack.requests().length).toBe(upstreamRequests);
    // The recording comes back as it was: nothing repaired.
    expect(result.recording!.steps).toEqual(recordings.get(id)!.steps);
    expect(result.recording!.repaired).toBeUndefined();
    await page.close();
  });

  it('lazy: a list that loads later than when it was recorded is scrolled on until the target shows', async () => {
    // The same list, but each batch starts loading 1.5 s after the sentinel shows (a slower
    // site): the recorded scrolls end with fewer items loaded than the recording saw.
    const slow = '**/fixtures/agent/lazy/list.js';
    await session.context.route(slow, async (route) => {
      const body = await (await route.fetch()).text();
      await route.fulfill({
        contentType: 'text/javascript',
        body: body.replace(
          'if (entries.some(function (e) { return e.isIntersecting; })) loadMore();',
          'if (entries.some(function (e) { return e.isIntersecting; })) setTimeout(loadMore, 1500);',
        ),
      });
    });
    try {
      const t = task('lazy');
      const page = await openWithAgent(session, t.path);
      await t.reset(page);
      await startReplay(page, recordings.get('lazy')!, { proxy: stack.proxyUrl, token: stack.token, model: MODELS.openai }, 'deny');
      const result = await waitForResult(page);
      expect(result, JSON.stringify((await runLog(page)).filter((e) => e.type !== 'step').slice(-4))).toMatchObject({
        ok: true,
        replay: { modelCalls: 0, repaired: 0 },
      });
      expect(await t.solved(page)).toBe(true);
      await page.close();
    } finally {
      await session.context.unroute(slow);
    }
  });

  it('a risky step asks on every replay: denied, nothing is bought and the replay stops there', async () => {
    const t = task('shop');
    for (const answer of ['deny', 'allow'] as const) {
      const page = await openWithAgent(session, t.path, { early: true });
      await t.reset(page);
      await startReplay(page, recordings.get('shop')!, { proxy: stack.proxyUrl, token: stack.token }, answer);
      const result = await waitForResult(page);
      const log = await runLog(page);
      const confirms = log.filter((e) => e.type === 'confirm');
      expect(confirms).toHaveLength(1);
      expect(confirms[0]).toMatchObject({ kind: 'payment', target: { role: 'button', name: 'Place order' } });
      const orders = await page.evaluate(() => JSON.parse(localStorage.getItem('shopOrders') ?? '[]').length);
      if (answer === 'deny') {
        expect(result).toMatchObject({ ok: false, reason: 'denied' });
        expect(orders).toBe(0);
      } else {
        expect(result.ok).toBe(true);
        expect(orders).toBe(1);
      }
      await page.close();
    }
    expect(stack.requests().length).toBe(upstreamRequests);
  });

  it('a recording with named values serves other inputs: two sign-ups from one recording', async () => {
    const base = recordings.get('wizard')!;
    // The site owner names the values in the JSON: {name} and {email}.
    const named = JSON.parse(
      JSON.stringify(base)
        .replace(/Ada Lovelace/g, '{name}')
        .replace(/ada@example\.org/g, '{email}'),
    ) as Recording;
    named.params = { name: 'Ada Lovelace', email: 'ada@example.org' };
    expect(named.steps.filter((s) => /\{(name|email)\}/.test(JSON.stringify(s.args)))).toHaveLength(2);
    for (const values of [
      { name: 'Grace Hopper', email: 'grace@example.org' },
      { name: 'Alan Turing', email: 'alan@example.org' },
    ]) {
      const page = await openWithAgent(session, 'wizard/step1.html', { early: true });
      await startReplay(page, named, { proxy: stack.proxyUrl, token: stack.token, values }, 'allow');
      const result = await waitForResult(page);
      expect(result).toMatchObject({ ok: true, replay: { modelCalls: 0 } });
      const fields = await page.$$eval('#summary dd', (dds) => dds.map((d) => d.textContent?.trim()));
      expect(fields).toEqual(expect.arrayContaining([values.name, values.email, '12 St James Square']));
      expect(fields).not.toContain('Ada Lovelace');
      // The recording keeps its names, not this replay's values.
      expect(JSON.stringify(result.recording)).not.toContain(values.email);
      await page.close();
    }
    expect(stack.requests().length).toBe(upstreamRequests);
  });

  it('a broken step with repair off ends the replay without a model call', async () => {
    const t = task('shop');
    const page = await openWithAgent(session, t.path, { early: true });
    await t.reset(page);
    const recording = JSON.parse(JSON.stringify(recordings.get('shop')!)) as Recording;
    recording.steps[1]!.target!.name = 'Add Moon boots to cart';
    await startReplay(page, recording, { proxy: stack.proxyUrl, token: stack.token, repair: false }, 'allow');
    const result = await waitForResult(page);
    expect(result).toMatchObject({ ok: false, reason: 'needs_repair', replay: { modelCalls: 0 } });
    expect(result.summary).toMatch(/Step 2 of the recording .*needs repair: no button "Add Moon boots to cart" is on the page now/);
    expect(stack.requests().length).toBe(upstreamRequests);
    await page.close();
  });

  it('a recording that is not one is refused with a clear error', async () => {
    const page = await openWithAgent(session, 'shop/index.html');
    const errors = await page.evaluate(() => {
      const tries: unknown[] = [
        null,
        { pagehand: 'recording', v: 2, task: 'x', url: '', steps: [] },
        { pagehand: 'recording', v: 1, task: 'x', url: '', steps: [{ action: 'click', args: {}, target: { role: 'button' } }] },
      ];
      return tries.map((r) => {
        try {
          (window as any).pagehand.replay(r);
          return 'no error';
        } catch (e) {
          return `${(e as Error).name}: ${(e as Error).message}`;
        }
      });
    });
    expect(errors).toEqual([
      expect.stringMatching(/^PagehandRunError: pagehand.replay: a recording must be an object/),
      expect.stringMatching(/unsupported recording version 2/),
      expect.stringMatching(/step 1: "target" needs a role and a name/),
    ]);
    await page.close();
  });
});
