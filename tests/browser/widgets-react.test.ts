/**
 * React 19 component-library selects from npm — react-select, MUI, Ant Design (virtualised),
 * Headless UI, Radix — driven only through `pagehand.map()` and `pagehand.act()`, judged by each
 * library's own value as the app mirrors it into #state.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { open, useSession } from './harness';
import { act, appState, mapElements, refOf } from './actions-helpers';

const s = useSession();

async function openApp(): Promise<Page> {
  const page = await open(s, 'widgets/react.html');
  await page.waitForFunction(() => document.querySelector('#state')?.textContent !== '{}');
  return page;
}

describe('select_option on React component libraries', () => {
  it('react-select: single, and several options at once in a multi-select whose menu closes after each pick', async () => {
    const page = await openApp();
    let r = await act(page, 'select_option', { ref: await refOf(page, 'combobox', 'Flavour'), option: 'Vanilla' });
    expect(r).toMatchObject({ ok: true, changes: { value: 'Vanilla' } });
    expect(await appState(page)).toMatchObject({ flavour: 'Vanilla' });
    r = await act(page, 'select_option', { ref: await refOf(page, 'combobox', 'Toppings'), option: ['Nuts', 'Wafers', 'Fudge'] });
    expect(r.ok, r.message).toBe(true);
    expect(r.message).toMatch(/^Selected "Nuts", "Wafers", "Fudge" in combobox "Toppings"\./);
    expect(r.changes.value).toBe('Nuts, Wafers, Fudge');
    expect(await appState(page)).toMatchObject({ toppings: ['Nuts', 'Wafers', 'Fudge'] });
    await page.close();
  });

  it('MUI Select, Headless UI Listbox and Radix Select', async () => {
    const page = await openApp();
    let r = await act(page, 'select_option', { ref: await refOf(page, 'combobox', 'Age'), option: 'Twenty' });
    expect(r.ok, r.message).toBe(true);
    r = await act(page, 'select_option', { ref: await refOf(page, 'button', 'Wade Cooper'), option: 'Tom Cook' });
    expect(r.ok, r.message).toBe(true);
    r = await act(page, 'select_option', { ref: await refOf(page, 'combobox', 'Theme'), option: 'Dark' });
    expect(r.ok, r.message).toBe(true);
    expect(await appState(page)).toMatchObject({ age: '20', person: 'Tom Cook', theme: 'dark' });
    await page.close();
  });

  it('Ant Design: reads the visible rows of a virtualised list and wheels it to an option not rendered yet, never typing into its read-only input', async () => {
    const page = await openApp();
    const ref = await refOf(page, 'combobox', 'Fruit');
    await page.evaluate(() => {
      const input = document.querySelector('#ant-fruit') as HTMLInputElement;
      (window as any).typedInto = 0;
      input.addEventListener('beforeinput', () => (window as any).typedInto++);
    });
    let r = await act(page, 'select_option', { ref, option: 'Kumquat' });
    expect(r).toMatchObject({ ok: false });
    // Every fruit the list showed while it was wheeled through, not the two ARIA stand-ins.
    expect(r.message).toMatch(
      /^No option matching "Kumquat" in combobox "Fruit"; options: Apple, Banana, Cherry, Date, Elderberry, Fig, Grape, Honeydew, Kiwi, Lemon, Mango, Nectarine, … \(20 options\)\.$/,
    );
    r = await act(page, 'select_option', { ref, option: 'Watermelon' });
    expect(r.ok, r.message).toBe(true);
    expect(await appState(page)).toMatchObject({ fruit: 'Watermelon' });
    expect(await page.evaluate(() => (window as any).typedInto)).toBe(0);
    await page.close();
  });

  it('Ant Design with search: types to filter', async () => {
    const page = await openApp();
    const r = await act(page, 'select_option', { ref: await refOf(page, 'combobox', 'City'), option: 'Porto' });
    expect(r.ok, r.message).toBe(true);
    expect(await appState(page)).toMatchObject({ city: 'Porto' });
    await page.close();
  });
});

describe('scroll on a list that hides its overflow and moves itself on wheel', () => {
  it('wheels the Ant Design list: later rows come into view', async () => {
    const page = await openApp();
    await act(page, 'click', { ref: await refOf(page, 'combobox', 'Fruit') });
    await page.waitForSelector('.ant-select-item-option[title="Apple"]', { state: 'visible' });
    const apple = (await mapElements(page)).find((e) => e.name === 'Apple')!.ref;
    const r = await act(page, 'scroll', { ref: apple, direction: 'down' });
    expect(r.ok, r.message).toBe(true);
    expect(r.message).toMatch(/^Scrolled the list around .*"Apple" down by 1 page/);
    const names = (await mapElements(page)).map((e) => e.name);
    expect(names).toContain('Raspberry');
    expect(await page.isVisible('.ant-select-item-option[title="Raspberry"]')).toBe(true);
    expect((await appState(page)).fruit).toBeUndefined(); // scrolling picked nothing
    await page.close();
  });
});
