import { describe, expect, it } from 'vitest';
import { open, origin, useSession } from './harness';
import { act, refOf } from './actions-helpers';

const s = useSession();

describe('scroll and scroll_to', () => {
  it('scrolls the page by pages and reports the position', async () => {
    const page = await open(s, 'actions/scroll.html');
    let r = await act(page, 'scroll', { direction: 'down' });
    expect(r.ok).toBe(true);
    expect(r.changes.scroll).toMatchObject({ target: 'page', y: 720, atTop: false, atBottom: false });
    expect(r.message).toMatch(/^Scrolled the page down by 1 page\. Now \d+% down\./);
    r = await act(page, 'scroll', { direction: 'up', pages: 5 });
    expect(r.changes.scroll).toMatchObject({ y: 0, percentY: 0, atTop: true });
    expect(r.message).toMatch(/^Scrolled the page up by 5 pages\. Now at the top\./);
    r = await act(page, 'scroll', { direction: 'up' });
    expect(r.message).toMatch(/^The page did not move: it is already at the top\./);
    await page.close();
  });

  it('scrolls a container by its ref or by an element inside it', async () => {
    const page = await open(s, 'actions/scroll.html');
    const pane = await refOf(page, 'region', 'Messages');
    let r = await act(page, 'scroll', { direction: 'down', ref: pane, pages: 5 });
    expect(r.ok).toBe(true);
    expect(r.changes.scroll).toMatchObject({ target: 'region "Messages"', atBottom: true, percentY: 100 });
    expect(r.message).toMatch(/^Scrolled region "Messages" down by 5 pages\. Now at the bottom\./);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    // The reply button is now visible inside the pane; scrolling "from" it moves the pane.
    const reply = await refOf(page, 'button', 'Reply to 9');
    r = await act(page, 'scroll', { direction: 'up', ref: reply, pages: 0.5 });
    expect(r.changes.scroll?.target).toBe('region "Messages"');
    expect(r.changes.scroll?.atBottom).toBe(false);
    r = await act(page, 'scroll', { direction: 'right', ref: pane });
    expect(r).toMatchObject({ ok: false });
    expect(r.message).toMatch(/can scroll right/);
    r = await act(page, 'scroll', { direction: 'right', ref: await refOf(page, 'region', 'Gallery') });
    expect(r.ok).toBe(true);
    expect(r.changes.scroll).toMatchObject({ target: 'region "Gallery"', x: 270 });
    expect(r.message).toMatch(/Now \d+% across\./);
    await page.close();
  });

  it('scroll_to brings an element into view', async () => {
    const page = await open(s, 'actions/scroll.html');
    const ref = await refOf(page, 'link', 'Post 22');
    const r = await act(page, 'scroll_to', { ref });
    expect(r.ok).toBe(true);
    expect(r.message).toMatch(/^Scrolled to link "Post 22"\. It is in view\./);
    const top = await page.locator('a[href="#Post 22"]').evaluate((a) => a.getBoundingClientRect().top);
    expect(top).toBeGreaterThan(300);
    expect(top).toBeLessThan(500);
    await page.close();
  });
});

describe('click_at', () => {
  it('hits canvas targets at normalised coordinates with offsetX/offsetY at that point', async () => {
    const page = await open(s, 'actions/canvas.html');
    const box = (await page.locator('#board').boundingBox())!;
    const vp = page.viewportSize()!;
    // Canvas content starts after its 4 px border; targets are at canvas px (100, 80) and (300, 80).
    const at = (cx: number, cy: number) => ({ x: (box.x + 4 + cx) / vp.width, y: (box.y + 4 + cy) / vp.height });
    const r = await act(page, 'click_at', at(100, 80));
    expect(r.ok, r.message).toBe(true);
    expect(r.message).toMatch(/^Clicked canvas "Board" at \(0\.\d+, 0\.\d+\) of the viewport \(104, 84 px inside it\)\./);
    let [which, offs] = (await page.textContent('#hit'))!.split(' ');
    expect(which).toBe('red');
    const [ox, oy] = offs!.split(',').map(Number);
    expect(Math.abs(ox! - 100)).toBeLessThanOrEqual(1);
    expect(Math.abs(oy! - 80)).toBeLessThanOrEqual(1);
    await act(page, 'click_at', at(300, 80));
    [which, offs] = (await page.textContent('#hit'))!.split(' ');
    expect(which).toBe('blue');
    const [ox2] = offs!.split(',').map(Number);
    expect(Math.abs(ox2! - 300)).toBeLessThanOrEqual(1);
    await act(page, 'click_at', at(200, 20));
    expect((await page.textContent('#hit'))!.startsWith('none')).toBe(true);
    await page.close();
  });

  it('reaches into open shadow roots and same-origin frames', async () => {
    const page = await open(s, 'actions/canvas.html');
    const vp = page.viewportSize()!;
    const sb = (await page.locator('shadow-card >> #inner').boundingBox())!;
    let r = await act(page, 'click_at', { x: (sb.x + sb.width / 2) / vp.width, y: (sb.y + sb.height / 2) / vp.height });
    expect(r.ok).toBe(true);
    expect(r.message).toMatch(/^Clicked button "Shadow action"/);
    expect(await page.textContent('#hit')).toBe('shadow inner');
    const fb = (await page.frameLocator('#frame').locator('#fb').boundingBox())!;
    r = await act(page, 'click_at', { x: (fb.x + fb.width / 2) / vp.width, y: (fb.y + fb.height / 2) / vp.height });
    expect(r.ok, r.message).toBe(true);
    expect(r.message).toMatch(/^Clicked button "Frame button"/);
    const out = await page.frameLocator('#frame').locator('#out').textContent();
    // The frame's handler sees client coordinates in the frame's own viewport: the button's centre.
    const [fx, fy] = out!.replace('frame clicked ', '').split(',').map(Number);
    expect(Math.abs(fx! - (20 + 80))).toBeLessThanOrEqual(1);
    expect(Math.abs(fy! - (20 + 20))).toBeLessThanOrEqual(1);
    await page.close();
  });

  it('clicks a frame element by its frame ref', async () => {
    const page = await open(s, 'actions/canvas.html');
    const r = await act(page, 'click', { ref: await refOf(page, 'button', 'Frame button') });
    expect(r.ok, r.message).toBe(true);
    expect(await page.frameLocator('#frame').locator('#out').textContent()).toMatch(/^frame clicked \d+,\d+$/);
    await page.close();
  });
});

describe('read', () => {
  it('reads the whole page in chunks: rendered text only, through shadow roots and frames', async () => {
    const page = await open(s, 'actions/read.html');
    const first = await act(page, 'read', {});
    expect(first.ok).toBe(true);
    const pages = first.changes.chunk!.pages;
    expect(pages).toBeGreaterThan(2);
    expect(first.message).toMatch(
      new RegExp(`^Text of the page \\(page 1 of ${pages}\\):\\nHome About\\nThe long story\\nParagraph 1\\. word1_0 word1_1 .* word1_29\\nParagraph 2\\. `),
    );
    expect(first.message).toContain(`[Page 1 of ${pages}. For more, read with page 2.]`);
    let all = '';
    for (let p = 1; p <= pages; p++) {
      const r = await act(page, 'read', { page: p });
      expect(r.changes.chunk).toEqual({ page: p, pages });
      expect(r.message.length).toBeLessThan(3300);
      all += r.message;
    }
    for (let i = 1; i <= 40; i++) expect(all).toContain(`Paragraph ${i}. word${i}_0`);
    expect(all).toContain('Plan | Price');
    expect(all).toContain('[A red bicycle]');
    expect(all).toContain('Shadow quote text');
    expect(all).toContain('THE END.');
    expect(all).not.toContain('Secret hidden text');
    expect(all).not.toContain('Invisible text');
    const beyond = await act(page, 'read', { page: pages + 1 });
    expect(beyond).toMatchObject({ ok: false, message: `There is no page ${pages + 1}: the text of the page has ${pages} pages.` });
    await page.close();
  });

  it('reads one region by ref', async () => {
    const page = await open(s, 'actions/scroll.html');
    const r = await act(page, 'read', { ref: await refOf(page, 'region', 'Messages') });
    expect(r.message).toBe(
      'Text of region "Messages":\nMessage 1\nMessage 2\nMessage 3\nMessage 4\nMessage 5\nMessage 6\nMessage 7\nMessage 8\nReply to 9\nMessage 10',
    );
    await page.close();
  });
});

describe('navigate, go_back, wait', () => {
  it('navigates to a relative URL after awaiting the hook, and refuses other schemes', async () => {
    const page = await open(s, 'actions/plain.html');
    await page.evaluate(() =>
      (window as any).pagehand.setBeforeNavigate(async (info: unknown) => {
        await new Promise((r) => setTimeout(r, 50));
        sessionStorage.setItem('saved', JSON.stringify(info));
      }),
    );
    let r = await act(page, 'navigate', { url: 'javascript:alert(1)' });
    expect(r).toMatchObject({ ok: false, message: 'Only http and https addresses can be opened; "javascript:alert(1)" is javascript.' });
    r = await act(page, 'navigate', { url: 'next.html?via=navigate' });
    const url = `${origin()}/fixtures/actions/next.html?via=navigate`;
    expect(r).toMatchObject({ ok: true, message: `Navigation to ${url} started.`, changes: { navigation: { url } } });
    await page.waitForURL(/via=navigate/);
    expect(JSON.parse((await page.evaluate(() => sessionStorage.getItem('saved')))!)).toEqual({ url, kind: 'navigate' });
    await page.close();
  });

  it('goes back across documents (hook first) and within a single-page app', async () => {
    const page = await open(s, 'actions/plain.html');
    await page.goto(`${origin()}/fixtures/actions/next.html`);
    await page.addScriptTag({ content: (await import('./harness')).bundleSource() });
    await page.evaluate(() => (window as any).pagehand.setBeforeNavigate((info: unknown) => sessionStorage.setItem('back', JSON.stringify(info))));
    const r = await act(page, 'go_back');
    expect(r.ok).toBe(true);
    expect(r.message).toBe(`Going back. Navigation to ${origin()}/fixtures/actions/plain.html started.`);
    await page.waitForURL(/plain\.html/);
    expect(JSON.parse((await page.evaluate(() => sessionStorage.getItem('back')))!)).toMatchObject({ kind: 'back' });
    // Same-document history: pushState, then back reports the URL change after settling.
    await page.addScriptTag({ content: (await import('./harness')).bundleSource() });
    await page.evaluate(() => {
      history.pushState({}, '', '?tab=2');
      addEventListener('popstate', () => {
        document.title = 'Tab 1';
      });
    });
    const r2 = await act(page, 'go_back');
    expect(r2.ok).toBe(true);
    expect(r2.changes.url?.to).toBe(`${origin()}/fixtures/actions/plain.html`);
    expect(r2.changes.title?.to).toBe('Tab 1');
    await page.close();
  });

  it('waits for text to appear, for seconds, and says when text never came', async () => {
    const page = await open(s, 'actions/plain.html');
    await page.evaluate(() => setTimeout(() => document.body.insertAdjacentHTML('beforeend', '<p>Order confirmed</p>'), 300));
    let r = await act(page, 'wait', { text: 'order CONFIRMED' });
    expect(r.ok).toBe(true);
    expect(r.message).toMatch(/^The text "order CONFIRMED" appeared after \d\.\d s\./);
    r = await act(page, 'wait', { text: 'Order confirmed' });
    expect(r.message).toBe('The text "Order confirmed" is already on the page.');
    r = await act(page, 'wait', { text: 'Never shown', seconds: 0.3 });
    expect(r).toMatchObject({ ok: false, message: 'The text "Never shown" did not appear within 0.3 s.' });
    // The button's timer starts in the same task as the wait, after the wait's first look: two
    // round trips (timer, then act) let a loaded machine add the button before the wait began.
    r = await page.evaluate(() => {
      setTimeout(() => document.body.insertAdjacentHTML('beforeend', '<button>Late button</button>'), 100);
      return (window as any).pagehand.act({ name: 'wait', args: { seconds: 0.4 } });
    });
    expect(r.message).toBe('Waited 0.4 s. 1 new element appeared: button "Late button".');
    await page.close();
  });
});
