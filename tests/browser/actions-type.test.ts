import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, open, type Session } from './harness';
import { act, appState, refOf } from './actions-helpers';

let s: Session;
beforeAll(async () => {
  s = await connect();
});
afterAll(async () => {
  await s.close();
});

describe('type into React 19 controlled inputs', () => {
  it('updates React state for text, email, textarea (replace by default, append on request)', async () => {
    const page = await open(s, 'actions/react.html');
    const name = await refOf(page, 'textbox', 'Full name');
    let r = await act(page, 'type', { ref: name, text: 'Ada' });
    expect(r).toMatchObject({ ok: true, message: 'Typed "Ada" into textbox "Full name".', changes: { value: 'Ada' } });
    r = await act(page, 'type', { ref: name, text: ' Lovelace', replace: false });
    expect(r.changes.value).toBe('Ada Lovelace');
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

  it('formats date, number and range inputs, and refuses ambiguous dates', async () => {
    const page = await open(s, 'actions/react.html');
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
    expect(await appState(page)).toMatchObject({ when: '2024-03-05', qty: '7', volume: '70' });
    await page.close();
  });

  it('honours maxlength and says what was dropped', async () => {
    const page = await open(s, 'actions/react.html');
    const r = await act(page, 'type', { ref: await refOf(page, 'textbox', 'ZIP code'), text: '1234567' });
    expect(r.ok).toBe(true);
    expect(r.message).toContain('Only 5 characters fit (maxlength 5); the last 2 were dropped.');
    expect(await appState(page)).toMatchObject({ zip: '12345' });
    await page.close();
  });

  it('submits the form with submit: true (Enter clicks the default button)', async () => {
    const page = await open(s, 'actions/react.html');
    const r = await act(page, 'type', { ref: await refOf(page, 'textbox', 'Full name'), text: 'Linus', submit: true });
    expect(r.ok).toBe(true);
    expect(r.message).toContain('Pressed Enter in textbox "Full name". This submitted the form (its default button is button "Save profile").');
    expect(JSON.parse((await page.textContent('#submitted'))!)).toMatchObject({ name: 'Linus' });
    await page.close();
  });

  it('refuses to type into checkboxes, selects and read-only fields with a hint', async () => {
    const page = await open(s, 'actions/react.html');
    let r = await act(page, 'type', { ref: await refOf(page, 'checkbox', 'I agree'), text: 'yes' });
    expect(r).toMatchObject({ ok: false });
    expect(r.message).toMatch(/is a checkbox; use click to change it\./);
    r = await act(page, 'type', { ref: await refOf(page, 'combobox', 'Country'), text: 'France' });
    expect(r.message).toMatch(/is a drop-down; use select_option/);
    await page.close();
  });
});

describe('type into Vue 3 v-model', () => {
  it('updates reactive state for input and textarea, and Enter submits a one-field form', async () => {
    const page = await open(s, 'actions/vue.html');
    await act(page, 'type', { ref: await refOf(page, 'textbox', 'Your name'), text: 'Evan' });
    await act(page, 'type', { ref: await refOf(page, 'textbox', 'Bio'), text: 'Builds things' });
    expect(await appState(page)).toMatchObject({ name: 'Evan', bio: 'Builds things' });
    const r = await act(page, 'type', { ref: await refOf(page, 'textbox', 'Search fruit'), text: 'kiwi\n' });
    expect(r.ok).toBe(true);
    expect(r.message).toContain('This submitted the form.');
    expect(await page.textContent('#searched')).toBe('kiwi');
    await page.close();
  });
});

describe('type into editors and special fields', () => {
  it('types into a plain contenteditable and into a model-based editor that cancels beforeinput', async () => {
    const page = await open(s, 'actions/editors.html');
    let r = await act(page, 'type', { ref: await refOf(page, 'textbox', 'Comment'), text: 'Hello there' });
    expect(r.ok, r.message).toBe(true);
    expect(await page.textContent('#plain-editor')).toBe('Hello there');
    r = await act(page, 'type', { ref: await refOf(page, 'textbox', 'Message'), text: 'Hi\nBob' });
    expect(r.ok, r.message).toBe(true);
    expect(await page.textContent('#model')).toBe('model:Hi\nBob');
    r = await act(page, 'type', { ref: await refOf(page, 'textbox', 'Comment'), text: 'Replaced' });
    expect(await page.textContent('#plain-editor')).toBe('Replaced');
    r = await act(page, 'clear', { ref: await refOf(page, 'textbox', 'Comment') });
    expect(r.ok).toBe(true);
    expect((await page.textContent('#plain-editor'))!.trim()).toBe('');
    await page.close();
  });

  it('lets input masks reformat as it types, and reports what the field shows', async () => {
    const page = await open(s, 'actions/editors.html');
    const r = await act(page, 'type', { ref: await refOf(page, 'textbox', 'Phone'), text: '5551234567' });
    expect(r.ok).toBe(true);
    expect(r.changes.value).toBe('(555) 123-4567');
    expect(r.message).toContain('The field now shows "(555) 123-4567".');
    await page.close();
  });

  it('fires key events per character for keyup-driven widgets', async () => {
    const page = await open(s, 'actions/editors.html');
    await act(page, 'type', { ref: await refOf(page, 'textbox', 'City'), text: 'Oslo' });
    expect(await page.textContent('#keyup-log')).toBe('o:Oslo');
    await page.close();
  });

  it('refuses read-only fields', async () => {
    const page = await open(s, 'actions/editors.html');
    const r = await act(page, 'type', { ref: await refOf(page, 'textbox', 'Reference'), text: 'x' });
    expect(r).toMatchObject({ ok: false });
    expect(r.message).toMatch(/is read-only\./);
    expect(await page.inputValue('#ro')).toBe('R-1');
    await page.close();
  });
});
