/**
 * A run's cost, end to end: a proxy with a price table (PAGEHAND_PRICES) gives the model's
 * price in GET /v1/config, `result.usage.cost` adds it up per model call, and the panel shows
 * tokens and cost — photographed (.tmp/ui-shots/cost-*.png). Also the panel's "values the
 * agent may type but not see": they reach the run as secrets, never the model.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeServer, type NodeServer } from '../../server/node';
import { startFakeUpstreams, type FakeUpstreams } from '../server/fakes/fake-upstreams';
import { call, latestMap, MODELS, openWithAgent, refFor, runAgent, sequence, type AgentStack } from './agent-harness';
import { checkState, inUi, LIGHT_BG, openPanel, panel, sendTask, useUiSession, waitIn } from './ui-kit';

const session = useUiSession();
// Dollars per million tokens; the fake upstream reports 11 prompt and 7 completion tokens a call.
const PRICE = { input: 2000, output: 8000 };
const COST_PER_CALL = (11 * PRICE.input + 7 * PRICE.output) / 1_000_000;

/** The agent stack with a price table on the proxy. */
const stack = {} as AgentStack;
let fake: FakeUpstreams;
let proxy: NodeServer;
let dir: string;
let policy: Parameters<AgentStack['setPolicy']>[0];
beforeAll(async () => {
  fake = await startFakeUpstreams({ respond: (req) => policy!(req) });
  dir = await mkdtemp(join(tmpdir(), 'pagehand-cost-'));
  proxy = await startNodeServer({
    env: {
      PORT: '0',
      HOST: '127.0.0.1',
      OPENAI_BASE_URL: fake.openaiBaseURL,
      OPENAI_API_KEY: 'sk-test-cost-0123456789abcdef',
      PAGEHAND_MODELS: MODELS.openai,
      PAGEHAND_PRICES: JSON.stringify({ [MODELS.openai]: PRICE }),
    },
    tokenFile: join(dir, 'personal-token'),
    log: () => {},
  });
  Object.assign(stack, {
    proxyUrl: proxy.url,
    token: proxy.personalToken!,
    fake,
    proxy,
    setPolicy: (p: typeof policy) => (policy = p),
    requests: () => fake.modelRequests(),
    close: async () => undefined,
  });
});
afterAll(async () => {
  await proxy?.close();
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('cost', () => {
  it('result.usage.cost adds up the price of every model call', async () => {
    const page = await openWithAgent(session, 'counter.html');
    stack.setPolicy(sequence((req) => call('click', { ref: refFor(latestMap(req), 'button', 'Add one') }), call('done', { summary: 'Clicked.' })));
    const run = await runAgent(page, stack, 'Click the button once.');
    const result = await run.result;
    expect(result.usage.promptTokens).toBe(22);
    expect(result.usage.completionTokens).toBe(14);
    expect(result.usage.cost).toBeCloseTo(2 * COST_PER_CALL, 10);
    // Each step's usage carries the cost so far.
    const steps = run.events.filter((e) => e.event === 'step' && e.payload.phase === 'planned').map((e) => e.payload.usage.cost);
    expect(steps[0]).toBeCloseTo(COST_PER_CALL, 10);
    await page.close();
  }, 60_000);

  it('the panel shows tokens and cost, and runs with the values typed into it as secrets', async () => {
    const page = await openWithAgent(session, 'secrets/account.html');
    await page.emulateMedia({ colorScheme: 'light' });
    const earlier = stack.requests().length;
    stack.setPolicy(
      sequence(
        (req) => call('type', { ref: refFor(latestMap(req), 'textbox', 'Card number'), text: '<secret:card>' }),
        call('done', { summary: 'Card entered.' }),
      ),
    );
    await openPanel(page, stack);
    // The user opens "values the agent may type but not see" and fills in a name and a value.
    await inUi(page, '[data-secrets] summary').click();
    await inUi(page, '[data-secret-name]').first().click();
    await page.keyboard.type('card');
    await inUi(page, '[data-secret-value]').first().click();
    await page.keyboard.type('5500 0000 0000 0004');
    await checkState(page, 'cost-secrets-field', { background: LIGHT_BG });
    await sendTask(page, 'Enter my card number.');
    await waitIn(page, '[data-end="done"]');
    const bar = (await inUi(page, '[data-progress]').textContent()) ?? '';
    expect(bar).toContain('36 tokens');
    expect(await inUi(page, '[data-cost]').textContent()).toBe(`$${(2 * COST_PER_CALL).toFixed(4)}`);
    await checkState(page, 'cost-done', { of: panel(page), background: LIGHT_BG });
    expect(await page.inputValue('[name=card]')).toBe('5500 0000 0000 0004');
    for (const r of stack.requests().slice(earlier)) expect(JSON.stringify(r.body)).not.toContain('5500 0000');
    await page.close();
  }, 60_000);
});
