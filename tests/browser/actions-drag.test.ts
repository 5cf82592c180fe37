/**
 * drag through pagehand.act on real libraries: SortableJS (native HTML5 drag and drop, and its
 * pointer fallback across two lists), @dnd-kit (a sortable list and a drop zone), a native
 * kanban, a slider that captures the pointer, and a map pan. Judged by each page's own state.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { open, useSession } from './harness';
import { act, appState, refOf } from './actions-helpers';

const s = useSession();

const log = (page: Page): Promise<string> => page.textContent('#log').then((t) => t ?? '');

describe('drag on SortableJS', () => {
  it('reorders a list sorted with native drag and drop, and says the order before and after', async () => {
    const page = await open(s, 'actions/drag-sortable.html');
    const from = await refOf(page, 'listitem', 'Buy milk');
    const to = await refOf(page, 'listitem', 'Write report');
    const r = await act(page, 'drag', { ref: from, to_ref: to });
    expect(r.ok, r.message).toBe(true);
    expect((await appState(page)).todo).toEqual(['Walk the dog', 'Write report', 'Buy milk', 'Call mum']);
    expect(r.message).toContain('Dragged listitem "Buy milk" onto listitem "Write report".');
    expect(r.message).toContain(
      'The order of list "To do" is now: Walk the dog, Write report, Buy milk, Call mum (before: Buy milk, Walk the dog, Write report, Call mum).',
    );
    await page.close();
  });

  it('moves a card between two lists of a board in the pointer (fallback) mode', async () => {
    const page = await open(s, 'actions/drag-sortable.html');
    const card = await refOf(page, 'listitem', 'Fix login bug');
    const target = await refOf(page, 'listitem', 'Release 2.0');
    const r = await act(page, 'drag', { ref: card, to_ref: target });
    expect(r.ok, r.message).toBe(true);
    const state = await appState(page);
    expect(state.backlog).toEqual(['Design logo', 'Update docs']);
    expect(state.doing).toContain('Fix login bug');
    expect(r.message).toMatch(/listitem "Fix login bug" moved from list "Backlog" to list "Doing" \(now \d\w\w of 2\)\./);
    await page.close();
  });
});

describe('drag on @dnd-kit', () => {
  it('reorders a sortable list (pointer sensor with an activation distance)', async () => {
    const page = await open(s, 'actions/drag-dndkit.html');
    await page.waitForSelector('li');
    const r = await act(page, 'drag', { ref: await refOf(page, 'button', 'Alpha'), to_ref: await refOf(page, 'button', 'Charlie') });
    expect(r.ok, r.message).toBe(true);
    expect((await appState(page)).items).toEqual(['Bravo', 'Charlie', 'Alpha', 'Delta']);
    expect(r.message).toContain('is now: Bravo, Charlie, Alpha, Delta');
    await page.close();
  });

  it('drops a card on a droppable zone', async () => {
    const page = await open(s, 'actions/drag-dndkit.html');
    await page.waitForSelector('.card');
    // A zone is not a control of its own: the drop goes onto what it holds.
    const r = await act(page, 'drag', { ref: await refOf(page, 'button', 'Invoice #12'), to_ref: await refOf(page, 'button', 'Receipt #7') });
    expect(r.ok, r.message).toBe(true);
    expect((await appState(page)).cardIn).toBe('Done');
    await page.close();
  });
});

describe('drag on hand-written pages', () => {
  it('native drag and drop: dragstart, drop with the DataTransfer the page filled, dragend with the effect', async () => {
    const page = await open(s, 'actions/drag-native.html');
    const r = await act(page, 'drag', { ref: await refOf(page, 'clickable', 'Pay rent'), to_ref: await refOf(page, 'clickable', 'File taxes') });
    expect(r.ok, r.message).toBe(true);
    expect(await log(page)).toBe('dragstart t1;drop t1 on closed;dragend move;');
    expect(r.message).toContain('Dragged div "Pay rent" onto div "File taxes".');
    expect(await page.evaluate(() => document.getElementById('t1')!.parentElement!.id)).toBe('closed');
    expect(r.message).toMatch(/moved from region "Open" to region "Closed"/);
    await page.close();
  });

  it('a slider that captures the pointer follows dx, and the result gives the new value', async () => {
    const page = await open(s, 'actions/drag-native.html');
    const r = await act(page, 'drag', { ref: await refOf(page, 'slider', 'Volume'), dx: 150, dy: 0 });
    expect(r.ok, r.message).toBe(true);
    // From 20 % of a 300 px track, 150 px is 50 % more.
    expect(await page.getAttribute('#thumb', 'aria-valuenow')).toBe('70');
    expect(r.message).toContain('Its value went from 20 to 70.');
    expect(await log(page)).toBe('slider 70;');
    // The page's own capture calls work again after the gesture.
    expect(await page.evaluate(() => Element.prototype.setPointerCapture.toString())).toMatch(/native code/);
    await page.close();
  });

  it('pans a map by dx, dy', async () => {
    const page = await open(s, 'actions/drag-native.html');
    const r = await act(page, 'drag', { ref: await refOf(page, 'application', 'Map'), dx: -80, dy: -40 });
    expect(r.ok, r.message).toBe(true);
    expect(await page.textContent('#pan')).toBe('pan -80,-40');
    expect(r.message).toContain('Its content moved by -80, -40 px.');
    await page.close();
  });
});

describe('drag arguments', () => {
  it('says what is missing or contradictory', async () => {
    const page = await open(s, 'actions/drag-native.html');
    const ref = await refOf(page, 'slider', 'Volume');
    expect((await act(page, 'drag', { ref })).message).toMatch(/drag needs "to_ref".*or "dx"\/"dy"/);
    expect((await act(page, 'drag', { ref, to_ref: ref })).message).toMatch(/"to_ref" is the dragged element itself/);
    expect((await act(page, 'drag', { ref, to_ref: '1', dx: 3 })).message).toMatch(/either "to_ref".*or "dx"\/"dy"/);
    expect((await act(page, 'drag', { ref, dx: 0, dy: 0 })).message).toMatch(/both 0/);
    await page.close();
  });
});
