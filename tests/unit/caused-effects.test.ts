// @vitest-environment happy-dom
/**
 * What an action makes the page do is judged by address and method with the rules links and
 * forms are judged by (client/safety/effects.ts); one action's gate asks once per effect, lets
 * the call's own destination through, and tells the model what it stopped.
 */
import { describe, expect, it } from 'vitest';
import { effectRisks, watchEffects } from '../../client/safety/effects';
import type { ConfirmHost } from '../../client/safety/confirm';
import type { CallTarget } from '../../client/agent/public-types';
import type { PageEffect } from '../../client/page/settle/effect-gate';

const HERE = 'https://shop.test/account';
const kinds = (e: PageEffect) => effectRisks(e, HERE, 'Clicking button "Show more"').map((r) => r.kind);

describe('effectRisks', () => {
  it('judges requests by method and address, never by the other site alone', () => {
    expect(kinds({ kind: 'request', method: 'DELETE', url: 'https://shop.test/api/items/7' })).toEqual(['deletion']);
    expect(kinds({ kind: 'request', method: 'POST', url: 'https://shop.test/api/orders' })).toEqual(['payment']);
    expect(kinds({ kind: 'beacon', method: 'POST', url: 'https://shop.test/account/delete' })).toEqual(['deletion']);
    expect(kinds({ kind: 'request', method: 'POST', url: 'https://shop.test/api/log' })).toEqual([]);
    expect(kinds({ kind: 'beacon', method: 'POST', url: 'https://stats.test/collect' })).toEqual([]);
  });

  it('judges navigations and windows as links there (a POST as a form sent there)', () => {
    expect(kinds({ kind: 'navigation', method: 'GET', url: 'https://shop.test/checkout/pay' })).toEqual(['payment']);
    expect(kinds({ kind: 'navigation', method: 'GET', url: 'https://shop.test/orders' })).toEqual([]);
    expect(kinds({ kind: 'navigation', method: 'POST', url: 'https://shop.test/orders' })).toEqual(['payment']);
    expect(kinds({ kind: 'navigation', method: 'GET', url: 'https://shop.test/report.pdf' })).toEqual(['download']);
    expect(kinds({ kind: 'window', method: 'GET', url: 'https://other.test/help' })).toEqual(['leaving_site']);
    expect(kinds({ kind: 'window', method: 'GET', url: 'about:blank' })).toEqual([]);
    expect(kinds({ kind: 'window', method: 'GET', url: 'javascript:alert(1)' })).toEqual(['unjudged']);
  });

  it('names the action and what it caused', () => {
    const [r] = effectRisks({ kind: 'request', method: 'POST', url: 'https://shop.test/api/orders' }, HERE, 'Clicking button "Show more"');
    expect(r!.reason).toBe('Clicking button "Show more" made the page send a POST request to /api/orders, which may pay or place an order.');
  });
});

function host(answer: boolean): ConfirmHost & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    allowed: [],
    emitter: { count: () => 0, emit: () => {} },
    signal: new AbortController().signal,
    confirmFn: () => async (req) => (asked.push(req.reason), answer),
  };
}

describe('watchEffects', () => {
  const call = { name: 'type', args: { ref: '1', text: 'kim' } };
  const target = { ref: '1' as CallTarget['ref'], role: 'textbox', name: 'Nickname', rect: { x: 0, y: 0, width: 1, height: 1 } };
  const post = { kind: 'request', method: 'POST', url: 'https://shop.test/account/delete' } as const;

  it('asks once per effect in an action, and reports what it stopped', async () => {
    const h = host(false);
    const w = watchEffects(h, call, target, []);
    const answers = await Promise.all([w.gate(post), w.gate(post), w.gate(post)]);
    expect(answers).toEqual([false, false, false]);
    expect(h.asked).toHaveLength(1);
    expect(h.asked[0]).toMatch(/^Typing into textbox "Nickname" made the page send a POST request/);
    expect(await w.done()).toMatch(/^The page's request was stopped\. The user did not allow this: .* Do not try to make it happen again\.$/);
  });

  it('lets harmless effects and the call’s own destination go at once', async () => {
    const h = host(false);
    const w = watchEffects(h, { name: 'click', args: { ref: '2' } }, undefined, ['https://shop.test/account/delete']);
    expect(w.gate({ kind: 'navigation', method: 'POST', url: 'https://shop.test/account/delete#done' })).toBeUndefined();
    expect(w.gate({ kind: 'request', method: 'POST', url: 'https://shop.test/api/log' })).toBeUndefined();
    expect(await w.done()).toBe('');
    expect(h.asked).toEqual([]);
  });

  it('refuses a risky request that cannot wait, without asking', async () => {
    const h = host(true);
    const w = watchEffects(h, call, target, []);
    expect(await w.gate({ ...post, now: true })).toBe(false);
    expect(h.asked).toEqual([]);
    expect(await w.done()).toMatch(/could not wait for the user's answer/);
  });
});
