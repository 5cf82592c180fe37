/**
 * Screenshots in the loop: sent only to models the proxy lists as reading images, on the
 * first step and after visual changes (`vision: true`), or only while the view holds what the
 * map cannot show (`'auto'`, the default); never with `vision: false`.
 */
import { describe, expect, it } from 'vitest';
import { call, MODELS, sequence, type ModelRequest, useAgentStack, type AgentStack } from './agent-harness';
import { runLog, startRun, waitForResult } from './agent-run';
import { open, useSession } from './harness';

const session = useSession();
const stack = useAgentStack();

const imagesPerStep = (reqs: ModelRequest[]): number[] => reqs.map((r) => r.messages.filter((m) => m.role === 'user').reduce((n, m) => n + (m.images ?? 0), 0));

async function run(path: string, model: string, vision: unknown, policy: Parameters<AgentStack['setPolicy']>[0]) {
  stack.setPolicy(policy);
  const before = stack.requests().length;
  // Paths under tests/fixtures (the agent fixtures live in agent/).
  const page = await open(session, path);
  await startRun(page, 'Look around', { proxy: stack.proxyUrl, token: stack.token, model, ...(vision === undefined ? {} : { vision }) });
  const result = await waitForResult(page);
  const log = await runLog(page);
  await page.close();
  return { result, log, images: imagesPerStep(stack.requests().slice(before)) };
}

const scrollThenWait = () => sequence(call('scroll', { direction: 'down' }), call('wait', { seconds: 0.1 }), call('done', { summary: 'ok' }));

describe('screenshots for the model', () => {
  it('vision: true sends one on the first step and after a scroll, not after a change the map shows', async () => {
    const { result, images } = await run('agent/lazy/list.html', MODELS.gemini, true, scrollThenWait());
    expect(result.ok).toBe(true);
    expect(images).toEqual([1, 1, 0]);
  });

  it('the image reaches Gemini as a JPEG (inlineData), converted by the proxy from the OpenAI image part', async () => {
    stack.setPolicy(sequence(call('done', { summary: 'ok' })));
    const before = stack.requests().length;
    const page = await open(session, 'actions/canvas.html');
    await startRun(page, 'What is on the board?', { proxy: stack.proxyUrl, token: stack.token, model: MODELS.gemini });
    await waitForResult(page);
    await page.close();
    const [req] = stack.requests().slice(before);
    const parts = (req!.body as { contents: Array<{ parts: Array<{ inlineData?: { mimeType: string; data: string } }> }> }).contents.flatMap((c) => c.parts);
    const image = parts.find((p) => p.inlineData)!.inlineData!;
    expect(image.mimeType).toBe('image/jpeg');
    expect(Buffer.from(image.data, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
  });

  it("'auto' sends none where the map shows everything, and one where a canvas is in view", async () => {
    const plain = await run('agent/lazy/list.html', MODELS.gemini, undefined, scrollThenWait());
    expect(plain.images).toEqual([0, 0, 0]);
    const canvas = await run('actions/canvas.html', MODELS.gemini, 'auto', sequence(call('click_at', { x: 0.1, y: 0.12 }), call('done', { summary: 'ok' })));
    expect(canvas.images).toEqual([1, 1]); // a click on the canvas may have changed what only the image shows
  });

  it('never with vision: false, nor to a model the proxy does not list as reading images', async () => {
    const off = await run('actions/canvas.html', MODELS.gemini, false, sequence(call('done', { summary: 'ok' })));
    expect(off.images).toEqual([0]);
    const textOnly = await run('actions/canvas.html', MODELS.openai, true, sequence(call('done', { summary: 'ok' })));
    expect(textOnly.images).toEqual([0]);
    expect(textOnly.log.some((e) => e.type === 'message' && /Screenshots are off/.test(e.text))).toBe(true);
  });
});
