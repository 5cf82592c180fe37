/**
 * pagehand.screenshot in real Chromium: a JPEG of the viewport whose pixels sit where the page's
 * do, Set-of-Marks boxes on the map's rects, unreadable images replaced by the placeholder, our
 * own UI left out, and the text-only fallback (with a reason) instead of a rejection.
 * Captures with marks are written to .tmp/shots/ to be looked at.
 */
import { describe, expect, it } from 'vitest';
import { crossOrigin, open, origin, useSession } from './harness';
import { distance, hex, openByUrl, pixels, saveShot, shoot, type Shot } from './screenshot-helpers';
import { PALETTE } from '../../client/page/screenshot/marks';

const BOXES = `<!doctype html><meta charset="utf-8"><title>Boxes</title>
<style>
  body { margin: 0; background: #fff; font: 16px sans-serif; }
  .b { position: absolute; border: 0; margin: 0; padding: 0; font: bold 18px sans-serif; color: #fff; text-align: center; }
</style>
<button class="b" id="alpha" style="left:40px;top:40px;width:200px;height:80px;background:#0050ff">Alpha</button>
<button class="b" id="beta" style="left:400px;top:260px;width:160px;height:60px;background:#ff8800">Beta</button>
<a class="b" id="gamma" href="#gamma" style="left:700px;top:520px;width:220px;height:90px;background:#008800;display:block;line-height:90px">Gamma</a>
<input id="name" aria-label="Name" style="position:absolute;left:100px;top:420px;width:300px;height:40px">
<div style="height:3000px"></div>`;

const COLORS = { alpha: hex('#0050ff'), beta: hex('#ff8800'), gamma: hex('#008800') };

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A point inside the box, clear of its centred label text. */
const inside = (r: Box, s = 1): [number, number] => [(r.x + 12) * s, (r.y + 12) * s];

describe('screenshot: the image', () => {
  const session = useSession({ width: 1280, height: 800 });

  it('is a JPEG of the viewport whose pixels are where the page shows them, also when scrolled', async () => {
    const page = await openByUrl(session, BOXES);
    const shot = await shoot(page);
    expect(shot.dataUrl, shot.reason).toMatch(/^data:image\/jpeg;base64,/);
    expect([shot.width, shot.height]).toEqual([1280, 800]);
    const rects = await page.evaluate(() =>
      Object.fromEntries(['alpha', 'beta', 'gamma'].map((id) => [id, document.getElementById(id)!.getBoundingClientRect().toJSON()])),
    );
    const got = await pixels(page, shot.dataUrl!, [inside(rects.alpha), inside(rects.beta), inside(rects.gamma), [1000, 200]]);
    expect(distance(got[0]!, COLORS.alpha)).toBeLessThan(40);
    expect(distance(got[1]!, COLORS.beta)).toBeLessThan(40);
    expect(distance(got[2]!, COLORS.gamma)).toBeLessThan(40);
    expect(distance(got[3]!, [255, 255, 255])).toBeLessThan(20);

    await page.evaluate(() => window.scrollTo(0, 250));
    const scrolled = await shoot(page);
    expect(scrolled.dataUrl, scrolled.reason).toBeTruthy();
    const beta = await page.evaluate(() => document.getElementById('beta')!.getBoundingClientRect().toJSON());
    expect(beta.y).toBe(10);
    const [b, gone] = await pixels(page, scrolled.dataUrl!, [inside(beta), inside(rects.alpha)]);
    expect(distance(b!, COLORS.beta)).toBeLessThan(40);
    // Alpha scrolled out of view: its old place is page background now.
    expect(distance(gone!, [255, 255, 255])).toBeLessThan(20);
    await page.close();
  });

  it('shows a scrolled container at its scroll and a fixed header where the viewport has it', async () => {
    const rows = ['#e00000', '#00a000', '#0000e0', '#e0a000', '#a000a0', '#00a0a0', '#202020', '#e06000'];
    const page = await openByUrl(
      session,
      `<!doctype html><body style="margin:0;background:#fff">
      <header style="position:fixed;top:0;left:0;right:0;height:50px;background:#203050;z-index:2"></header>
      <div style="height:600px"></div>
      <div id="sc" style="height:200px;overflow:auto;margin-left:100px;width:400px">
        ${rows.map((c) => `<div style="height:100px;background:${c}"></div>`).join('')}
      </div>
      <div style="height:2000px"></div>`,
    );
    await page.evaluate(() => {
      window.scrollTo(0, 500);
      document.getElementById('sc')!.scrollTop = 250;
    });
    const box = await page.evaluate(() => document.getElementById('sc')!.getBoundingClientRect().toJSON());
    expect(box.y).toBe(100);
    const shot = await shoot(page);
    expect(shot.dataUrl, shot.reason).toBeTruthy();
    // Scrolled by 250: the top 50 px show the 3rd row, then the 4th and the 5th.
    const [header, third, fourth, fifth] = await pixels(page, shot.dataUrl!, [
      [600, 25],
      [300, 120],
      [300, 200],
      [300, 290],
    ]);
    expect(distance(header!, hex('#203050'))).toBeLessThan(40);
    expect(distance(third!, hex(rows[2]!))).toBeLessThan(40);
    expect(distance(fourth!, hex(rows[3]!))).toBeLessThan(40);
    expect(distance(fifth!, hex(rows[4]!))).toBeLessThan(40);
    await page.close();
  });

  it('leaves our own UI out, and keeps data-pagehand="off" and deny-selector content out of the picture', async () => {
    const page = await openByUrl(
      session,
      `<!doctype html><body style="margin:0;background:#fff">
      <div style="position:absolute;left:0;top:0;width:600px;height:400px;background:#2040c0"></div>
      <div data-pagehand="off" style="position:absolute;left:700px;top:0;width:300px;height:300px;background:#fff">
        <div style="width:300px;height:300px;background:#e00000"></div>
      </div>
      <div class="private" style="position:absolute;left:700px;top:400px;width:300px;height:200px;background:#fff">
        <div style="width:300px;height:200px;background:#00c000"></div>
      </div>
      <div data-pagehand-ui style="position:fixed;left:100px;top:100px;width:300px;height:200px;background:#ff00ff;z-index:2147483647"></div>`,
    );
    await page.evaluate(() => (window as any).pagehand.init({ deny: ['.private'] }));
    const shot = await shoot(page);
    expect(shot.dataUrl, shot.reason).toBeTruthy();
    const [underUi, beside, off, denied] = await pixels(page, shot.dataUrl!, [
      [250, 200],
      [50, 50],
      [850, 150],
      [850, 500],
    ]);
    expect(distance(underUi!, hex('#2040c0'))).toBeLessThan(40);
    expect(distance(beside!, hex('#2040c0'))).toBeLessThan(40);
    expect(distance(off!, [255, 255, 255])).toBeLessThan(30);
    expect(distance(denied!, [255, 255, 255])).toBeLessThan(30);
    await page.close();
  });

  it('captures a page with a cross-origin image and a broken one: placeholders where they cannot be read', async () => {
    // Chromium asks before a page reaches another loopback origin (Local Network Access).
    await session.context.grantPermissions(['local-network-access']);
    const page = await openByUrl(
      session,
      `<!doctype html><body style="margin:0;background:#fff">
      <style>img, .red { position: absolute; top: 20px; width: 128px; height: 128px; display: block; }</style>
      <img id="same" src="/fixtures/screenshot/green.png" style="left:20px" alt="">
      <img id="cross" src="${crossOrigin()}/fixtures/screenshot/green.png" style="left:200px" alt="">
      <img id="broken" src="/fixtures/screenshot/missing.png" style="left:380px" alt="">
      <div class="red" style="left:560px;background:#cc0000"></div>`,
    );
    const loaded = await page.evaluate(() => ['same', 'cross', 'broken'].map((id) => (document.getElementById(id) as HTMLImageElement).naturalWidth));
    expect(loaded).toEqual([64, 64, 0]); // the cross-origin one shows in the page, it just cannot be read
    const shot = await shoot(page);
    expect(shot.dataUrl, shot.reason).toMatch(/^data:image\/jpeg/);
    // Off the placeholder's diagonals.
    const [same, cross, broken, red] = await pixels(page, shot.dataUrl!, [
      [40, 80],
      [220, 80],
      [400, 80],
      [580, 80],
    ]);
    expect(distance(same!, hex('#1aa03c'))).toBeLessThan(40);
    expect(distance(cross!, hex('#d9d9d9'))).toBeLessThan(30);
    expect(distance(broken!, hex('#d9d9d9'))).toBeLessThan(30);
    expect(distance(red!, hex('#cc0000'))).toBeLessThan(40);
    await saveShot(page, 'images', shot.dataUrl!);
    await page.close();
  });

  it('does not change the page: same DOM, scroll position, style sheets and focus', async () => {
    const page = await openByUrl(session, BOXES);
    await page.focus('#name');
    await page.evaluate(() => window.scrollTo(0, 120));
    const before = await page.evaluate(() => ({
      html: document.documentElement.outerHTML,
      scroll: [scrollX, scrollY],
      sheets: [...document.styleSheets].map((s) => s.cssRules.length),
      focus: document.activeElement?.id,
    }));
    const shot = await shoot(page, { marks: true });
    expect(shot.dataUrl, shot.reason).toBeTruthy();
    const after = await page.evaluate(() => ({
      html: document.documentElement.outerHTML,
      scroll: [scrollX, scrollY],
      sheets: [...document.styleSheets].map((s) => s.cssRules.length),
      focus: document.activeElement?.id,
    }));
    expect(after).toEqual(before);
    await page.close();
  });
});

describe('screenshot: Set-of-Marks', () => {
  const session = useSession({ width: 1280, height: 800 });

  it("draws each ref's box where the map's rect is, in its colour, with the marks listed in image pixels", async () => {
    const page = await openByUrl(session, BOXES);
    const elements = await page.evaluate(() => (window as any).pagehand.map().elements);
    expect(elements.length).toBeGreaterThanOrEqual(4);
    const plain = await shoot(page);
    const shot = await shoot(page, { marks: true, elements });
    expect(shot.dataUrl, shot.reason).toBeTruthy();
    expect(shot.marks.map((m) => m.ref)).toEqual(elements.map((e: { ref: string }) => e.ref));
    for (const [i, m] of shot.marks.entries()) {
      const r = elements[i].rect as Box;
      for (const k of ['x', 'y', 'width', 'height'] as const) expect(Math.abs(m[k] - r[k]), `${m.ref}.${k}`).toBeLessThanOrEqual(1);
    }
    // The middle of each box's left and bottom edges carries the box colour (and did not before).
    const points = shot.marks.flatMap((m): Array<[number, number]> => [
      [m.x + 1, m.y + m.height / 2],
      [m.x + m.width / 2, m.y + m.height - 1.5],
    ]);
    const marked = await pixels(page, shot.dataUrl!, points);
    const unmarked = await pixels(page, plain.dataUrl!, points);
    shot.marks.forEach((_, i) => {
      const want = hex(PALETTE[i % PALETTE.length]!);
      for (const k of [2 * i, 2 * i + 1]) {
        expect(distance(marked[k]!, want), `mark ${i} point ${k}`).toBeLessThan(80);
        expect(distance(marked[k]!, want)).toBeLessThan(distance(unmarked[k]!, want));
      }
    });
    await saveShot(page, 'marks-boxes', shot.dataUrl!);
    await page.close();
  });

  it('builds a map itself when no elements are given, and skips refs outside the viewport', async () => {
    const page = await openByUrl(
      session,
      `<!doctype html><body style="margin:0">${Array.from({ length: 40 }, (_, i) => `<p style="margin:0;height:60px"><button>Button ${i + 1}</button></p>`).join('')}`,
    );
    const shot = await shoot(page, { marks: true });
    expect(shot.dataUrl, shot.reason).toBeTruthy();
    const rects = await page.evaluate(() => [...document.querySelectorAll('button')].map((b) => b.getBoundingClientRect().toJSON()));
    const inView = rects.filter((r: Box) => r.y < 800).length;
    expect(shot.marks.length).toBe(inView);
    for (const m of shot.marks) {
      expect(m.y + m.height).toBeLessThanOrEqual(800);
      expect(rects.some((r: Box) => Math.abs(r.x - m.x) <= 1 && Math.abs(r.y - m.y) <= 1)).toBe(true);
    }
    await page.close();
  });

  it('marks a real page: the shop fixture, scrolled a little', async () => {
    const page = await session.context.newPage();
    await page.goto(`${origin()}/fixtures/agent/shop/index.html`);
    await page.addScriptTag({ url: `${origin()}/dist/pagehand.js` });
    await page.evaluate(() => window.scrollTo(0, 100));
    const shot = await shoot(page, { marks: true });
    expect(shot.dataUrl, shot.reason).toBeTruthy();
    expect(shot.marks.length).toBeGreaterThan(2);
    await saveShot(page, 'marks-shop', shot.dataUrl!);
    await page.close();
  });
});

describe('screenshot: size', () => {
  const session = useSession({ width: 1920, height: 1080 });

  it('downscales so the long side is at most 1280, marks scaled with it', async () => {
    const page = await openByUrl(session, BOXES);
    const elements = await page.evaluate(() => (window as any).pagehand.map().elements);
    const shot = await shoot(page, { marks: true, elements });
    expect([shot.width, shot.height]).toEqual([1280, 720]);
    const s = 1280 / 1920;
    const alpha = elements.find((e: { name: string }) => e.name === 'Alpha');
    const mark = shot.marks.find((m) => m.ref === alpha.ref)!;
    expect(Math.abs(mark.x - alpha.rect.x * s)).toBeLessThanOrEqual(1);
    expect(Math.abs(mark.width - alpha.rect.width * s)).toBeLessThanOrEqual(1);
    const [inAlpha] = await pixels(page, shot.dataUrl!, [inside(alpha.rect, s)]);
    expect(distance(inAlpha!, COLORS.alpha)).toBeLessThan(40);
    const small = await shoot(page, { maxSide: 640 });
    expect([small.width, small.height]).toEqual([640, 360]);
    await saveShot(page, 'marks-scaled', shot.dataUrl!);
    await page.close();
  });
});

describe('screenshot: the text-only fallback', () => {
  const session = useSession({ width: 1280, height: 800 });

  it('resolves with a reason when the page would exceed the time budget, and the page is left as it was', async () => {
    // 40k visible spans: every one would be cloned with its full computed style.
    const page = await openByUrl(
      session,
      `<!doctype html><body style="margin:0;font:4px/4px monospace;word-break:break-all"><div id="dense">${'<span>x</span>'.repeat(40_000)}</div>`,
    );
    const before = await page.evaluate(() => document.body.innerHTML.length);
    const shot = await shoot(page, { timeoutMs: 150 });
    expect(shot.dataUrl).toBeNull();
    expect(shot.reason).toMatch(/longer than its 150 ms budget/);
    expect(shot.marks).toEqual([]);
    expect(await page.evaluate(() => document.body.innerHTML.length)).toBe(before);
    await page.close();
  });

  it('resolves with a reason when the screenshot module cannot be loaded', async () => {
    const page = await openByUrl(session, BOXES);
    const shot = await shoot(page, { moduleUrl: `${origin()}/dist/no-such-module.js` });
    expect(shot.dataUrl).toBeNull();
    expect(shot.reason).toMatch(/could not be loaded from .*no-such-module\.js/);
    // A later call with the real module still works.
    expect((await shoot(page)).dataUrl).toMatch(/^data:image\/jpeg/);
    await page.close();
  });

  it('says why when the bundle was inlined (no URL to find the module next to)', async () => {
    const page = await open(session, BOXES);
    const shot = await shoot(page);
    expect(shot.dataUrl).toBeNull();
    expect(shot.reason).toMatch(/not loaded from a URL/);
    await page.close();
  });
});

/** A long striped table (and the same rows as a grid and a flex column): row i is 40px, red or blue. */
const STRIPES = (layout: 'table' | 'grid' | 'flex', rows = 1000): string => {
  const color = (i: number) => (i % 2 ? '#ff0000' : '#0000ff');
  const css = `body{margin:0} table{border-collapse:collapse;width:600px} td{height:40px;padding:0;border:0}
    .grid{display:grid;grid-template-columns:200px 200px 200px} .flex{display:flex;flex-direction:column;width:600px} .grid div,.flex div{height:40px}`;
  const body =
    layout === 'table'
      ? `<table><caption style="caption-side:bottom">Totals</caption><thead><tr><td style="background:#00ff00">Head</td><td>x</td></tr></thead><tbody>${Array.from({ length: rows }, (_, i) => `<tr><td style="background:${color(i)}">Row ${i}</td><td>${i}</td></tr>`).join('')}</tbody><tfoot><tr><td>Sum</td><td>1</td></tr></tfoot></table>`
      : `<div class="${layout}">${Array.from({ length: layout === 'grid' ? rows * 3 : rows }, (_, i) => `<div style="background:${color(layout === 'grid' ? Math.floor(i / 3) : i)}">${i}</div>`).join('')}</div>`;
  return `<!doctype html><meta charset="utf-8"><title>Stripes</title><style>${css}</style>${body}`;
};

describe('screenshot: long tables and grids', () => {
  const session = useSession({ width: 1280, height: 800 });

  for (const layout of ['table', 'grid', 'flex'] as const) {
    it(`${layout}: draws only what shows (rows after the viewport left out), each row where the page has it, also scrolled`, async () => {
      const page = await openByUrl(session, STRIPES(layout));
      for (const scroll of [0, 12_345]) {
        await page.evaluate((y) => window.scrollTo(0, y), scroll);
        const shot = await shoot(page);
        expect(shot.dataUrl, shot.reason).toMatch(/^data:image\/jpeg/);
        // A thousand rows, about twenty of them in view: at the top, the clone holds what shows,
        // not the page (rows above the viewport, when scrolled, stay as empty boxes).
        if (scroll === 0) expect((shot as Shot & { cloned: number }).cloned).toBeLessThan(150);
        const rows = await page.evaluate(() =>
          [...document.querySelectorAll('tbody td:first-child, .grid > div:nth-child(3n+1), .flex > div')]
            .map((e) => ({ y: e.getBoundingClientRect().top + 20, color: (e as HTMLElement).style.background }))
            .filter((r) => r.y > 0 && r.y < 800),
        );
        expect(rows.length).toBeGreaterThan(15);
        const got = await pixels(
          page,
          shot.dataUrl!,
          rows.map((r) => [100, r.y] as [number, number]),
        );
        rows.forEach((r, i) =>
          expect(distance(got[i]!, r.color === 'rgb(255, 0, 0)' ? [255, 0, 0] : [0, 0, 255]), `row at ${r.y} (scroll ${scroll})`).toBeLessThan(60),
        );
      }
      await page.close();
    });
  }
});
