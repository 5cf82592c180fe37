/**
 * jQuery widgets built from npm (Selectric, Chosen, jQuery UI's dialog) and handlers kept only in
 * jQuery's data store (bound on each item, or delegated with `.on('click', 'li', fn)` to a list
 * or the document), driven only through `pagehand.map()` and `pagehand.act()`, with the bundle
 * loaded after the page and at document start. Judged by the plugin's own display, the hidden
 * select's value and what the page logged.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { mapBody, open, useSession } from './harness';
import { act } from './actions-helpers';

const s = useSession();

async function openWidgets(early: boolean): Promise<Page> {
  const page = await open(s, 'widgets/jquery.html', { early });
  await page.waitForFunction(() => (window as any).widgetsReady === true);
  return page;
}

/** The ref of the one line with this role and name. */
function ref(body: string[], role: string, name: string): string {
  const hits = body.filter((l) => l.includes(`]${role} "${name}"`));
  if (hits.length !== 1) throw new Error(`${hits.length} × ${role} "${name}" in:\n${body.join('\n')}`);
  return /\[(\d+)\]/.exec(hits[0]!)![1]!;
}

const log = (page: Page) => page.textContent('#log');
const val = (page: Page, id: string) => page.evaluate((i) => (window as any).jQuery(`#${i}`).val(), id);
const shown = (page: Page, sel: string) => page.textContent(sel);

const HEIGHTS = ['5ft 9in', '5ft 10in', '5ft 11in', '6 ft', '6ft 1in', '6ft 2in'];

for (const early of [false, true]) {
  describe(`jQuery widgets, bundle ${early ? 'at document start' : 'after load'}`, () => {
    it('Selectric: its box is a combobox; opened, each item is an option of its own, and a click on one chooses it', async () => {
      const page = await openWidgets(early);
      let body = await mapBody(page);
      const box = ref(body, 'combobox', 'Height');
      expect(body.join('\n')).toMatch(/combobox "Height" value="5ft 9in"/);
      expect((await act(page, 'click', { ref: box })).ok).toBe(true);
      body = await mapBody(page);
      for (const h of HEIGHTS) ref(body, 'option', h);
      // The box is named without its list.
      expect(body.find((l) => l.includes(`[${box}]`))).toMatch(/^\[\d+\]combobox "Height" value="5ft 9in" expanded$/);
      const r = await act(page, 'click', { ref: ref(body, 'option', '6 ft') });
      expect(r.ok, r.message).toBe(true);
      expect(await shown(page, '.selectric .label')).toBe('6 ft');
      expect(await val(page, 'height')).toBe('6 ft');
      expect(await log(page)).toContain('height=6 ft;');
      await page.close();
    });

    it('select_option on the Selectric and Chosen boxes chooses through the plugin', async () => {
      const page = await openWidgets(early);
      const body = await mapBody(page);
      let r = await act(page, 'select_option', { ref: ref(body, 'combobox', 'Height'), option: ['6ft 1in'] });
      expect(r.ok, r.message).toBe(true);
      r = await act(page, 'select_option', { ref: ref(body, 'combobox', 'Fruit'), option: ['Banana'] });
      expect(r.ok, r.message).toBe(true);
      expect(await shown(page, '.selectric .label')).toBe('6ft 1in');
      expect(await val(page, 'height')).toBe('6ft 1in');
      expect(await shown(page, '.chosen-single span')).toBe('Banana');
      expect(await val(page, 'fruit')).toBe('Banana');
      expect(await log(page)).toBe('height=6ft 1in;fruit=Banana;');
      await page.close();
    });

    it('Chosen: opened, each result is an option, and a click on one chooses it', async () => {
      const page = await openWidgets(early);
      let body = await mapBody(page);
      expect((await act(page, 'click', { ref: ref(body, 'combobox', 'Fruit') })).ok).toBe(true);
      body = await mapBody(page);
      for (const f of ['Apple', 'Banana', 'Cherry']) ref(body, 'option', f);
      const r = await act(page, 'click', { ref: ref(body, 'option', 'Cherry') });
      expect(r.ok, r.message).toBe(true);
      expect(await shown(page, '.chosen-single span')).toBe('Cherry');
      expect(await val(page, 'fruit')).toBe('Cherry');
      await page.close();
    });

    it('items whose click jQuery delegates to their list or to the document are targets, and a click reaches the handler', async () => {
      const page = await openWidgets(early);
      const body = await mapBody(page);
      for (const m of ['Newest', 'Oldest', 'Popular']) ref(body, 'option', m);
      for (const c of ['red', 'green']) ref(body, 'clickable', c);
      expect(body.some((l) => l.includes('"Sort by'))).toBe(false);
      let r = await act(page, 'click', { ref: ref(body, 'option', 'Oldest') });
      expect(r.ok, r.message).toBe(true);
      r = await act(page, 'click', { ref: ref(body, 'clickable', 'green') });
      expect(r.ok, r.message).toBe(true);
      expect(await log(page)).toBe('menu=Oldest;chip=green;');
      await page.close();
    });

    it('jQuery UI dialog: one "Close" control (not its title bar, not the icon inside it), and clicking it closes the dialog', async () => {
      const page = await openWidgets(early);
      const body = await mapBody(page);
      const targets = body.filter((l) => /\[\d+\]/.test(l) && l.includes('Close'));
      expect(targets, body.join('\n')).toEqual([expect.stringMatching(/^\s*\*?\[\d+\]button "Close"( focused)?$/)]);
      // Nothing in the dialog is listed before its close button.
      const start = body.findIndex((l) => l.startsWith('dialog "Notice"'));
      const first = body.slice(start + 1).find((l) => /\[\d+\]/.test(l));
      expect(first).toBe(targets[0]);
      const r = await act(page, 'click', { ref: /\[(\d+)\]/.exec(targets[0]!)![1]! });
      expect(r.ok, r.message).toBe(true);
      expect(await log(page)).toBe('dialog=closed;');
      expect(await page.isVisible('.ui-dialog')).toBe(false);
      await page.close();
    });
  });
}
