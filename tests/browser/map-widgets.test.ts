/**
 * Open lists of custom selects built from the real libraries (select2, chosen, Choices.js,
 * installed from npm into tests/fixtures/widgets) and the selectric pattern: each option with
 * its own text is its own line, never one line for the whole open list.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { mapBody, open, useSession } from './harness';

const s = useSession();

async function openSelects(): Promise<Page> {
  const page = await open(s, 'widgets/selects.html');
  await page.waitForFunction(() => (window as any).widgetsReady === true);
  return page;
}

/** The lines naming each of `options`, with the ref stripped. */
const optionLines = (body: string[], options: string[]): string[] =>
  body.map((l) => l.trim().replace(/^\*?\[[^\]]+\]/, '')).filter((l) => options.some((o) => l.endsWith(`"${o}"`) || l.includes(`"${o}" `)));

describe('open custom select lists', () => {
  it.each([
    ['chosen', '#cz_fruit_chosen .chosen-single', ['Apple', 'Banana', 'Cherry']],
    ['selectric pattern', '#sr .sr-face', ['Small', 'Medium', 'Large', 'X-Large']],
    ['select2', '#s2-country + .select2 .select2-selection', ['France', 'Finland', 'Germany']],
    ['Choices.js', '.choices:has(#ch-size)', ['Small', 'Medium', 'Large']],
  ])('%s: every option is a line of its own', async (_, trigger, options) => {
    const page = await openSelects();
    await page.click(trigger, { force: true });
    const body = await mapBody(page, { maxTokens: 50_000 });
    const lines = optionLines(body, options);
    for (const o of options)
      expect(
        lines.some((l) => l.includes(`"${o}"`)),
        `${o} in:\n${body.join('\n')}`,
      ).toBe(true);
    // No line is named with the whole open list.
    const nameOf = (l: string): string => /"([^"]*)"/.exec(l)?.[1] ?? '';
    expect(
      body.some((l) => options.every((o) => nameOf(l).includes(o))),
      body.join('\n'),
    ).toBe(false);
  });
});
