/**
 * The whole task through the panel, as a person does it, on the webmail fixture with the
 * scripted model: type the task, press Enter, watch the steps (the run moves across full page
 * loads; each page resumes it in the panel with the banner and the log so far), read the
 * summary at the end.
 */
import { describe, expect, it } from 'vitest';
import { openWithAgent, useAgentStack, webmailModel } from './agent-harness';
import { checkState, inUi, LIGHT_BG, openPanel, sendTask, useUiSession, waitIn } from './ui-kit';

const session = useUiSession();
const stack = useAgentStack();

describe('the webmail task driven through the panel', () => {
  it('type the task, Enter, watch the steps across page loads, read the summary', async () => {
    stack.setPolicy(webmailModel().policy);
    const page = await openWithAgent(session, 'webmail/inbox.html', { early: true });
    await page.evaluate(() => localStorage.removeItem('mailRead'));
    await page.emulateMedia({ colorScheme: 'light' });
    await openPanel(page, stack);
    await sendTask(page, 'Find the emails Ernesto sent and summarise them');

    // The first email opens in a new page: the run resumes there, in the panel, with a banner.
    await page.waitForURL(/message\.html/, { timeout: 30_000 });
    await waitIn(page, '[data-resumed]');
    // The steps from the pages before are still in the log.
    await waitIn(page, '[data-step="1"]');
    expect(await inUi(page, '[data-step="1"]').textContent()).toContain('type [');

    const summary = await waitIn(page, '[data-end="done"] [data-summary]', 60_000);
    const text = await summary.textContent();
    for (const subject of ['Budget for Q3', 'Offsite agenda', 'Invoice 2291 overdue']) expect(text).toContain(subject);
    expect([...(await page.evaluate(() => JSON.parse(localStorage.getItem('mailRead') ?? '[]')))].sort()).toEqual([11, 3, 7].sort());
    // Every step of the run is in the final page's log, in order.
    const steps = await inUi(page, '[data-step]').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-step'))));
    expect(steps[0]).toBe(1);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(steps.length).toBeGreaterThanOrEqual(8);
    expect(await inUi(page, '[data-mask]').count()).toBe(0);
    await checkState(page, 'webmail-done', { background: LIGHT_BG });
    await page.close();
  }, 120_000);
});
