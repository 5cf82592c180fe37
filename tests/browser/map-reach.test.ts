/**
 * DESIGN §2 Reach: shadow roots (open, nested, closed with document-start hooks), same-origin
 * frames (refs that name the frame, rects in top-viewport coordinates), opaque regions.
 */
import { describe, expect, it } from 'vitest';
import { mapBody, open, useSession } from './harness';

const s = useSession();

async function loaded(page: import('playwright-core').Page) {
  // Until the cross-origin frame has navigated it holds a same-origin about:blank.
  await expect.poll(() => page.frames().some((f) => f.url().includes('localhost'))).toBe(true);
  for (const f of page.frames()) await f.waitForLoadState('load');
}

describe('reach', () => {
  it('walks nested open shadow roots, same-origin frames, and shows opaque regions with their size', async () => {
    const page = await open(s, 'map/reach.html');
    await loaded(page);
    expect(await mapBody(page)).toEqual([
      '*[1]button "Bold"',
      '*[2]link "Menu in nested shadow"',
      'frame f1 "Checkout"',
      '  ## Billing',
      '  *[f1:3]textbox "Card number"',
      '  *[f1:4]button "Pay"',
      '*[5]iframe "Ads" 304x104 cross-origin, opaque: use click_at',
      '*[6]canvas 200x80 opaque: use click_at',
    ]);
  });

  it('gives frame elements rects in top-viewport coordinates and resolves frame refs', async () => {
    const page = await open(s, 'map/reach.html');
    await loaded(page);
    const r = await page.evaluate(() => {
      const map = (window as any).pagehand.map();
      const pay = map.elements.find((e: any) => e.name === 'Pay');
      const el = (window as any).pagehand.resolve(pay.ref) as Element;
      const inner = el.getBoundingClientRect();
      return { ref: pay.ref, frame: pay.frame, rect: pay.rect, innerY: inner.y, text: el.textContent };
    });
    expect(r.ref).toBe('f1:4');
    expect(r.frame).toBe('f1');
    expect(r.text).toBe('Pay');
    // iframe at top 100 + 2px border; the button's own y inside the frame is added to it.
    expect(r.rect.y).toBeCloseTo(102 + r.innerY, 0);
  });

  it('finds buttons in closed shadow roots only when the hooks ran first', async () => {
    const early = await open(s, 'map/reach.html', { early: true });
    await loaded(early);
    expect(await mapBody(early)).toContain('*[7]button "Closed shadow button"');
    const late = await open(s, 'map/reach.html');
    await loaded(late);
    expect((await mapBody(late)).join('\n')).not.toContain('Closed shadow button');
  });
});
