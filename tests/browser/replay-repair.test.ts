/**
 * Replay after the site changed: each scripted UI change (tests/browser/replay-kit.ts) breaks
 * at most one recorded step; the fake model gets the task, the recording (as data) and the page,
 * and redoes that step only; the replay goes on with no further model call, the task is done on
 * the changed site, and the recording comes back updated, saying which steps were repaired.
 */
import { describe, expect, it } from 'vitest';
import type { Recording } from '../../client/agent/public-types';
import { call, latestMap, MODELS, openWithAgent, refFor, runAgent, sequence, useAgentStack } from './agent-harness';
import { runLog, startRun, waitForResult } from './agent-run';
import { useSession } from './harness';
import { CHANGES, openFixture, recordingBlock, startReplay, task } from './replay-kit';

const session = useSession();
const stack = useAgentStack();

async function record(id: Parameters<typeof task>[0]): Promise<Recording> {
  const t = task(id);
  stack.setPolicy(t.model());
  const page = await openWithAgent(session, t.path, { early: t.early });
  await t.reset(page);
  await startRun(page, t.task, { proxy: stack.proxyUrl, token: stack.token, model: MODELS.openai }, { confirm: t.confirm ? 'allow' : 'deny' });
  const result = await waitForResult(page);
  expect(result.ok).toBe(true);
  await page.close();
  return result.recording!;
}

describe('repair after a scripted UI change', () => {
  it.each(CHANGES.map((c) => [c.id, c] as const))('%s: the broken step alone goes to the model', async (_id, change) => {
    const t = task(change.task);
    const recording = await record(change.task);
    const page = await openFixture(session, t.path, t.early, change);
    await t.reset(page);
    const before = stack.requests().length;
    stack.setPolicy(change.repair ?? (() => ({ text: 'no repair was expected' })));
    await startReplay(page, recording, { proxy: stack.proxyUrl, token: stack.token, model: MODELS.openai }, t.confirm ? 'allow' : 'deny');
    const result = await waitForResult(page);
    const log = await runLog(page);
    const asked = stack.requests().slice(before);
    expect(result.ok, `${result.summary}\n${JSON.stringify(log.filter((e) => e.type !== 'step').slice(-6))}`).toBe(true);
    expect(await t.solved(page)).toBe(true);
    const steps = result.recording!.steps;
    if (!change.repair) {
      // Found again by its label, wherever it moved: nothing to repair.
      expect(asked).toHaveLength(0);
      expect(result.replay).toMatchObject({ modelCalls: 0, repaired: 0 });
      expect(result.recording!.repaired).toBeUndefined();
    } else {
      expect(asked).toHaveLength(1);
      expect(result.replay).toMatchObject({ modelCalls: 1, repaired: 1 });
      // The model read the recording as data, with the broken step marked.
      const block = recordingBlock(asked[0]!);
      expect(block).toMatch(/^⟪page content [0-9a-f]{12}⟫\n1\. /);
      expect(block).toMatch(/BROKEN/);
      // The recording says which step was made anew, and holds the new target.
      const repaired = result.recording!.repaired!;
      expect(repaired).toHaveLength(1);
      const made = steps[repaired[0]! - 1]!;
      expect(made.repaired).toBe(true);
      expect(steps.filter((s) => s.repaired)).toEqual([made]);
      expect(JSON.stringify(made.target)).toMatch(/Complete purchase|Got it|View/);
      // Replayed again on the changed site, the updated recording needs no model.
      const again = await openFixture(session, t.path, t.early, change);
      await t.reset(again);
      // A dialog seen once stays closed in this tab; a new tab shows it again.
      const n = stack.requests().length;
      await startReplay(again, result.recording!, { proxy: stack.proxyUrl, token: stack.token, model: MODELS.openai }, t.confirm ? 'allow' : 'deny');
      const second = await waitForResult(again);
      expect(second, second.summary).toMatchObject({ ok: true, replay: { modelCalls: 0 } });
      expect(stack.requests().length).toBe(n);
      await again.close();
    }
    await page.close();
  });
});

describe('secrets in recordings', () => {
  const VALUE = '4111 1111 1111 1234';

  it('a recording holds the placeholder, never the value (not in typed text, not in a target the page named after it); a replay types it again', async () => {
    const page = await openWithAgent(session, 'replay/pay.html');
    stack.setPolicy(
      sequence(
        (req) => call('type', { ref: refFor(latestMap(req), 'textbox', 'Card number'), text: '<secret:card>' }),
        (req) => call('click', { ref: refFor(latestMap(req), 'button', /^Pay with card/) }),
        call('done', { summary: 'Paid.' }),
      ),
    );
    const run = await runAgent(page, stack, 'Pay with my card', { secrets: { card: VALUE }, confirm: () => true });
    const result = await run.result;
    expect(result.ok, `${result.summary}\n${JSON.stringify(run.events.filter((e) => e.event !== 'step').map((e) => e.payload)).slice(0, 3000)}`).toBe(true);
    expect(await page.textContent('#paid')).toBe('Paid with 1234');
    const recording = result.recording!;
    const text = JSON.stringify(recording);
    expect(text).not.toContain('4111');
    expect(text).not.toContain('1234');
    expect(recording.steps[0]).toMatchObject({ action: 'type', args: { text: '<secret:card>' } });
    expect(recording.steps[1]!.target!.name).toBe('Pay with card <secret:card>');

    // Replayed on a fresh page with the secret given again: no model, the value typed, the echoed name found.
    const again = await openWithAgent(session, 'replay/pay.html');
    const before = stack.requests().length;
    const replay = await again.evaluate(
      ([r, value]) => (window as any).pagehand.replay(r, { ui: false, secrets: { card: value }, confirm: () => true }).result,
      [recording, VALUE] as const,
    );
    expect(replay).toMatchObject({ ok: true, replay: { modelCalls: 0, repaired: 0 } });
    expect(await again.inputValue('#card')).toBe(VALUE);
    expect(await again.textContent('#paid')).toBe('Paid with 1234');
    expect(JSON.stringify(replay.recording)).not.toContain('4111');
    expect(stack.requests().length).toBe(before);
    await page.close();
    await again.close();
  });
});
