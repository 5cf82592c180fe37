/**
 * The headless runner's bundle lives in an isolated world, where jQuery's data store (an own
 * property of each node, per world) cannot be read: the page-world part answers for it. Items
 * whose click jQuery delegates to their list or to the document are targets there too, and a
 * menu so handled reads as options.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, latestMap, MODELS, refFor, startAgentStack, type AgentStack } from './agent-harness';
import { origin } from './harness';
import { runCli, proxyFlags } from './runner-cli';

let stack: AgentStack;
beforeAll(async () => {
  stack = await startAgentStack();
});
afterAll(async () => {
  await stack?.close();
});

describe('pagehand run: handlers jQuery keeps in its store', () => {
  it('clicks an item whose click is delegated to its list, and lists the document-delegated chips', { timeout: 180_000 }, async () => {
    const maps: string[] = [];
    stack.setPolicy((req) => {
      const map = latestMap(req);
      maps.push(map);
      if (map.includes('menu=Oldest')) return call('done', { summary: 'Sorted: oldest.' });
      return call('click', { ref: refFor(map, 'option', 'Oldest') }, 'goal: sort by oldest');
    });
    const out = await runCli(['run', '--url', `${origin()}/fixtures/widgets/jquery.html`, ...proxyFlags(stack, MODELS.openai), 'Sort by oldest']);
    expect(out.code, out.stderr + out.stdout).toBe(0);
    expect(out.stdout).toContain('Sorted: oldest.');
    expect(maps[0]).toMatch(/\[\d+\]clickable "green"/);
    expect(maps[0]).toMatch(/\[\d+\]option "Newest"/);
  });
});
