/**
 * server/worker.ts as deployed: wrangler.toml (vars, the Rate Limiting binding) plus the test
 * bindings from vitest.config.ts, reached through the Worker's own fetch handler.
 */
import { createExecutionContext, env } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import worker from '../../server/worker';
import { script, waitForRecord } from './fakes/script';
import { containsSecret, newTag, SHOP_ORIGIN } from './suite/fixtures';

const TOKEN = 'tok-worker-entry-0123456789';
const origin = env.FAKE_ORIGIN as string;
const call = (path: string, init: RequestInit = {}) => exports.default.fetch(`http://proxy.test${path}`, init);

describe('the Workers entry', () => {
  it('has the Rate Limiting binding from wrangler.toml', async () => {
    const binding = env.PAGEHAND_RATE_LIMITER as { limit(o: { key: string }): Promise<{ success: boolean }> };
    expect(typeof binding?.limit).toBe('function');
    expect(await binding.limit({ key: newTag('probe') })).toEqual({ success: true });
  });

  it('serves a chat completion from its vars and secrets, for the configured origin only', async () => {
    const client = new OpenAI({
      apiKey: TOKEN,
      baseURL: 'http://proxy.test/v1',
      maxRetries: 0,
      fetch: ((input: RequestInfo | URL, init?: RequestInit) => {
        const headers = new Headers(init?.headers);
        headers.set('Origin', SHOP_ORIGIN);
        return exports.default.fetch(input, { ...init, headers });
      }) as typeof fetch,
    });
    const reply = await client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: script({ text: 'from the worker' }) }] });
    expect(reply.choices[0]!.message.content).toBe('from the worker');
    const foreign = await call('/v1/chat/completions', {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', Origin: 'https://elsewhere.test' },
      body: JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(foreign.status).toBe(403);
  });

  it('reports its configuration without secrets', async () => {
    const res = await call('/v1/config', { headers: { Authorization: `Bearer ${TOKEN}` } });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(JSON.parse(text).models).toEqual(['gpt-test', 'gemini-test-flash']);
    expect(containsSecret(text)).toBe(false);
  });

  it('cancels the upstream call when the page goes away mid-stream', async () => {
    const tag = newTag('entry-gone');
    const ctrl = new AbortController();
    const res = await call('/v1/chat/completions', {
      method: 'POST',
      signal: ctrl.signal,
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        model: 'gemini-test-flash',
        stream: true,
        messages: [{ role: 'user', content: script({ tag, chunks: Array.from({ length: 40 }, (_, i) => `c${i}`), chunkDelayMs: 150 }) }],
      }),
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    ctrl.abort();
    await reader.cancel().catch(() => {});
    const recs = await waitForRecord(origin, tag, (r) => r[0]?.aborted === true);
    expect(recs[0]?.aborted).toBe(true);
  });

  it('trades the site token for a session token bound to the origin, which works there only', async () => {
    const made = await call('/v1/session', { method: 'POST', headers: { Authorization: `Bearer ${TOKEN}`, Origin: SHOP_ORIGIN } });
    expect(made.status).toBe(200);
    expect(made.headers.get('access-control-allow-origin')).toBe(SHOP_ORIGIN);
    const { token, origin } = (await made.json()) as { token: string; origin: string };
    expect(token).toMatch(/^phs_/);
    expect(origin).toBe(SHOP_ORIGIN);
    const ask = (from: string) =>
      call('/v1/chat/completions', {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Origin: from },
        body: JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: script({ text: 'session on workers' }) }] }),
      });
    const ok = await ask(SHOP_ORIGIN);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content).toBe('session on workers');
    const replayed = await ask('https://elsewhere.test');
    expect(replayed.status).toBe(403);
  });

  it('counts each client by CF-Connecting-IP (PAGEHAND_CLIENT_RPM), ignoring X-Forwarded-For', async () => {
    const limitedEnv = { ...(env as Record<string, unknown>), PAGEHAND_CLIENT_RPM: '2' };
    const ask = (ip: string, forwarded?: string) =>
      worker.fetch(
        new Request('http://proxy.test/v1/chat/completions', {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${TOKEN}`,
            'Content-Type': 'application/json',
            'CF-Connecting-IP': ip,
            ...(forwarded ? { 'X-Forwarded-For': forwarded } : {}),
          },
          body: JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: script({}) }] }),
        }),
        limitedEnv as never,
        createExecutionContext(),
      );
    const statuses: number[] = [];
    for (const forwarded of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
      const res = await ask('198.51.100.50', forwarded);
      statuses.push(res.status);
      await res.text();
    }
    expect(statuses).toEqual([200, 200, 429]);
    const other = await ask('198.51.100.51');
    expect(other.status).toBe(200);
    await other.text();
  });

  it('answers 500 server_misconfigured, naming the variable, when PAGEHAND_SITES is broken', async () => {
    const res = await worker.fetch(
      new Request('http://proxy.test/v1/config'),
      { ...(env as Record<string, string>), PAGEHAND_SITES: '[{"token":"short"}]' },
      createExecutionContext(),
    );
    expect(res.status).toBe(500);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('server_misconfigured');
    expect(body.error.message).toContain('PAGEHAND_SITES[0].token');
  });
});
