import { describe, expect, it } from 'vitest';
import { open, useSession } from './harness';
import { act, appState, refOf } from './actions-helpers';

const s = useSession();

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
    await act(page, 'type', { ref: await refOf(page, 'textbox', 'Comment'), text: 'Replaced' });
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
