/**
 * WebMCP's `document.modelContext` in real Chromium, without the run loop: pagehand's polyfill
 * at document start behaves as the draft says (a promise per registration, the draft's
 * rejections, unregistering by signal, `toolchange`), and a `document.modelContext` that was
 * there first (the browser's own, played here by a page-world object defined before pagehand)
 * keeps working while pagehand learns each tool registered with it — and gets `init({ tools })`.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { bundleSource, origin, useSession } from './harness';

const session = useSession();

/** What pagehand learned, read through the registry it keeps on the object. */
interface Learned {
  native: boolean;
  tools: Array<{ name: string; readOnly: boolean; schema: unknown }>;
}

const learned = (page: Page): Promise<Learned | null> =>
  page.evaluate(() => {
    const reg = (document as any).modelContext?.[Symbol.for('pagehand.webmcp')];
    return reg ? { native: reg.native, tools: reg.tools().map((t: any) => ({ name: t.name, readOnly: t.readOnlyHint, schema: t.inputSchema })) } : null;
  });

/** A browser-shaped document.modelContext of the page's own, defined before pagehand loads. */
const NATIVE = `(() => {
  window.__native = [];
  class ModelContext extends EventTarget {
    registerTool(tool, options = {}) {
      if (window.__native.some((t) => t.name === tool.name)) return Promise.reject(new DOMException('dup', 'InvalidStateError'));
      const entry = { name: tool.name, readOnly: !!(tool.annotations && tool.annotations.readOnlyHint), tool };
      window.__native.push(entry);
      options.signal?.addEventListener('abort', () => { window.__native = window.__native.filter((t) => t !== entry); });
      return Promise.resolve(undefined);
    }
  }
  Object.defineProperty(Document.prototype, 'modelContext', { get() { return this.__mc || (this.__mc = new ModelContext()); }, configurable: true });
})();`;

async function openStore(native: boolean): Promise<Page> {
  const page = await session.context.newPage();
  page.on('pageerror', (e) => console.error('[page error]', e.message));
  if (native) await page.addInitScript({ content: NATIVE });
  await page.addInitScript({ content: bundleSource() });
  await page.goto(`${origin()}/fixtures/agent/webmcp/store.html`);
  await page.waitForFunction(() => (window as any).__calls !== undefined);
  return page;
}

describe("pagehand's polyfill (no document.modelContext in the browser)", () => {
  it('is there at document start, so the page registers its tools; pagehand learns them as registered', async () => {
    const page = await openStore(false);
    await page.waitForFunction(() => (document as any).modelContext[Symbol.for('pagehand.webmcp')].tools().length === 3);
    expect(await learned(page)).toEqual({
      native: false,
      tools: [
        {
          name: 'lookup_stock',
          readOnly: true,
          schema: { type: 'object', properties: { isbn: { type: 'string', description: 'ISBN-13' } }, required: ['isbn'] },
        },
        {
          name: 'add_to_cart',
          readOnly: false,
          schema: { type: 'object', properties: { isbn: { type: 'string' }, qty: { type: 'number' } }, required: ['isbn'] },
        },
        { name: 'orders.cancel', readOnly: false, schema: { type: 'object', properties: { id: { type: 'string' } } } },
      ],
    });
    await page.close();
  });

  it("answers as the draft does: a promise, the draft's rejections, unregister by signal, toolchange", async () => {
    const page = await openStore(false);
    const out = await page.evaluate(async () => {
      const mc = (document as any).modelContext;
      const reg = mc[Symbol.for('pagehand.webmcp')];
      const events: string[] = [];
      mc.ontoolchange = () => events.push('handler');
      mc.addEventListener('toolchange', () => events.push('listener'));
      const reason = async (p: Promise<unknown>) =>
        p.then(
          () => 'resolved',
          (e: any) => `${e?.name}`,
        );
      const tool = { name: 'x.y-z_1', description: 'd', execute: () => 1 };
      const c = new AbortController();
      const first = mc.registerTool(tool, { signal: c.signal });
      const dup = await reason(mc.registerTool(tool));
      const resolved = await first;
      const badName = await reason(mc.registerTool({ name: 'has space', description: 'd', execute: () => 1 }));
      const noDescription = await reason(mc.registerTool({ name: 'ok', description: '', execute: () => 1 }));
      const circular: any = {};
      circular.self = circular;
      const badSchema = await reason(mc.registerTool({ name: 'ok2', description: 'd', inputSchema: circular, execute: () => 1 }));
      const aborted = await reason(mc.registerTool({ name: 'ok3', description: 'd', execute: () => 1 }, { signal: AbortSignal.abort() }));
      const before = reg.tools().map((t: any) => t.name);
      c.abort();
      await new Promise((r) => setTimeout(r, 20));
      const after = reg.tools().map((t: any) => t.name);
      // The tool as it was registered: a later change by the page does not reach pagehand.
      (tool as any).description = 'changed';
      return {
        resolved,
        dup,
        badName,
        noDescription,
        badSchema,
        aborted,
        before,
        after,
        events: events.length >= 2 && events.includes('handler') && events.includes('listener'),
      };
    });
    expect(out).toEqual({
      resolved: undefined,
      dup: 'InvalidStateError',
      badName: 'InvalidStateError',
      noDescription: 'InvalidStateError',
      badSchema: 'TypeError',
      aborted: 'AbortError',
      before: ['lookup_stock', 'add_to_cart', 'orders.cancel', 'x.y-z_1'],
      after: ['lookup_stock', 'add_to_cart', 'orders.cancel'],
      events: true,
    });
    await page.close();
  });
});

describe('a document.modelContext that was there first (the browser’s own)', () => {
  it('keeps receiving the registrations, and pagehand learns them by wrapping registerTool', async () => {
    const page = await openStore(true);
    await page.waitForFunction(() => (window as any).__native.length === 3);
    expect(await page.evaluate(() => (window as any).__native.map((t: any) => t.name))).toEqual(['lookup_stock', 'add_to_cart', 'orders.cancel']);
    await page.waitForFunction(() => (document as any).modelContext[Symbol.for('pagehand.webmcp')].tools().length === 3);
    const l = await learned(page);
    expect(l?.native).toBe(true);
    expect(l?.tools.map((t) => t.name)).toEqual(['lookup_stock', 'add_to_cart', 'orders.cancel']);
    // A registration the browser refuses (a duplicate) is not learned twice.
    await page.evaluate(() => (document as any).modelContext.registerTool({ name: 'lookup_stock', description: 'again', execute: () => 0 }).catch(() => 0));
    await page.waitForTimeout(20);
    expect((await learned(page))?.tools.filter((t) => t.name === 'lookup_stock')).toHaveLength(1);
    await page.close();
  });

  it("gets init({ tools }) registered, which pagehand does not read back as the page's, and a new init replaces them", async () => {
    const page = await openStore(true);
    await page.waitForFunction(() => (window as any).__native.length === 3);
    const out = await page.evaluate(async () => {
      (window as any).pagehand.init({ tools: [{ name: 'gift_wrap', description: 'Wrap the order as a gift.', readOnly: false, handler: () => 'wrapped' }] });
      await new Promise((r) => setTimeout(r, 20));
      const native = (window as any).__native.map((t: any) => t.name);
      const wrapped = await (window as any).__native.find((t: any) => t.name === 'gift_wrap')?.tool.execute({});
      const learnedNames = (document as any).modelContext[Symbol.for('pagehand.webmcp')].tools().map((t: any) => t.name);
      (window as any).pagehand.init({});
      await new Promise((r) => setTimeout(r, 20));
      return { native, wrapped, learnedNames, afterReset: (window as any).__native.map((t: any) => t.name) };
    });
    expect(out).toEqual({
      native: ['lookup_stock', 'add_to_cart', 'orders.cancel', 'gift_wrap'],
      wrapped: 'wrapped',
      learnedNames: ['lookup_stock', 'add_to_cart', 'orders.cancel'],
      afterReset: ['lookup_stock', 'add_to_cart', 'orders.cancel'],
    });
    await page.close();
  });

  it("does not register init's tools with pagehand's own polyfill (no one else reads it)", async () => {
    const page = await openStore(false);
    const names = await page.evaluate(async () => {
      (window as any).pagehand.init({ tools: [{ name: 'gift_wrap', description: 'Wrap.', handler: () => 'wrapped' }] });
      await new Promise((r) => setTimeout(r, 20));
      return (document as any).modelContext[Symbol.for('pagehand.webmcp')].tools().map((t: any) => t.name);
    });
    expect(names).toEqual(['lookup_stock', 'add_to_cart', 'orders.cancel']);
    await page.close();
  });
});
