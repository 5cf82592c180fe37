/**
 * Click, type and select_option on React, once per supported major (issue 3: actions must work on
 * React 18 and 19). Both fixtures are the same app (src/react-app.tsx), bundled against each
 * React by build-fixtures.ts; every test first checks the page really runs the React it names.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { open, useSession } from './harness';
import { act, appState, refOf } from './actions-helpers';

const s = useSession();

const reacts = [
  { version: 19, fixture: 'actions/react.html' },
  { version: 18, fixture: 'actions/react18.html' },
];

describe.each(reacts)('React $version', ({ version, fixture }) => {
  /** Opens the fixture once the app has rendered, and fails unless react and react-dom are `version`.x. */
  async function openReact(): Promise<Page> {
    const page = await open(s, fixture);
    await page.waitForFunction(() => !!document.getElementById('buy'));
    const versions: { react: string; reactDom: string } = await page.evaluate(() => (window as any).__reactVersions);
    expect(versions.react).toMatch(new RegExp(`^${version}\\.`));
    expect(versions.reactDom).toMatch(new RegExp(`^${version}\\.`));
    return page;
  }

  describe('click', () => {
    it('fires React handlers: tabs, hover menu, modal open/confirm with dialog changes', async () => {
      const page = await openReact();
      let r = await act(page, 'click', { ref: await refOf(page, 'tab', 'Reviews') });
      expect(r.ok).toBe(true);
      expect(await page.textContent('#panel')).toBe('Reviews panel');

      r = await act(page, 'hover', { ref: await refOf(page, 'button', 'Products') });
      expect(r.ok).toBe(true);
      expect(r.message).toMatch(/^Hovering over button "Products"\. 3 new elements appeared: menuitem "Laptops", menuitem "Phones", menuitem "Tablets"\./);
      r = await act(page, 'click', { ref: await refOf(page, 'menuitem', 'Phones') });
      expect(r.ok, r.message).toBe(true);
      expect(await page.textContent('#picked')).toBe('Phones');

      r = await act(page, 'click', { ref: await refOf(page, 'button', 'Delete item') });
      expect(r.message).toBe(
        'Clicked button "Delete item". A dialog "Delete item?" opened. 2 new elements appeared: button "Cancel", button "Confirm delete".',
      );
      expect(r.changes.dialogOpened).toEqual(['Delete item?']);
      r = await act(page, 'click', { ref: await refOf(page, 'button', 'Confirm delete') });
      expect(r.changes.dialogClosed).toEqual(['Delete item?']);
      expect(await page.textContent('#deleted')).toBe('Item deleted');
      await page.close();
    });

    it('Escape reaches the modal through its keydown handler', async () => {
      const page = await openReact();
      await act(page, 'click', { ref: await refOf(page, 'button', 'Delete item') });
      const r = await act(page, 'press_key', { key: 'Escape' });
      expect(r.ok).toBe(true);
      expect(r.changes.dialogClosed).toEqual(['Delete item?']);
      await page.close();
    });

    it('toggles the controlled checkbox exactly once per click, and picks a radio, in React state', async () => {
      const page = await openReact();
      const agree = await refOf(page, 'checkbox', 'I agree');
      let r = await act(page, 'click', { ref: agree });
      expect(r.message).toContain('It is now checked.');
      expect(r.changes.checked).toBe(true);
      expect(await appState(page)).toMatchObject({ agree: true });
      r = await act(page, 'click', { ref: agree });
      expect(r.message).toContain('It is now unchecked.');
      expect(await appState(page)).toMatchObject({ agree: false });
      r = await act(page, 'click', { ref: await refOf(page, 'radio', 'Pro') });
      expect(r.message).toContain('It is now checked.');
      expect(await appState(page)).toMatchObject({ agree: false, plan: 'pro' });
      // Checking again after the radio: both controlled inputs hold their state together.
      await act(page, 'click', { ref: agree });
      expect(await appState(page)).toMatchObject({ agree: true, plan: 'pro' });
      await page.close();
    });

    it('gives a stale error for a node React replaced after the map, and never clicks the detached node', async () => {
      const page = await openReact();
      const ref = await refOf(page, 'button', 'Buy now');
      await page.evaluate(() => (window as any).__rerender());
      await page.waitForFunction(() => !!document.getElementById('buy'));
      const r = await act(page, 'click', { ref });
      expect(r.ok).toBe(false);
      expect(r.message).toMatch(/Element \[\d+\] button "Buy now" is no longer on the page/);
      expect(await page.evaluate(() => (window as any).__buyClicks ?? 0)).toBe(0);
      // After observing again, the replacement is clickable.
      const r2 = await act(page, 'click', { ref: await refOf(page, 'button', 'Buy now') });
      expect(r2.ok).toBe(true);
      expect(await page.evaluate(() => [(window as any).__buyClicks, (window as any).__buyGen])).toEqual([1, 1]);
      await page.close();
    });
  });

  describe('type into controlled inputs', () => {
    it('updates React state for text, email, textarea (replace by default, append on request), and clear', async () => {
      const page = await openReact();
      const name = await refOf(page, 'textbox', 'Full name');
      let r = await act(page, 'type', { ref: name, text: 'Ada' });
      expect(r).toMatchObject({ ok: true, message: 'Typed "Ada" into textbox "Full name".', changes: { value: 'Ada' } });
      r = await act(page, 'type', { ref: name, text: ' Lovelace', replace: false });
      expect(r.changes.value).toBe('Ada Lovelace');
      expect(await appState(page)).toMatchObject({ name: 'Ada Lovelace' });
      r = await act(page, 'type', { ref: name, text: 'Grace' });
      expect(r.changes.value).toBe('Grace');
      await act(page, 'type', { ref: await refOf(page, 'textbox', 'Email'), text: 'g@example.test' });
      await act(page, 'type', { ref: await refOf(page, 'textbox', 'Notes'), text: 'line one\nline two' });
      expect(await appState(page)).toMatchObject({ name: 'Grace', email: 'g@example.test', notes: 'line one\nline two' });
      r = await act(page, 'clear', { ref: name });
      expect(r).toMatchObject({ ok: true, message: 'Cleared textbox "Full name".', changes: { value: '' } });
      expect(await appState(page)).toMatchObject({ name: '' });
      await page.close();
    });

    it('formats date, number and range inputs, refuses ambiguous dates, and honours maxlength', async () => {
      const page = await openReact();
      const date = await refOf(page, 'textbox', 'Arrival date').catch(() => refOf(page, 'date', 'Arrival date'));
      let r = await act(page, 'type', { ref: date, text: 'March 5, 2024' });
      expect(r.ok, r.message).toBe(true);
      expect(r.message).toContain('Entered as "2024-03-05".');
      r = await act(page, 'type', { ref: date, text: '05/03/2024' });
      expect(r.ok).toBe(false);
      expect(r.message).toMatch(/ambiguous.*YYYY-MM-DD/);
      r = await act(page, 'type', { ref: await refOf(page, 'spinbutton', 'Quantity'), text: '7' });
      expect(r.changes.value).toBe('7');
      r = await act(page, 'type', { ref: await refOf(page, 'slider', 'Volume'), text: '73' });
      expect(r.message).toContain('The slider moved to 70 (its nearest step).');
      r = await act(page, 'type', { ref: await refOf(page, 'textbox', 'ZIP code'), text: '1234567' });
      expect(r.ok).toBe(true);
      expect(r.message).toContain('Only 5 characters fit (maxlength 5); the last 2 were dropped.');
      expect(await appState(page)).toMatchObject({ when: '2024-03-05', qty: '7', volume: '70', zip: '12345' });
      await page.close();
    });

    it('submits the form with submit: true (Enter clicks the default button), with the typed value already in React state', async () => {
      const page = await openReact();
      const r = await act(page, 'type', { ref: await refOf(page, 'textbox', 'Full name'), text: 'Linus', submit: true });
      expect(r.ok).toBe(true);
      expect(r.message).toContain('Pressed Enter in textbox "Full name". This submitted the form (its default button is button "Save profile").');
      expect(JSON.parse((await page.textContent('#submitted'))!)).toMatchObject({ name: 'Linus' });
      await page.close();
    });

    it('refuses to type into checkboxes and selects with a hint', async () => {
      const page = await openReact();
      let r = await act(page, 'type', { ref: await refOf(page, 'checkbox', 'I agree'), text: 'yes' });
      expect(r).toMatchObject({ ok: false });
      expect(r.message).toMatch(/is a checkbox; use click to change it\./);
      r = await act(page, 'type', { ref: await refOf(page, 'combobox', 'Country'), text: 'France' });
      expect(r.message).toMatch(/is a drop-down; use select_option/);
      await page.close();
    });
  });

  describe('select_option', () => {
    it('chooses from a combobox whose listbox is a portal, into React state, and lists the options on a miss', async () => {
      const page = await openReact();
      const ref = await refOf(page, 'combobox', 'Destination');
      let r = await act(page, 'select_option', { ref, option: 'Greece' });
      expect(r.ok, r.message).toBe(true);
      expect(await appState(page)).toMatchObject({ dest: 'Greece' });
      expect(r.changes.value).toBe('Greece');
      r = await act(page, 'select_option', { ref, option: 'Narnia' });
      expect(r.ok).toBe(false);
      expect(r.message).toBe(
        'No option matching "Narnia" in combobox "Destination"; options: France, Finland, Germany, Greece, United States, United Kingdom.',
      );
      expect(await appState(page)).toMatchObject({ dest: 'Greece' });
      // A native select in the same controlled form keeps both choices in React state.
      r = await act(page, 'select_option', { ref: await refOf(page, 'combobox', 'Country'), option: 'Germany' });
      expect(r.ok, r.message).toBe(true);
      expect(await appState(page)).toMatchObject({ dest: 'Greece', country: 'de' });
      await page.close();
    });

    it('chooses in a native select in a controlled form', async () => {
      const page = await openReact();
      const r = await act(page, 'select_option', { ref: await refOf(page, 'combobox', 'Country'), option: 'Germany' });
      expect(r.ok).toBe(true);
      expect(await appState(page)).toMatchObject({ country: 'de' });
      await page.close();
    });
  });
});
