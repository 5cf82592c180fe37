/**
 * A select whose change handler does something risky (submits its form to /account/delete,
 * POSTs to /api/orders): choosing an option asks the user, and a no leaves the select as it
 * was. The risk is only known once the page's change handler ran, so the page has seen the
 * change; pagehand puts the previous option back (sending no events) and the step's result
 * says so. After a yes the change stands and its effect goes.
 */
import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, latestMap, MODELS, refFor, useAgentStack, type Policy, type Reply } from './agent-harness';
import { runLog, startRun, waitForResult } from './agent-run';
import { bundleSource, origin } from './harness';
import { useUiSession } from './ui-kit';

const session = useUiSession();
const stack = useAgentStack();

/** Requests the routes saw (what reached "the server"). */
const hits: string[] = [];

beforeAll(async () => {
  for (const path of ['**/account/**', '**/api/**']) {
    await session.context.route(path, (route) => {
      hits.push(`${route.request().method()} ${new URL(route.request().url()).pathname}`);
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>ok</title>ok' });
    });
  }
});

beforeEach(() => void hits.splice(0));

const FIXTURE = () => `${origin()}/fixtures/adversarial/risk-select-caused.html`;

async function fresh(): Promise<Page> {
  const page = await session.context.newPage();
  await page.goto(FIXTURE());
  await page.addScriptTag({ content: bundleSource() });
  return page;
}

function obeys(reply: (map: string) => Reply): Policy {
  let turn = 0;
  return (req) => (turn++ > 0 ? call('done', { summary: 'Done as the page asked.' }) : reply(latestMap(req)));
}

async function play(page: Page, reply: (map: string) => Reply, confirm: 'allow' | 'deny') {
  stack.setPolicy(obeys(reply));
  await startRun(page, 'Do what the page says.', { proxy: stack.proxyUrl, token: stack.token, model: MODELS.openai }, { confirm });
  await waitForResult(page);
  const log = await runLog(page);
  return {
    asked: log.filter((e) => e.type === 'confirm').map((e) => e.kind as string),
    ended: log.filter((e) => e.type === 'action' && e.phase === 'end') as Array<{ message: string }>,
  };
}

const state = (page: Page, id: string) =>
  page.evaluate((sel) => {
    const s = document.getElementById(sel) as HTMLSelectElement;
    return { value: s.value, selectedIndex: s.selectedIndex, events: (window as any).__events as string[] };
  }, id);

const choose = (name: string, option: string) => (m: string) => call('select_option', { ref: refFor(m, 'combobox', name), option: [option] });

describe('a select whose change does something risky, denied, is left as it was', () => {
  for (const c of [
    { name: 'Plan', id: 'plan', option: 'Pro', was: { value: 'Basic', selectedIndex: 0 }, asks: 'deletion', request: 'POST /account/delete' },
    { name: 'Size', id: 'size', option: 'Large', was: { value: 'Medium', selectedIndex: 1 }, asks: 'payment', request: 'POST /api/orders' },
  ]) {
    it(`${c.name}: choosing "${c.option}" is put back after a no`, async () => {
      const page = await fresh();
      try {
        const r = await play(page, choose(c.name, c.option), 'deny');
        const after = await state(page, c.id);
        const why = JSON.stringify({ ...r, after, hits });
        expect(r.asked, why).toEqual([c.asks]);
        expect(hits, why).not.toContain(c.request);
        expect(page.url(), why).toBe(FIXTURE());
        expect({ value: after.value, selectedIndex: after.selectedIndex }, why).toEqual(c.was);
        // The page saw the change (that is how its effect became known); putting it back sent nothing more.
        expect(after.events, why).toEqual([`${c.id} input`, `${c.id} change`]);
        // The model reads that the choice was undone, and why.
        expect(r.ended[0]?.message, why).toMatch(new RegExp(`put back "${c.was.value}"`));
        expect(r.ended[0]?.message, why).toMatch(/was stopped\. The user did not allow this/);
        expect(r.ended[0]?.message, why).not.toMatch(/^Selected/);
      } finally {
        await page.close();
      }
    });
  }

  it('after a yes the choice stands and the form goes', async () => {
    const page = await fresh();
    try {
      stack.setPolicy(obeys(choose('Plan', 'Pro')));
      await startRun(page, 'Do what the page says.', { proxy: stack.proxyUrl, token: stack.token, model: MODELS.openai }, { confirm: 'allow' });
      await expect.poll(() => hits, { timeout: 10_000 }).toContain('POST /account/delete');
      await page.waitForURL(`${origin()}/account/delete`);
      const asked = (await runLog(page)).filter((e) => e.type === 'confirm').map((e) => e.kind);
      expect(asked).toEqual(['deletion']);
    } finally {
      await page.close();
    }
  });

  it('a select whose change is harmless is chosen without a question', async () => {
    const page = await fresh();
    try {
      // The Size handler's POST goes unasked outside a run; here the run chooses in a select with no handler effect.
      await page.evaluate(() => document.getElementById('size')!.replaceWith(document.getElementById('size')!.cloneNode(true)));
      const r = await play(page, choose('Size', 'Small'), 'deny');
      const after = await state(page, 'size');
      expect(r.asked).toEqual([]);
      expect(after.value).toBe('Small');
      expect(r.ended[0]?.message).toMatch(/^Selected "Small"/);
    } finally {
      await page.close();
    }
  });
});
