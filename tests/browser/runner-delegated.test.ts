/**
 * The headless runner's bundle lives in an isolated world, where what a page keeps on its
 * nodes (React's `__reactProps$…`, Vue's invokers, `el.onclick`) cannot be read: the page-world
 * part answers for it. A plain text span whose only click cue is a React onClick (delegated to
 * the root) is still a target there, and the root container is not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, latestMap, MODELS, refFor, startAgentStack, type AgentStack } from './agent-harness';
import { origin } from './harness';
import { runCli, proxyFlags, type Exit } from './runner-cli';

const cli = (args: string[]): Promise<Exit> => runCli(args);

let stack: AgentStack;
beforeAll(async () => {
  stack = await startAgentStack();
});
afterAll(async () => {
  await stack?.close();
});

describe('pagehand run: handlers a framework keeps on the node', () => {
  it('clicks a plain span with a React onClick, and lists no root container', { timeout: 180_000 }, async () => {
    const maps: string[] = [];
    stack.setPolicy((req) => {
      const map = latestMap(req);
      maps.push(map);
      if (map.includes('read report')) return call('done', { summary: 'Marked: read report.' });
      return call('click', { ref: refFor(map, 'clickable', 'Mark as read') }, 'goal: mark the report read');
    });
    const out = await cli([
      'run',
      '--url',
      `${origin()}/fixtures/actions/react-delegated.html`,
      ...proxyFlags(stack, MODELS.openai),
      'Mark the report as read',
    ]);
    expect(out.code, out.stderr + out.stdout).toBe(0);
    expect(out.stdout).toContain('Marked: read report.');
    expect(maps[0]).toMatch(/\[\d+\]clickable "Archive"/);
    expect(maps[0]).not.toMatch(/clickable "Inbox/);
  });
});
