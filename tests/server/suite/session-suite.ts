/**
 * Session tokens (POST /v1/session), on Node and inside workerd: what a page may hold instead of
 * a site or personal token. Each refusal is tried the way a page that copied a token would try
 * it: replayed from another origin, without an origin, after expiry, forged, re-exchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recorded, script } from '../fakes/script';
import { MODELS, SHOP_ORIGIN, TOKENS, baseVars, newTag } from './fixtures';
import type { ProxyTarget, RunningProxy } from './target';

type Json = { token: string; origin: string; expiresAt: string; error?: { code: string; message: string } };

export function defineSessionSuite(target: ProxyTarget): void {
  const { fake } = target;
  const started: RunningProxy[] = [];
  const start = async (...args: Parameters<ProxyTarget['start']>) => {
    const p = await target.start(...args);
    started.push(p);
    return p;
  };
  // A clock the tests move: sessions expire without sleeping.
  let clock = Date.UTC(2030, 0, 1);
  const now = () => clock;
  let proxy: RunningProxy;

  beforeAll(async () => {
    proxy = await start(baseVars(fake), { now });
  });
  afterAll(async () => {
    await Promise.all(started.map((p) => p.close()));
  });

  const exchange = (token: string, origin: string | undefined, p: RunningProxy = proxy) =>
    p.fetch(`${p.base}/v1/session`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, ...(origin !== undefined ? { Origin: origin } : {}) },
    });

  const session = async (token: string, origin: string, p: RunningProxy = proxy): Promise<Json> => {
    const res = await exchange(token, origin, p);
    const body = (await res.json()) as Json;
    expect(res.status, JSON.stringify(body)).toBe(200);
    return body;
  };

  const chat = (token: string, headers: Record<string, string>, tag = newTag('session'), p: RunningProxy = proxy) =>
    p.fetch(`${p.base}/v1/chat/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify({ model: MODELS.openai, messages: [{ role: 'user', content: script({ tag, text: 'from a session' }) }] }),
    });

  const errorOf = async (res: Response) => ((await res.json()) as Json).error!;

  describe(`session tokens (${target.runtime})`, () => {
    it('trades a site token for a token bound to the Origin, expiring after 8 hours, that works from that origin', async () => {
      const s = await session(TOKENS.shop, SHOP_ORIGIN);
      expect(s.token).toMatch(/^phs_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
      expect(s.token).not.toContain(TOKENS.shop);
      expect(s.origin).toBe(SHOP_ORIGIN);
      expect(Date.parse(s.expiresAt)).toBe(clock + 8 * 3600 * 1000);
      const payload = JSON.parse(atob(s.token.slice(4).split('.')[0]!.replace(/-/g, '+').replace(/_/g, '/')));
      expect(payload).toEqual({ o: SHOP_ORIGIN, e: clock / 1000 + 8 * 3600, p: expect.stringMatching(/^[A-Za-z0-9_-]{11}$/) });

      const res = await chat(s.token, { Origin: SHOP_ORIGIN });
      expect(res.status).toBe(200);
      expect((await res.json()).choices[0].message.content).toBe('from a session');
      const cfg = await proxy.fetch(`${proxy.base}/v1/config`, { headers: { Authorization: `Bearer ${s.token}`, Origin: SHOP_ORIGIN } });
      expect(cfg.status).toBe(200);
      const info = await cfg.json();
      expect(info.models).toEqual([MODELS.openai, MODELS.openaiReasoning, MODELS.gemini]);
      expect(info.session).toEqual({ origin: SHOP_ORIGIN, expiresAt: s.expiresAt });
      // The parent token's own answer has no session part.
      const parent = await proxy.fetch(`${proxy.base}/v1/config`, { headers: { Authorization: `Bearer ${TOKENS.shop}`, Origin: SHOP_ORIGIN } });
      expect((await parent.json()).session).toBeUndefined();
    });

    it('tells an old bookmarklet ({"for":"user"}, sent from inside the page) to re-install, with a 410 and no token; any other body is a 400 with a message, and no token', async () => {
      const res = await proxy.fetch(`${proxy.base}/v1/session`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKENS.shop}`, Origin: SHOP_ORIGIN, 'Content-Type': 'application/json' },
        body: '{"for":"user"}',
      });
      expect(res.status).toBe(410);
      const text = await res.text();
      expect(text).not.toMatch(/phs_/);
      expect(text).not.toContain(TOKENS.shop);
      const old = JSON.parse(text) as Json;
      expect(old.error?.code).toBe('bookmarklet_outdated');
      expect(old.error?.message).toMatch(/drag the new bookmarklet/);
      for (const body of [
        '{"for":"site"}',
        '{"for":"user","o":"https://elsewhere.test"}',
        '[]',
        'not json',
        '{"u":1}',
        '{"origin":"https://elsewhere.test"}',
      ]) {
        const bad = await proxy.fetch(`${proxy.base}/v1/session`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${TOKENS.shop}`, Origin: SHOP_ORIGIN, 'Content-Type': 'application/json' },
          body,
        });
        expect(bad.status, body).toBe(400);
        const raw = await bad.text();
        const e = JSON.parse(raw) as Json;
        expect(e.error?.code, body).toBe('invalid_body');
        expect(e.error?.message, body).toMatch(/must be empty/);
        expect(raw, body).not.toMatch(/phs_/);
      }
    });

    it('answers the preflight of POST /v1/session for an origin a site lists, and puts CORS headers on its answer', async () => {
      const pre = await proxy.fetch(`${proxy.base}/v1/session`, {
        method: 'OPTIONS',
        headers: { Origin: SHOP_ORIGIN, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization' },
      });
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe(SHOP_ORIGIN);
      expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
      const res = await exchange(TOKENS.shop, SHOP_ORIGIN);
      expect(res.headers.get('access-control-allow-origin')).toBe(SHOP_ORIGIN);
      expect(res.headers.get('cache-control')).toBe('no-store');
      await res.text();
      const get = await proxy.fetch(`${proxy.base}/v1/session`, { headers: { Authorization: `Bearer ${TOKENS.shop}` } });
      expect(get.status).toBe(405);
    });

    it('refuses a session token replayed from another origin, or sent with no Origin, and the upstream hears nothing', async () => {
      const s = await session(TOKENS.personal, 'https://page.test');
      const replays: Array<Record<string, string>> = [{ Origin: 'https://evil.test' }, { Origin: 'null' }, {}, { 'Sec-Fetch-Site': 'cross-site' }];
      for (const headers of replays) {
        const tag = newTag('replay');
        const res = await chat(s.token, headers, tag);
        expect(res.status, JSON.stringify(headers)).toBe(403);
        const err = await errorOf(res);
        expect(err.code).toBe('origin_not_allowed');
        expect(err.message).toContain('bound to https://page.test');
        expect(await recorded(fake.origin, tag)).toEqual([]);
      }
      const cfg = await proxy.fetch(`${proxy.base}/v1/config`, { headers: { Authorization: `Bearer ${s.token}`, Origin: 'https://evil.test' } });
      expect(cfg.status).toBe(403);
      await cfg.text();
    });

    it('accepts a same-origin GET without Origin only from the bound origin itself (the demo pages), never a POST', async () => {
      const own = new URL(proxy.base).origin;
      const s = await session(TOKENS.personal, own);
      const get = (headers: Record<string, string>) => proxy.fetch(`${proxy.base}/v1/config`, { headers: { Authorization: `Bearer ${s.token}`, ...headers } });
      const same = await get({ 'Sec-Fetch-Site': 'same-origin' });
      expect(same.status).toBe(200);
      await same.text();
      const refused: Array<Record<string, string>> = [{}, { 'Sec-Fetch-Site': 'same-site' }, { 'Sec-Fetch-Site': 'none' }];
      for (const headers of refused) {
        const res = await get(headers);
        expect(res.status, JSON.stringify(headers)).toBe(403);
        await res.text();
      }
      const other = await session(TOKENS.personal, 'https://page.test');
      const elsewhere = await proxy.fetch(`${proxy.base}/v1/config`, { headers: { Authorization: `Bearer ${other.token}`, 'Sec-Fetch-Site': 'same-origin' } });
      expect(elsewhere.status).toBe(403);
      await elsewhere.text();
      const post = await chat(s.token, { 'Sec-Fetch-Site': 'same-origin' });
      expect(post.status).toBe(403);
      await post.text();
    });

    it('says token_expired, and to click the bookmarklet again, once the session is past its expiry', async () => {
      const p = await start(baseVars(fake, { PAGEHAND_SESSION_TTL_S: '60' }), { now });
      const s = await session(TOKENS.personal, 'https://page.test', p);
      expect(Date.parse(s.expiresAt)).toBe(clock + 60_000);
      const before = clock;
      try {
        clock += 59_000;
        const fresh = await chat(s.token, { Origin: 'https://page.test' }, newTag('fresh'), p);
        expect(fresh.status).toBe(200);
        await fresh.text();
        clock += 1_000;
        const tag = newTag('expired');
        const res = await chat(s.token, { Origin: 'https://page.test' }, tag, p);
        expect(res.status).toBe(401);
        const err = await errorOf(res);
        expect(err.code).toBe('token_expired');
        expect(err.message).toMatch(/expired.*bookmarklet again/);
        expect(await recorded(fake.origin, tag)).toEqual([]);
      } finally {
        clock = before;
      }
    });

    it('refuses a forged or altered session token', async () => {
      const s = await session(TOKENS.personal, 'https://page.test');
      const [payload, sig] = s.token.slice(4).split('.') as [string, string];
      const encode = (v: unknown) => btoa(JSON.stringify(v)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/')));
      const forged = [
        // The same signature on a payload naming another origin, or a later expiry.
        `phs_${encode({ ...claims, o: 'https://evil.test' })}.${sig}`,
        `phs_${encode({ ...claims, e: claims.e + 86400 * 365 })}.${sig}`,
        // One signature character changed.
        `phs_${payload}.${sig.slice(0, -2)}${sig.at(-2) === 'A' ? 'B' : 'A'}${sig.at(-1)}`,
        // Not a session token at all.
        `phs_${payload}`,
        'phs_',
      ];
      for (const token of forged) {
        const origin = token.includes(encode({ ...claims, o: 'https://evil.test' })) ? 'https://evil.test' : 'https://page.test';
        const res = await chat(token, { Origin: origin });
        expect(res.status, token).toBe(401);
        expect((await errorOf(res)).code).toBe('invalid_token');
      }
    });

    it('refuses a session made by another proxy for a token this one does not have', async () => {
      const other = await start(baseVars(fake, { PAGEHAND_SITES: JSON.stringify([{ token: 'tok-elsewhere-0123456789abcdef', origins: ['*'] }]) }), { now });
      const s = await session('tok-elsewhere-0123456789abcdef', 'https://page.test', other);
      const res = await chat(s.token, { Origin: 'https://page.test' });
      expect(res.status).toBe(401);
      expect((await errorOf(res)).code).toBe('invalid_token');
    });

    it('keeps working across a restart (no state), and stops when the site no longer allows its origin', async () => {
      const s = await session(TOKENS.shop, SHOP_ORIGIN);
      const restarted = await start(baseVars(fake), { now });
      const ok = await chat(s.token, { Origin: SHOP_ORIGIN }, newTag('restart'), restarted);
      expect(ok.status).toBe(200);
      await ok.text();
      const moved = await start(baseVars(fake, { PAGEHAND_SITES: JSON.stringify([{ token: TOKENS.shop, origins: ['https://new-shop.test'] }]) }), { now });
      const res = await chat(s.token, { Origin: SHOP_ORIGIN }, newTag('moved'), moved);
      expect(res.status).toBe(403);
      expect((await errorOf(res)).code).toBe('origin_not_allowed');
    });

    it('makes a session only for an origin the parent token allows, and only with a real Origin', async () => {
      const foreign = await exchange(TOKENS.shop, 'https://evil.test');
      expect(foreign.status).toBe(403);
      expect((await errorOf(foreign)).code).toBe('origin_not_allowed');
      const none = await exchange(TOKENS.personal, undefined);
      expect(none.status).toBe(400);
      const err = await errorOf(none);
      expect(err.code).toBe('missing_origin');
      expect(err.message).toContain('Origin');
      for (const origin of ['null', 'file://', 'chrome-extension://abc', 'https://page.test/path']) {
        const res = await exchange(TOKENS.personal, origin);
        expect(res.status, origin).toBe(403);
        expect((await errorOf(res)).code).toBe('origin_not_allowed');
      }
      const unknown = await exchange('tok-nobody-0123456789abcdef', 'https://page.test');
      expect(unknown.status).toBe(401);
      await unknown.text();
    });

    it('never makes a session from a session token', async () => {
      const s = await session(TOKENS.personal, 'https://page.test');
      const res = await exchange(s.token, 'https://page.test');
      expect(res.status).toBe(403);
      const err = await errorOf(res);
      expect(err.code).toBe('session_not_allowed');
      expect(JSON.stringify(err)).not.toContain('phs_');
    });

    it("acts as its parent site: the parent's models, token cap and rate budget", async () => {
      const limited = await session(TOKENS.limited, 'https://page.test');
      const cfg = await proxy.fetch(`${proxy.base}/v1/config`, { headers: { Authorization: `Bearer ${limited.token}`, Origin: 'https://page.test' } });
      expect((await cfg.json()).limits.maxTokens).toBe(100);
      const tag = newTag('session-cap');
      const capped = await proxy.fetch(`${proxy.base}/v1/chat/completions`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${limited.token}`, Origin: 'https://page.test', 'Content-Type': 'application/json' },
        body: JSON.stringify({ model: MODELS.openai, max_tokens: 5000, messages: [{ role: 'user', content: script({ tag }) }] }),
      });
      expect(capped.status).toBe(200);
      await capped.text();
      expect(((await recorded(fake.origin, tag))[0]!.body as { max_tokens: number }).max_tokens).toBe(100);

      // A site allowing 3 a minute (workerd: the test binding's limit): two requests through
      // sessions and one with the token itself use it up, whichever session comes next. The
      // token is new on every run: the binding's counts outlive a test.
      const metered = `tok-${newTag('session-metered')}`;
      const p = await start(baseVars(fake, { PAGEHAND_SITES: JSON.stringify([{ token: metered, origins: ['*'], rpm: 3 }]) }), { rateLimitBinding: true, now });
      const a = await session(metered, 'https://a.test', p);
      const b = await session(metered, 'https://b.test', p);
      const statuses: number[] = [];
      for (const [token, origin] of [
        [a.token, 'https://a.test'],
        [b.token, 'https://b.test'],
        [metered, 'https://c.test'],
        [b.token, 'https://b.test'],
        [a.token, 'https://a.test'],
      ]) {
        const res = await chat(token!, { Origin: origin! }, newTag('metered'), p);
        statuses.push(res.status);
        await res.text();
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
    });
  });
}
