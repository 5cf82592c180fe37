/**
 * The mask in real Chromium: while a run acts, a real user's click and keypress (Playwright's
 * mouse and keyboard: trusted input) do not reach the page, the panel still works, Take over
 * lifts the mask and hands the page back, Resume locks it again — and the agent's own click
 * goes through the mask to the page, with its target highlighted and the pointer moved there.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { call, latestMap, MODELS, refFor, useAgentStack } from './agent-harness';
import { open } from './harness';
import { inUi, openPanel, sendTask, useUiSession, waitIn } from './ui-kit';

const session = useUiSession();
const stack = useAgentStack();

const PAGE = 'ui/mask.html';

describe('mask', () => {
  it('blocks a real click and keypress on the page, not on the panel; Take over / Resume; the agent clicks through it', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let step = 0;
    let released = false;
    onTestFinished(() => {
      if (!released) release(); // never leave the fake model holding a reply
    });
    stack.setPolicy(async (req) => {
      step++;
      const map = latestMap(req);
      if (step === 1) {
        await held; // the run sits in its first model call: the mask is up
        return call('click', { ref: refFor(map, 'button', 'Add one') }, 'goal: add one');
      }
      return call('done', { summary: 'Added one.' });
    });
    const page = await open(session, PAGE);
    await page.evaluate(() => ((window as any).seen = []));
    await openPanel(page, stack);
    await sendTask(page, 'Add one');
    await waitIn(page, '[data-mask]');
    await page.evaluate(() => {
      const root = document.querySelector('pagehand-ui')!.shadowRoot!;
      new MutationObserver(() => {
        const hl = root.querySelector('[data-highlight]') as HTMLElement | null;
        const ptr = root.querySelector('[data-pointer]') as SVGElement | null;
        if (hl) (window as any).seen.push({ text: hl.textContent, box: hl.getBoundingClientRect().toJSON(), ptr: ptr?.style.transform });
      }).observe(root, { subtree: true, childList: true, attributes: true });
    });

    const add = (await page.locator('#add').boundingBox())!;
    await page.mouse.click(add.x + add.width / 2, add.y + add.height / 2);
    await page.evaluate(() => (document.getElementById('note') as HTMLInputElement).focus());
    await page.keyboard.press('x');
    expect(
      await page.evaluate(() => ({
        count: (window as any).count,
        note: (document.getElementById('note') as HTMLInputElement).value,
        user: (window as any).userEvents,
      })),
    ).toEqual({ count: 0, note: '', user: [] });

    // The panel still takes the user's input while the page does not.
    await inUi(page, '.foot button:text("Take over")').click();
    await waitIn(page, '.foot button:text("Resume")');
    expect(await inUi(page, '[data-mask]').count()).toBe(0);
    // Taken over: the page is the user's again.
    await page.mouse.click(add.x + add.width / 2, add.y + add.height / 2);
    await page.locator('#note').click();
    await page.keyboard.press('y');
    expect(await page.evaluate(() => ({ count: (window as any).count, note: (document.getElementById('note') as HTMLInputElement).value }))).toEqual({
      count: 1,
      note: 'y',
    });

    await inUi(page, '.foot button:text("Resume")').click();
    await waitIn(page, '[data-mask]');
    await page.mouse.click(add.x + add.width / 2, add.y + add.height / 2);
    expect(await page.evaluate(() => (window as any).count)).toBe(1);

    release();
    released = true;
    await waitIn(page, '[data-end="done"]');
    // The agent's click went through the mask to the button.
    expect(await page.evaluate(() => ({ count: (window as any).count, agent: (window as any).agentClicks }))).toEqual({ count: 2, agent: [{ mask: true }] });
    const seen: Array<{ text: string; box: DOMRect; ptr?: string }> = await page.evaluate(() => (window as any).seen);
    const hl = seen.find((s) => s.text.includes('button "Add one"'));
    expect(hl, JSON.stringify(seen)).toBeTruthy();
    expect(hl!.text).toMatch(/^click \[\d+\] button "Add one"$/);
    // The highlight frames the button (3 px outside it), the pointer points at its middle.
    expect(Math.abs(hl!.box.x - (add.x - 3))).toBeLessThan(2);
    expect(Math.abs(hl!.box.width - (add.width + 6))).toBeLessThan(2);
    const m = /translate\(([\d.]+)px, ?([\d.]+)px\)/.exec(hl!.ptr ?? '');
    expect(m, hl!.ptr).not.toBeNull();
    expect(Math.abs(Number(m![1]) + 3 - (add.x + add.width / 2))).toBeLessThan(2);
    expect(Math.abs(Number(m![2]) + 2 - (add.y + add.height / 2))).toBeLessThan(2);
    // Only the user's input while taken over got through (mousedown/click/keydown/keyup, twice over).
    const user: string[] = await page.evaluate(() => (window as any).userEvents);
    expect(user.filter((t) => t === 'click')).toHaveLength(2);
    expect(await inUi(page, '[data-mask]').count()).toBe(0);
    await page.close();
  });

  it('a run started from code with ui: false shows no panel and no mask', async () => {
    stack.setPolicy(() => call('done', { summary: 'ok' }));
    const page = await open(session, PAGE);
    const result = await page.evaluate(
      async (o) => {
        const h = (window as any).pagehand.run('Say ok', o);
        const mask = !!document.querySelector('pagehand-ui');
        return { mask, result: await h.result };
      },
      { proxy: stack.proxyUrl, token: stack.token, model: MODELS.openai, ui: false },
    );
    expect(result.mask).toBe(false);
    expect(result.result.ok).toBe(true);
    expect(await page.locator('pagehand-ui').count()).toBe(0);
    await page.close();
  });

  it('a run started from code (ui by default) is shown in the panel to its end', async () => {
    stack.setPolicy(() => call('done', { summary: 'From code.' }));
    const page = await open(session, PAGE);
    await page.evaluate((o) => (window as any).pagehand.run('Say it', o), { proxy: stack.proxyUrl, token: stack.token, model: MODELS.openai });
    const summary = await waitIn(page, '[data-summary]');
    expect(await summary.textContent()).toBe('From code.');
    expect(await inUi(page, '.task').textContent()).toBe('Say it');
    await page.close();
  });
});
