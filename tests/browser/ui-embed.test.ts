/**
 * The site embed as a site owner writes it, in real Chromium against the real proxy and the
 * scripted model: the script tag's data-lang / data-position / data-model (the launcher's
 * corner and language, the panel's runs' model), and `pagehand.init` for the overlay (theme,
 * launcher text, autoOpen, run defaults) with its clear error on a bad value. Screenshots go
 * to .tmp/ui-shots/ beside the other overlay states, checked there and run through axe-core.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { call, MODELS, useAgentStack } from './agent-harness';
import { origin, useSession } from './harness';
import { checkState, DARK_BG, inUi, panel, revealOverlay, sendTask, shot, waitIn } from './ui-kit';

const session = useSession();
const stack = useAgentStack();
const VIEWPORT = { width: 1280, height: 800 };

let context: BrowserContext | undefined;
afterEach(async () => {
  await context?.close();
  context = undefined;
});

/** An embed fixture in a fresh context (no remembered panel place), with the page's console warnings. */
async function openEmbed(fixture: string, extra: Record<string, string> = {}): Promise<{ page: Page; warnings: string[] }> {
  context = await session.browser.newContext({ viewport: VIEWPORT, colorScheme: 'light' });
  await revealOverlay(context);
  const page = await context.newPage();
  const warnings: string[] = [];
  page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
  page.on('pageerror', (e) => console.error('[page error]', e.message));
  const q = new URLSearchParams({ proxy: stack.proxyUrl, token: stack.token, ...extra });
  await page.goto(`${origin()}/fixtures/delivery/${fixture}?${q}`);
  return { page, warnings };
}

const background = (page: Page): Promise<string> => panel(page).evaluate((el) => getComputedStyle(el).backgroundColor);

describe('the embed script tag', () => {
  it('data-lang="es" data-position="bottom-left" data-model: a Spanish launcher bottom-left, and the panel\'s task reaches that model', async () => {
    const { page, warnings } = await openEmbed('embed-es.html');
    const launcher = await waitIn(page, 'button.launcher');
    expect(await launcher.getAttribute('aria-label')).toBe('Abrir pagehand');
    const box = (await launcher.boundingBox())!;
    // The bottom-left corner, 12 px in, not the default bottom-right.
    expect(Math.round(box.x)).toBe(12);
    expect(Math.round(VIEWPORT.height - box.y - box.height)).toBe(12);
    expect(box.x + box.width).toBeLessThan(VIEWPORT.width / 2);
    await checkState(page, 'embed-launcher-es-bottom-left', { of: launcher });

    // The panel opens from the same corner, in Spanish.
    await launcher.click();
    await panel(page).waitFor();
    const p = (await panel(page).boundingBox())!;
    expect(Math.round(p.x)).toBe(12);
    expect(Math.round(VIEWPORT.height - p.y - p.height)).toBe(12);
    expect(await inUi(page, '[data-send]').textContent()).toBe('Enviar');

    stack.setPolicy(() => call('done', { summary: 'Hay tres productos.' }));
    const before = stack.requests().length;
    await sendTask(page, 'Cuenta los productos');
    await waitIn(page, '[data-end="done"]');
    const req = stack.requests().slice(before);
    expect(req.length).toBeGreaterThan(0);
    expect(req.map((r) => r.model)).toEqual(req.map(() => MODELS.gemini));
    // The run's reply language is the tag's too.
    expect(req[0]!.messages.find((m) => m.role === 'system')!.text).toContain('Answer the user in this language: es.');
    await shot(page, 'embed-panel-es-bottom-left');
    expect(warnings).toEqual([]);
  });

  it('an unknown data-position leaves the launcher bottom-right with one console warning', async () => {
    const { page, warnings } = await openEmbed('embed-es.html', { 'data-position': 'middle' });
    const box = (await (await waitIn(page, 'button.launcher')).boundingBox())!;
    expect(box.x).toBeGreaterThan(VIEWPORT.width / 2);
    expect(Math.round(VIEWPORT.height - box.y - box.height)).toBe(12);
    expect(warnings.filter((w) => w.includes('pagehand'))).toEqual([
      'pagehand: data-position="middle" is not one of bottom-right, bottom-left, top-right, top-left; the launcher stays at bottom-right.',
    ]);
  });
});

describe('pagehand.init for the overlay', () => {
  it('{ theme: dark, launcherText, autoOpen }: the panel is open and dark on load; minimised, the launcher shows the text', async () => {
    const { page } = await openEmbed('embed-init.html');
    // Open on load without anyone clicking, dark although the system is light.
    await panel(page).waitFor();
    expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(false);
    expect(await background(page)).toBe('rgb(28, 31, 38)');
    // It did not take the focus from the page.
    expect(await page.evaluate(() => document.querySelector('pagehand-ui')!.shadowRoot!.activeElement)).toBeNull();
    await checkState(page, 'embed-auto-open-dark', { background: DARK_BG });

    await inUi(page, '[data-collapse]').click();
    const launcher = inUi(page, 'button.launcher');
    expect(await launcher.textContent()).toBe('Ask the shop');
    // Named by its text, in the default corner.
    expect(await page.getByRole('button', { name: 'Ask the shop' }).count()).toBe(1);
    const box = (await launcher.boundingBox())!;
    expect(Math.round(VIEWPORT.width - box.x - box.width)).toBe(12);
    expect(box.width).toBeGreaterThan(100); // a pill with the text, not the 48 px circle
    expect(await launcher.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(122, 167, 255)'); // the dark theme's accent
    await checkState(page, 'embed-launcher-text-dark', { of: launcher });

    // A bad value throws a clear error and changes nothing.
    const errors = await page.evaluate(() => {
      const tryInit = (c: unknown): string => {
        try {
          (window as any).pagehand.init(c);
          return 'no error';
        } catch (e) {
          return (e as Error).message;
        }
      };
      return [tryInit({ theme: 'blue', launcherText: 'Changed' }), tryInit({ position: 'middle' }), tryInit({ autoOpen: 'yes' })];
    });
    expect(errors).toEqual([
      `pagehand.init: theme must be one of 'auto', 'light', 'dark' (got "blue").`,
      `pagehand.init: position must be one of 'bottom-right', 'bottom-left', 'top-right', 'top-left' (got "middle").`,
      'pagehand.init: autoOpen must be true or false (got "yes").',
    ]);
    expect(await launcher.textContent()).toBe('Ask the shop');
    await launcher.click();
    expect(await background(page)).toBe('rgb(28, 31, 38)');
  });

  it("init applies at once and its model and lang are the panel's defaults; a run's own model wins", async () => {
    const { page } = await openEmbed('embed-init.html');
    await panel(page).waitFor();
    await page.evaluate((model) => (window as any).pagehand.init({ theme: 'light', lang: 'es', model, position: 'top-left' }), MODELS.gemini);
    // Re-themed, re-languaged and moved to the new corner without a reload.
    expect(await background(page)).toBe('rgb(255, 255, 255)');
    expect(await inUi(page, '[data-send]').textContent()).toBe('Enviar');
    const p = (await panel(page).boundingBox())!;
    expect([Math.round(p.x), Math.round(p.y)]).toEqual([12, 12]);

    stack.setPolicy(() => call('done', { summary: 'Listo.' }));
    let before = stack.requests().length;
    await sendTask(page, 'Cuenta los productos');
    await waitIn(page, '[data-end="done"]');
    const fromPanel = stack.requests().slice(before);
    expect(fromPanel.map((r) => r.model)).toEqual(fromPanel.map(() => MODELS.gemini));
    expect(fromPanel[0]!.messages.find((m) => m.role === 'system')!.text).toContain('Answer the user in this language: es.');

    before = stack.requests().length;
    const result = await page.evaluate((model) => (window as any).pagehand.run('Count the products', { model, ui: false }).result, MODELS.openai);
    expect(result).toMatchObject({ ok: true });
    expect(
      stack
        .requests()
        .slice(before)
        .map((r) => r.model),
    ).toEqual([MODELS.openai]);
  });
});
