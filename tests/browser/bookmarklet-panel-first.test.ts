/**
 * The bookmarklet's click, panel first: the file it loads (/pagehand-bookmarklet.js) shows the
 * panel and asks for the engine (map, actions, loop, safety) at once, from the proxy written into
 * it; the user types while the engine is on its way, Send waits (shown) and the task goes when
 * the engine arrives. Page scripts that call `pagehand` in between get the stranger's API all the
 * same; an engine that cannot be loaded is said in the panel. The engine's file is held by a
 * route, so each case is tested before the engine arrived, whatever the machine's speed.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { en } from '../../client/ui/i18n';
import { call, latestMap, refFor, sequence, useAgentStack } from './agent-harness';
import { origin } from './harness';
import { clickBookmarklet, inUi, panel, runBookmarklet, sendTask, useUiSession, waitIn } from './ui-kit';

const session = useUiSession();
const stack = useAgentStack();

/** The bookmarklet's engine: a content-hashed ES module beside the first file, on the proxy. */
const ENGINE = /\/pagehand-bookmarklet-engine\.[0-9A-Za-z]{8}\.js$/;

/** Holds the engine's file on its way to `page` until `release` (or `fail`, which aborts it); `asked` lists its requests. */
async function holdEngine(page: Page): Promise<{ release(): void; fail(): void; asked: string[] }> {
  const asked: string[] = [];
  let go!: (ok: boolean) => void;
  const gate = new Promise<boolean>((r) => (go = r));
  await page.route(ENGINE, async (route) => {
    asked.push(route.request().url());
    if (await gate) await route.continue();
    else await route.abort();
  });
  return { release: () => go(true), fail: () => go(false), asked };
}

/** `pagehand.map()` from a page script: 'mapped' once the engine is there, else the error it throws. */
const pageMap = (page: Page): Promise<string> =>
  page.evaluate(() => {
    try {
      return typeof (window as any).pagehand.map().text === 'string' ? 'mapped' : 'no map';
    } catch (e) {
      return (e as Error).message;
    }
  });

describe("the bookmarklet's click: the panel before the engine", () => {
  it('shows the panel and asks the proxy for the engine at once; the user types while it is held, Send waits (shown) and runs the task when it arrives', async () => {
    const page = await session.context.newPage();
    const engine = await holdEngine(page);
    await page.goto(`${origin()}/fixtures/agent/counter.html`);
    await clickBookmarklet(page, stack);
    await panel(page).waitFor({ state: 'visible' });
    // The engine was asked for, from the proxy (not from the page's origin), and has not arrived.
    await expect.poll(() => engine.asked.length).toBe(1);
    expect(new URL(engine.asked[0]!).origin).toBe(new URL(stack.proxyUrl).origin);
    // The panel takes what the user types…
    await inUi(page, '[data-task]').click();
    await page.keyboard.type('Count to three');
    expect(await inUi(page, '[data-task]').inputValue()).toBe('Count to three');
    // …while the page's `pagehand` is the stand-in that waits for the engine.
    expect(await pageMap(page)).toMatch(/^pagehand\.map\(\) is available once the agent has loaded/);

    stack.setPolicy(sequence(call('done', { summary: 'Counted to three.' })));
    const from = stack.requests().length;
    await page.keyboard.press('Enter');
    const t = en;
    const waiting = await waitIn(page, '[data-waiting][role="status"]');
    expect(await waiting.textContent()).toBe(t.waitingAgent);
    expect(await inUi(page, '[data-send]').textContent()).toBe(t.sendWaiting);
    expect(await inUi(page, '[data-send]').isDisabled()).toBe(true);
    expect(stack.requests().length).toBe(from);

    engine.release();
    await waitIn(page, '[data-end="done"]');
    expect(await inUi(page, '[data-end="done"]').textContent()).toContain('Counted to three.');
    const sent = stack.requests()[from]!;
    expect(sent.messages.map((m) => m.text).join('\n')).toContain('Count to three');
    expect(await pageMap(page)).toBe('mapped');
    // A second click toggles the panel: no new window, no second copy.
    await runBookmarklet(page, stack);
    await panel(page).waitFor({ state: 'hidden' });
    expect(engine.asked.length).toBe(1);
    await page.close();
  });

  it("page scripts' calls before the engine get the stranger's API: their confirm is ignored, the panel asks the user", async () => {
    stack.setPolicy(
      sequence(
        (req) => call('click', { ref: refFor(latestMap(req), 'button', 'Delete account') }, 'goal: delete the account'),
        call('done', { summary: 'Finished.' }),
      ),
    );
    const page = await session.context.newPage();
    const engine = await holdEngine(page);
    await page.goto(`${origin()}/fixtures/ui/account.html`);
    await clickBookmarklet(page, stack);
    await panel(page).waitFor({ state: 'visible' });
    await expect.poll(() => engine.asked.length).toBe(1);
    const before = stack.requests().length;
    // What a page would try while the engine loads: approve for the user, run out of the panel's
    // sight, name its own proxy. init waits for the engine (it throws, as map() does); the rest
    // reaches the engine through the stranger's API.
    const early = await page.evaluate(`(() => {
      window.tricked = 0;
      const approve = () => { window.tricked++; return true; };
      let init;
      try { pagehand.init({ confirm: approve }); init = 'applied'; } catch (e) { init = e.message; }
      pagehand.open({ proxy: location.origin, confirm: approve });
      pagehand.run('Delete my account', { confirm: approve, ui: false, proxy: location.origin });
      return init;
    })()`);
    expect(early).toMatch(/^pagehand\.init\(\) is available once the agent has loaded/);
    expect(stack.requests().length).toBe(before);
    engine.release();
    await waitIn(page, '[data-confirm]');
    expect(await inUi(page, '[data-confirm] h3').textContent()).toContain('Deletion');
    await inUi(page, '[data-deny]').click();
    await waitIn(page, '[data-end]');
    expect(await page.evaluate(() => ({ deleted: (window as any).deleted, tricked: (window as any).tricked }))).toEqual({ deleted: 0, tricked: 0 });
    expect(stack.requests().length - before).toBe(2);
    await page.close();
  });

  it('an engine that cannot be loaded: the panel says so and gives the task back; ready rejects', async () => {
    const page = await session.context.newPage();
    const engine = await holdEngine(page);
    await page.goto(`${origin()}/fixtures/agent/counter.html`);
    await clickBookmarklet(page, stack);
    await panel(page).waitFor({ state: 'visible' });
    await expect.poll(() => engine.asked.length).toBe(1);
    await sendTask(page, 'Count to three');
    await waitIn(page, '[data-waiting]');
    engine.fail();
    const alert = await waitIn(page, '.err[role="alert"]');
    expect(await alert.textContent()).toContain('The agent could not be loaded, so your task was not sent');
    await expect.poll(() => inUi(page, '[data-task]').inputValue()).toBe('Count to three');
    expect(
      await page.evaluate(() =>
        (window as any).pagehand.ready.then(
          () => 'loaded',
          (e: Error) => e.message,
        ),
      ),
    ).toMatch(/pagehand-bookmarklet-engine/);
    await page.close();
  });
});
