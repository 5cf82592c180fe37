/**
 * What one request, and one client, may cost — on Node and inside workerd: image links are
 * never passed on (the upstream would fetch them, internal addresses included), one choice per
 * request, a prompt-size cap, and a per-client rate limit under the per-token one that a forged
 * X-Forwarded-For does not escape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recorded, script } from '../fakes/script';
import { MODELS, PNG_DATA_URL, TOKENS, baseVars, jsonHeaders, newTag } from './fixtures';
import type { ProxyTarget, RunningProxy } from './target';

export function defineLimitsSuite(target: ProxyTarget): void {
  const { fake } = target;
  const started: RunningProxy[] = [];
  const start = async (...args: Parameters<ProxyTarget['start']>) => {
    const p = await target.start(...args);
    started.push(p);
    return p;
  };
  let proxy: RunningProxy;
  beforeAll(async () => {
    proxy = await start(baseVars(fake));
  });
  afterAll(async () => {
    await Promise.all(started.map((p) => p.close()));
  });

  const post = (body: unknown, init: { token?: string; headers?: Record<string, string> } = {}, p: RunningProxy = proxy) =>
    p.fetch(`${p.base}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...jsonHeaders(init.token), ...init.headers },
      body: JSON.stringify(body),
    });
  const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;

  describe(`image links (${target.runtime})`, () => {
    const LINKS = [
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      'http://127.0.0.1:9/admin.png',
      'https://img.test/a.png',
      'HTTP://169.254.169.254/x.png',
    ];
    for (const model of [MODELS.openai, MODELS.gemini]) {
      for (const url of LINKS) {
        it(`${model}: refuses ${url} with 400, and the upstream hears nothing`, async () => {
          const tag = newTag('img-link');
          const res = await post({
            model,
            messages: [
              {
                role: 'user',
                content: [
                  { type: 'text', text: script({ tag }) },
                  { type: 'image_url', image_url: { url } },
                ],
              },
            ],
          });
          expect(res.status).toBe(400);
          const err = await errorOf(res);
          expect(err.code).toBe('unsupported_image_url');
          expect(err.message).toMatch(/messages\[0\]\.content\[1\].*data:image/);
          expect(await recorded(fake.origin, tag)).toEqual([]);
        });
      }
    }

    it('refuses a link hidden after a valid data URL in the same message', async () => {
      const tag = newTag('img-mixed');
      const res = await post({
        model: MODELS.openai,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: script({ tag }) },
              { type: 'image_url', image_url: { url: PNG_DATA_URL } },
              { type: 'image_url', image_url: { url: 'http://169.254.169.254/latest/' } },
            ],
          },
        ],
      });
      expect(res.status).toBe(400);
      expect(await recorded(fake.origin, tag)).toEqual([]);
    });
  });

  describe(`one choice per request (${target.runtime})`, () => {
    for (const model of [MODELS.openai, MODELS.gemini]) {
      it(`${model}: n = 2 is refused with a message saying one, n = 1 passes`, async () => {
        const tag = newTag('n2');
        const res = await post({ model, n: 2, messages: [{ role: 'user', content: script({ tag }) }] });
        expect(res.status).toBe(400);
        const err = await errorOf(res);
        expect(err.code).toBe('n_too_large');
        expect(err.message).toContain('at most 1');
        expect(await recorded(fake.origin, tag)).toEqual([]);
        const one = await post({ model, n: 1, messages: [{ role: 'user', content: script({}) }] });
        expect(one.status).toBe(200);
        await one.text();
      });
    }
  });

  describe(`prompt size (${target.runtime})`, () => {
    it('refuses a prompt over PAGEHAND_MAX_PROMPT_TOKENS with 413, giving the estimate and the cap', async () => {
      const p = await start(baseVars(fake, { PAGEHAND_MAX_PROMPT_TOKENS: '1000' }));
      const tag = newTag('prompt-big');
      const text = script({ tag });
      // 4 characters a token: 4000 characters plus the script are just over 1000.
      const res = await post({ model: MODELS.openai, messages: [{ role: 'user', content: 'x'.repeat(4000) + text }] }, {}, p);
      expect(res.status).toBe(413);
      const err = await errorOf(res);
      expect(err.code).toBe('prompt_too_large');
      expect(err.message).toContain(`about ${Math.ceil((4000 + text.length) / 4)} tokens`);
      expect(err.message).toContain('cap of 1000');
      expect(await recorded(fake.origin, tag)).toEqual([]);
      const fits = await post({ model: MODELS.openai, messages: [{ role: 'user', content: 'x'.repeat(3000) + script({}) }] }, {}, p);
      expect(fits.status).toBe(200);
      await fits.text();
    });

    it('counts every message, tool calls and tool definitions, not only the last user turn', async () => {
      const p = await start(baseVars(fake, { PAGEHAND_MAX_PROMPT_TOKENS: '1000' }));
      const bigTool = { type: 'function', function: { name: 'pad', description: 'y'.repeat(4000), parameters: { type: 'object' } } };
      const tools = await post({ model: MODELS.gemini, tools: [bigTool], messages: [{ role: 'user', content: script({}) }] }, {}, p);
      expect(tools.status).toBe(413);
      await tools.text();
      const spread = await post(
        {
          model: MODELS.openai,
          messages: [
            { role: 'system', content: 'a'.repeat(1500) },
            {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: 'c1', type: 'function', function: { name: 'click', arguments: JSON.stringify({ t: 'b'.repeat(1500) }) } }],
            },
            { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'c'.repeat(1500) }] },
            { role: 'user', content: script({}) },
          ],
        },
        {},
        p,
      );
      expect(spread.status).toBe(413);
      await spread.text();
    });

    it('counts each image at its own cost, however small its bytes, and refuses more images than a step sends', async () => {
      const p = await start(baseVars(fake, { PAGEHAND_MAX_PROMPT_TOKENS: '1000' }));
      const tag = newTag('images');
      const withImages = (n: number, text: string) => ({
        model: MODELS.openai,
        messages: [
          { role: 'user', content: [{ type: 'text', text }, ...Array.from({ length: n }, () => ({ type: 'image_url', image_url: { url: PNG_DATA_URL } }))] },
        ],
      });
      // 2,000 characters (500 tokens) fit alone; one 1×1 image (800 tokens) more does not.
      const alone = await post(withImages(0, 'x'.repeat(2000) + script({})), {}, p);
      expect(alone.status).toBe(200);
      await alone.text();
      const one = await post(withImages(1, 'x'.repeat(2000) + script({ tag })), {}, p);
      expect(one.status).toBe(413);
      const err = await errorOf(one);
      expect(err.code).toBe('prompt_too_large');
      expect(err.message).toContain('800 an image');
      // Many tiny images: refused by their number before their size is even summed.
      const many = await post(withImages(9, script({ tag })), {}, await start(baseVars(fake)));
      expect(many.status).toBe(413);
      const manyErr = await errorOf(many);
      expect(manyErr.code).toBe('too_many_images');
      expect(manyErr.message).toContain('9 images; at most 8');
      expect(await recorded(fake.origin, tag)).toEqual([]);
    });

    it("uses a site's maxPromptTokens over the server default, and says so in /v1/config", async () => {
      const sites = [
        { token: TOKENS.shop, origins: ['*'], maxPromptTokens: 50 },
        { token: TOKENS.personal, origins: ['*'] },
      ];
      const p = await start(baseVars(fake, { PAGEHAND_SITES: JSON.stringify(sites) }));
      const body = { model: MODELS.openai, messages: [{ role: 'user', content: 'z'.repeat(400) + script({}) }] };
      const small = await post(body, { token: TOKENS.shop }, p);
      expect(small.status).toBe(413);
      expect((await errorOf(small)).message).toContain('cap of 50');
      const big = await post(body, { token: TOKENS.personal }, p);
      expect(big.status).toBe(200);
      await big.text();
      const cfg = await (await p.fetch(`${p.base}/v1/config`, { headers: jsonHeaders(TOKENS.shop) })).json();
      expect(cfg.limits).toMatchObject({ maxPromptTokens: 50, maxN: 1 });
    });
  });

  describe(`per-client rate limit (${target.runtime})`, () => {
    /** The address header the runtime trusts: workerd's edge sets CF-Connecting-IP. */
    const from = (ip: string): Record<string, string> => (target.runtime === 'workerd' ? { 'CF-Connecting-IP': ip } : {});
    const hits = async (p: RunningProxy, n: number, token: string, headers: (i: number) => Record<string, string>) => {
      const out: Response[] = [];
      for (let i = 0; i < n; i++) {
        const res = await post({ model: MODELS.openai, messages: [{ role: 'user', content: script({}) }] }, { token, headers: headers(i) }, p);
        out.push(res);
        if (res.status !== 429) await res.text();
      }
      return out;
    };

    it('gives one client PAGEHAND_CLIENT_RPM requests a minute: 429 with Retry-After and a per-client message', async () => {
      const p = await start(baseVars(fake, { PAGEHAND_CLIENT_RPM: '3' }));
      const res = await hits(p, 5, TOKENS.personal, () => from('198.51.100.7'));
      expect(res.map((r) => r.status)).toEqual([200, 200, 200, 429, 429]);
      const last = res[4]!;
      expect(Number(last.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const err = await errorOf(last);
      expect(err.code).toBe('rate_limited');
      expect(err.message).toMatch(/per-client limit is 3 per minute/);
      await res[3]!.text();
    });

    it('a forged X-Forwarded-For does not buy a fresh budget without TRUST_PROXY', async () => {
      const p = await start(baseVars(fake, { PAGEHAND_CLIENT_RPM: '3' }));
      const res = await hits(p, 5, TOKENS.personal, (i) => ({ ...from('198.51.100.8'), 'X-Forwarded-For': `203.0.113.${i + 1}` }));
      expect(res.map((r) => r.status)).toEqual([200, 200, 200, 429, 429]);
      await Promise.all(res.slice(3).map((r) => r.text()));
    });

    it('with TRUST_PROXY=1 counts by the address the proxy added (right-most), so forging the left part does not help', async () => {
      const p = await start(baseVars(fake, { PAGEHAND_CLIENT_RPM: '2', TRUST_PROXY: '1' }));
      const forged = await hits(p, 4, TOKENS.personal, (i) => ({ 'X-Forwarded-For': `10.9.9.${i}, 192.0.2.10` }));
      expect(forged.map((r) => r.status)).toEqual([200, 200, 429, 429]);
      // Another real client (another right-most entry) has its own budget.
      const other = await hits(p, 1, TOKENS.personal, () => ({ 'X-Forwarded-For': '192.0.2.11' }));
      expect(other[0]!.status).toBe(200);
      await Promise.all(forged.slice(2).map((r) => r.text()));
    });

    it("uses a site's clientRpm, and counts each client apart", async () => {
      const sites = [
        { token: TOKENS.shop, origins: ['*'], clientRpm: 2 },
        { token: TOKENS.personal, origins: ['*'] },
      ];
      const p = await start(baseVars(fake, { PAGEHAND_SITES: JSON.stringify(sites), TRUST_PROXY: '1' }));
      const a = await hits(p, 3, TOKENS.shop, () => ({ 'X-Forwarded-For': '192.0.2.20' }));
      expect(a.map((r) => r.status)).toEqual([200, 200, 429]);
      expect((await errorOf(a[2]!)).message).toContain('per-client limit is 2 per minute');
      const b = await hits(p, 1, TOKENS.shop, () => ({ 'X-Forwarded-For': '192.0.2.21' }));
      expect(b[0]!.status).toBe(200);
      // The same client with the other token (the server default, 100 000 here) is not limited.
      const other = await hits(p, 1, TOKENS.personal, () => ({ 'X-Forwarded-For': '192.0.2.20' }));
      expect(other[0]!.status).toBe(200);
    });

    it('an IPv6 client is one client across its /64', async () => {
      const p = await start(baseVars(fake, { PAGEHAND_CLIENT_RPM: '2', TRUST_PROXY: '1' }));
      const res = await hits(p, 3, TOKENS.personal, (i) => ({ 'X-Forwarded-For': `2001:db8:1:2::${i + 1}` }));
      expect(res.map((r) => r.status)).toEqual([200, 200, 429]);
      await res[2]!.text();
    });

    it('a client refused by its own limit does not spend the site budget of others', async () => {
      const sites = [{ token: TOKENS.shop, origins: ['*'], rpm: 4, clientRpm: 2 }];
      const p = await start(baseVars(fake, { PAGEHAND_SITES: JSON.stringify(sites), PAGEHAND_CLIENT_RPM: undefined, TRUST_PROXY: '1' }));
      const greedy = await hits(p, 6, TOKENS.shop, () => ({ 'X-Forwarded-For': '192.0.2.30' }));
      expect(greedy.map((r) => r.status)).toEqual([200, 200, 429, 429, 429, 429]);
      const others = await hits(p, 3, TOKENS.shop, (i) => ({ 'X-Forwarded-For': `192.0.2.${31 + i}` }));
      // Two left of the site's 4, then the per-token limit speaks.
      expect(others.map((r) => r.status)).toEqual([200, 200, 429]);
      expect((await errorOf(others[2]!)).message).toMatch(/for this token/);
      await Promise.all(greedy.slice(2).map((r) => r.text()));
    });
  });
}
