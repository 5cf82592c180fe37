/**
 * The loop end to end on the shop (a payment needs the user's yes), the three-page wizard
 * (resumed on every page, every field submitted) and the lazy list (scroll until the item
 * loads, or find it). Judged by each site's own state.
 */
import { describe, expect, it } from 'vitest';
import { call, hasText, latestMap, mapUrl, MODELS, openWithAgent, refFor, refNear, type Policy, useAgentStack, wizardModel } from './agent-harness';
import { runLog, startRun, waitForResult } from './agent-run';
import { useSession } from './harness';

const session = useSession();
const stack = useAgentStack();

const userText = (req: Parameters<Policy>[0]): string =>
  req.messages
    .filter((m) => m.role === 'user')
    .map((m) => m.text)
    .join('\n');

describe('shop: find a product, add it to the cart, check out', () => {
  const shopModel: Policy = (req) => {
    const map = latestMap(req);
    if (mapUrl(map).includes('checkout.html')) {
      if (hasText(map, /Order #\d+ placed/)) return call('done', { summary: 'The order was placed.' });
      if (/did not allow/.test(userText(req))) return call('done', { summary: 'The user declined to place the order.', success: false });
      return call('click', { ref: refFor(map, 'button', 'Place order') }, 'goal: place the order');
    }
    if (hasText(map, 'Cart (1)')) return call('click', { ref: refFor(map, 'link', 'Checkout') });
    if (!/value="espresso"/.test(map)) return call('type', { ref: refFor(map, 'searchbox', 'Search products'), text: 'espresso' });
    return call('click', { ref: refFor(map, 'button', /Espresso grinder/) });
  };

  it.each([
    ['denied: no order', 'deny', 0],
    ['allowed: the order is placed', 'allow', 1],
  ] as const)('the payment asks the user first; %s', async (_label, answer, orders) => {
    stack.setPolicy(shopModel);
    const page = await openWithAgent(session, 'shop/index.html', { early: true });
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await startRun(page, 'Buy the espresso grinder', { proxy: stack.proxyUrl, token: stack.token, model: MODELS.openai }, { confirm: answer });
    const result = await waitForResult(page);
    const log = await runLog(page);
    const confirms = log.filter((e) => e.type === 'confirm');
    expect(confirms, JSON.stringify(log.filter((e) => e.type !== 'step')).slice(-3000)).toHaveLength(1);
    expect(confirms[0]).toMatchObject({ kind: 'payment', target: { role: 'button', name: 'Place order' } });
    const placed = await page.evaluate(() => JSON.parse(localStorage.getItem('shopOrders') ?? '[]'));
    expect(placed).toHaveLength(orders);
    expect(result.ok).toBe(answer === 'allow');
    if (answer === 'allow') expect(placed[0].lines[0].name).toBe('Espresso grinder');
    await page.close();
  });
});

describe('wizard across full page navigations', () => {
  it('resumes on each page and submits every field', async () => {
    stack.setPolicy(wizardModel());
    const page = await openWithAgent(session, 'wizard/step1.html', { early: true });
    await startRun(
      page,
      'Sign me up: Ada Lovelace, ada@example.org, 12 St James Square, London, UK, Pro plan',
      { proxy: stack.proxyUrl, token: stack.token, model: MODELS.gemini },
      { confirm: 'allow' },
    );
    const result = await waitForResult(page);
    const log = await runLog(page);
    expect(result.ok, JSON.stringify(log.slice(-5))).toBe(true);
    expect(page.url()).toContain('done.html');
    const fields = await page.$$eval('#summary dt', (dts) =>
      Object.fromEntries(dts.map((dt) => [dt.textContent?.trim(), dt.nextElementSibling?.textContent?.trim()])),
    );
    expect(Object.values(fields)).toEqual(expect.arrayContaining(['Ada Lovelace', 'ada@example.org', '12 St James Square', 'London', 'yes']));
    expect(Object.values(fields).some((v) => /United Kingdom|GB|UK/.test(v ?? ''))).toBe(true);
    expect(Object.values(fields).some((v) => /pro/i.test(v ?? ''))).toBe(true);
    // Resumed on step 2, step 3 and done, each said in a step event.
    const resumedOn = log.filter((e) => e.type === 'step' && e.phase === 'start' && e.resumed).map((e) => new URL(e.url).pathname.split('/').pop());
    expect(resumedOn).toEqual(['step2.html', 'step3.html', 'done.html']);
    // Submitting personal data asked the user each time.
    expect(log.filter((e) => e.type === 'confirm').map((e) => e.kind)).toEqual(['personal_data', 'personal_data', 'personal_data']);
    expect(result.steps).toBe(4);
    await page.close();
  });
});

describe('lazy-loading list', () => {
  it('scrolls until the item has loaded, then opens it', async () => {
    stack.setPolicy((req) => {
      const map = latestMap(req);
      if (hasText(map, 'You opened: Quantum widget')) return call('done', { summary: 'Opened the Quantum widget.' });
      if (hasText(map, 'Quantum widget')) return call('click', { ref: refNear(map, 'Quantum widget', 'button', 'Open') });
      return call('scroll', { direction: 'down', pages: 3 }, 'goal: load more items');
    });
    const page = await openWithAgent(session, 'lazy/list.html');
    await page.evaluate(() => localStorage.clear());
    await startRun(page, 'Open the Quantum widget', { proxy: stack.proxyUrl, token: stack.token, model: MODELS.openai });
    const result = await waitForResult(page);
    expect(result.ok).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('lazyOpened'))).toBe('Quantum widget');
    await page.close();
  });

  it('reaches it with find once it has loaded', async () => {
    let found = '';
    let finds = 0;
    stack.setPolicy((req) => {
      const map = latestMap(req);
      if (hasText(map, 'You opened: Quantum widget')) return call('done', { summary: 'Opened it.' });
      // What the last step returned (find's answer comes back there, not in the map).
      const last = /# Last step's results\n([\s\S]*?)\n# /.exec(userText(req))?.[1] ?? '';
      const hit = /\[(\d+)\]button "Open"[^\n]*Quantum widget/.exec(last);
      if (hit) {
        found = hit[1]!;
        return call('click', { ref: found });
      }
      if (/^find /m.test(last)) return call('scroll', { direction: 'down', pages: 20 });
      finds++;
      return call('find', { query: 'Quantum widget' });
    });
    const page = await openWithAgent(session, 'lazy/list.html');
    await page.evaluate(() => localStorage.clear());
    await startRun(page, 'Open the Quantum widget', { proxy: stack.proxyUrl, token: stack.token, model: MODELS.openai });
    const result = await waitForResult(page);
    expect(result.ok).toBe(true);
    expect(found).not.toBe('');
    expect(finds).toBeGreaterThan(1); // not loaded at first: find said so, the list was scrolled, find again
    expect(await page.evaluate(() => localStorage.getItem('lazyOpened'))).toBe('Quantum widget');
    await page.close();
  });
});

describe('site configuration (pagehand.init)', () => {
  it("a custom tool is offered, called with the model's arguments, and its result reaches the model", async () => {
    stack.setPolicy((req) => {
      const user = userText(req);
      const result = /addToCart [^\n]*→ ok: (.*)/.exec(user)?.[1];
      if (result) return call('done', { summary: `The site said: ${result}` });
      if (!req.tools.includes('addToCart')) return call('fail', { reason: 'no addToCart tool offered' });
      return call('addToCart', { sku: 'p2', qty: 2 });
    });
    const page = await openWithAgent(session, 'shop/index.html');
    await page.evaluate(() => {
      (window as any).pagehand.init({
        tools: [
          {
            name: 'addToCart',
            description: "Add a product to the cart by SKU (the site's own function).",
            parameters: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'number' } }, required: ['sku'] },
            handler: (args: { sku: string; qty?: number }) => {
              (window as any).__calls = [...((window as any).__calls ?? []), args];
              return { added: args.sku, quantity: args.qty ?? 1, cartSize: 2 };
            },
          },
        ],
      });
    });
    // The tool changes the cart (it does not declare readOnly), so the user is asked first: yes.
    await startRun(page, 'Put two espresso grinders in my cart', { proxy: stack.proxyUrl, token: stack.token, model: MODELS.openai }, { confirm: 'allow' });
    const result = await waitForResult(page);
    expect((await runLog(page)).filter((e) => e.type === 'confirm').map((e) => e.kind)).toEqual(['site_tool']);
    expect(await page.evaluate(() => (window as any).__calls)).toEqual([{ sku: 'p2', qty: 2 }]);
    expect(result).toMatchObject({ ok: true, summary: 'The site said: {"added":"p2","quantity":2,"cartSize":2}' });
    await page.close();
  });

  it('a deny zone is never in the map and refuses actions; allowedActions limits the tools', async () => {
    let seen = '';
    let tools: string[] = [];
    const page = await openWithAgent(session, 'shop/index.html');
    const box = await page.evaluate(() => {
      const { ignoredDeny } = (window as any).pagehand.init({ deny: ['header', '[[bad'], allowedActions: ['click_at', 'scroll'] });
      const r = document.querySelector('header')!.getBoundingClientRect();
      return { ignoredDeny, y: (r.top + r.height / 2) / innerHeight };
    });
    expect(box.ignoredDeny).toEqual(['[[bad']);
    // Nor does its text reach the model through read.
    const read = await page.evaluate(() => (window as any).pagehand.act({ name: 'read', args: {} }));
    expect(read.ok).toBe(true);
    expect(read.message).not.toMatch(/Checkout|Cart \(/);
    const header = await page.evaluate(() => document.querySelector('header')!.textContent!);
    expect(header).toMatch(/Checkout|Cart \(/);
    stack.setPolicy((req) => {
      const map = latestMap(req);
      const user = userText(req);
      const failed = /click_at[^\n]*→ FAILED: ([^\n]*)/.exec(user);
      if (failed) {
        seen = map;
        tools = req.tools;
        return call('done', { summary: failed[1]! });
      }
      return call('click_at', { x: 0.5, y: box.y });
    });
    await startRun(page, 'Go to checkout', { proxy: stack.proxyUrl, token: stack.token, model: MODELS.openai });
    const result = await waitForResult(page);
    expect(result.summary).toMatch(/would act inside an area the site keeps from the agent/);
    expect(seen).not.toMatch(/Checkout|Cart \(/);
    expect(tools.sort()).toEqual(['ask_user', 'click_at', 'done', 'fail', 'find', 'scroll']);
    expect(page.url()).toContain('index.html');
    await page.close();
  });
});
