/**
 * press_key combos as a keyboard sends them: each modifier's own keydown before the key and
 * keyup after it, the flags accumulating, so a shortcut recorder that tracks the modifier keys
 * itself records the whole combo; the result names the combo as given.
 */
import { describe, expect, it } from 'vitest';
import { open, useSession } from './harness';
import { act, refOf } from './actions-helpers';

const s = useSession();

describe('press_key with modifiers', () => {
  it('Control+Shift+Y: Control down, Shift down, Y, Y up, Shift up, Control up', async () => {
    const page = await open(s, 'actions/shortcut-recorder.html');
    const rec = await refOf(page, 'textbox', 'Shortcut for "Quick search"');
    const r = await act(page, 'press_key', { key: 'Control+Shift+Y', ref: rec });
    expect(r.ok, r.message).toBe(true);
    expect(r.message).toMatch(/^Pressed Control\+Shift\+Y in textbox/);
    expect(await page.textContent('#keylog')).toBe('down Control c;down Shift cs;down Y cs;up Y cs;up Shift c;up Control ;');
    expect(await page.inputValue('#rec')).toBe('Control+Shift+Y');
    await page.close();
  });

  it('keeps the order given, and a modifier alone is pressed and released with its own flag', async () => {
    const page = await open(s, 'actions/shortcut-recorder.html');
    const rec = await refOf(page, 'textbox', 'Shortcut for "Quick search"');
    let r = await act(page, 'press_key', { key: 'alt+meta+k', ref: rec });
    expect(r.message).toMatch(/^Pressed Alt\+Meta\+k in/);
    expect(await page.inputValue('#rec')).toBe('Alt+Meta+K');
    await page.evaluate(() => (document.getElementById('keylog')!.textContent = ''));
    r = await act(page, 'press_key', { key: 'Shift', ref: rec });
    expect(r.message).toMatch(/^Pressed Shift in/);
    expect(await page.textContent('#keylog')).toBe('down Shift s;up Shift ;');
    await page.evaluate(() => (document.getElementById('keylog')!.textContent = ''));
    r = await act(page, 'press_key', { key: 'Control+Shift', ref: rec });
    expect(r.message).toMatch(/^Pressed Control\+Shift in/);
    expect(await page.textContent('#keylog')).toBe('down Control c;down Shift cs;up Shift c;up Control ;');
    await page.close();
  });
});
