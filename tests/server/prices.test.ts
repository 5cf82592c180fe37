/**
 * The price table (PAGEHAND_PRICES): parsed strictly at start (a bad entry is a ConfigError
 * naming it, never a key), matched by exact name then longest prefix, and given to each token
 * through GET /v1/config for its own models only — on the real Node server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, configFromEnv, parsePrices, priceFor, sitePrices } from '../../server/config';
import { memoryRateLimiter } from '../../server/rate-limit/memory';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/fake-upstreams';
import { auth, baseVars, containsSecret, MODELS, TOKENS } from './suite/fixtures';
import { nodeTarget } from './suite/node-target';
import type { ProxyTarget, RunningProxy } from './suite/target';

const opts = { rateLimiter: memoryRateLimiter(), log: () => {} };
const PRICES = {
  'gpt-test': { input: 0.4, output: 1.6 },
  'gemini-*': { input: 0.1, output: 0.4 },
  'gemini-test-*': { input: 0.3, output: 2.5 },
  'other-model': { input: 5, output: 15 },
};

describe('PAGEHAND_PRICES', () => {
  it('parses dollars per million tokens by model and prefix', () => {
    expect(parsePrices(JSON.stringify(PRICES))).toEqual(PRICES);
    const config = configFromEnv({ PAGEHAND_PRICES: JSON.stringify(PRICES) }, opts);
    expect(priceFor(config, 'gpt-test')).toEqual({ input: 0.4, output: 1.6 });
    // The longest matching prefix wins.
    expect(priceFor(config, 'gemini-test-flash')).toEqual({ input: 0.3, output: 2.5 });
    expect(priceFor(config, 'gemini-2.5-pro')).toEqual({ input: 0.1, output: 0.4 });
    expect(priceFor(config, 'gpt-test-2')).toBeUndefined();
    expect(configFromEnv({}, opts).prices).toBeUndefined();
  });

  it.each([
    ['{', /PAGEHAND_PRICES is not valid JSON/],
    ['[]', /must be a JSON object of model/],
    ['{"gpt-test": 0.4}', /PAGEHAND_PRICES\["gpt-test"\] must be an object \{ input, output \}/],
    ['{"gpt-test": {"input": 0.4}}', /PAGEHAND_PRICES\["gpt-test"\]\.output must be a number ≥ 0/],
    ['{"gpt-test": {"input": -1, "output": 1}}', /\.input must be a number ≥ 0/],
    ['{"gpt-test": {"input": 1, "output": 1, "currency": "EUR"}}', /unknown field "currency"/],
    ['{"*": {"input": 1, "output": 1}}', /needs a model name or a prefix/],
  ])('refuses %s with a ConfigError', (json, message) => {
    expect(() => configFromEnv({ PAGEHAND_PRICES: json, OPENAI_API_KEY: 'sk-test-SECRET-0123456789' }, opts)).toThrow(ConfigError);
    try {
      configFromEnv({ PAGEHAND_PRICES: json, OPENAI_API_KEY: 'sk-test-SECRET-0123456789' }, opts);
    } catch (e) {
      expect((e as Error).message).toMatch(message);
      expect((e as Error).message).not.toContain('sk-test-SECRET');
    }
  });

  it("gives a site only its own models' prices, and an any-model site the table", () => {
    const config = configFromEnv({ PAGEHAND_PRICES: JSON.stringify(PRICES), PAGEHAND_MODELS: 'gpt-test,gemini-test-flash,no-price' }, opts);
    expect(sitePrices(config, { token: 't'.repeat(16), origins: ['*'] })).toEqual({
      'gpt-test': PRICES['gpt-test'],
      'gemini-test-flash': PRICES['gemini-test-*'],
    });
    expect(sitePrices(config, { token: 't'.repeat(16), origins: ['*'], models: ['*'] })).toEqual(PRICES);
  });
});

describe('GET /v1/config with prices (Node server)', () => {
  let upstreams: FakeUpstreams;
  const fake: ProxyTarget['fake'] = { origin: '', openaiBaseURL: '', geminiBaseUrl: '' };
  const running: RunningProxy[] = [];
  beforeAll(async () => {
    upstreams = await startFakeUpstreams();
    Object.assign(fake, { origin: upstreams.origin, openaiBaseURL: upstreams.openaiBaseURL, geminiBaseUrl: upstreams.geminiBaseUrl });
  });
  afterAll(async () => {
    for (const p of running) await p.close();
    await upstreams.close();
  });
  const start = async (vars: Record<string, string | undefined>): Promise<RunningProxy> => {
    const p = await nodeTarget(fake).start(baseVars(fake, vars));
    running.push(p);
    return p;
  };

  it("carries the token's models' prices, and nothing secret", async () => {
    const p = await start({ PAGEHAND_PRICES: JSON.stringify(PRICES) });
    const res = await p.fetch(`${p.base}/v1/config`, { headers: auth(TOKENS.limited) });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(JSON.parse(text).prices).toEqual({ [MODELS.openai]: PRICES['gpt-test'], [MODELS.gemini]: PRICES['gemini-test-*'] });
    expect(containsSecret(text)).toBe(false);
  });

  it('has no prices field when no price is configured', async () => {
    const p = await start({});
    const body = await (await p.fetch(`${p.base}/v1/config`, { headers: auth(TOKENS.limited) })).json();
    expect(body).not.toHaveProperty('prices');
  });
});
