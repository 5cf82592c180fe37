/**
 * Targets the map did not read: an area drawn with `cursor: context-menu` whose right-click
 * handler React keeps (no listener on the node), a small box named only by its `title`, and a
 * row React opens on double click. Each gets a ref, `find` finds it, and the action by that
 * ref reaches the page's handler. The React app is built here from its source
 * (tests/fixtures/actions/src/contextmenu-react.tsx), with the repository's React.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { mapBody, open, origin, useSession } from './harness';
import { act } from './actions-helpers';

const s = useSession();
const root = fileURLToPath(new URL('../..', import.meta.url));

beforeAll(async () => {
  const out = await build({
    absWorkingDir: root,
    entryPoints: ['tests/fixtures/actions/src/contextmenu-react.tsx'],
    bundle: true,
    write: false,
    format: 'iife',
    target: ['chrome100'],
    jsx: 'automatic',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  const js = out.outputFiles[0]!.text;
  await s.context.route(`${origin()}/fixtures/actions/contextmenu-react.bundle.js`, (r) => r.fulfill({ contentType: 'text/javascript', body: js }));
});

async function menusPage(): Promise<Page> {
  const page = await open(s, 'actions/contextmenu-react.html');
  await page.waitForSelector('#row');
  return page;
}

interface Listed {
  ref: string;
  role: string;
  name: string;
}
const listed = (page: Page): Promise<Listed[]> =>
  page.evaluate(() => (window as any).pagehand.map().elements.map((e: any) => ({ ref: e.ref, role: e.role, name: e.name })));

describe('handlers a framework keeps, other than onClick', () => {
  it('lists the context-menu area, the title-only box and the double-click row', async () => {
    const page = await menusPage();
    expect(await mapBody(page)).toEqual([
      '# Menus',
      '*[1]clickable "Right-click in this area"',
      'A small box:',
      '*[2]clickable "Right click me!"',
      '*[3]clickable "quarterly.xlsx"',
    ]);
    await page.close();
  });

  it('the title-only box is named as Chromium names it: by its title, as the button it acts as (accname 2I)', async () => {
    const page = await menusPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Accessibility.enable');
    const axName = async (expression: string): Promise<{ name: unknown; description: unknown }> => {
      const { result } = await cdp.send('Runtime.evaluate', { expression });
      const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { objectId: result.objectId!, fetchRelatives: false });
      return { name: nodes[0]?.name?.value, description: nodes[0]?.description?.value };
    };
    // As it is (a generic span): no name, the title is its description; describe() agrees.
    expect(await axName("document.getElementById('tip')")).toEqual({ name: '', description: 'Right click me!' });
    expect(await page.evaluate(() => (window as any).pagehand.describe(document.getElementById('tip')).name)).toBe('');
    // As the button the map lists it as, Chromium names it by its title: the map's name.
    const asButton = await axName(
      "(() => { const c = document.getElementById('tip').cloneNode(); c.id = 'tip-button'; c.setAttribute('role', 'button'); document.body.append(c); return c; })()",
    );
    expect(asButton.name).toBe('Right click me!');
    await page.evaluate(() => document.getElementById('tip-button')!.remove());
    expect((await listed(page)).map((e) => e.name)).toContain(asButton.name);
    await cdp.detach();
    await page.close();
  });

  it("right_click by the area's ref reaches React's onContextMenu", async () => {
    const page = await menusPage();
    const area = (await listed(page)).find((e) => e.name === 'Right-click in this area');
    expect(area, 'the area has a ref').toBeDefined();
    const r = await act(page, 'right_click', { ref: area!.ref });
    expect(r.ok, r.message).toBe(true);
    expect(r.message).toMatch(/the page handled it/);
    expect(await page.textContent('#log')).toBe('area menu 2');
    await page.close();
  });

  it('the box named only by its title is found by find, and right_click by that ref opens its menu', async () => {
    const page = await menusPage();
    const found = await page.evaluate(() => (window as any).pagehand.find('right click me'));
    const hit = found.elements.find((e: Listed) => e.name === 'Right click me!');
    expect(hit, found.text).toBeDefined();
    const r = await act(page, 'right_click', { ref: hit.ref });
    expect(r.ok, r.message).toBe(true);
    expect(await page.textContent('#log')).toBe('tip menu');
    await page.close();
  });

  it("double_click by the row's ref reaches React's onDoubleClick", async () => {
    const page = await menusPage();
    const row = (await listed(page)).find((e) => e.name === 'quarterly.xlsx');
    expect(row, 'the row has a ref').toBeDefined();
    const r = await act(page, 'double_click', { ref: row!.ref });
    expect(r.ok, r.message).toBe(true);
    expect(await page.textContent('#log')).toBe('row opened');
    await page.close();
  });
});
