/**
 * double_click, right_click and click {hold_ms} through pagehand.act: the page's own file list
 * (opens on double click, its own context menu), and a hold-to-confirm button.
 */
import { describe, expect, it } from 'vitest';
import { open, useSession } from './harness';
import { act, mapElements, refOf } from './actions-helpers';

const s = useSession();

describe('double_click', () => {
  it('sends two clicks (detail 1, then 2) and dblclick, as a mouse does', async () => {
    const page = await open(s, 'actions/contextmenu.html');
    const r = await act(page, 'double_click', { ref: await refOf(page, 'option', 'notes.txt') });
    expect(r.ok, r.message).toBe(true);
    expect(r.message).toMatch(/^Double-clicked option "notes.txt"\./);
    expect(await page.textContent('#log')).toBe('down 0/1;click 1;down 0/1;click 2;open notes.txt;');
    await page.close();
  });
});

describe('right_click', () => {
  it("opens the page's own context menu, which is in the next map", async () => {
    const page = await open(s, 'actions/contextmenu.html');
    expect((await mapElements(page)).some((e) => e.name === 'Rename')).toBe(false);
    const r = await act(page, 'right_click', { ref: await refOf(page, 'option', 'report.pdf') });
    expect(r.ok, r.message).toBe(true);
    expect(r.message).toMatch(/^Right-clicked option "report.pdf"; the page handled it/);
    // The button comes up over the menu the page opened at the pointer (as in a browser).
    expect(await page.textContent('#log')).toBe('down 2/2;menu report.pdf at right;');
    // The menu the page opened is mapped now, and works.
    const rename = await refOf(page, 'menuitem', 'Rename');
    expect((await act(page, 'click', { ref: rename })).ok).toBe(true);
    expect(await page.textContent('#log')).toContain('rename report.pdf;');
    await page.close();
  });

  it('says so when the page has no menu of its own there (no click is sent)', async () => {
    const page = await open(s, 'actions/contextmenu.html');
    const r = await act(page, 'right_click', { ref: await refOf(page, 'button', 'No menu here') });
    expect(r.ok, r.message).toBe(true);
    expect(r.message).toContain('The page has no menu of its own there');
    expect(await page.textContent('#log')).toBe('browser menu;');
    await page.close();
  });
});

describe('click {hold_ms}', () => {
  it('holds a hold-to-confirm button down long enough, and says how long', async () => {
    const page = await open(s, 'actions/hold-confirm.html');
    const ref = await refOf(page, 'button', 'Hold to delete draft');
    const r = await act(page, 'click', { ref, hold_ms: 1800 });
    expect(r.ok, r.message).toBe(true);
    expect(r.message).toMatch(/^Pressed and held button "Hold to delete draft" for 1\.8 s, then let go\./);
    expect(await page.textContent('#status')).toBe('Draft deleted');
    expect(await page.textContent('#log')).toBe('confirmed;released;click;');
    await page.close();
  });

  it('a plain click does not confirm it; a hold beyond 10 s is held 10 s and says so', async () => {
    const page = await open(s, 'actions/hold-confirm.html');
    const ref = await refOf(page, 'button', 'Hold to delete draft');
    await act(page, 'click', { ref });
    expect(await page.textContent('#status')).toBe('Draft kept');
    expect(await page.textContent('#log')).toBe('cancelled by pointerup;click;');
    const bad = await act(page, 'click', { ref, hold_ms: -5 });
    expect(bad.ok).toBe(false);
    expect(bad.message).toMatch(/"hold_ms" is how long to hold/);
    // Held 10 s, not a minute: the test's own time limit is well under the minute asked for.
    const r = await act(page, 'click', { ref, hold_ms: 60_000 }, { settleTimeout: 500 });
    expect(r.message).toContain('for 10 s (the longest hold; 10 s at most)');
    expect(await page.textContent('#status')).toBe('Draft deleted');
    await page.close();
  }, 40_000);
});
