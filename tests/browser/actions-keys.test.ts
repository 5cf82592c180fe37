import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { connect, open, type Session } from './harness';
import { act, refOf } from './actions-helpers';

let s: Session;
let page: Page;
beforeAll(async () => {
  s = await connect();
});
afterAll(async () => {
  await s.close();
});

const submits = () => page.textContent('#submits');
const focused = () =>
  page.evaluate(() => {
    const a = document.activeElement as HTMLElement;
    return a?.getAttribute('aria-label') ?? a?.textContent?.trim();
  });

describe('press_key', () => {
  it('sets key, code, keyCode, which, charCode and modifiers', async () => {
    page = await open(s, 'actions/keys.html');
    const probe = await refOf(page, 'textbox', 'Probe');
    await act(page, 'press_key', { key: 'a', ref: probe });
    await act(page, 'press_key', { key: 'Control+a' });
    await act(page, 'press_key', { key: 'F5' });
    await act(page, 'press_key', { key: 'Shift+ArrowDown' });
    expect(await page.textContent('#keylog')).toBe(
      'keydown,a,KeyA,65,65,0,0,0;keypress,a,KeyA,97,97,97,0,0;keyup,a,KeyA,65,65,0,0,0;' +
        // Each modifier's own keydown/keyup around the key, the flag set from its keydown to before its keyup.
        'keydown,Control,ControlLeft,17,17,0,1,0;keydown,a,KeyA,65,65,0,1,0;keyup,a,KeyA,65,65,0,1,0;keyup,Control,ControlLeft,17,17,0,0,0;' +
        'keydown,F5,F5,116,116,0,0,0;keyup,F5,F5,116,116,0,0,0;' +
        'keydown,Shift,ShiftLeft,16,16,0,0,1;keydown,ArrowDown,ArrowDown,40,40,0,0,1;keyup,ArrowDown,ArrowDown,40,40,0,0,1;keyup,Shift,ShiftLeft,16,16,0,0,0;',
    );
    // The typed letter landed in the field and Control+a selected it: the next key replaces it.
    expect(await page.inputValue('#probe')).toBe('a');
    await act(page, 'press_key', { key: 'x', ref: probe });
    expect(await page.inputValue('#probe')).toBe('x');
    await act(page, 'press_key', { key: 'y', ref: probe });
    await act(page, 'press_key', { key: 'Backspace', ref: probe });
    expect(await page.inputValue('#probe')).toBe('x');
    await act(page, 'press_key', { key: 'Z', ref: probe });
    await act(page, 'press_key', { key: 'Home', ref: probe });
    await act(page, 'press_key', { key: 'Delete', ref: probe });
    expect(await page.inputValue('#probe')).toBe('Z');
    await act(page, 'press_key', { key: 'Control+a', ref: probe });
    await act(page, 'press_key', { key: 'Delete', ref: probe });
    expect(await page.inputValue('#probe')).toBe('');
    const r = await act(page, 'press_key', { key: 'Hyper+q' });
    expect(r).toMatchObject({ ok: false });
    expect(r.message).toMatch(/"Hyper" in "Hyper\+q" is not a modifier/);
    await page.close();
  });

  it('Enter follows the implicit submission rules', async () => {
    page = await open(s, 'actions/keys.html');
    let r = await act(page, 'press_key', { key: 'Enter', ref: await refOf(page, 'textbox', 'Username') });
    expect(r.message).toBe('Pressed Enter in textbox "Username". This submitted the form (its default button is button "Log in").');
    expect(await submits()).toBe('login-click;with-button<Log in;');
    r = await act(page, 'press_key', { key: 'Enter', ref: await refOf(page, 'textbox', 'Coupon') });
    expect(r.message).toContain('This submitted the form.');
    expect(await submits()).toBe('login-click;with-button<Log in;one-field;');
    r = await act(page, 'press_key', { key: 'Enter', ref: await refOf(page, 'textbox', 'First') });
    expect(r.message).toContain('several fields and no submit button');
    r = await act(page, 'press_key', { key: 'Enter', ref: await refOf(page, 'textbox', 'Chat') });
    expect(r.message).toBe('Pressed Enter in textbox "Chat". The page handled the key itself.');
    r = await act(page, 'press_key', { key: 'Enter', ref: await refOf(page, 'textbox', 'Code') });
    expect(r.message).toContain('its submit button is disabled');
    expect(await submits()).toBe('login-click;with-button<Log in;one-field;chat-handled;');
    await page.close();
  });

  it('Tab and Shift+Tab move focus in sequential order (tabindex, disabled, hidden, radio groups)', async () => {
    page = await open(s, 'actions/keys.html');
    await page.evaluate(() => (document.activeElement as HTMLElement)?.blur());
    const r = await act(page, 'press_key', { key: 'Tab' });
    expect(r.message).toBe('Pressed Tab on the page. Focus moved to button "First stop".');
    expect(r.changes.focused).toBe('button "First stop"');
    await act(page, 'press_key', { key: 'Tab' });
    expect(await focused()).toBe('Second stop');
    // Continue from the probe field: the next tabbables after it in tree order.
    await act(page, 'press_key', { key: 'Tab', ref: await refOf(page, 'textbox', 'Probe') });
    expect(await focused()).toBe('Plain A');
    await act(page, 'press_key', { key: 'Tab' });
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('m'); // the checked radio is the group's stop
    await act(page, 'press_key', { key: 'Tab' });
    expect(await focused()).toBe('End link');
    await act(page, 'press_key', { key: 'Shift+Tab' });
    await act(page, 'press_key', { key: 'Shift+Tab' });
    expect(await focused()).toBe('Plain A');
    await page.close();
  });

  it('arrows move radio selection, select options and ranges; Escape closes a modal dialog', async () => {
    page = await open(s, 'actions/keys.html');
    let r = await act(page, 'press_key', { key: 'ArrowDown', ref: await refOf(page, 'radio', 'Medium') });
    expect(r.message).toContain('Selected radio "Large".');
    expect(await page.isChecked('input[value=l]')).toBe(true);
    r = await act(page, 'press_key', { key: 'ArrowDown', ref: await refOf(page, 'combobox', 'Speed') });
    expect(r.message).toContain('Selected "Fast".'); // skips the disabled option
    r = await act(page, 'press_key', { key: 'ArrowRight', ref: await refOf(page, 'slider', 'Level') });
    expect(r.message).toContain('The value is now 6.');
    await act(page, 'press_key', { key: 'End' });
    expect(await page.inputValue('#level')).toBe('10');
    expect(await page.textContent('#changes')).toBe('size=l;speed=Fast;level=6;level=10;');

    r = await act(page, 'click', { ref: await refOf(page, 'button', 'Open settings') });
    expect(r.changes.dialogOpened).toEqual(['Settings']);
    r = await act(page, 'press_key', { key: 'Escape' });
    expect(r.message).toMatch(/^Pressed Escape .*The dialog closed\./);
    expect(r.changes.dialogClosed).toEqual(['Settings']);
    expect(await page.evaluate(() => (document.getElementById('settings') as HTMLDialogElement).open)).toBe(false);
    await page.close();
  });

  it('Escape reaches custom modals through their keydown handlers (React)', async () => {
    page = await open(s, 'actions/react.html');
    await act(page, 'click', { ref: await refOf(page, 'button', 'Delete item') });
    const r = await act(page, 'press_key', { key: 'Escape' });
    expect(r.ok).toBe(true);
    expect(r.changes.dialogClosed).toEqual(['Delete item?']);
    await page.close();
  });
});
