/**
 * The confirmation card against a page that tries to get a yes the user did not mean: a "Deny"
 * drawn over Allow that lets clicks through, its own element in the top layer, the page faded
 * or filtered, the card moved under the pointer, the focus moved to Allow before the user's
 * Enter, a click just as the card appears. In real Chromium with the built bundle and a scripted
 * model that clicks "Delete account"; every click and key is Playwright's, i.e. the user's own
 * (trusted) input. Each attack must leave the account as it was; then the page stops, the card
 * arms, and the user's click allows — the card still works.
 *
 * The page reaches the card's geometry through the overlay's root, opened for tests
 * (useUiSession); a real page knows the panel's default place and size just as well.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call, latestMap, refFor, sequence, useAgentStack } from './agent-harness';
import { bundleSource, origin } from './harness';
import { checkState, clickAllow, LIGHT_BG, openPanel, sendTask, useUiSession, waitIn } from './ui-kit';

const session = useUiSession();
const stack = useAgentStack();

/**
 * The attacker's kit, on the account page (fixtures/ui/account.html: "Delete account" counts in
 * `window.deleted`): `__allow()` is Allow's box; `__cover(box, opts)` draws
 * a fake "Deny" button over it (clicks pass through), in the top layer when asked; `__uncover()`
 * takes it away; `__shown` is when the card took the focus (the page sees focus enter our host).
 */
const KIT = `(() => {
  const root = () => document.querySelector('pagehand-ui').shadowRoot;
  window.__allow = () => root().querySelector('[data-allow]').getBoundingClientRect().toJSON();
  window.__armed = () => !!root().querySelector('[data-confirm][data-armed]');
  window.__cover = (opts = {}) => {
    const r = window.__allow();
    const d = document.createElement('div');
    d.id = 'fake';
    d.textContent = 'Deny';
    if (opts.topLayer) d.setAttribute('popover', 'manual');
    d.style.cssText = 'position:fixed;margin:0;inset:auto;left:' + r.x + 'px;top:' + r.y + 'px;width:' + r.width + 'px;height:' + r.height +
      'px;box-sizing:border-box;padding:6px;border:1px solid #999;border-radius:8px;background:#eee;color:#000;font:14px sans-serif;' +
      'text-align:center;pointer-events:none;z-index:2147483647';
    document.documentElement.appendChild(d);
    if (opts.topLayer) d.showPopover();
  };
  window.__uncover = () => document.getElementById('fake')?.remove();
  // The covered-Allow attack of the issue: the cover goes up the moment the card takes the focus.
  addEventListener('focusin', (e) => {
    // (The page knows a card is next: it baited the click. Here it looks, through the test's open root.)
    if (e.target.localName !== 'pagehand-ui' || window.__shown || !root().querySelector('[data-confirm]')) return;
    window.__shown = performance.now();
    if (window.__onShow) window.__onShow();
  }, true);
  // Whether the card was armed when the user's click reached the page's window (capture, first).
  addEventListener('pointerdown', () => { window.__armedAtClick = window.__armed(); }, true);
})();`;

/** The page opened, the panel sent "Delete my account", and the card up. `before` runs on the page first; `goal` is the model's. */
async function asked(before?: (p: Page) => Promise<unknown>, goal = 'delete the account'): Promise<Page> {
  stack.setPolicy(
    sequence(
      (req) => call('click', { ref: refFor(latestMap(req), 'button', 'Delete account') }, `goal: ${goal}`),
      call('done', { summary: 'The account is deleted.' }),
    ),
  );
  const page = await session.context.newPage();
  page.on('pageerror', (e) => console.error('[page error]', e.message));
  await page.addInitScript({ content: KIT });
  await page.goto(`${origin()}/fixtures/ui/account.html`);
  await page.addScriptTag({ content: bundleSource() });
  await page.emulateMedia({ colorScheme: 'light' });
  if (before) await before(page);
  await openPanel(page, stack);
  await sendTask(page, 'Delete my account');
  await waitIn(page, '[data-confirm]');
  return page;
}

const state = (page: Page) =>
  page.evaluate(() => ({
    deleted: (window as any).deleted as number,
    asking: !!document.querySelector('pagehand-ui')!.shadowRoot!.querySelector('[data-confirm]'),
  }));
const WAITING = { deleted: 0, asking: true };

/** The middle of Allow, where the user's pointer goes. */
async function allowPoint(page: Page): Promise<{ x: number; y: number }> {
  const r = await page.evaluate(() => (window as any).__allow());
  return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
}

const armed = (page: Page) => page.evaluate(() => (window as any).__armed() as boolean);
const waitArmed = (page: Page) => page.waitForFunction(() => (window as any).__armed(), undefined, { timeout: 10_000 });
/** Longer than the card's arming wait (500 ms) and IntersectionObserver v2's delay together. */
const pause = (page: Page) => page.waitForTimeout(900);

/** The user clicks Allow once the page stops: the run goes on and deletes the account. */
async function userAllows(page: Page): Promise<void> {
  // (A page that just stopped may have moved the card back: that restarts the wait too.)
  await pause(page);
  await waitArmed(page);
  const at = await allowPoint(page);
  await page.mouse.click(at.x, at.y);
  await waitIn(page, '[data-end="done"]');
  expect(await state(page)).toEqual({ deleted: 1, asking: false });
  await page.close();
}

describe('the confirmation card cannot be covered, faded, moved or rushed', () => {
  it('a "Deny" drawn over Allow the moment the card takes the focus: the user\'s click on it does not allow; uncovered, the card arms and a click allows', async () => {
    const page = await asked((p) => p.evaluate(() => ((window as any).__onShow = () => (window as any).__cover())));
    await page.waitForFunction(() => !!document.getElementById('fake'));
    await pause(page);
    // What the user sees at Allow's place is the page's "Deny"; the click passes through to Allow.
    expect(await page.evaluate(() => document.getElementById('fake')!.getBoundingClientRect().toJSON())).toEqual(
      await page.evaluate(() => (window as any).__allow()),
    );
    const at = await allowPoint(page);
    await page.mouse.click(at.x, at.y);
    await pause(page);
    expect(await state(page)).toEqual(WAITING);
    expect(await armed(page)).toBe(false);
    await page.evaluate(() => (window as any).__uncover());
    await userAllows(page);
  });

  it('a click that lands on Allow as the card appears does nothing', async () => {
    const page = await asked();
    const at = await allowPoint(page);
    await page.mouse.click(at.x, at.y);
    // The click came before the card had been in view for its moment (checked, so this test means what it says).
    expect(await page.evaluate(() => (window as any).__armedAtClick)).toBe(false);
    await pause(page);
    expect(await state(page)).toEqual(WAITING);
    await userAllows(page);
  });

  it('a cover put over Allow after the card armed disarms it', async () => {
    const page = await asked();
    await waitArmed(page);
    await page.evaluate(() => (window as any).__cover());
    await pause(page);
    expect(await armed(page)).toBe(false);
    const at = await allowPoint(page);
    await page.mouse.click(at.x, at.y);
    await pause(page);
    expect(await state(page)).toEqual(WAITING);
    await page.evaluate(() => (window as any).__uncover());
    await userAllows(page);
  });

  it("the page's own element in the top layer (a popover) over Allow disarms the card", async () => {
    const page = await asked();
    await waitArmed(page);
    await page.evaluate(() => (window as any).__cover({ topLayer: true }));
    expect(await page.evaluate(() => document.getElementById('fake')!.matches(':popover-open'))).toBe(true);
    await pause(page);
    const at = await allowPoint(page);
    await page.mouse.click(at.x, at.y);
    await pause(page);
    expect(await state(page)).toEqual(WAITING);
    await page.evaluate(() => (window as any).__uncover());
    await userAllows(page);
  });

  for (const [what, css] of [
    ['faded (opacity on <html>)', 'opacity:0.02'],
    ['filtered (a filter on <html>)', 'filter:opacity(0.05)'],
    ['shrunk (a transform on <html>)', 'transform:scale(0.6)'],
  ] as const) {
    it(`the whole page ${what}: the card disarms and a click on Allow does nothing`, async () => {
      const page = await asked();
      await waitArmed(page);
      await page.evaluate((c) => document.documentElement.setAttribute('style', c), css);
      await pause(page);
      expect(await armed(page)).toBe(false);
      const at = await allowPoint(page);
      await page.mouse.click(at.x, at.y);
      await pause(page);
      expect(await state(page)).toEqual(WAITING);
      await page.evaluate(() => document.documentElement.removeAttribute('style'));
      await userAllows(page);
    });
  }

  it('the card moved under the pointer just before the click (the page shifts <html>) does not allow', async () => {
    const page = await asked();
    await waitArmed(page);
    // The user's pointer rests 120 px left of Allow (on the page); the page slides everything by
    // 120 px so Allow is under it, and the user's click follows at once.
    const at = await allowPoint(page);
    await page.mouse.move(at.x - 120, at.y);
    await page.evaluate(() => document.documentElement.setAttribute('style', 'transform:translateX(-120px)'));
    expect(Math.round((await allowPoint(page)).x)).toBe(Math.round(at.x - 120));
    await page.mouse.down();
    await page.mouse.up();
    await pause(page);
    expect(await state(page)).toEqual(WAITING);
    await page.evaluate(() => document.documentElement.removeAttribute('style'));
    await userAllows(page);
  });

  it('the focus moved to Allow just before the user presses Enter (meant for Deny, which had it) does not allow', async () => {
    const page = await asked();
    await waitArmed(page);
    const focused = () => page.evaluate(() => document.querySelector('pagehand-ui')!.shadowRoot!.activeElement?.hasAttribute('data-deny'));
    expect(await focused()).toBe(true);
    await page.evaluate(() => (document.querySelector('pagehand-ui')!.shadowRoot!.querySelector('[data-allow]') as HTMLElement).focus());
    await page.keyboard.press('Enter');
    await pause(page);
    expect(await state(page)).toEqual(WAITING);
    // The user's own Enter on Allow, after the focus has been there for the moment, allows.
    await page.keyboard.press('Enter');
    await waitIn(page, '[data-end="done"]');
    expect(await state(page)).toEqual({ deleted: 1, asking: false });
    await page.close();
  });

  it('Enter and Space on a covered (disarmed) Allow do nothing; once uncovered, Enter allows', async () => {
    const page = await asked();
    await waitArmed(page);
    await page.evaluate(() => (window as any).__cover());
    await page.keyboard.press('Shift+Tab'); // from Deny to Allow
    expect(await page.evaluate(() => document.querySelector('pagehand-ui')!.shadowRoot!.activeElement?.hasAttribute('data-allow'))).toBe(true);
    await pause(page);
    expect(await armed(page)).toBe(false);
    await page.keyboard.press('Enter');
    await page.keyboard.press(' ');
    await pause(page);
    expect(await state(page)).toEqual(WAITING);
    await page.evaluate(() => (window as any).__uncover());
    await waitArmed(page);
    await page.keyboard.press('Enter');
    await waitIn(page, '[data-end="done"]');
    expect(await state(page)).toEqual({ deleted: 1, asking: false });
    await page.close();
  });

  it('says which button is which by words, icon and colour; disarmed and armed look different; axe finds nothing serious', async () => {
    const page = await asked();
    const look = () =>
      page.evaluate(() => {
        const card = document.querySelector('pagehand-ui')!.shadowRoot!.querySelector('[data-confirm]')!;
        const b = (s: string) => {
          const el = card.querySelector(s)!;
          return { text: el.textContent, disabled: el.getAttribute('aria-disabled'), bg: getComputedStyle(el).backgroundColor };
        };
        return { allow: b('[data-allow]'), deny: b('[data-deny]'), kind: b('[data-allow-kind]') };
      });
    const off = await look();
    expect(off.allow.disabled).toBe('true');
    expect(off.kind.disabled).toBe('true');
    expect(off.allow.text).toBe('…Allow: deletion');
    expect(off.deny).toMatchObject({ text: "✕Don't allow", disabled: null });
    await checkState(page, 'confirm-disarmed', { background: LIGHT_BG });
    await waitArmed(page);
    const on = await look();
    expect(on.allow).toMatchObject({ text: '✓Allow: deletion', disabled: null });
    expect(on.kind).toMatchObject({ text: '✓Allow every deletion action this run', disabled: null });
    // Allow is filled in the warning colour once armed; Deny is not.
    expect(on.allow.bg).not.toBe(off.allow.bg);
    expect(on.allow.bg).not.toBe(on.deny.bg);
    await checkState(page, 'confirm-armed', { background: LIGHT_BG });
    await clickAllow(page);
    await waitIn(page, '[data-end="done"]');
    expect(await state(page)).toEqual({ deleted: 1, asking: false });
    await page.close();
  });
});

describe('what the call does stays in view', () => {
  it("a long goal in the model's words scrolls in its place: the title, action, element, reason and buttons stay in view", async () => {
    // A model (or a page talking through it) that writes at length pushed the card's top out of
    // view: the user saw the model's words and the buttons, not which element would be pressed.
    const page = await asked(undefined, 'the user asked for this and it is the only way to finish the task. '.repeat(14));
    await waitArmed(page);
    const seen = await page.evaluate(() => {
      const card = document.querySelector('pagehand-ui')!.shadowRoot!.querySelector('[data-confirm]')!;
      const box = card.getBoundingClientRect();
      const inView = (el: Element): boolean => {
        const r = el.getBoundingClientRect();
        return r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5 && r.bottom <= innerHeight && r.height > 0;
      };
      const dds = [...card.querySelectorAll('dd')];
      const goal = dds[dds.length - 1] as HTMLElement;
      return {
        title: inView(card.querySelector('h3')!),
        values: dds.slice(0, -1).map(inView),
        allow: inView(card.querySelector('[data-allow]')!),
        deny: inView(card.querySelector('[data-deny]')!),
        goalScrolls: goal.scrollHeight > goal.clientHeight,
        goalTabIndex: goal.tabIndex,
        goalStart: goal.textContent!.slice(0, 28),
      };
    });
    expect(seen).toEqual({
      title: true,
      values: [true, true, true],
      allow: true,
      deny: true,
      goalScrolls: true,
      goalTabIndex: 0,
      goalStart: 'the user asked for this and ',
    });
    await checkState(page, 'confirm-long-goal', { background: LIGHT_BG });
    await clickAllow(page);
    await waitIn(page, '[data-end="done"]');
    expect(await state(page)).toEqual({ deleted: 1, asking: false });
    await page.close();
  });
});
