/**
 * The site's knowledge (`init({ knowledge })`), in Chromium with the scripted model: a route's
 * instructions reach the prompt only on that route; the site's /llms.txt is read once per run
 * when the site asks for it and never otherwise; `read {url}` reads another page of the same
 * origin without leaving this one — its text through read's reader, the site's deny zones and
 * redaction and the run's secrets applied, fenced as page data — and refuses another origin,
 * a same-origin URL that redirects to one included, with a sentence the model can act on.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call, openWithAgent, runAgent, sequence, useAgentStack, type ModelRequest } from './agent-harness';
import { crossOrigin, origin, useSession } from './harness';

const session = useSession();
const stack = useAgentStack();

const DIR = '/fixtures/agent/know';
const systemOf = (r: ModelRequest): string => r.messages.find((m) => m.role === 'system')!.text;
const userOf = (r: ModelRequest): string => r.messages.filter((m) => m.role === 'user').pop()!.text;

/** The site's init on every page the tab opens (after the bundle, as a site's own script would call it). */
async function siteInit(page: Page, config: string): Promise<void> {
  const init = `window.pagehand && window.pagehand.init(${config});`;
  await page.addInitScript({ content: `document.addEventListener('DOMContentLoaded', () => { ${init} });` });
  await page.evaluate(init);
}

/** Counts the page's requests for `url` (answered with `body`, or passed on). */
async function count(page: Page, url: string, body?: string): Promise<() => number> {
  let n = 0;
  await page.route(url, (r) => {
    n++;
    return body === undefined ? r.continue() : r.fulfill({ status: 200, contentType: 'text/plain; charset=utf-8', body });
  });
  return () => n;
}

/**
 * Whether `text` sits inside one of the message's data blocks (after a start marker with the
 * run's value, before its end marker).
 */
function fenced(message: string, text: string): boolean {
  const at = message.indexOf(text);
  if (at < 0) return false;
  const before = message.slice(0, at);
  const start = before.lastIndexOf('⟪page content ');
  const end = before.lastIndexOf('⟪/page content ');
  return start > end && /^⟪page content [0-9a-f]{12}⟫$/m.test(message.slice(start, message.indexOf('\n', start)));
}

describe('instructions by route', () => {
  it('reach the prompt on a matching page and not after the run moved to another route', async () => {
    const page = await openWithAgent(session, 'know/products/mug.html', { early: true });
    await siteInit(
      page,
      `{ instructions: 'Acme shop.', knowledge: { routes: [
        { match: '${DIR}/products/*', instructions: 'PRODUCT-RULE: mugs ship in 2 days.' },
        { match: ['/nowhere/*', '${DIR}/cart.html'], instructions: 'CART-RULE: the cart keeps items for a week.' },
      ] } }`,
    );
    stack.setPolicy(sequence(call('navigate', { url: '../cart.html' }), call('done', { summary: 'In the cart.' })));
    const before = stack.requests().length;
    const run = await runAgent(page, stack, 'Open the cart.');
    expect(await run.result).toMatchObject({ ok: true, summary: 'In the cart.' });
    const [onProduct, onCart] = stack.requests().slice(before);
    expect(userOf(onCart!)).toContain('cart.html');
    expect(systemOf(onProduct!)).toContain('Acme shop.');
    expect(systemOf(onProduct!)).toContain('PRODUCT-RULE: mugs ship in 2 days.');
    expect(systemOf(onProduct!)).not.toContain('CART-RULE');
    expect(systemOf(onCart!)).toContain('Acme shop.');
    expect(systemOf(onCart!)).toContain('CART-RULE: the cart keeps items for a week.');
    expect(systemOf(onCart!)).not.toContain('PRODUCT-RULE');
    await page.close();
  });
});

describe("the site's /llms.txt", () => {
  const LLMS = '# Acme\n> A small shop of mugs.\n- [Returns](/fixtures/agent/know/returns.html): 30 days.\nLLMS-MARK';

  it("is read once per run when the site asks for it, across steps and a navigation, as the site owner's text", async () => {
    const page = await openWithAgent(session, 'know/products/mug.html', { early: true });
    const reads = await count(page, `${origin()}/llms.txt`, LLMS);
    await siteInit(page, `{ knowledge: { llmsTxt: true } }`);
    stack.setPolicy(sequence(call('scroll', { direction: 'down' }), call('navigate', { url: '../cart.html' }), call('done', { summary: 'ok' })));
    const before = stack.requests().length;
    const run = await runAgent(page, stack, 'Look around.');
    expect(await run.result).toMatchObject({ ok: true });
    const requests = stack.requests().slice(before);
    expect(requests).toHaveLength(3);
    expect(reads()).toBe(1);
    for (const r of requests) {
      // The embed is the site's own: its file is in the system prompt, set apart and named, not page data.
      expect(systemOf(r)).toContain("# The site's llms.txt (from the site owner)");
      expect(systemOf(r)).toContain('LLMS-MARK');
      expect(userOf(r)).not.toContain('LLMS-MARK');
    }
    await page.close();
  });

  it('is not read at all when the site does not ask for it', async () => {
    const page = await openWithAgent(session, 'know/products/mug.html', { early: true });
    const reads = await count(page, `${origin()}/llms.txt`, LLMS);
    await siteInit(page, `{ knowledge: { routes: [{ match: '/*', instructions: 'Be brief.' }] } }`);
    stack.setPolicy(sequence(call('scroll', { direction: 'down' }), call('done', { summary: 'ok' })));
    const before = stack.requests().length;
    const run = await runAgent(page, stack, 'Look around.');
    expect(await run.result).toMatchObject({ ok: true });
    expect(reads()).toBe(0);
    for (const r of stack.requests().slice(before)) expect(`${systemOf(r)}${userOf(r)}`).not.toContain('LLMS-MARK');
    await page.close();
  });
});

describe('read {url}: another page of this site', () => {
  it('returns its text without leaving the page: zones and redaction removed, secrets masked, no script run, fenced as page data', async () => {
    const page = await openWithAgent(session, 'know/products/mug.html', { early: true });
    const scriptRan = await count(page, `${origin()}${DIR}/script-ran.txt`, 'ran');
    const imageLoaded = await count(page, `${origin()}${DIR}/image-loaded.png`, '');
    const returns = await count(page, `${origin()}${DIR}/returns.html`);
    await siteInit(page, `{ deny: ['.internal'], redact: ['.acct'] }`);
    stack.setPolicy(sequence(call('read', { url: '../returns.html' }), call('done', { summary: '30 days.' })));
    const before = stack.requests().length;
    const run = await runAgent(page, stack, 'What is the return policy?', { secrets: { promo: 'PROMO-4242' } });
    expect(await run.result).toMatchObject({ ok: true, summary: '30 days.' });
    expect(page.url()).toBe(`${origin()}${DIR}/products/mug.html`);
    expect(returns()).toBe(1);
    // Parsed apart: its script never ran and its image never loaded.
    expect(scriptRan()).toBe(0);
    expect(imageLoaded()).toBe(0);

    const end = run.events.find((e) => e.event === 'action' && e.payload.phase === 'end' && e.payload.call.name === 'read')!;
    // Shown in the step log: the call with its address, and what it read.
    expect(run.events.some((e) => e.event === 'action' && e.payload.phase === 'start' && e.payload.call.args.url === '../returns.html')).toBe(true);
    const text: string = end.payload.result.message;
    expect(end.payload.result.ok).toBe(true);
    expect(text).toContain(`${DIR}/returns.html ("Returns — Acme")`);
    expect(text).toContain('Returns are accepted within 30 days of delivery, in the original box.');
    expect(text).toContain('Item | Return window');
    expect(text).toContain('Item: Mugs | Return window: 30 days');
    expect(text).toContain('[A returns label]');
    expect(text).toContain('Your account: [redacted]');
    expect(text).toContain('Use the code <secret:promo> on your next order.');
    for (const gone of [
      'ZONE-OFF-TEXT',
      'DENY-SELECTOR-TEXT',
      'ACCT-99887766',
      'PROMO-4242',
      'HIDDEN-ATTR-TEXT',
      'INLINE-NONE-TEXT',
      'color: gray',
      'script-ran',
    ])
      expect(text).not.toContain(gone);

    // The next request carries it as page data, between the run's markers.
    const next = stack.requests().slice(before)[1]!;
    expect(fenced(userOf(next), 'Returns are accepted within 30 days')).toBe(true);
    await page.close();
  });

  it('reads a text file of the site as it is', async () => {
    const page = await openWithAgent(session, 'know/products/mug.html', { early: true });
    await count(page, `${origin()}${DIR}/notes.txt`, 'Shipping notes.\nOrders ship from Madrid within 2 days.\n');
    stack.setPolicy(sequence(call('read', { url: `${DIR}/notes.txt` }), call('done', { summary: 'ok' })));
    const run = await runAgent(page, stack, 'Where do orders ship from?');
    await run.result;
    const end = run.events.find((e) => e.event === 'action' && e.payload.phase === 'end')!;
    expect(end.payload.result).toMatchObject({ ok: true });
    expect(end.payload.result.message).toContain('Orders ship from Madrid within 2 days.');
    await page.close();
  });

  it('refuses another origin, and a same-origin address that redirects to one, before any request reaches it', async () => {
    const page = await openWithAgent(session, 'know/products/mug.html', { early: true });
    const elsewhere = `${crossOrigin()}${DIR}/returns.html`;
    const reached = await count(page, elsewhere);
    const redirect = `/__redirect?to=${encodeURIComponent(elsewhere)}`;
    stack.setPolicy(sequence(call('read', { url: elsewhere }), call('read', { url: redirect }), call('done', { summary: 'ok' })));
    const before = stack.requests().length;
    const run = await runAgent(page, stack, 'Read the returns page of the other shop.');
    expect(await run.result).toMatchObject({ ok: true });
    const ends = run.events.filter((e) => e.event === 'action' && e.payload.phase === 'end').map((e) => e.payload.result);
    expect(ends[0]).toMatchObject({ ok: false });
    expect(ends[0].message).toBe(
      `read did not read it: ${crossOrigin()} is another site: only pages of this site (${origin()}) can be read without leaving it.`,
    );
    expect(ends[1]).toMatchObject({ ok: false });
    expect(ends[1].message).toBe(
      `read did not read it: ${redirect} redirects to another site, which is not followed: only pages of this site can be read without leaving it.`,
    );
    expect(reached()).toBe(0);
    // The model reads why, as the step's result.
    expect(userOf(stack.requests().slice(before)[1]!)).toContain(`is another site: only pages of this site (${origin()})`);
    expect(userOf(stack.requests().slice(before)[2]!)).toContain('redirects to another site, which is not followed');
    // Nothing was asked: a read elsewhere is refused, not offered to the user as leaving the site.
    expect(run.events.some((e) => e.event === 'confirm')).toBe(false);
    await page.close();
  });
});
