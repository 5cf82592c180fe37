/**
 * While a run is active the overlay's mask covers the page. Actions must look through the
 * agent's own UI (`data-pagehand-ui`) wherever they hit-test — clicks and the popups of
 * component-library selects alike — or the agent would be blocked by its own mask.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { open, useSession } from './harness';
import { act, appState, refOf } from './actions-helpers';

const s = useSession();

/** A stand-in for the mask: our UI attribute, covering the whole viewport on top of everything. */
async function cover(page: Page): Promise<void> {
  await page.evaluate(() => {
    const m = document.createElement('div');
    m.setAttribute('data-pagehand-ui', '');
    m.style.cssText = 'position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,.05)';
    document.body.append(m);
  });
}

describe('actions under the mask', () => {
  it('select_option picks from React component libraries whose lists the mask covers', async () => {
    const page = await open(s, 'widgets/react.html');
    await page.waitForFunction(() => document.querySelector('#state')?.textContent !== '{}');
    const flavour = await refOf(page, 'combobox', 'Flavour');
    const age = await refOf(page, 'combobox', 'Age');
    await cover(page);
    let r = await act(page, 'select_option', { ref: flavour, option: 'Vanilla' });
    expect(r.ok, r.message).toBe(true);
    r = await act(page, 'select_option', { ref: age, option: 'Twenty' });
    expect(r.ok, r.message).toBe(true);
    expect(await appState(page)).toMatchObject({ flavour: 'Vanilla', age: '20' });
    await page.close();
  });
});
