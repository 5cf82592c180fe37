/**
 * Live states in real Chromium: readStates(el, role, focused) after real changes — script
 * property writes and real user input through Playwright (typing, clicking, choosing files).
 * Whole state objects are compared, so an extra or missing state fails too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { ElementStates } from '../../client/page/page-types';
import { connect, open, type Session } from './harness';
import { casesPage, describeModules, type Case } from './describe-harness';

type StateCase = Case & { expect: ElementStates; act?: (page: Page) => Promise<void> };

const longText = 'a'.repeat(250);

const cases: StateCase[] = [
  // ── checked ──
  { title: 'unchecked checkbox → checked: false', html: `<input data-t type="checkbox">`, expect: { checked: false } },
  {
    title: 'checked is the property: attribute checked, then unchecked by script',
    html: `<input data-t type="checkbox" checked>`,
    setup: `sec.querySelector('input').checked = false;`,
    expect: { checked: false },
  },
  { title: 'checked after a real click', html: `<input data-t id="st-click" type="checkbox">`, act: (p) => p.click('#st-click'), expect: { checked: true } },
  {
    title: 'indeterminate checkbox → mixed',
    html: `<input data-t type="checkbox" checked>`,
    setup: `sec.querySelector('input').indeterminate = true;`,
    expect: { checked: 'mixed' },
  },
  { title: 'checked radio', html: `<input data-t type="radio" name="st-r" checked><input type="radio" name="st-r">`, expect: { checked: true } },
  {
    title: 'radio unchecked when another in its group is chosen',
    html: `<input data-t type="radio" name="st-r2" checked><input id="st-r2b" type="radio" name="st-r2">`,
    act: (p) => p.click('#st-r2b'),
    expect: { checked: false },
  },
  { title: 'aria-checked=mixed on role=checkbox', html: `<div data-t role="checkbox" aria-checked="mixed">x</div>`, expect: { checked: 'mixed' } },
  { title: 'role=switch without aria-checked → checked: false', html: `<div data-t role="switch">x</div>`, expect: { checked: false } },
  { title: 'role=menuitemcheckbox aria-checked=true', html: `<div data-t role="menuitemcheckbox" aria-checked="true">x</div>`, expect: { checked: true } },
  { title: 'native checkbox ignores a contradicting aria-checked', html: `<input data-t type="checkbox" aria-checked="true">`, expect: { checked: false } },

  // ── disabled ──
  { title: 'disabled button', html: `<button data-t disabled>x</button>`, expect: { disabled: true } },
  {
    title: 'disabled is the property: set by script',
    html: `<button data-t>x</button>`,
    setup: `sec.querySelector('button').disabled = true;`,
    expect: { disabled: true },
  },
  { title: 'button inside a disabled fieldset', html: `<fieldset disabled><div><button data-t>x</button></div></fieldset>`, expect: { disabled: true } },
  { title: 'input in the first legend of a disabled fieldset is enabled', html: `<fieldset disabled><legend><input data-t></legend></fieldset>`, expect: {} },
  {
    title: 'input in a second legend of a disabled fieldset is disabled',
    html: `<fieldset disabled><legend>a</legend><legend><input data-t></legend></fieldset>`,
    expect: { disabled: true },
  },
  { title: 'aria-disabled=true', html: `<div data-t role="button" aria-disabled="true">x</div>`, expect: { disabled: true } },
  {
    title: 'aria-disabled=true on an ancestor',
    html: `<div role="group" aria-disabled="true"><div><div data-t role="button">x</div></div></div>`,
    expect: { disabled: true },
  },
  { title: 'aria-disabled=false is not disabled', html: `<div data-t role="button" aria-disabled="false">x</div>`, expect: {} },
  {
    title: 'option in a disabled optgroup',
    html: `<select><optgroup disabled label="g"><option data-t>a</option></optgroup><option selected>b</option></select>`,
    expect: { selected: false, disabled: true },
  },

  // ── expanded, pressed, selected ──
  { title: 'aria-expanded=true', html: `<button data-t aria-expanded="true">Menu</button>`, expect: { expanded: true } },
  { title: 'aria-expanded=false → expanded: false (collapsed)', html: `<button data-t aria-expanded="false">Menu</button>`, expect: { expanded: false } },
  { title: 'summary of a closed details', html: `<details><summary data-t>More</summary>x</details>`, expect: { expanded: false } },
  {
    title: 'summary of a details opened by a real click',
    html: `<details><summary data-t id="st-sum">More</summary>x</details>`,
    act: (p) => p.click('#st-sum'),
    expect: { expanded: true },
  },
  {
    title: 'popover invoker with its popover closed',
    html: `<button data-t popovertarget="st-pop">Open</button><div id="st-pop" popover>Pop</div>`,
    expect: { expanded: false },
  },
  {
    title: 'popover invoker with its popover open',
    html: `<button data-t popovertarget="st-pop2">Open</button><div id="st-pop2" popover="manual">Pop</div>`,
    setup: `sec.querySelector('#st-pop2').showPopover();`,
    expect: { expanded: true },
  },
  { title: 'aria-pressed=true', html: `<button data-t aria-pressed="true">Bold</button>`, expect: { pressed: true } },
  { title: 'aria-pressed=false', html: `<button data-t aria-pressed="false">Bold</button>`, expect: { pressed: false } },
  { title: 'aria-pressed=mixed', html: `<button data-t aria-pressed="mixed">Bold</button>`, expect: { pressed: 'mixed' } },
  { title: 'a plain button has no toggle states', html: `<button data-t>Go</button>`, expect: {} },
  { title: 'tab aria-selected=true', html: `<div role="tablist"><div data-t role="tab" aria-selected="true">A</div></div>`, expect: { selected: true } },
  {
    title: 'native option selected by script',
    html: `<select><option>a</option><option data-t>b</option></select>`,
    setup: `sec.querySelector('select').selectedIndex = 1;`,
    expect: { selected: true },
  },

  // ── required, invalid, readonly ──
  { title: 'required input (untouched, empty: not invalid)', html: `<input data-t required>`, expect: { required: true } },
  { title: 'aria-required on a custom textbox', html: `<div data-t role="textbox" aria-required="true"></div>`, expect: { required: true } },
  { title: 'aria-invalid=true', html: `<input data-t aria-invalid="true">`, expect: { invalid: true } },
  { title: 'aria-invalid=spelling counts as invalid', html: `<div data-t role="textbox" aria-invalid="spelling"></div>`, expect: { invalid: true } },
  { title: 'aria-invalid=false is not invalid', html: `<input data-t aria-invalid="false">`, expect: {} },
  {
    title: 'an email field holding a bad address is invalid',
    html: `<input data-t type="email" value="not-an-email">`,
    expect: { invalid: true, type: 'email', value: 'not-an-email' },
  },
  { title: 'an email field holding a good address is valid', html: `<input data-t type="email" value="a@b.co">`, expect: { type: 'email', value: 'a@b.co' } },
  {
    title: 'a pattern mismatch typed by the user is invalid',
    html: `<input data-t id="st-pat" pattern="[0-9]{5}">`,
    act: (p) => p.fill('#st-pat', '12a'),
    expect: { invalid: true, value: '12a' },
  },
  {
    title: 'a required field the user filled then cleared is invalid (:user-invalid)',
    html: `<input data-t id="st-ui" required><input id="st-ui-next">`,
    act: async (p) => {
      await p.fill('#st-ui', 'x');
      await p.fill('#st-ui', '');
      await p.click('#st-ui-next');
    },
    expect: { required: true, invalid: true },
  },
  {
    title: 'an unchecked required checkbox is required, not invalid',
    html: `<input data-t type="checkbox" required>`,
    expect: { checked: false, required: true },
  },
  { title: 'readonly input', html: `<input data-t readonly value="fixed">`, expect: { readonly: true, value: 'fixed' } },
  {
    title: 'aria-readonly on a grid cell',
    html: `<div role="grid"><div role="row"><div data-t role="gridcell" aria-readonly="true">x</div></div></div>`,
    expect: { readonly: true },
  },

  // ── value ──
  {
    title: 'value is the property: typed by a real user',
    html: `<input data-t id="st-type" value="old">`,
    act: (p) => p.fill('#st-type', 'new text'),
    expect: { value: 'new text' },
  },
  { title: 'empty text field has no value', html: `<input data-t>`, expect: {} },
  {
    title: 'password is masked, length hidden',
    html: `<input data-t id="st-pw" type="password">`,
    act: (p) => p.fill('#st-pw', 'correct horse battery staple'),
    expect: { type: 'password', value: '••••' },
  },
  { title: 'a one-letter password gets the same mask', html: `<input data-t type="password" value="x">`, expect: { type: 'password', value: '••••' } },
  { title: 'an empty password has no value', html: `<input data-t type="password">`, expect: { type: 'password' } },
  { title: 'textarea value, whitespace collapsed', html: `<textarea data-t>Dear team,\n\n  thanks</textarea>`, expect: { value: 'Dear team, thanks' } },
  { title: 'long values are cut at 200 characters with …', html: `<textarea data-t>${longText}</textarea>`, expect: { value: `${'a'.repeat(199)}…` } },
  { title: 'contenteditable content is not a value', html: `<div data-t contenteditable="true">Draft</div>`, expect: {} },
  { title: 'search input tells its type', html: `<input data-t type="search" value="shoes">`, expect: { type: 'search', value: 'shoes' } },
  { title: 'plain text input does not print a type', html: `<input data-t type="text" value="x">`, expect: { value: 'x' } },
  { title: 'tel and url tell their type', html: `<input data-t type="tel">`, expect: { type: 'tel' } },

  // ── select and option lists ──
  {
    title: 'select: chosen option label and the options',
    html: `<select data-t><option>Spain</option><option selected>France</option><option>Italy</option></select>`,
    expect: { value: 'France', options: { count: 3, first: ['Spain', 'France', 'Italy'] } },
  },
  {
    title: 'select: the choice made by a real user',
    html: `<select data-t id="st-sel"><option>Spain</option><option>France</option></select>`,
    act: async (p) => {
      await p.selectOption('#st-sel', 'France');
    },
    expect: { value: 'France', options: { count: 2, first: ['Spain', 'France'] } },
  },
  {
    title: 'select: first five options and the count',
    html: `<select data-t>${Array.from({ length: 8 }, (_, i) => `<option>Opt ${i + 1}</option>`).join('')}</select>`,
    expect: { value: 'Opt 1', options: { count: 8, first: ['Opt 1', 'Opt 2', 'Opt 3', 'Opt 4', 'Opt 5'] } },
  },
  {
    title: 'select: option label attribute',
    html: `<select data-t><option label="Short">Long text</option></select>`,
    expect: { value: 'Short', options: { count: 1, first: ['Short'] } },
  },
  {
    title: 'select multiple: every chosen label',
    html: `<select data-t multiple><option selected>a</option><option>b</option><option selected>c</option></select>`,
    expect: { value: 'a, c', options: { count: 3, first: ['a', 'b', 'c'] } },
  },
  {
    title: 'required select',
    html: `<select data-t required><option value="">Choose</option></select>`,
    expect: { required: true, value: 'Choose', options: { count: 1, first: ['Choose'] } },
  },
  {
    title: 'input with a datalist: its suggestions',
    html: `<input data-t list="st-dl" value="Ma"><datalist id="st-dl"><option value="Madrid"><option value="Málaga"></datalist>`,
    expect: { value: 'Ma', options: { count: 2, first: ['Madrid', 'Málaga'] } },
  },
  {
    title: 'ARIA listbox: option count and names',
    html: `<div data-t role="listbox"><div role="option">Red</div><div role="option" aria-label="Green colour">G</div><div role="option">Blue</div></div>`,
    expect: { options: { count: 3, first: ['Red', 'Green colour', 'Blue'] } },
  },
  {
    title: 'ARIA combobox, open: its popup options and its shown value',
    html: `<div data-t role="combobox" aria-expanded="true" aria-controls="st-pop-lb">Medium</div><ul id="st-pop-lb" role="listbox"><li role="option">Small</li><li role="option">Medium</li></ul>`,
    expect: { expanded: true, value: 'Medium', options: { count: 2, first: ['Small', 'Medium'] } },
  },
  {
    title: 'ARIA combobox, closed: no options listed',
    html: `<div data-t role="combobox" aria-expanded="false" aria-controls="st-pop-lb2">Large</div><ul id="st-pop-lb2" role="listbox"><li role="option">Large</li></ul>`,
    expect: { expanded: false, value: 'Large' },
  },

  // ── ranges, numbers, dates ──
  { title: 'range: value and default bounds', html: `<input data-t type="range" value="30">`, expect: { value: '30', min: '0', max: '100' } },
  {
    title: 'range: bounds and step from the element',
    html: `<input data-t type="range" min="10" max="20" step="2" value="14">`,
    expect: { value: '14', min: '10', max: '20', step: '2' },
  },
  {
    title: 'number: type, bounds, step',
    html: `<input data-t type="number" min="1" max="9" step="0.5" value="2">`,
    expect: { type: 'number', value: '2', min: '1', max: '9', step: '0.5' },
  },
  {
    title: 'date: type, format, value, bounds',
    html: `<input data-t type="date" value="2024-05-01" min="2024-01-01">`,
    expect: { type: 'date', format: 'YYYY-MM-DD', value: '2024-05-01', min: '2024-01-01' },
  },
  {
    title: 'date typed by a real user',
    html: `<input data-t id="st-date" type="date">`,
    act: (p) => p.fill('#st-date', '2025-12-24'),
    expect: { type: 'date', format: 'YYYY-MM-DD', value: '2025-12-24' },
  },
  { title: 'time: HH:MM by default', html: `<input data-t type="time">`, expect: { type: 'time', format: 'HH:MM' } },
  { title: 'time with step=1: seconds', html: `<input data-t type="time" step="1">`, expect: { type: 'time', format: 'HH:MM:SS', step: '1' } },
  { title: 'datetime-local format', html: `<input data-t type="datetime-local">`, expect: { type: 'datetime-local', format: 'YYYY-MM-DDTHH:MM' } },
  { title: 'month format', html: `<input data-t type="month">`, expect: { type: 'month', format: 'YYYY-MM' } },
  { title: 'week format', html: `<input data-t type="week">`, expect: { type: 'week', format: 'YYYY-Www' } },
  { title: 'color: type, format, value', html: `<input data-t type="color" value="#ff8800">`, expect: { type: 'color', format: '#rrggbb', value: '#ff8800' } },
  {
    title: 'file: chosen file names',
    html: `<input data-t id="st-file" type="file" multiple>`,
    act: (p) =>
      p.setInputFiles('#st-file', [
        { name: 'cv.pdf', mimeType: 'application/pdf', buffer: Buffer.from('x') },
        { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('y') },
      ]),
    expect: { type: 'file', value: 'cv.pdf, photo.jpg' },
  },
  { title: 'file: nothing chosen', html: `<input data-t type="file">`, expect: { type: 'file' } },
  { title: 'progress: value and max', html: `<progress data-t value="3" max="10"></progress>`, expect: { value: '3', max: '10' } },
  { title: 'indeterminate progress has no value', html: `<progress data-t></progress>`, expect: { max: '1' } },
  { title: 'meter: value, min, max', html: `<meter data-t value="0.4" min="0" max="1"></meter>`, expect: { value: '0.4', min: '0', max: '1' } },
  {
    title: 'ARIA slider: valuetext wins, bounds from aria',
    html: `<div data-t role="slider" aria-valuenow="3" aria-valuetext="Medium" aria-valuemin="1" aria-valuemax="5"></div>`,
    expect: { value: 'Medium', min: '1', max: '5' },
  },
  { title: 'ARIA spinbutton: valuenow', html: `<div data-t role="spinbutton" aria-valuenow="7"></div>`, expect: { value: '7' } },

  // ── headings ──
  { title: 'h3 → level 3', html: `<h3 data-t>x</h3>`, expect: { level: 3 } },
  { title: 'aria-level wins', html: `<div data-t role="heading" aria-level="5">x</div>`, expect: { level: 5 } },
  { title: 'role=heading without aria-level → level 2 (ARIA default)', html: `<div data-t role="heading">x</div>`, expect: { level: 2 } },
];

let session: Session;
let page: Page;
let states: ElementStates[] = [];

beforeAll(async () => {
  session = await connect();
  page = await open(session, casesPage(cases));
  await page.addScriptTag({ content: await describeModules() });
  for (const c of cases) if (c.act) await c.act(page);
  // Acts leave focus on the last field they typed in; only the focus test wants focus.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  states = (await page.evaluate((n) => {
    const api = (window as any).__phDescribe;
    const d = api.createDescriber();
    const out: unknown[] = [];
    for (let i = 0; i < n; i++) {
      const el = (window as any).__caseTarget(i) as Element;
      out.push(api.readStates(el, d.role(el), document.activeElement));
    }
    return out;
  }, cases.length)) as ElementStates[];
});

afterAll(async () => {
  await session?.close();
});

describe('live states (readStates, real Chromium)', () => {
  cases.forEach((c, i) => {
    it(c.title, () => expect(states[i]).toEqual(c.expect));
  });

  it('focused: only the element passed as the deep active element', async () => {
    const r = await page.evaluate(() => {
      const api = (window as any).__phDescribe;
      const host = document.createElement('div');
      document.body.append(host);
      const sr = host.attachShadow({ mode: 'open' });
      sr.innerHTML = '<input id="inner"><input id="other">';
      const inner = sr.getElementById('inner') as HTMLInputElement;
      inner.focus();
      // document.activeElement is the host; the deep active element is the input inside.
      let deep: Element | null = document.activeElement;
      while (deep?.shadowRoot?.activeElement) deep = deep.shadowRoot.activeElement;
      const out = {
        inner: api.readStates(inner, 'textbox', deep).focused ?? false,
        other: api.readStates(sr.getElementById('other'), 'textbox', deep).focused ?? false,
        hostIsActive: document.activeElement === host,
      };
      host.remove();
      return out;
    });
    expect(r).toEqual({ inner: true, other: false, hostIsActive: true });
  });

  it('states follow the page: the same element read before and after a change', async () => {
    const r = await page.evaluate(() => {
      const api = (window as any).__phDescribe;
      const box = document.createElement('input');
      box.type = 'checkbox';
      document.body.append(box);
      const before = api.readStates(box, 'checkbox', null);
      box.click();
      const after = api.readStates(box, 'checkbox', null);
      box.remove();
      return [before, after];
    });
    expect(r).toEqual([{ checked: false }, { checked: true }]);
  });
});
