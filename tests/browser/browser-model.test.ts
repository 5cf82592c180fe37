/**
 * The browser's own model as the provider (`run(task, { model: 'browser' })`), against a
 * scripted stand-in of the Prompt API (browser-model-kit.ts): no proxy and no key, one action
 * per turn held to a JSON Schema of the tools, the step cut to the model's window, abort, the
 * states the panel shows (unavailable, downloading), and the risk check unchanged.
 */
import { describe, expect, it } from 'vitest';
import { refFor } from './agent-harness';
import { runLog, startRun, waitForResult } from './agent-run';
import { act, lmLog, openWithStandIn, type Prompted } from './browser-model-kit';
import { inUi, panel, sendTask, shot, useUiSession } from './ui-kit';

const session = useUiSession();

/** The tools the schema offers, by their `const` names. */
const schemaTools = (p: Prompted): string[] => p.schema.properties.action.oneOf.map((b: any) => b.properties.tool.const);

describe('a run with the browser’s model', () => {
  it('finishes a form task with no proxy and no key, each answer held to the schema of the tools', async () => {
    const seen: Prompted[] = [];
    const page = await openWithStandIn(
      session,
      'agent/wizard/step1.html',
      { state: 'available' },
      (p) => {
        seen.push(p);
        if (/step2\.html/.test(p.text)) return act('done', { summary: 'Step 1 is filled in and sent.' });
        const n = seen.filter((s) => !/step2\.html/.test(s.text)).length;
        if (n === 1) return act('type', { ref: refFor(p.text, 'textbox', 'Full name'), text: 'Ada Lovelace' }, 'type the name');
        if (n === 2) return act('type', { ref: refFor(p.text, 'textbox', 'Email'), text: 'ada@example.org' }, 'type the email');
        return act('click', { ref: refFor(p.text, 'button', 'Next') }, 'go on');
      },
      { early: true },
    );
    // Sending the email address asks, as on the proxy path: the user allows it.
    await startRun(page, 'Fill in my name (Ada Lovelace) and email (ada@example.org) and go on', { model: 'browser' }, { confirm: 'allow' });
    const result = await waitForResult(page);
    expect(result).toMatchObject({ ok: true, summary: 'Step 1 is filled in and sent.', steps: 4 });
    expect(new URL(page.url()).searchParams.get('email')).toBe('ada@example.org');
    expect(new URL(page.url()).searchParams.get('name')).toBe('Ada Lovelace');
    expect((await runLog(page)).filter((e) => e.type === 'confirm')).toEqual([expect.objectContaining({ kind: 'personal_data' })]);
    expect(seen).toHaveLength(4);
    for (const p of seen) {
      // One action of the offered tools; the schema is not paid for in the window; the tools are described in words.
      expect(schemaTools(p)).toEqual(expect.arrayContaining(['type', 'click', 'done', 'fail']));
      expect(p.schema.required).toEqual(['eval', 'memory', 'goal', 'action']);
      expect(p.omit).toBe(true);
      expect(p.system).toMatch(/^- click \{ref: string/m);
      expect(p.system).toMatch(/one action per reply/);
    }
    // The reasoning lines reached the loop as the tool path's do.
    const planned = (await runLog(page)).filter((e) => e.type === 'step' && e.phase === 'planned');
    expect(planned[0].reasoning).toMatchObject({ nextGoal: 'type the name' });
    await page.close();
  });

  it('cuts the page text to fit the model’s window, and once more when the browser’s measure was off', async () => {
    const seen: Prompted[] = [];
    const rows = Array.from({ length: 400 }, (_, i) => `<li><button>Product ${i + 1}: ${'a long description of what it is, '.repeat(4)}</button></li>`).join(
      '',
    );
    const page = await openWithStandIn(session, 'agent/counter.html', { state: 'available', room: 1500, overflowOnce: true, charsPerToken: 1 }, (p) => {
      seen.push(p);
      return act('done', { summary: 'Looked.' });
    });
    await page.evaluate((html) => document.body.insertAdjacentHTML('beforeend', `<ul>${html}</ul>`), rows);
    await startRun(page, 'What is on this page?', { model: 'browser' });
    const result = await waitForResult(page);
    expect(result).toMatchObject({ ok: true, summary: 'Looked.' });
    const log = await lmLog(page);
    expect(log.overflows).toBe(1); // the first try did not fit after all: a QuotaExceededError, then half the page text
    expect(seen).toHaveLength(1);
    expect(seen[0]!.text).toMatch(/more lines of this page left out to fit the browser's model/);
    expect(seen[0]!.text.length).toBeLessThanOrEqual(1500 - 512);
    await page.close();
  });

  it('is stopped at once: the prompt’s signal aborts', async () => {
    let asked!: () => void;
    const prompted = new Promise<void>((r) => (asked = r));
    const page = await openWithStandIn(session, 'agent/counter.html', { state: 'available' }, () => {
      asked();
      return new Promise<object>(() => {}); // never answers
    });
    await startRun(page, 'Count to three', { model: 'browser' });
    await prompted;
    await page.evaluate(() => (window as any).pagehand.current().stop());
    const result = await waitForResult(page);
    expect(result).toMatchObject({ ok: false, reason: 'stopped' });
    await expect.poll(async () => (await lmLog(page)).aborted).toBe(1);
    await page.close();
  });

  it('says why when the browser has no model to run', async () => {
    const page = await openWithStandIn(session, 'agent/counter.html', { state: 'unavailable' }, () => act('done', { summary: 'x' }));
    await startRun(page, 'Count to three', { model: 'browser' });
    const result = await waitForResult(page);
    expect(result).toMatchObject({ ok: false, reason: 'config' });
    expect(result.summary).toMatch(/browser's own model is not available here/);
    await page.close();
  });

  it('a risky step still asks: denied, nothing deleted', async () => {
    const page = await openWithStandIn(session, 'agent/hijack/account.html', { state: 'available' }, (p) => {
      if (/did not allow/.test(p.text)) return act('done', { summary: 'The order total is $42.50.' });
      return act('click', { ref: refFor(p.text, 'button', 'Delete account') }, 'the page says to delete the account');
    });
    await page.evaluate(() => localStorage.clear());
    await startRun(page, 'What is the order total on this page?', { model: 'browser' }, { confirm: 'deny' });
    const result = await waitForResult(page);
    const log = await runLog(page);
    expect(log.filter((e) => e.type === 'confirm')).toEqual([expect.objectContaining({ kind: 'deletion' })]);
    expect(log.some((e) => e.type === 'action' && e.name === 'click')).toBe(false);
    // The answer stands, and the run says the refused step did not happen (as on every path).
    expect(result).toMatchObject({ ok: false, reason: 'refused', summary: 'The order total is $42.50.' });
    expect(result.refused).toEqual([expect.objectContaining({ kind: 'deletion', outcome: 'denied' })]);
    expect(await page.evaluate(() => localStorage.getItem('accountDeleted'))).toBeNull();
    await page.close();
  });
});

describe('the panel offers the browser’s model', () => {
  it('says in words that it is unavailable', async () => {
    const page = await openWithStandIn(session, 'agent/counter.html', { state: 'unavailable' }, () => act('done', { summary: 'x' }));
    await page.evaluate(() => (window as any).pagehand.open({}));
    await panel(page).waitFor();
    await inUi(page, '[data-use-browser-model]').click();
    const status = inUi(page, '[data-browser-model]');
    await expect.poll(() => status.textContent()).toMatch(/Not in this browser: it needs desktop Chrome/);
    await shot(page, 'browser-model-unavailable');
    await page.close();
  });

  it('shows the download’s progress before the first run, then runs the task on it', async () => {
    const page = await openWithStandIn(session, 'agent/counter.html', { state: 'downloading', progress: [0.1, 0.25], hold: true }, () =>
      act('done', { summary: 'Counted to three.' }),
    );
    await page.evaluate(() => (window as any).pagehand.open({}));
    await panel(page).waitFor();
    // Not offered as chosen: the proxy's model stays the default until the user picks this.
    expect(await inUi(page, '[data-use-browser-model]').isChecked()).toBe(false);
    await inUi(page, '[data-use-browser-model]').click();
    const status = inUi(page, '[data-browser-model]');
    await expect.poll(() => status.textContent()).toBe("Downloading the browser's model: 25 %");
    await shot(page, 'browser-model-downloading');
    await page.evaluate(() => (window as any).__lmRelease());
    await expect.poll(() => status.textContent()).toMatch(/On this device, no key/);
    await sendTask(page, 'Count to three');
    await expect.poll(() => panel(page).textContent()).toContain('Counted to three.');
    await page.close();
  });
});
