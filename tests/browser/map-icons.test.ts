/**
 * Icons as words: a control or an instruction drawn only by an icon reaches a text-only model
 * as a hint from the icon's own name (`~trash`, `~play`), in the map's lines and in the page's
 * text, never over a real name. The icons are drawn by the real libraries, served from
 * node_modules: jQuery UI, Font Awesome, Bootstrap Icons, Material Symbols; and SVG sprites.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { mapBody, open, origin, useSession } from './harness';
import { routeVendor } from './vendor-route';

const s = useSession();

beforeAll(async () => {
  // /vendor/<package>/<file>: the library's own files, as a page links them.
  await routeVendor(s.context, origin());
});

async function iconsPage(): Promise<Page> {
  const page = await open(s, 'map/icons-libraries.html');
  // The fonts are drawn (and the ::before glyphs take their boxes) before the map is read.
  await page.evaluate(async () => {
    await document.fonts.ready;
  });
  return page;
}

describe('icons as words', () => {
  it('the libraries draw them (the fixture is what a page shows)', async () => {
    const page = await iconsPage();
    const drawn = await page.evaluate(() => ({
      fa: getComputedStyle(document.querySelector('#fa6 i')!, '::before').fontFamily,
      bi: getComputedStyle(document.querySelector('#bi i')!, '::before').fontFamily,
      ms: getComputedStyle(document.querySelector('#ms span')!).fontFamily,
      jq: getComputedStyle(document.querySelector('#jq span')!).backgroundImage,
      loaded: [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family.replace(/"/g, '')),
    }));
    expect(drawn.fa).toMatch(/Font Awesome/);
    expect(drawn.bi).toMatch(/bootstrap-icons/);
    expect(drawn.ms).toMatch(/Material Symbols Outlined/);
    expect(drawn.jq).toMatch(/ui-icons/);
    expect(drawn.loaded).toEqual(expect.arrayContaining([expect.stringMatching(/^Font Awesome \d+ Free$/), 'bootstrap-icons', 'Material Symbols Outlined']));
    await page.close();
  });

  it('a nameless button shows the hint of its icon, from each library', async () => {
    const page = await iconsPage();
    expect((await mapBody(page)).slice(0, 13)).toEqual([
      '# Nameless',
      'Song A',
      '*[1]button ~play',
      'Photo 1',
      '*[2]button ~trash',
      'Photo 2',
      '*[3]button ~trash',
      'Photo 3',
      '*[4]button ~trash',
      'Photo 4',
      '*[5]button ~delete',
      'Photo 5',
      '*[6]button ~trash',
    ]);
    await page.close();
  });

  it('map().elements carry the hint, the name stays empty', async () => {
    const page = await iconsPage();
    const els: Array<{ role: string; name: string; hint?: string }> = await page.evaluate(() =>
      (window as any).pagehand.map().elements.map((e: any) => ({ role: e.role, name: e.name, hint: e.hint })),
    );
    const nameless = els.filter((e) => e.role === 'button' && e.name === '');
    expect(nameless.map((e) => e.hint)).toEqual(['play', 'trash', 'trash', 'trash', 'delete', 'trash']);
    await page.close();
  });

  it('a real name wins: aria-label, title, an SVG <title>, text; no hint beside it', async () => {
    const page = await iconsPage();
    expect((await mapBody(page)).slice(13, 22)).toEqual([
      '# Named',
      'Row 1',
      '*[7]button "Remove row"',
      'Row 2',
      '*[8]button "Bin it"',
      'Row 3',
      '*[9]button "Throw away"',
      'Row 4',
      '*[10]button "Delete"',
    ]);
    await page.close();
  });

  it("an icon in a sentence reads as its hint in the page's text", async () => {
    const page = await iconsPage();
    const body = await mapBody(page);
    expect(body.slice(22)).toEqual([
      '# Instructions',
      'Press ~play to start.',
      'Click ~star to keep it.',
      'Use ~pencil to edit.',
      'Tap ~shopping_cart to pay.',
      'The ~trash bin empties itself.',
      'Choose ~Settings first.',
      // An icon the page names reads as that name, not as its class.
      'Or ~the gear there.',
    ]);
    await page.close();
  });

  it('find searches names from every source: the icon hint, an SVG title, a label pointed to', async () => {
    const page = await iconsPage();
    await page.evaluate(() => {
      document.body.insertAdjacentHTML('beforeend', '<span id="lbl">Archive all</span><button aria-labelledby="lbl"><i class="bi bi-archive"></i></button>');
    });
    const find = (q: string): Promise<string> => page.evaluate((query) => (window as any).pagehand.find(query).text, q);
    const trash = await find('trash');
    expect(trash.match(/^\[[\w-]+\]button ~trash /gm), trash).toHaveLength(4);
    expect(await find('throw away')).toMatch(/^\[[\w-]+\]button "Throw away"/m);
    expect(await find('archive all')).toMatch(/^\[[\w-]+\]button "Archive all"/m);
    await page.close();
  });
});
