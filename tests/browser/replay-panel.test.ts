/**
 * Recordings in the panel: a run the user finished offers "Run again" (and "Save as
 * recording"), which replays it with no model call; a risky step still waits for the user's
 * Allow in the panel. The site's `init({ recordings })` are one-click tasks there — on the
 * site's own page only: a stranger's page cannot put its steps in the panel as tasks.
 */
import { describe, expect, it } from 'vitest';
import type { Recording } from '../../client/agent/public-types';
import { MODELS, openWithAgent, useAgentStack } from './agent-harness';
import { origin } from './harness';
import { task } from './replay-kit';
import { bookmarkletReady, clickAllow, clickBookmarklet, inUi, openPanel, panel, sendTask, useUiSession, waitIn } from './ui-kit';

const session = useUiSession();
const stack = useAgentStack();

/** A model that must not be asked: every call it gets is counted and answered with an error. */
function noModel(): { calls: () => number } {
  let n = 0;
  stack.setPolicy(() => {
    n++;
    throw new Error('the model was asked during a replay');
  });
  return { calls: () => n };
}

describe('recordings in the panel', () => {
  it('a finished run offers Run again: replayed with no model call, the payment still asked in the panel', async () => {
    const t = task('shop');
    const page = await openWithAgent(session, t.path, { early: true });
    await t.reset(page);
    stack.setPolicy(t.model());
    await openPanel(page, stack);
    await sendTask(page, t.task);
    await clickAllow(page);
    await waitIn(page, '[data-end="done"]', 30_000);
    expect(await t.solved(page)).toBe(true);
    await expect(inUi(page, '[data-save-recording]').count()).resolves.toBe(1);

    const model = noModel();
    await inUi(page, '[data-run-again]').click();
    // The replay starts on the recording's first page, then goes to checkout, where it asks.
    await clickAllow(page);
    await waitIn(page, '[data-end="done"]', 30_000);
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('shopOrders') ?? '[]').length)).toBe(2);
    expect(model.calls()).toBe(0);
    await page.close();
  });

  it("the site's recordings are one-click tasks", async () => {
    const t = task('lazy');
    // Made by hand from the recorded steps' shape (a site ships the JSON its runs returned).
    const recording: Recording = {
      pagehand: 'recording',
      v: 1,
      task: 'Open the Quantum widget',
      url: '',
      steps: [
        ...Array.from({ length: 8 }, () => ({ action: 'scroll', args: { direction: 'down', pages: 3 } })),
        { action: 'click', args: {}, target: { role: 'button', name: 'Open', near: 'Item 137 — Quantum widget SKU BW-1137' } },
      ],
    };
    const page = await openWithAgent(session, t.path, { early: false });
    await t.reset(page);
    await page.evaluate((r) => (window as any).pagehand.init({ recordings: [r] }), recording);
    const model = noModel();
    await openPanel(page, stack);
    const button = inUi(page, '[data-site-tasks] button');
    await expect(button.textContent()).resolves.toBe('Open the Quantum widget');
    await button.click();
    await waitIn(page, '[data-end="done"]', 30_000);
    expect(await t.solved(page)).toBe(true);
    expect(model.calls()).toBe(0);
    await page.close();
  });

  it("a stranger's page cannot offer recordings in the panel", async () => {
    // No bundle of the site's: the user's bookmarklet brings pagehand.
    const page = await session.context.newPage();
    await page.goto(`${origin()}/fixtures/agent/lazy/list.html`);
    await clickBookmarklet(page, stack);
    await bookmarkletReady(page);
    const warned: string[] = [];
    page.on('console', (m) => warned.push(m.text()));
    await page.evaluate(() =>
      (window as any).pagehand.init({
        recordings: [
          { pagehand: 'recording', v: 1, task: 'Check my order', url: '', steps: [{ action: 'click', args: {}, target: { role: 'button', name: 'Open' } }] },
        ],
      }),
    );
    await page.evaluate((o) => (window as any).pagehand.open(o), { model: MODELS.openai });
    await panel(page).waitFor();
    await expect(inUi(page, '[data-site-tasks]').count()).resolves.toBe(0);
    expect(warned.some((w) => /init's recordings is ignored here/.test(w))).toBe(true);
    await page.close();
  });
});
