/**
 * The overlay in real Chromium, state by state: idle, running, confirm, ask, done, error,
 * collapsed, dark, 360 px, Spanish. Each state is saved as a PNG (.tmp/ui-shots/), checked
 * (size, not blank, panel on screen, theme background) and run through axe-core. The runs
 * are real: the bundle, the proxy and the scripted model, driven through the panel with the
 * mouse and keyboard as a person would.
 */
import { describe, expect, it } from 'vitest';
import { call, hasText, latestMap, mapUrl, openWithAgent, refFor, type Policy, useAgentStack } from './agent-harness';
import { connect } from './harness';
import { checkState, clickAllow, DARK_BG, inUi, LIGHT_BG, openPanel, panel, revealOverlay, sendTask, useUiSession, waitIn } from './ui-kit';

const session = useUiSession();
const stack = useAgentStack();

/** A promise the test resolves: the scripted model holds its reply until then. */
function gate(): { wait: Promise<void>; open(): void } {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  return { wait, open };
}

const userText = (req: Parameters<Policy>[0]): string =>
  req.messages
    .filter((m) => m.role === 'user')
    .map((m) => m.text)
    .join('\n');

describe('panel states', () => {
  it('idle: the task box has focus; Tab reaches Send with a visible focus ring', async () => {
    const page = await openWithAgent(session, 'webmail/inbox.html');
    await page.emulateMedia({ colorScheme: 'light' });
    await openPanel(page, stack);
    expect(await page.evaluate(() => document.querySelector('pagehand-ui')!.shadowRoot!.activeElement?.id)).toBe('ph-task');
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.querySelector('pagehand-ui')!.shadowRoot!.activeElement as HTMLElement;
      const cs = getComputedStyle(el);
      return { text: el.textContent, outline: cs.outlineStyle, width: cs.outlineWidth };
    });
    expect(focused).toEqual({ text: 'Send', outline: 'solid', width: '2px' });
    await checkState(page, 'idle', { background: LIGHT_BG });
    await page.close();
  });

  it('running → confirm → done on the shop: type the task, Enter, watch the steps, Allow, read the summary', async () => {
    const hold = gate();
    let held = false;
    stack.setPolicy(async (req) => {
      const map = latestMap(req);
      if (mapUrl(map).includes('checkout.html')) {
        if (hasText(map, /Order #\d+ placed/)) return call('done', { summary: 'Your order for the espresso grinder was placed.' });
        if (/did not allow/.test(userText(req))) return call('done', { summary: 'Declined.', success: false });
        return call('click', { ref: refFor(map, 'button', 'Place order') }, 'evaluation: at checkout\nmemory: grinder in cart\ngoal: place the order');
      }
      if (hasText(map, 'Cart (1)')) return call('click', { ref: refFor(map, 'link', 'Checkout') }, 'goal: go to checkout');
      if (!/value="espresso"/.test(map))
        return call(
          'type',
          { ref: refFor(map, 'searchbox', 'Search products'), text: 'espresso' },
          'evaluation: the shop is open\nmemory: nothing yet\ngoal: search for the grinder',
        );
      if (!held) {
        held = true;
        await hold.wait; // the panel is photographed mid-run
      }
      return call('click', { ref: refFor(map, 'button', /Espresso grinder/) }, 'goal: add the grinder to the cart');
    });
    const page = await openWithAgent(session, 'shop/index.html', { early: true });
    await page.evaluate(() => localStorage.removeItem('shopOrders'));
    await page.emulateMedia({ colorScheme: 'light' });
    await openPanel(page, stack);
    await sendTask(page, 'Buy the espresso grinder');

    // Running: the first step is in the log, the second is being thought about.
    await inUi(page, '[data-step="2"]').waitFor();
    await expect.poll(() => inUi(page, '[data-step="1"] .act').textContent()).toContain('✓ type');
    expect(await inUi(page, '[data-progress]').textContent()).toMatch(/Step 2 of 50/);
    expect(await inUi(page, '[data-mask]').count()).toBe(1);
    await checkState(page, 'running', { background: LIGHT_BG });
    hold.open();

    // The run goes on to checkout (a full navigation: the bundle resumes the run there) and asks.
    await page.waitForURL(/checkout\.html/, { timeout: 30_000 }).catch(async (e) => {
      throw new Error(
        `${e}\npanel: ${await panel(page)
          .textContent()
          .catch(() => '?')}`,
      );
    });
    const card = await waitIn(page, '[role="alertdialog"]');
    expect(await card.textContent()).toContain('button "Place order"');
    expect(await card.getAttribute('aria-labelledby')).toBe('ph-confirm-title');
    expect(await inUi(page, '[data-resumed]').count()).toBe(1);
    await checkState(page, 'confirm', { background: LIGHT_BG });
    await clickAllow(page);

    const summary = inUi(page, '[data-end="done"] [data-summary]');
    await summary.waitFor({ timeout: 30_000 });
    expect(await summary.textContent()).toBe('Your order for the espresso grinder was placed.');
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('shopOrders') ?? '[]').length)).toBe(1);
    expect(await inUi(page, '[data-mask]').count()).toBe(0);
    await checkState(page, 'done', { background: LIGHT_BG });
    await page.close();
  }, 90_000);

  it('ask: the question gets an answer typed into the card; the copy button copies the summary', async () => {
    stack.setPolicy((req) => {
      const answered = /The user answered: (.+)/.exec(userText(req));
      if (answered) return call('done', { summary: `Searching for mail from ${answered[1]!.trim()}.` });
      return call('ask_user', { question: 'Whose emails should I look for?' }, 'goal: ask who');
    });
    const page = await openWithAgent(session, 'webmail/inbox.html');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
    await page.emulateMedia({ colorScheme: 'light' });
    await openPanel(page, stack);
    await sendTask(page, 'Find some emails');
    const ask = inUi(page, '[data-ask]');
    await ask.waitFor();
    expect(await ask.textContent()).toContain('Whose emails should I look for?');
    // The answer box has focus: a person just types.
    expect(await page.evaluate(() => document.querySelector('pagehand-ui')!.shadowRoot!.activeElement?.id)).toBe('ph-answer');
    await checkState(page, 'ask', { background: LIGHT_BG });
    await page.keyboard.type('Ernesto');
    await page.keyboard.press('Enter');
    const summary = inUi(page, '[data-summary]');
    await summary.waitFor();
    expect(await summary.textContent()).toBe('Searching for mail from Ernesto.');
    await inUi(page, '[data-copy]').click();
    await expect.poll(() => inUi(page, '[data-copy]').textContent()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Searching for mail from Ernesto.');
    await page.close();
  });

  it('error: a failed model call ends on an error card; Retry runs the same task again', async () => {
    let fail = true;
    const tasks: string[] = [];
    stack.setPolicy((req) => {
      tasks.push(userText(req));
      return fail ? { status: 400, errorMessage: 'bad request from the scripted model' } : call('done', { summary: 'Second time lucky.' });
    });
    const page = await openWithAgent(session, 'webmail/inbox.html');
    await page.emulateMedia({ colorScheme: 'light' });
    await openPanel(page, stack);
    await sendTask(page, 'Count the unread emails');
    const end = inUi(page, '[data-end="failed"]');
    await end.waitFor();
    expect(await end.textContent()).toMatch(/model call failed/i);
    await checkState(page, 'error', { background: LIGHT_BG });
    fail = false;
    await inUi(page, '[data-retry]').click();
    await inUi(page, '[data-end="done"]').waitFor();
    expect(tasks).toHaveLength(2);
    expect(tasks.every((t) => t.includes('Count the unread emails'))).toBe(true);
    await page.close();
  });

  it('collapsed to a launcher and back by keyboard; place and size are remembered across a reload', async () => {
    const page = await openWithAgent(session, 'webmail/inbox.html');
    await page.evaluate(() => localStorage.removeItem('pagehand:ui'));
    await page.emulateMedia({ colorScheme: 'light' });
    await openPanel(page, stack);
    // Drag by the header with the mouse.
    const before = (await panel(page).boundingBox())!;
    await page.mouse.move(before.x + 60, before.y + 18);
    await page.mouse.down();
    await page.mouse.move(before.x - 200, before.y - 150, { steps: 5 });
    await page.mouse.up();
    const after = (await panel(page).boundingBox())!;
    expect(Math.round(after.x)).toBe(Math.round(before.x - 260));
    expect(Math.round(after.y)).toBe(Math.round(before.y - 168));

    // Resize by the corner (CSS resize): smaller by 60 × 40.
    await page.mouse.move(after.x + after.width - 3, after.y + after.height - 3);
    await page.mouse.down();
    await page.mouse.move(after.x + after.width - 63, after.y + after.height - 43, { steps: 5 });
    await page.mouse.up();
    const sized = (await panel(page).boundingBox())!;
    expect(Math.round(sized.width)).toBe(Math.round(after.width - 60));
    expect(Math.round(sized.height)).toBe(Math.round(after.height - 40));
    await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('pagehand:ui') ?? '{}').width)).toBe(Math.round(sized.width));

    await inUi(page, '[data-collapse]').click();
    const launcher = inUi(page, '.launcher');
    expect(await panel(page).count()).toBe(0);
    expect(await page.evaluate(() => document.querySelector('pagehand-ui')!.shadowRoot!.activeElement?.className)).toBe('launcher');
    await checkState(page, 'collapsed', { of: launcher });

    await page.reload();
    await page.addScriptTag({ path: 'dist/pagehand.js' });
    await page.evaluate(() => (window as any).pagehand.open());
    // open() shows the panel again, where the user left it.
    const again = (await panel(page).boundingBox())!;
    expect([again.x, again.y, again.width, again.height].map(Math.round)).toEqual([sized.x, sized.y, sized.width, sized.height].map(Math.round));
    await inUi(page, '[data-collapse]').click();
    await page.keyboard.press('Enter'); // the launcher has focus
    await panel(page).waitFor();
    await page.close();
  });

  it('dark: from prefers-color-scheme, and the theme option overrides it', async () => {
    const page = await openWithAgent(session, 'webmail/inbox.html');
    await page.emulateMedia({ colorScheme: 'dark' });
    await openPanel(page, stack);
    await checkState(page, 'dark', { background: DARK_BG });
    await page.evaluate(() => (window as any).pagehand.open({ theme: 'light' }));
    const bg = await panel(page).evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(bg).toBe('rgb(255, 255, 255)');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.evaluate(() => (window as any).pagehand.open({ theme: 'dark' }));
    expect(await panel(page).evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(28, 31, 38)');
    await page.close();
  });

  it('360 px wide: the panel fits the screen and its controls stay usable', async () => {
    const narrow = await connect({ width: 360, height: 740 });
    try {
      await revealOverlay(narrow.context);
      const page = await narrow.context.newPage();
      const { origin } = await import('./harness');
      await page.goto(`${origin()}/fixtures/agent/webmail/inbox.html`);
      // The page's own <html lang> would come first (ui-i18n.test.ts): this page names none.
      await page.evaluate(() => document.documentElement.removeAttribute('lang'));
      await page.addScriptTag({ path: 'dist/pagehand.js' });
      await page.emulateMedia({ colorScheme: 'light' });
      await openPanel(page, stack);
      const box = (await panel(page).boundingBox())!;
      expect(box.width).toBeLessThanOrEqual(344);
      expect(box.x).toBeGreaterThanOrEqual(8);
      for (const sel of ['[data-send]', '[data-collapse]', '[data-close]']) {
        const b = (await inUi(page, sel).boundingBox())!;
        expect(b.x + b.width, sel).toBeLessThanOrEqual(352);
      }
      await checkState(page, 'narrow-360', { background: LIGHT_BG });
    } finally {
      await narrow.close();
    }
  });

  it('Spanish from the browser language on a page that names none; the lang option overrides it', async () => {
    const es = await connect();
    try {
      const ctx = await es.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'es-ES' });
      await revealOverlay(ctx);
      const page = await ctx.newPage();
      const { origin } = await import('./harness');
      await page.goto(`${origin()}/fixtures/agent/webmail/inbox.html`);
      // The page's own <html lang> would come first (ui-i18n.test.ts): this page names none.
      await page.evaluate(() => document.documentElement.removeAttribute('lang'));
      await page.addScriptTag({ path: 'dist/pagehand.js' });
      await page.emulateMedia({ colorScheme: 'light' });
      await openPanel(page, stack);
      expect(await inUi(page, '[data-send]').textContent()).toBe('Enviar');
      expect(await inUi(page, 'label[for="ph-task"]').textContent()).toBe('¿Qué hago en esta página?');
      await checkState(page, 'spanish', { background: LIGHT_BG });
      await page.evaluate(() => (window as any).pagehand.open({ lang: 'en' }));
      expect(await inUi(page, '[data-send]').textContent()).toBe('Send');
      await ctx.close();
    } finally {
      await es.close();
    }
  });

  it('prefers-reduced-motion turns the animations off', async () => {
    const page = await openWithAgent(session, 'webmail/inbox.html');
    await openPanel(page, stack);
    // The highlight's transition, read from a probe element inside the panel's shadow root.
    const transition = () =>
      page.evaluate(() => {
        const root = document.querySelector('pagehand-ui')!.shadowRoot!;
        const probe = document.createElement('div');
        probe.className = 'hl';
        root.querySelector('.ph')!.appendChild(probe);
        const d = getComputedStyle(probe).transitionDuration;
        probe.remove();
        return d;
      });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await transition()).toBe('0s');
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    expect(await transition()).not.toBe('0s');
    await page.close();
  });
});
