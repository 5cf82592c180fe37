/**
 * A conversation (issue 26, item 1), in Chromium with the scripted model: tasks in one panel
 * form a thread — each new task's request carries the earlier tasks, their answers (fenced as
 * data) and where each ended — across a navigation between the turns; "New conversation"
 * forgets it; the page's scripts find it nowhere they can read; a "yes" given in one turn
 * answers no question of the next; and the npm API and the runner continue a thread the
 * caller hands back (`run(task, { thread })`, `--thread FILE`).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, latestMap, mapUrl, MODELS, refFor, runAgent, useAgentStack, type ModelRequest } from './agent-harness';
import { bundleSource, origin } from './harness';
import { clickAllow, clickBookmarklet, inUi, openPanel, panel, sendTask, shot, useUiSession, waitIn } from './ui-kit';
import { runCli } from './runner-cli';

const stack = useAgentStack();
const session = useUiSession({ width: 1100, height: 760 });

const base = () => `${origin()}/fixtures/agent/thread/`;

/** A tab with the bundle at document start on every page (as a site's tag in <head>). */
async function openSite(path: string): Promise<Page> {
  const page = await session.context.newPage();
  page.on('pageerror', (e) => console.error('[page error]', e.message));
  await page.addInitScript({ content: bundleSource() });
  await page.goto(`${base()}${path}`);
  return page;
}

/** The task of a step's request: the line under "# Task" (the conversation before it names earlier tasks too). */
const taskIn = (req: ModelRequest): string => /^# Task\n(.*)$/m.exec(req.messages.find((m) => m.role === 'user')?.text ?? '')?.[1] ?? '';
const userText = (req: ModelRequest): string => req.messages.find((m) => m.role === 'user')?.text ?? '';
const firstFor = (since: number, task: string): ModelRequest => {
  const r = stack
    .requests()
    .slice(since)
    .find((q) => taskIn(q) === task);
  if (!r) throw new Error(`no request for "${task}"`);
  return r;
};

/** The data block (between the run's markers) that holds `text`, or undefined when it is outside every block. */
function blockWith(message: string, text: string): string | undefined {
  const re = /^⟪page content ([0-9a-f]{12})⟫$([\s\S]*?)^⟪\/page content \1⟫$/gm;
  for (const m of message.matchAll(re)) if (m[2]!.includes(text)) return m[2];
  return undefined;
}

/** The shop's scripted model: each task answered from the page, the first by way of another page. */
const shopModel = () => (req: ModelRequest) => {
  const task = taskIn(req);
  const map = latestMap(req);
  if (task === 'What was my last order?') {
    if (mapUrl(map).endsWith('home.html')) return call('click', { ref: refFor(map, 'link', 'My orders') }, 'goal: open the orders');
    return call('done', { summary: '#A-7731, a blue mug' });
  }
  if (task === 'Cancel it') return call('done', { summary: 'Cancelled #A-7731 (the blue mug).' });
  return call('done', { summary: 'Hello there.' });
};

/** Everything a page script can read, searched for each needle: storage, cookies, IndexedDB, window's own properties, the DOM. */
async function pageCanRead(page: Page, needles: string[]): Promise<Record<string, string[]>> {
  return page.evaluate(async (needles) => {
    const found: Record<string, string[]> = {};
    const look = (where: string, text: string | null | undefined): void => {
      for (const n of needles) if (text?.includes(n)) (found[n] ??= []).push(where);
    };
    for (const [name, s] of [
      ['localStorage', localStorage],
      ['sessionStorage', sessionStorage],
    ] as const)
      for (let i = 0; i < s.length; i++) look(`${name}:${s.key(i)}`, `${s.key(i)} ${s.getItem(s.key(i)!)}`);
    look('cookie', document.cookie);
    look('DOM', document.documentElement.outerHTML);
    look('window.name', window.name);
    look('history.state', JSON.stringify(history.state));
    for (const k of Object.getOwnPropertyNames(window)) {
      if (k === 'localStorage' || k === 'sessionStorage') continue; // read above, key by key
      let v: unknown;
      try {
        v = (window as any)[k];
        look(`window.${k}`, typeof v === 'string' ? v : JSON.stringify(v));
      } catch {
        /* a getter that throws, a cyclic object: nothing to read there */
      }
    }
    const dbs = (await indexedDB.databases?.()) ?? [];
    look('indexedDB', JSON.stringify(dbs));
    return found;
  }, needles);
}

describe('a thread in the panel', () => {
  it(
    'carries the first answer into the second task across a navigation and a full page load, keeps both in view, stays in its tab, and "New conversation" forgets it',
    { timeout: 120_000 },
    async () => {
      stack.setPolicy(shopModel());
      const since = stack.requests().length;
      const page = await openSite('home.html');
      await openPanel(page, stack);
      await sendTask(page, 'What was my last order?');
      // The run went to the orders page and answered there.
      await page.waitForURL(/orders\.html$/);
      await waitIn(page, '[data-end="done"]', 30_000);
      expect(await inUi(page, '[data-summary]').textContent()).toContain('#A-7731, a blue mug');

      // A follow-up that refers back, on the page the first turn ended on.
      await openPanel(page, stack);
      await sendTask(page, 'Cancel it');
      await waitIn(page, '[data-end="done"]', 30_000);
      const second = userText(firstFor(since, 'Cancel it'));
      // The earlier task is the user's words, outside the data blocks…
      expect(second).toContain('The user asked: What was my last order?');
      expect(blockWith(second, 'What was my last order?')).toBeUndefined();
      // …its answer and where it ended are data, inside one of the run's blocks.
      expect(blockWith(second, 'answer: #A-7731, a blue mug')).toBeDefined();
      expect(blockWith(second, `ended: done on ${base()}orders.html`)).toBeDefined();
      // The thread comes before the task.
      expect(second.indexOf('# Earlier in this conversation')).toBeLessThan(second.indexOf('# Task'));

      // The first exchange stays in view above the second.
      const turns = inUi(page, '[data-thread] li');
      expect(await turns.count()).toBe(1);
      expect(await inUi(page, '[data-thread] .task').textContent()).toContain('What was my last order?');
      expect(await inUi(page, '[data-thread] [data-turn-answer="done"]').textContent()).toContain('#A-7731, a blue mug');
      expect(await inUi(page, '.log > p.task').textContent()).toBe('Cancel it');
      // The log scrolled back to its top, where the first exchange is.
      await inUi(page, '.log').evaluate((el) => (el.scrollTop = 0));
      await shot(page, 'thread-two-turns', { of: panel(page) });

      // On the site's own page the conversation goes on like a run: in this tab's sessionStorage,
      // and nowhere else a page script can look.
      const answers = ['#A-7731, a blue mug', 'Cancelled #A-7731', 'The user asked'];
      expect(await pageCanRead(page, answers)).toEqual({
        '#A-7731, a blue mug': ['sessionStorage:pagehand:thread'],
        'Cancelled #A-7731': ['sessionStorage:pagehand:thread'],
      });

      // A full page load (the visitor follows a link of the site): the conversation is still
      // shown, and the next task carries it.
      await page.goto(`${base()}home.html`);
      await openPanel(page, stack);
      await waitIn(page, '[data-thread] li');
      expect(await inUi(page, '[data-thread] li').count()).toBe(2);
      await sendTask(page, 'Say hello');
      await waitIn(page, '[data-end="done"]', 30_000);
      const after = userText(firstFor(since, 'Say hello'));
      expect(after).toContain('The user asked: What was my last order?');
      expect(after).toContain('The user asked: Cancel it');
      expect(blockWith(after, 'answer: Cancelled #A-7731 (the blue mug).')).toBeDefined();

      // Another tab of the same site starts with no conversation, and holds none.
      const other = await openSite('home.html');
      await openPanel(other, stack);
      expect(await inUi(other, '[data-thread]').count()).toBe(0);
      expect(await pageCanRead(other, answers)).toEqual({});
      await other.close();

      // "New conversation": the panel forgets both turns, and the next task carries nothing of them.
      await inUi(page, '[data-new-conversation]').click();
      expect(await inUi(page, '[data-thread]').count()).toBe(0);
      expect(await inUi(page, '[data-end]').count()).toBe(0);
      expect(await pageCanRead(page, answers)).toEqual({});
      await sendTask(page, 'Say hello again');
      await waitIn(page, '[data-end="done"]', 30_000);
      const third = userText(firstFor(since, 'Say hello again'));
      for (const earlier of ['Earlier in this conversation', 'What was my last order?', '#A-7731, a blue mug', 'Cancel it', 'Cancelled'])
        expect(third).not.toContain(earlier);
      expect(await inUi(page, '[data-thread]').count()).toBe(0);
      await page.close();
    },
  );

  it("on a stranger's page (the bookmarklet) the conversation carries the first answer and is nowhere the page can read", { timeout: 120_000 }, async () => {
    stack.setPolicy(shopModel());
    const since = stack.requests().length;
    const page = await session.context.newPage();
    await page.goto(`${base()}orders.html`);
    await clickBookmarklet(page, stack);
    await waitIn(page, 'section.panel');
    await sendTask(page, 'What was my last order?');
    await waitIn(page, '[data-end="done"]', 30_000);
    await sendTask(page, 'Cancel it');
    await waitIn(page, '[data-thread] li');
    await waitIn(page, '[data-end="done"]', 30_000);
    const second = userText(firstFor(since, 'Cancel it'));
    expect(second).toContain('The user asked: What was my last order?');
    expect(blockWith(second, 'answer: #A-7731, a blue mug')).toBeDefined();
    // The panel's memory only: no storage, cookie, global or node of the page holds it.
    expect(await pageCanRead(page, ['#A-7731, a blue mug', 'Cancelled #A-7731', 'The user asked', '"turns"'])).toEqual({});
    await page.close();
  });

  it(
    'an "allow every deletion" given in the first turn does not answer the second turn\'s deletion: the user is asked again',
    { timeout: 120_000 },
    async () => {
      stack.setPolicy((req) => {
        const map = latestMap(req);
        const task = taskIn(req);
        const who = task === 'Delete the draft to Ada' ? 'Ada' : 'Grace';
        const button = `Delete draft to ${who}`;
        if (userText(req).includes('The user did not allow this')) return call('fail', { reason: 'The user did not allow deleting it.' });
        if (map.includes(`"${button}"`)) return call('click', { ref: refFor(map, 'button', button) }, `goal: delete the draft to ${who}`);
        return call('done', { summary: `Deleted the draft to ${who}.` });
      });
      const since = stack.requests().length;
      const page = await openSite('drafts.html');
      await openPanel(page, stack);
      await sendTask(page, 'Delete the draft to Ada');
      // Turn 1: the user allows every deletion of that run.
      await waitIn(page, '[data-confirm][data-armed]', 30_000);
      expect(await inUi(page, '[data-confirm] h3').textContent()).toContain('Deletion');
      await clickAllow(page, '[data-allow-kind]');
      await waitIn(page, '[data-end="done"]', 30_000);
      expect(await page.locator('#d1').count()).toBe(0);

      // Turn 2 of the same conversation: a new deletion is asked about again.
      await sendTask(page, 'Delete the draft to Grace too');
      await waitIn(page, '[data-confirm]', 30_000);
      expect(await inUi(page, '[data-confirm] h3').textContent()).toContain('Deletion');
      expect(userText(firstFor(since, 'Delete the draft to Grace too'))).toContain('The user asked: Delete the draft to Ada');
      // The user says no this time: the draft stays.
      await inUi(page, '[data-deny]').click();
      await waitIn(page, '[data-end]', 30_000);
      expect(await page.locator('#d2').count()).toBe(1);
      await page.close();
    },
  );

  it('a yes from the first turn is not carried by the thread into an API run either (confirm asked again)', { timeout: 60_000 }, async () => {
    stack.setPolicy((req) => {
      const map = latestMap(req);
      const who = taskIn(req).includes('Ada') ? 'Ada' : 'Grace';
      const button = `Delete draft to ${who}`;
      if (userText(req).includes('The user did not allow this')) return call('fail', { reason: 'The user did not allow deleting it.' });
      if (map.includes(`"${button}"`)) return call('click', { ref: refFor(map, 'button', button) });
      return call('done', { summary: `Deleted the draft to ${who}.` });
    });
    const page = await openSite('drafts.html');
    const asked: string[] = [];
    const first = await runAgent(page, stack, 'Delete the draft to Ada', { confirm: (r) => (asked.push(`1:${r.kind}`), true) });
    const r1 = await first.result;
    expect(r1.ok).toBe(true);
    const second = await runAgent(page, stack, 'Delete the draft to Grace', { thread: r1.thread, confirm: (r) => (asked.push(`2:${r.kind}`), false) });
    const r2 = await second.result;
    expect(asked).toEqual(['1:deletion', '2:deletion']);
    expect(await page.locator('#d2').count()).toBe(1);
    expect(r2.thread?.turns.map((t) => t.task)).toEqual(['Delete the draft to Ada', 'Delete the draft to Grace']);
    await page.close();
  });
});

describe('continuing a thread outside the panel', () => {
  it("the npm API: result.thread passed as the next run's thread (across a navigation) carries the first answer", { timeout: 60_000 }, async () => {
    stack.setPolicy(shopModel());
    const since = stack.requests().length;
    const page = await openSite('home.html');
    const r1 = await (await runAgent(page, stack, 'What was my last order?')).result;
    expect(r1).toMatchObject({ ok: true, summary: '#A-7731, a blue mug' });
    expect(r1.thread).toEqual({ turns: [{ task: 'What was my last order?', answer: '#A-7731, a blue mug', status: 'done', url: `${base()}orders.html` }] });
    // The caller keeps it (here: in Node) and continues on a new page load.
    await page.goto(`${base()}home.html`);
    const r2 = await (await runAgent(page, stack, 'Cancel it', { thread: r1.thread })).result;
    expect(r2.ok).toBe(true);
    const second = userText(firstFor(since, 'Cancel it'));
    expect(second).toContain('The user asked: What was my last order?');
    expect(blockWith(second, 'answer: #A-7731, a blue mug')).toBeDefined();
    expect(r2.thread?.turns.map((t) => [t.task, t.status])).toEqual([
      ['What was my last order?', 'done'],
      ['Cancel it', 'done'],
    ]);
    // A thread that is not one is the caller's mistake, thrown at once.
    const bad = await page.evaluate(() => {
      try {
        (window as any).pagehand.run('x', { thread: { turns: [{ task: 'a' }] }, ui: false });
        return 'started';
      } catch (e) {
        return `${(e as Error).name}: ${(e as Error).message}`;
      }
    });
    expect(bad).toBe('PagehandRunError: pagehand.run: thread.turns[0].answer must be a string.');
    await page.close();
  });
});

describe('the runner', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pagehand-thread-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('--thread FILE: the first run writes the conversation, the second continues it', { timeout: 240_000 }, async () => {
    stack.setPolicy(shopModel());
    const since = stack.requests().length;
    const file = join(dir, 'shop.thread.json');
    const url = `${base()}home.html`;
    const common = ['run', '--url', url, '--proxy', stack.proxyUrl, '--token', stack.token, '--model', MODELS.openai, '--thread', file];
    const one = await runCli([...common, 'What was my last order?']);
    expect(one.code, one.stderr).toBe(0);
    const written = JSON.parse(await readFile(file, 'utf8'));
    expect(written.turns).toEqual([{ task: 'What was my last order?', answer: '#A-7731, a blue mug', status: 'done', url: `${base()}orders.html` }]);
    const two = await runCli([...common, 'Cancel it']);
    expect(two.code, two.stderr).toBe(0);
    const second = userText(firstFor(since, 'Cancel it'));
    expect(second).toContain('The user asked: What was my last order?');
    expect(blockWith(second, 'answer: #A-7731, a blue mug')).toBeDefined();
    expect(JSON.parse(await readFile(file, 'utf8')).turns.map((t: { task: string }) => t.task)).toEqual(['What was my last order?', 'Cancel it']);
  });
});
