import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Recording } from '../../client/agent/public-types';
import { createMasks, NO_MASKS } from '../../client/safety/masks';
import { expectationOf, fill, keptArgs, keptTarget, recordingProblem, stepText, urlMatches, valuesFor } from '../../client/agent/recording/recording';
import { junitXml, xmlText } from '../../cli/junit';
import { readTasksFile, shardOf } from '../../cli/test-tasks';
import { workersOf } from '../../cli/test-args';

const rec = (over: Partial<Recording> = {}): Recording => ({
  pagehand: 'recording',
  v: 1,
  task: 'Find {query}',
  url: 'https://shop.example/',
  params: { query: 'espresso' },
  steps: [{ action: 'type', target: { role: 'searchbox', name: 'Search' }, args: { text: '{query}' } }],
  ...over,
});

describe('the recording format', () => {
  it('accepts a recording and names what is wrong with anything else', () => {
    expect(recordingProblem(rec())).toBeUndefined();
    expect(recordingProblem('x')).toMatch(/must be an object/);
    expect(recordingProblem({ ...rec(), pagehand: 'other' })).toMatch(/"pagehand" must be "recording"/);
    expect(recordingProblem({ ...rec(), v: 2 })).toMatch(/unsupported recording version 2/);
    expect(recordingProblem({ ...rec(), steps: [{ action: 'click', args: {}, target: { role: 'button' } }] })).toBe('step 1: "target" needs a role and a name');
    expect(recordingProblem({ ...rec(), steps: [{ action: 'click', args: {}, target: { role: 'button', name: 'x', nth: 0 } }] })).toMatch(
      /"target.nth" must be a whole number from 1/,
    );
    expect(recordingProblem({ ...rec(), params: { 'bad name': 'x' } })).toMatch(/a value's name/);
    expect(recordingProblem({ ...rec(), steps: Array.from({ length: 501 }, () => ({ action: 'wait', args: { seconds: 1 } })) })).toMatch(
      /501 steps; at most 500/,
    );
  });

  it('fills declared values only; an unknown name is an error, not a silent default', () => {
    const v = valuesFor(rec(), { query: 'grinder' });
    expect(v).toEqual({ values: { query: 'grinder' } });
    expect(fill({ text: '{query} and {other} and {{query}}' }, { query: 'x' })).toEqual({ text: 'x and {other} and {x}' });
    expect(valuesFor(rec(), { qurey: 'x' })).toEqual({ error: 'the recording has no value named "qurey" (it has {query})' });
    expect(valuesFor(rec(), undefined)).toEqual({ values: { query: 'espresso' } });
  });

  it('keeps no ref and no secret value: typed text and page-named targets are masked', () => {
    const masks = createMasks(undefined, { card: '4111 1111 1111 1234' });
    expect(keptArgs({ ref: '12', text: '4111 1111 1111 1234', submit: false }, masks)).toEqual({ text: '<secret:card>', submit: false });
    expect(keptTarget({ role: 'button', name: 'Pay with 4111 1111 1111 1234', near: 'Card 4111 1111 1111 1234', nth: 1, of: 1 }, masks)).toEqual({
      role: 'button',
      name: 'Pay with <secret:card>',
      near: 'Card <secret:card>',
    });
  });

  it('expects what a step led to, never what depends on what it typed, and nothing after a scroll', () => {
    const origin = 'https://mail.example';
    expect(expectationOf({ url: { from: `${origin}/inbox`, to: `${origin}/inbox?q=ernesto` } }, origin, NO_MASKS, ['ernesto'])).toEqual({ url: '/inbox' });
    expect(expectationOf({ navigation: { url: `${origin}/message?id=3` } }, origin, NO_MASKS, ['ernesto'])).toEqual({ url: '/message?id=3' });
    expect(expectationOf({ navigation: { url: 'https://other.example/x' } }, origin, NO_MASKS)).toEqual({ url: 'https://other.example/x' });
    expect(expectationOf({ dialogOpened: ['Confirm deletion'] }, origin, NO_MASKS)).toEqual({ dialog: 'Confirm deletion' });
    expect(expectationOf({ newSample: ['link "Ernesto Ruiz — Budget"', 'button "Archive"'] }, origin, NO_MASKS, ['ernesto'])).toEqual({
      visible: { role: 'button', name: 'Archive' },
    });
    expect(expectationOf({ newSample: ['button "Open"'] }, origin, NO_MASKS, [], 'scroll')).toBeUndefined();
    expect(expectationOf({ newSample: ['button "A very long name cut short…"', 'div'] }, origin, NO_MASKS)).toBeUndefined();
  });

  it('a URL matches with its query when the expectation has one, by path when it has none', () => {
    expect(urlMatches('/inbox', 'https://m.example/inbox?q=alice', 'https://m.example')).toBe(true);
    expect(urlMatches('/inbox?q=ernesto', 'https://m.example/inbox?q=alice', 'https://m.example')).toBe(false);
    expect(urlMatches('/step2.html?name=Ada Lovelace', 'https://w.example/step2.html?name=Ada+Lovelace', 'https://w.example')).toBe(true);
  });

  it('says a step in one line', () => {
    expect(stepText({ action: 'type', target: { role: 'searchbox', name: 'Search' }, args: { text: 'x', replace: true, submit: false } })).toBe(
      'type searchbox "Search" text="x"',
    );
    expect(stepText({ action: 'click', target: { role: 'button', name: 'Open', near: 'Item 3', nth: 2, of: 3 }, args: {} })).toBe(
      'click button "Open" (in: "Item 3") (2 of 3)',
    );
  });
});

describe('the test kit, pure parts', () => {
  it('--shard splits into consecutive shares that cover every task once', () => {
    const tasks = [1, 2, 3, 4, 5, 6, 7];
    const shards = [1, 2, 3].map((index) => shardOf(tasks, { index, total: 3 }));
    expect(shards).toEqual([
      [1, 2],
      [3, 4],
      [5, 6, 7],
    ]);
    expect(shards.flat()).toEqual(tasks);
    expect(shardOf(tasks)).toEqual(tasks);
  });

  it("a task's URL (or the base URL) with a user and password: taken out, kept for that origin's HTTP authentication", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pagehand-tasks-'));
    const file = join(dir, 'tasks.json');
    const tasks = [
      { name: 'a', url: 'https://qa:pa%24s@staging.example/a', task: 'x' },
      { name: 'b', url: 'orders', task: 'y' },
    ];
    await writeFile(file, JSON.stringify({ baseUrl: 'https://ci:t0k@build.example/app/', tasks }));
    const read = readTasksFile(file);
    await rm(dir, { recursive: true });
    expect(read).toMatchObject([
      { name: 'a', url: 'https://staging.example/a', credentials: { username: 'qa', password: 'pa$s', origin: 'https://staging.example' } },
      { name: 'b', url: 'https://build.example/app/orders', credentials: { username: 'ci', password: 't0k', origin: 'https://build.example' } },
    ]);
  });

  it('--workers takes a count or a share of the cores; default half', () => {
    expect(workersOf(undefined, 8)).toBe(4);
    expect(workersOf('50%', 8)).toBe(4);
    expect(workersOf('3', 8)).toBe(3);
    expect(workersOf('0', 8)).toMatch(/whole number from 1/);
    expect(workersOf(undefined, 1)).toBe(1);
  });

  it('JUnit XML counts failures and escapes what the page said', () => {
    const xml = junitXml(
      'tasks.json',
      [
        { name: 'ok', ok: true, time: 1 },
        { name: 'bad <one>', ok: false, time: 2, failure: 'checks failed:\n- text "A & B" is not on the page\u0007' },
      ],
      new Date(0),
    );
    expect(xml).toContain('<testsuite name="tasks.json" tests="2" failures="1" skipped="0" errors="0" time="3.000"');
    expect(xml).toContain('<testcase name="bad &lt;one&gt;" classname="tasks.json" time="2.000">');
    expect(xml).toContain('<failure message="checks failed:">checks failed:\n- text &quot;A &amp; B&quot; is not on the page</failure>');
    expect(xmlText('a\u0000b')).toBe('ab');
  });
});
