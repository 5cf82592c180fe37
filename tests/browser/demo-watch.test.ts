/**
 * "Watch it work" (issue 27, item 4): `npm start` with no model provider still gives a first
 * look. Its demo pages say a model is needed for new tasks and which variable to set, and offer
 * the task each ships solved (server/demo/*.recording.json): the button replays it through the
 * page's own pagehand — the real Node server, the real embed, no model call — with the panel
 * showing each step, and a risky step still asking. With a provider the offer is not there.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_PROVIDER_FIX } from '../../common/no-provider';
import { startNodeServer, type NodeServer } from '../../server/node';
import { clickAllow, inUi, shot, useUiSession, waitIn } from './ui-kit';

const session = useUiSession({ width: 1100, height: 760 });
let tmp: string;
let bare: NodeServer;
const servers: NodeServer[] = [];

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'pagehand-demo-'));
  // No provider variable at all: what a fresh clone's `npm start` has.
  bare = await startNodeServer({ env: { PORT: '0', HOST: '127.0.0.1' }, tokenFile: join(tmp, 'token'), log: () => {} });
  servers.push(bare);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await rm(tmp, { recursive: true, force: true });
});

/** A demo page, with every request the page makes to the model's endpoint counted. */
async function openDemo(server: NodeServer, name: string): Promise<{ page: Page; modelCalls: () => number }> {
  const page = await session.context.newPage();
  page.on('pageerror', (e) => console.error('[page error]', e.message));
  let calls = 0;
  page.on('request', (r) => void (r.url().includes('/v1/chat/completions') && calls++));
  await page.goto(`${server.url}/demo/${name}`);
  return { page, modelCalls: () => calls };
}

describe('the demo pages of a proxy with no model', () => {
  it(
    'say a model is needed and which variable to set, and "Watch it work" replays the to-do task with no model call, step by step in the panel',
    { timeout: 90_000 },
    async () => {
      const { page, modelCalls } = await openDemo(bare, 'todo-list.html');
      const bar = page.locator('#pagehand-watch');
      await expect.poll(() => bar.textContent()).toContain('No model is set up on this server');
      expect(await bar.textContent()).toContain(NO_PROVIDER_FIX);
      expect(await page.locator('#pagehand-watch-task').textContent()).toBe('Add “Water the plants” to my list and tick off “Buy milk”');

      await page.locator('#pagehand-watch-button').click();
      await waitIn(page, '[data-end="done"]', 45_000);
      // The page did what the recording says…
      await expect.poll(() => page.locator('#list li').allTextContents()).toEqual(['Buy milkDelete', 'Call the bankDelete', 'Water the plantsDelete']);
      expect(await page.getByRole('checkbox', { name: 'Done: Buy milk' }).isChecked()).toBe(true);
      expect(await page.locator('#count').textContent()).toBe('1 left');
      // …the panel showed it as a run: the task, its steps, its end.
      expect(await inUi(page, '.log > p.task').textContent()).toContain('Water the plants');
      expect(await inUi(page, '[data-step]').count()).toBeGreaterThanOrEqual(2);
      expect(await inUi(page, '[data-end="done"]').textContent()).toContain('Replayed the recording: 2 steps as recorded.');
      // …and no model was asked.
      expect(modelCalls()).toBe(0);
      await shot(page, 'demo-watch-todo');
      await page.close();
    },
  );

  it("the contact form's replay still asks before it sends the visitor's details, and sends only on Allow", { timeout: 90_000 }, async () => {
    const { page, modelCalls } = await openDemo(bare, 'contact-form.html');
    await page.locator('#pagehand-watch-button').click();
    await waitIn(page, '[data-confirm]', 45_000);
    // Nothing sent before the yes.
    expect(await page.locator('#sent').isHidden()).toBe(true);
    await clickAllow(page);
    await waitIn(page, '[data-end="done"]', 45_000);
    expect(await page.locator('#sent').textContent()).toBe('Thanks, Ada Lovelace — we will answer at ada@example.com.');
    expect(modelCalls()).toBe(0);
    await page.close();
  });

  it('the install page points at them', async () => {
    const res = await fetch(`${bare.url}/`);
    const body = await res.text();
    expect(body).toContain('id="watch-help"');
    expect(body).toContain('Watch it work');
  });
});

describe('the demo pages of a proxy with a model', () => {
  it('offer no replay: the visitor types a task', async () => {
    const withModel = await startNodeServer({
      env: { PORT: '0', HOST: '127.0.0.1', OPENAI_API_KEY: 'sk-test-not-used', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', PAGEHAND_MODEL: 'gpt-test' },
      tokenFile: join(tmp, 'token-2'),
      log: () => {},
    });
    servers.push(withModel);
    const body = await (await fetch(`${withModel.url}/demo/todo-list.html`)).text();
    expect(body).toContain('data-pagehand'); // the embed is there…
    expect(body).not.toContain('pagehand-watch'); // …the replay offer is not
    expect(await (await fetch(`${withModel.url}/`)).text()).not.toContain('id="watch-help"');
  });
});
