/**
 * Custom selects that hide the native <select> (select2, Choices.js, chosen, jQuery UI
 * selectmenu — installed from npm — and the selectric pattern), driven only through
 * `pagehand.map()` and `pagehand.act()`, judged by the select's value, the widget's own display
 * and the change events the page saw.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { open, useSession } from './harness';
import { act } from './actions-helpers';

const s = useSession();

interface Mapped {
  ref: string;
  role: string;
  name: string;
  states: { value?: string };
}

async function openSelects(): Promise<Page> {
  const page = await open(s, 'widgets/selects.html');
  await page.waitForFunction(() => (window as any).widgetsReady === true);
  return page;
}

async function mapped(page: Page): Promise<Mapped[]> {
  return page.evaluate(() =>
    (window as any).pagehand.map({ maxTokens: 50_000 }).elements.map((e: Mapped) => ({ ref: e.ref, role: e.role, name: e.name, states: e.states })),
  );
}

/** The one mapped element with this role and name. */
async function find(page: Page, role: string, name: string): Promise<Mapped> {
  const all = await mapped(page);
  const hits = all.filter((e) => e.role === role && e.name === name);
  if (hits.length !== 1) throw new Error(`${hits.length} × ${role} "${name}" in:\n${all.map((e) => `[${e.ref}] ${e.role} "${e.name}"`).join('\n')}`);
  return hits[0]!;
}

const log = (page: Page) => page.textContent('#log');
const val = (page: Page, id: string) => page.evaluate((i) => (window as any).jQuery(`#${i}`).val(), id);

describe('the map reads a stand-in as the hidden select it replaces', () => {
  it('names each widget after its <label for> and gives the select’s current value', async () => {
    const page = await openSelects();
    const expected: Array<[string, string | undefined]> = [
      ['Country', '--'], // select2
      ['Colours', 'Blue, Green'], // select2 multi
      ['Size', 'Medium'], // Choices.js
      ['Favourite colours', 'Blue'], // Choices.js multi
      ['Fruit', '--'], // chosen
      ['Tags', undefined], // chosen multi, nothing chosen
      ['Speed', 'Medium'], // jQuery UI selectmenu (its label now points at the stand-in)
      ['T-shirt size', 'Small'], // selectric pattern: role-less div
    ];
    for (const [name, value] of expected) {
      const e = await find(page, 'combobox', name);
      expect(e.states.value, name).toBe(value);
    }
    const text = await page.evaluate(() => (window as any).pagehand.map().text);
    expect(text).toMatch(/combobox "Favourite colours" value="Blue"/);
    expect(text).not.toMatch(/--RedGreen/);
    await page.close();
  });

  it('leaves a hidden select followed by an unrelated button alone, and a select in a hidden section', async () => {
    const page = await open(
      s,
      `<label for="h">Region</label><select id="h" hidden><option>North</option><option selected>South</option></select><button>Continue</button>
       <div><div style="visibility:hidden"><select aria-label="Sort"><option>Newest</option></select></div><span style="cursor:pointer" onclick="">Newest</span></div>`,
    );
    await find(page, 'button', 'Continue');
    const all = await mapped(page);
    expect(
      all.filter((e) => e.name === 'Region' || e.name === 'Sort'),
      JSON.stringify(all),
    ).toEqual([]);
    await page.close();
  });
});

describe('select_option picks through the widget; the hidden select gets the value and one change', () => {
  it('select2, single and multiple', async () => {
    const page = await openSelects();
    let r = await act(page, 'select_option', { ref: (await find(page, 'combobox', 'Country')).ref, option: 'Finland' });
    expect(r).toMatchObject({ ok: true, message: expect.stringMatching(/^Selected "Finland" in combobox "Country"\./), changes: { value: 'Finland' } });
    expect(await val(page, 's2-country')).toBe('fi');
    expect(await page.getAttribute('#select2-s2-country-container', 'title')).toBe('Finland');
    r = await act(page, 'select_option', { ref: (await find(page, 'combobox', 'Colours')).ref, option: ['Red', 'Orange'] });
    expect(r.ok, r.message).toBe(true);
    expect(r.message).not.toMatch(/directly/);
    expect(await val(page, 's2-colours')).toEqual(['Red', 'Blue', 'Green', 'Orange']);
    expect(await page.$$eval('.select2-selection__choice', (els) => els.map((e) => e.getAttribute('title')))).toEqual(['Red', 'Blue', 'Green', 'Orange']);
    expect(await log(page)).toBe('jq:s2-country=fi;jq:s2-colours=Red,Blue,Green;jq:s2-colours=Red,Blue,Green,Orange;');
    await page.close();
  });

  it('Choices.js, single and multiple', async () => {
    const page = await openSelects();
    let r = await act(page, 'select_option', { ref: (await find(page, 'combobox', 'Size')).ref, option: 'Large' });
    expect(r.ok, r.message).toBe(true);
    expect(r.message).not.toMatch(/directly/);
    expect(await page.inputValue('#ch-size')).toBe('l');
    expect(await page.textContent('.choices[data-type=select-one] .choices__list--single')).toBe('Large');
    r = await act(page, 'select_option', { ref: (await find(page, 'combobox', 'Favourite colours')).ref, option: ['Purple', 'Red'] });
    expect(r.ok, r.message).toBe(true);
    expect(r.message).not.toMatch(/directly/);
    expect(await page.$eval('#ch-colours', (sel) => [...(sel as HTMLSelectElement).selectedOptions].map((o) => o.value).sort())).toEqual([
      'Blue',
      'Purple',
      'Red',
    ]);
    expect(await page.$$eval('.choices__list--multiple .choices__item', (els) => els.map((e) => e.getAttribute('data-value')))).toEqual([
      'Blue',
      'Purple',
      'Red',
    ]);
    expect(await log(page)).toBe('native:ch-size=l;native:ch-colours=Blue,Purple;native:ch-colours=Red,Blue,Purple;');
    await page.close();
  });

  it('chosen, single and multiple', async () => {
    const page = await openSelects();
    let r = await act(page, 'select_option', { ref: (await find(page, 'combobox', 'Fruit')).ref, option: 'Cherry' });
    expect(r.ok, r.message).toBe(true);
    expect(r.message).not.toMatch(/directly/);
    expect(await val(page, 'cz-fruit')).toBe('Cherry');
    expect(await page.textContent('#cz_fruit_chosen .chosen-single span')).toBe('Cherry');
    r = await act(page, 'select_option', { ref: (await find(page, 'combobox', 'Tags')).ref, option: ['Sport', 'Weather'] });
    expect(r.ok, r.message).toBe(true);
    expect(r.message).not.toMatch(/directly/);
    expect(await val(page, 'cz-tags')).toEqual(['Sport', 'Weather']);
    expect(await page.$$eval('#cz_tags_chosen .search-choice span', (els) => els.map((e) => e.textContent))).toEqual(['Sport', 'Weather']);
    expect(await log(page)).toBe('jq:cz-fruit=Cherry;jq:cz-tags=Sport;jq:cz-tags=Sport,Weather;');
    await page.close();
  });

  it('jQuery UI selectmenu (no change event of its own: one is dispatched) and the selectric pattern', async () => {
    const page = await openSelects();
    let r = await act(page, 'select_option', { ref: (await find(page, 'combobox', 'Speed')).ref, option: 'Fast' });
    expect(r.ok, r.message).toBe(true);
    expect(r.message).not.toMatch(/directly/);
    expect(await page.inputValue('#ui-speed')).toBe('Fast');
    expect(await page.textContent('#ui-speed-button .ui-selectmenu-text')).toBe('Fast');
    r = await act(page, 'select_option', { ref: (await find(page, 'combobox', 'T-shirt size')).ref, option: 'Large' });
    expect(r.ok, r.message).toBe(true);
    expect(r.message).not.toMatch(/directly/);
    expect(await page.inputValue('#sr-shirt')).toBe('Large');
    expect(await page.textContent('#sr .sr-label')).toBe('Large');
    expect(await log(page)).toBe('ui:ui-speed=Fast;native:ui-speed=Fast;native:sr-shirt=Large;');
    await page.close();
  });

  it('through the search field inside a multi-select, too (a model may pick that line)', async () => {
    const page = await openSelects();
    const search = (await mapped(page)).find((e) => e.role === 'searchbox' && e.name === '--')!; // Choices.js multi's search field
    const r = await act(page, 'select_option', { ref: search.ref, option: 'Orange' });
    expect(r.ok, r.message).toBe(true);
    expect(r.message).toMatch(/^Selected "Orange" in combobox "Favourite colours"\./);
    expect(await page.$eval('#ch-colours', (sel) => [...(sel as HTMLSelectElement).selectedOptions].map((o) => o.value))).toEqual(['Blue', 'Orange']);
    expect(await page.$$eval('.choices__list--multiple .choices__item', (els) => els.map((e) => e.getAttribute('data-value')))).toEqual(['Blue', 'Orange']);
    await page.close();
  });

  it('says so when the option is not in the select, and leaves it alone', async () => {
    const page = await openSelects();
    const r = await act(page, 'select_option', { ref: (await find(page, 'combobox', 'Country')).ref, option: 'Atlantis' });
    expect(r).toMatchObject({ ok: false });
    expect(r.message).toBe('No option matching "Atlantis" in combobox "Country"; options: --, France, Finland, Germany.');
    expect(await val(page, 's2-country')).toBe('');
    expect(await log(page)).toBe('');
    await page.close();
  });
});

describe('select_option searches only the target’s own list', () => {
  const PAGE = `
    <style>.dd{position:relative;width:160px} .face{border:1px solid #888;padding:4px;cursor:pointer}
      .menu{display:none;list-style:none;margin:0;padding:0;border:1px solid #888} .open .menu{display:block} .menu li{cursor:pointer;padding:2px}</style>
    <div class="dd" id="plan"><div class="face">Pick a plan</div><ul class="menu"><li>Basic</li><li>Team</li></ul></div>
    <p>Other widget, always open:</p>
    <ul role="listbox" aria-label="Tiers"><li role="option" onclick="document.getElementById('out').textContent='tier:Pro'">Pro</li><li role="option">Free</li></ul>
    <div class="dd" id="empty"><div class="face">Nothing here</div></div>
    <p id="out"></p>
    <script>
      document.querySelectorAll('.face').forEach((f) => f.addEventListener('click', () => f.parentElement.classList.toggle('open')));
      document.querySelector('#plan .menu').addEventListener('click', (e) => { document.getElementById('out').textContent = 'plan:' + e.target.textContent; });
    </script>`;

  it('a role-less dropdown picks from the list it opened, not from another widget’s options', async () => {
    const page = await open(s, PAGE);
    const face = (await mapped(page)).find((e) => e.name === 'Pick a plan')!;
    let r = await act(page, 'select_option', { ref: face.ref, option: 'Pro' });
    expect(r).toMatchObject({ ok: false });
    expect(r.message).toBe('No option matching "Pro" in div "Pick a plan"; options: Basic, Team.');
    expect(await page.textContent('#out')).toBe('');
    r = await act(page, 'select_option', { ref: face.ref, option: 'Team' });
    expect(r.ok, r.message).toBe(true);
    expect(await page.textContent('#out')).toBe('plan:Team');
    await page.close();
  });

  it('says it found no list of its own when the target opens none', async () => {
    const page = await open(s, PAGE);
    const face = (await mapped(page)).find((e) => e.name === 'Nothing here')!;
    const r = await act(page, 'select_option', { ref: face.ref, option: 'Pro' });
    expect(r).toMatchObject({ ok: false });
    expect(r.message).toMatch(/showed no list of its own to choose from/);
    expect(await page.textContent('#out')).toBe('');
    await page.close();
  });
});
