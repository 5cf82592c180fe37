/**
 * A replay's ending in the panel's language (common/said.ts): a site's recording, one click in
 * the panel, ends in French — replayed as recorded, or stopped at the step the user did not
 * allow — worded by the language's file, not the engine's English (which the result's summary
 * still carries, for the model and the step log). No model call: every step matches. And what
 * covers a button is named by its role in French ("la boîte de dialogue", not "dialog").
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Recording } from '../../client/agent/public-types';
import type { Strings } from '../../client/ui/i18n';
import { loadStrings } from '../../client/ui/lang-load';
import { call, latestMap, refFor, sequence, useAgentStack } from './agent-harness';
import { bundleSource, origin } from './harness';
import { clickAllow, inUi, openPanel, sendTask, useUiSession, waitIn } from './ui-kit';

const session = useUiSession();
const stack = useAgentStack();
const fr = (await loadStrings('fr')) as Required<Strings>;

/** The account page's one risky step, as a site ships it (the JSON a run returned). */
const recording: Recording = {
  pagehand: 'recording',
  v: 1,
  task: 'Supprimer le compte',
  url: '',
  steps: [{ action: 'click', args: {}, target: { role: 'button', name: 'Delete account' } }],
};

/** The account page in a French panel, the recording offered as the site's task; the model must not be asked. */
async function replayIn(): Promise<{ page: Page; calls: () => number }> {
  let calls = 0;
  stack.setPolicy(() => {
    calls++;
    throw new Error('the model was asked during a replay');
  });
  const page = await session.context.newPage();
  await page.goto(`${origin()}/fixtures/ui/account.html`);
  await page.addScriptTag({ content: bundleSource() });
  await page.evaluate((r) => (window as any).pagehand.init({ recordings: [r] }), recording);
  await openPanel(page, stack, { lang: 'fr' });
  await inUi(page, '[data-site-tasks] button').click();
  await waitIn(page, '[data-confirm][data-armed]', 30_000);
  return { page, calls: () => calls };
}

describe('a replay’s ending, translated', () => {
  it('fr: replayed as recorded, the end card says so in French', async () => {
    const { page, calls } = await replayIn();
    await clickAllow(page);
    await waitIn(page, '[data-end="done"]', 30_000);
    const summary = await inUi(page, '[data-summary]').textContent();
    expect(summary).toBe(fr.said.replayed({ replayed: 1, repaired: 0 }));
    expect(summary).not.toMatch(/Replayed the recording/);
    expect(await page.evaluate(() => (window as any).deleted)).toBe(1);
    expect(calls()).toBe(0);
    await page.close();
  });

  it('fr: a recorded step the user did not allow ends the replay there, said in French', async () => {
    const { page, calls } = await replayIn();
    await inUi(page, '[data-deny]').click();
    await waitIn(page, '[data-end="failed"]', 30_000);
    const summary = await inUi(page, '[data-summary]').textContent();
    expect(summary).toBe(fr.said.replayDenied({ step: 1 }));
    expect(summary).not.toMatch(/did not allow step/);
    expect(await page.evaluate(() => (window as any).deleted)).toBe(0);
    expect(calls()).toBe(0);
    await page.close();
  });

  it('fr: a button a cookie dialog covers: the dialog is named in French under Details', async () => {
    stack.setPolicy(
      sequence((req) => call('click', { ref: refFor(latestMap(req), 'button', 'Buy now') }, 'goal: buy'), call('done', { summary: 'Fini.', success: false })),
    );
    const page = await session.context.newPage();
    await page.goto(`${origin()}/fixtures/actions/plain.html`);
    await page.addScriptTag({ content: bundleSource() });
    await openPanel(page, stack, { lang: 'fr' });
    await sendTask(page, 'achète');
    // The banner shows up after the model has seen the page (as consent banners do), while the user is asked.
    await waitIn(page, '[data-confirm][data-armed]', 30_000);
    await page.evaluate(() => {
      document.getElementById('banner')!.style.display = 'block';
    });
    await clickAllow(page);
    await waitIn(page, '[data-end]', 30_000);
    const results = await inUi(page, '.log details dd').allTextContents();
    expect(results).toContain(fr.said.covered({ cover: 'dialog "Cookie consent"', role: 'dialog', name: 'Cookie consent' }));
    expect(results.join(' ')).toContain('la boîte de dialogue «\u00a0Cookie consent\u00a0»');
    expect(await page.evaluate(() => (window as any).__buy)).toBe(0);
    await page.close();
  });
});
