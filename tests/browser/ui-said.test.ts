/**
 * pagehand's own words in the panel's language (common/said.ts): a risky step's reason on the
 * confirm card in French and Arabic (right to left; photographed, .tmp/ui-shots/), a refused
 * run's ending (the model gave up without a reason after the user said no) and an action that
 * failed (its result under Details), each worded by the language's file, not the engine's English.
 */
import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Strings } from '../../client/ui/i18n';
import { loadStrings } from '../../client/ui/lang-load';
import { call, latestMap, refFor, sequence, useAgentStack } from './agent-harness';
import { bundleSource, origin } from './harness';
import { clickAllow, inUi, openPanel, sendTask, useUiSession, waitIn } from './ui-kit';

const session = useUiSession();
const stack = useAgentStack();
const fr = (await loadStrings('fr')) as Required<Strings>;
const ar = (await loadStrings('ar')) as Required<Strings>;

async function panelIn(lang: string) {
  const page = await session.context.newPage();
  await page.goto(`${origin()}/fixtures/ui/account.html`);
  await page.addScriptTag({ content: bundleSource() });
  await page.emulateMedia({ colorScheme: 'light' });
  await openPanel(page, stack, { lang });
  return page;
}

describe('pagehand’s own words, translated', () => {
  for (const [code, t] of [
    ['fr', fr],
    ['ar', ar],
  ] as const) {
    it(`${code}: the confirm card says why in ${code}; the refused run's ending too`, async () => {
      stack.setPolicy(
        sequence((req) => call('click', { ref: refFor(latestMap(req), 'button', 'Delete account') }, 'goal: delete the account'), call('fail', { reason: '' })),
      );
      const page = await panelIn(code);
      await sendTask(page, 'delete my account');
      await waitIn(page, '[data-confirm][data-armed]');
      const why = await inUi(page, '#ph-confirm-why').textContent();
      expect(why).toBe(t.said.does({ kind: 'deletion' }));
      expect(why).not.toMatch(/may delete|Clicking/);
      if (code === 'ar') {
        mkdirSync('.tmp/ui-shots', { recursive: true });
        await page.screenshot({ path: '.tmp/ui-shots/said-ar-confirm.png' });
      }
      await inUi(page, '[data-deny]').click();
      await waitIn(page, '[data-end="failed"]');
      const end = await inUi(page, '[data-end]').textContent();
      expect(end).toContain(t.refusedStep(t.kinds.deletion, 'Delete account', true));
      expect(await inUi(page, '[data-summary]').textContent()).toBe(t.said.gaveUp({}));
      expect(end).not.toContain('gave up without a reason');
      await page.close();
    });
  }

  it('fr: an action that failed says why in French under Details', async () => {
    stack.setPolicy(
      sequence(
        (req) => call('click', { ref: refFor(latestMap(req), 'button', 'Delete account') }, 'goal: delete the account'),
        call('done', { summary: 'Fini.', success: true }),
      ),
    );
    const page = await panelIn('fr');
    // The button goes away after the model has seen it (once the user is asked): the click finds no element.
    await page.evaluate(() => {
      const b = [...document.querySelectorAll('button')].find((x) => x.textContent?.includes('Delete account'))!;
      (window as any).__hide = () => b.remove();
    });
    await sendTask(page, 'supprime mon compte');
    await waitIn(page, '[data-confirm][data-armed]');
    await page.evaluate(() => (window as any).__hide());
    await clickAllow(page);
    await waitIn(page, '[data-end]');
    const results = await inUi(page, '.log details dd').allTextContents();
    expect(results).toContain(fr.said.gone({}));
    await page.close();
  });
});
