/**
 * WebMCP with the embed's loader: the loader puts `document.modelContext` on the page before the
 * agent chunk exists, the site registers a tool with it, and the agent — loaded later, a second
 * script — offers and runs that tool (what the loader learned reaches it through the registry
 * kept on the object).
 */
import { describe, expect, it } from 'vitest';
import { call, runAgent, sequence, useAgentStack } from './agent-harness';
import { origin, useSession } from './harness';

const session = useSession();
const stack = useAgentStack();

describe('WebMCP through the embed loader', () => {
  it('a tool registered before the agent loaded is offered and run by it', async () => {
    const page = await session.context.newPage();
    await page.goto(`${origin()}/fixtures/agent/webmcp/loader-store.html?${new URLSearchParams({ proxy: stack.proxyUrl, token: stack.token })}`);
    await page.waitForFunction(() => (window as any).__registered !== undefined);
    expect(await page.evaluate(() => (window as any).__registered)).toBe('ok');
    // The agent is not there yet: the API is the loader's stub.
    expect(await page.evaluate(() => document.querySelectorAll('script[src*="pagehand-agent"]').length)).toBe(0);
    await page.evaluate(() => (window as any).pagehand.ready);
    let names: string[] = [];
    stack.setPolicy(sequence((req) => ((names = req.tools), call('lookup_stock', { isbn: '9780141439518' })), call('done', { summary: '3 in stock.' })));
    const run = await runAgent(page, stack, 'Is Pride and Prejudice in stock?');
    expect(await run.result).toMatchObject({ ok: true });
    expect(names).toContain('lookup_stock');
    expect(await page.evaluate(() => (window as any).__calls)).toEqual(['lookup_stock 9780141439518']);
    await page.close();
  }, 60_000);
});
