/**
 * The overlay on pages that fight it: a CSP that forbids inline styles (`style-src 'self'`, sent
 * as a header) and a page with hostile global CSS and full-screen overlays at the highest
 * z-index. The panel stays styled, whole and on top, and the page's own styles are untouched.
 */
import { describe, expect, it } from 'vitest';
import { useAgentStack } from './agent-harness';
import { bundleSource, open, origin } from './harness';
import { checkState, LIGHT_BG, openPanel, panel, useUiSession } from './ui-kit';

const session = useUiSession();
const stack = useAgentStack();

/** The default place: bottom-right, 12 px margin, 380×540 in a 1280×800 viewport. */
const DEFAULT_BOX = { x: 1280 - 380 - 12, y: 800 - 540 - 12, width: 380, height: 540 };

async function expectDefaultBox(box: { x: number; y: number; width: number; height: number } | null): Promise<void> {
  expect(box).not.toBeNull();
  for (const k of ['x', 'y', 'width', 'height'] as const) expect(Math.abs(box![k] - DEFAULT_BOX[k]), k).toBeLessThan(1);
}

/** The element on top at the middle of the panel (through our open shadow root). */
const topAtPanel = () => {
  const host = document.querySelector('pagehand-ui')!;
  const section = host.shadowRoot!.querySelector('section')!;
  const r = section.getBoundingClientRect();
  const x = r.x + r.width / 2;
  const y = r.y + r.height / 2;
  const outer = document.elementFromPoint(x, y);
  return { outer: outer?.localName, inside: !!host.shadowRoot!.elementFromPoint(x, y)?.closest('section') };
};

describe('hostile pages', () => {
  it("a CSP page (style-src 'self') keeps the panel styled and the page's styles untouched", async () => {
    const page = await session.context.newPage();
    const url = `${origin()}/fixtures/ui/csp.html`;
    await page.route(url, async (route) => {
      const res = await route.fetch();
      await route.fulfill({ response: res, headers: { ...res.headers(), 'content-security-policy': "style-src 'self'" } });
    });
    await page.goto(url);
    await page.addScriptTag({ content: bundleSource() });
    // The control: the CSP is in force (the page's own inline <style> and style attribute are blocked).
    const before = await page.evaluate(() => {
      const probe = getComputedStyle(document.getElementById('probe')!);
      return {
        probe: [probe.color, probe.fontSize],
        site: getComputedStyle(document.querySelector('.site')!).color,
        sheets: document.styleSheets.length,
        adopted: document.adoptedStyleSheets.length,
        violations: (window as any).violations.length,
        styled: document.querySelectorAll('[style]').length,
      };
    });
    expect(before.probe).not.toEqual(['rgb(1, 2, 3)', '40px']);
    expect(before.violations).toBeGreaterThan(0);
    expect(before.site).toBe('rgb(0, 90, 0)');

    await page.emulateMedia({ colorScheme: 'light' });
    await openPanel(page, stack);
    await expectDefaultBox(await panel(page).boundingBox());
    const styled = await panel(page).evaluate((el) => {
      const cs = getComputedStyle(el);
      return { position: cs.position, radius: cs.borderRadius, bg: cs.backgroundColor, font: cs.fontSize, display: cs.display };
    });
    expect(styled).toEqual({ position: 'fixed', radius: '12px', bg: 'rgb(255, 255, 255)', font: '14px', display: 'flex' });
    await checkState(page, 'csp', { background: LIGHT_BG });

    const after = await page.evaluate(() => ({
      probe: [getComputedStyle(document.getElementById('probe')!).color, getComputedStyle(document.getElementById('probe')!).fontSize],
      site: getComputedStyle(document.querySelector('.site')!).color,
      sheets: document.styleSheets.length,
      adopted: document.adoptedStyleSheets.length,
      violations: (window as any).violations.length,
      styled: document.querySelectorAll('[style]').length,
    }));
    // Nothing of ours was blocked, and the page's styles are as they were.
    expect(after).toEqual(before);
    await page.close();
  });

  it('hostile global CSS and z-index 2147483647 overlays leave the panel whole and on top', async () => {
    const page = await session.context.newPage();
    await page.goto(`${origin()}/fixtures/ui/hostile.html`);
    await page.addScriptTag({ content: bundleSource() });
    await page.waitForFunction(() => !!document.getElementById('cover2'));
    await page.emulateMedia({ colorScheme: 'light' });
    await openPanel(page, stack);
    await expectDefaultBox(await panel(page).boundingBox());
    expect(await page.evaluate(topAtPanel)).toEqual({ outer: 'pagehand-ui', inside: true });
    const inner = await panel(page).evaluate((el) => {
      const cs = getComputedStyle(el);
      const send = el.querySelector('[data-send]')!;
      const bs = getComputedStyle(send);
      return { font: cs.fontSize, color: cs.color, spacing: cs.letterSpacing, sendFont: bs.fontSize, sendBg: bs.backgroundColor, sendDisplay: bs.display };
    });
    expect(inner).toEqual({ font: '14px', color: 'rgb(27, 30, 36)', spacing: 'normal', sendFont: '14px', sendBg: 'rgb(31, 95, 209)', sendDisplay: 'block' }); // a flex item of its row, not hidden
    // A person can use it: type a task (the page covers are below us).
    await page.locator('pagehand-ui [data-task]').click();
    await page.keyboard.type('hello');
    expect(await page.locator('pagehand-ui [data-task]').inputValue()).toBe('hello');
    await checkState(page, 'hostile', { background: LIGHT_BG });
    await page.close();
  });

  it("a page's modal dialog does not make the panel inert: the host moves into it while it is open", async () => {
    const page = await open(
      session,
      `<!doctype html><html lang="en"><head><title>Modal</title></head><body>
      <button id="openit">Open</button>
      <dialog id="d"><p>Are you sure?</p><button id="yes">Delete</button></dialog></body></html>`,
    );
    await page.emulateMedia({ colorScheme: 'light' });
    await openPanel(page, stack);
    await page.evaluate(() => (document.getElementById('d') as HTMLDialogElement).showModal());
    await expect.poll(() => page.evaluate(() => document.querySelector('pagehand-ui')!.parentElement!.id)).toBe('d');
    // The panel still takes a person's input, and stays where it was.
    await expectDefaultBox(await panel(page).boundingBox());
    await page.locator('pagehand-ui [data-task]').click();
    await page.keyboard.type('still here');
    expect(await page.locator('pagehand-ui [data-task]').inputValue()).toBe('still here');
    expect(await page.evaluate(topAtPanel)).toEqual({ outer: 'pagehand-ui', inside: true });
    await page.evaluate(() => (document.getElementById('d') as HTMLDialogElement).close());
    await expect.poll(() => page.evaluate(() => document.querySelector('pagehand-ui')!.parentElement!.localName)).toBe('html');
    expect(await page.locator('pagehand-ui [data-task]').inputValue()).toBe('still here');
    await page.close();
  });

  it("typing in the panel fires none of the site's keyboard shortcuts", async () => {
    const page = await open(
      session,
      `<!doctype html><html lang="en"><head><title>Shortcuts</title></head><body>
      <p id="out">Page text</p>
      <script>
        // A site shortcut handler, as many have: bubbling keydown on document, "s" focuses search.
        window.shortcuts = [];
        document.addEventListener('keydown', (e) => window.shortcuts.push(e.key));
        window.addEventListener('keypress', (e) => window.shortcuts.push('press:' + e.key));
      </script></body></html>`,
    );
    await openPanel(page, stack);
    await page.locator('pagehand-ui [data-task]').click();
    await page.keyboard.type('search s');
    expect(await page.locator('pagehand-ui [data-task]').inputValue()).toBe('search s');
    expect(await page.evaluate(() => (window as any).shortcuts)).toEqual([]);
    // The control: the same keys typed on the page itself do reach the handler.
    await page.locator('#out').click();
    await page.keyboard.press('s');
    expect(await page.evaluate(() => (window as any).shortcuts)).toEqual(['s', 'press:s']);
    await page.close();
  });
});
