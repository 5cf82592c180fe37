/**
 * The third provider path (issue 27): the loop's scripted tasks — webmail, shop, wizard, the
 * ones the tool path and the proxy's text protocol finish (loop-tasks.ts) — finished on the
 * browser's own model, with no proxy and no key. The same scripted policies decide; the Prompt
 * API stand-in (browser-model-kit.ts) hands each prompt to them as a model request and answers
 * with one action per turn (a reply of several calls is given one call a turn), held to the
 * tools' schema. Risky steps ask as on every path: the user allows them here.
 */
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from './agent-harness';
import { runLog, startRun, waitForResult } from './agent-run';
import { act, openWithStandIn, type Prompted } from './browser-model-kit';
import { LOOP_TASKS, type LoopTask } from './loop-tasks';
import { useUiSession } from './ui-kit';

const session = useUiSession();

/** The reasoning lines a scripted reply carries (`eval: …\nmemory: …\ngoal: …`), as the browser model's fields. */
const reasoning = (text: string | undefined) => {
  const line = (k: string) => new RegExp(`^${k}: (.*)$`, 'm').exec(text ?? '')?.[1] ?? '';
  return { eval: line('eval'), memory: line('memory'), goal: line('goal') };
};

describe.each(Object.keys(LOOP_TASKS) as LoopTask[])('%s on the browser’s own model', (name) => {
  it('finishes with no proxy and no key, one action a turn', async () => {
    const t = LOOP_TASKS[name];
    const policy = t.policy();
    let seq = 0;
    /** Calls of a reply not given yet: the browser's model answers one action a turn. */
    let queued: Array<{ name: string; args: Record<string, unknown> }> = [];
    const page = await openWithStandIn(
      session,
      `agent/${t.page}`,
      { state: 'available' },
      async (p: Prompted) => {
        if (!queued.length) {
          const req = {
            seq: ++seq,
            provider: 'openai',
            model: 'browser',
            stream: false,
            tools: [],
            messages: [
              { role: 'system', text: p.system },
              { role: 'user', text: p.text },
            ],
          };
          const reply = await policy(req as unknown as ModelRequest);
          if (!reply?.toolCalls?.length) throw new Error(`the scripted model gave no call for: ${p.text.slice(0, 200)}`);
          queued = reply.toolCalls.map((c) => ({ name: c.name, args: c.args as Record<string, unknown> }));
          const first = queued.shift()!;
          return { ...reasoning(reply.text), action: { tool: first.name, arguments: first.args } };
        }
        const next = queued.shift()!;
        return act(next.name, next.args);
      },
      { early: true },
    );
    let proxyCalls = 0;
    page.on('request', (r) => void (r.url().includes('/v1/') && proxyCalls++));
    await startRun(page, t.task, { model: 'browser' }, { confirm: 'allow' });
    const result = await waitForResult(page, 90_000);
    const log = await runLog(page);
    expect(result.ok, JSON.stringify(log.slice(-4))).toBe(true);
    // No request left the page for a model: there is no proxy.
    expect(log.filter((e) => e.type === 'error')).toEqual([]);
    expect(proxyCalls).toBe(0);
    await page.close();
  }, 120_000);
});
