import { describe, expect, it } from 'vitest';
import { open, useSession } from './harness';
import { act, appState, refOf } from './actions-helpers';

const s = useSession();

describe('select_option on native <select>', () => {
  it('selects by label, value, case-insensitive and unique partial label, firing input+change once', async () => {
    const page = await open(s, 'actions/select.html');
    const ref = await refOf(page, 'combobox', 'Country');
    let r = await act(page, 'select_option', { ref, option: 'Finland' });
    expect(r).toMatchObject({ ok: true, message: 'Selected "Finland" in combobox "Country".', changes: { value: 'Finland' } });
    r = await act(page, 'select_option', { ref, option: 'us' });
    expect(r.changes.value).toBe('United States');
    r = await act(page, 'select_option', { ref, option: 'united kingdom' });
    expect(r.changes.value).toBe('United Kingdom');
    r = await act(page, 'select_option', { ref, option: 'Fran' });
    expect(r.changes.value).toBe('France');
    r = await act(page, 'select_option', { ref, option: 'France' });
    expect(r.message).toBe('"France" was already selected in combobox "Country".');
    expect(await page.textContent('#log')).toBe('input:fi;change:fi;input:us;change:us;input:uk;change:uk;input:fr;change:fr;');
    await page.close();
  });

  it('lists matches when ambiguous, options when nothing matches, and refuses disabled options', async () => {
    const page = await open(s, 'actions/select.html');
    const ref = await refOf(page, 'combobox', 'Country');
    let r = await act(page, 'select_option', { ref, option: 'United' });
    expect(r).toMatchObject({ ok: false });
    expect(r.message).toBe('"United" matches several options in combobox "Country": United States, United Kingdom. Use the full label.');
    r = await act(page, 'select_option', { ref, option: 'Frence' });
    expect(r.message).toBe('No option matching "Frence" in combobox "Country"; options: Choose…, France, Finland, United States, United Kingdom, Atlantis.');
    r = await act(page, 'select_option', { ref, option: 'Atlantis' });
    expect(r.message).toMatch(/"Atlantis" is disabled/);
    expect(await page.textContent('#log')).toBe('');
    await page.close();
  });

  it('selects several options in a multiple select', async () => {
    const page = await open(s, 'actions/select.html');
    const ref = await refOf(page, 'listbox', 'Toppings');
    const r = await act(page, 'select_option', { ref, option: ['Ham', 'Olives'] });
    expect(r.ok, r.message).toBe(true);
    expect(await page.textContent('#log')).toBe('toppings:Ham+Olives;');
    await page.close();
  });
});

describe('select_option on ARIA widgets', () => {
  it('opens a menu button whose menu renders at the end of body and clicks the item', async () => {
    const page = await open(s, 'actions/select.html');
    const r = await act(page, 'select_option', { ref: await refOf(page, 'button', 'Actions'), option: 'Duplicate' });
    expect(r.ok, r.message).toBe(true);
    expect(r.message).toMatch(/^Selected "Duplicate" in button "Actions"\./);
    expect(await page.textContent('#did')).toBe('Duplicate');
    await page.close();
  });

  it('types into an autocomplete, waits for its request, and picks the option', async () => {
    const page = await open(s, 'actions/select.html');
    const r = await act(page, 'select_option', { ref: await refOf(page, 'combobox', 'City'), option: 'Porto' });
    expect(r.ok, r.message).toBe(true);
    expect(await page.inputValue('#city')).toBe('Porto');
    expect(r.changes.value).toBe('Porto');
    await page.close();
  });

  it('Vue: a teleported listbox and a v-model select', async () => {
    const page = await open(s, 'actions/vue.html');
    let r = await act(page, 'select_option', { ref: await refOf(page, 'combobox', 'Fruit'), option: 'Cherry' });
    expect(r.ok, r.message).toBe(true);
    expect(await appState(page)).toMatchObject({ fruit: 'Cherry' });
    r = await act(page, 'select_option', { ref: await refOf(page, 'combobox', 'Size'), option: 'Large' });
    expect(r.ok).toBe(true);
    expect(await appState(page)).toMatchObject({ size: 'l' });
    await page.close();
  });
});
