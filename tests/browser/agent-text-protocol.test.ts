/**
 * The loop's tasks (webmail, shop, wizard) through the proxy's text protocol, for models
 * without tool calls: one whose server refuses `tools` (vLLM's 400), one that ignores the tools
 * and answers in text, and a Gemini model configured for text. The scripted model is the tool
 * path's; the fake writes its calls as text (fenced, tagged, with a broken comma, arguments as
 * a string, in turn). Each run's step log must equal the tool path's.
 */
import { describe, expect, it } from 'vitest';
import { MODELS, openWithAgent, useAgentStack } from './agent-harness';
import { runLog, startRun, waitForResult } from './agent-run';
import { useSession } from './harness';
import { LOOP_TASKS as TASKS } from './loop-tasks';

const TEXT = { refuses: 'local-vllm-test', textOnly: 'local-text-test', gemini: 'gemini-text-test' } as const;

const session = useSession();
const stack = useAgentStack({
  noTools: { [TEXT.refuses]: 'reject', [TEXT.textOnly]: 'text', [TEXT.gemini]: 'text' },
  textModels: [TEXT.gemini],
});

/** The step log without what differs between any two runs: usage and times. */
function comparable(log: any[]): unknown[] {
  return JSON.parse(JSON.stringify(log), (key, value) => (['usage', 'cost', 'created'].includes(key) ? undefined : value));
}

async function play(task: keyof typeof TASKS, model: string) {
  const t = TASKS[task];
  stack.setPolicy(t.policy());
  const before = stack.requests().length;
  const page = await openWithAgent(session, t.page, { early: true });
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await startRun(page, t.task, { proxy: stack.proxyUrl, token: stack.token, model }, { confirm: 'allow' });
  const result = await waitForResult(page);
  const log = await runLog(page);
  await page.close();
  return { result, log, requests: stack.requests().slice(before) };
}

describe.each(Object.keys(TASKS) as Array<keyof typeof TASKS>)('%s through the text protocol', (task) => {
  it('finishes with the step log of the tool path, for every kind of model without tool calls', async () => {
    const tools = await play(task, MODELS.openai);
    expect(tools.result.ok, JSON.stringify(tools.log.slice(-4))).toBe(true);
    expect(tools.requests.every((r) => r.tools.length > 0)).toBe(true);

    for (const model of Object.values(TEXT)) {
      const text = await play(task, model);
      expect(text.result.ok, `${model}: ${JSON.stringify(text.log.slice(-4))}`).toBe(true);
      expect(comparable(text.log), model).toEqual(comparable(tools.log));
      expect(text.result.steps).toBe(tools.result.steps);
      // The model was spoken to in text: no tools offered once the proxy knew (a configured
      // one never; a refusing server refuses the proxy's first request only; a model answering
      // in text is found out after two such replies), whichever task came first.
      const all = stack.requests().filter((r) => r.model === model);
      const offered = all.filter((r) => r.tools.length > 0);
      if (model === TEXT.gemini) expect(offered).toEqual([]);
      if (model === TEXT.refuses) {
        expect(offered.map((r) => r.seq)).toEqual([all[0]!.seq]);
        expect(all[0]!.reply).toMatchObject({ status: 400 });
        expect(all[1]!.messages[0]!.text).toContain('{"tool": "<name>", "arguments": {…}}');
      }
      if (model === TEXT.textOnly) expect(offered.map((r) => r.seq)).toEqual([all[0]!.seq, all[1]!.seq]);
    }
  }, 120_000);
});
