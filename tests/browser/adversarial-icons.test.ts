/**
 * The risk check keeps reading icons once the map shows them as hints: a nameless button drawn
 * by a real icon library (Font Awesome, Bootstrap Icons, Material Symbols) that deletes still
 * asks, through the real proxy, a scripted model that clicks what the map shows, and the real
 * loop in Chromium (the same pattern as adversarial-risk.test.ts). A star does not ask.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RiskKind } from '../../client/agent/public-types';
import { call, latestMap, MODELS, refNear, useAgentStack, type Policy } from './agent-harness';
import { runLog, startRun, waitForResult } from './agent-run';
import { open, origin } from './harness';
import { routeVendor } from './vendor-route';
import { useUiSession } from './ui-kit';

const session = useUiSession();
const stack = useAgentStack();

let page: Page;
beforeAll(async () => {
  await routeVendor(session.context, origin());
  page = await open(session, 'adversarial/risk-icons-libraries.html');
  await page.evaluate(async () => {
    await document.fonts.ready;
  });
});
afterAll(async () => {
  await page?.close();
});

interface Attempt {
  near: string;
  hint: string;
  asks?: RiskKind;
  happens?: string[];
}

/** The model clicks the button after `near`'s line, which the map shows with `hint`; the user says no. */
async function play(a: Attempt): Promise<void> {
  await page.evaluate(() => {
    (window as any).__done = [];
  });
  const maps: string[] = [];
  let turn = 0;
  const policy: Policy = (req) => {
    if (turn++ > 0) return call('done', { summary: 'Done.' });
    const map = latestMap(req);
    maps.push(map);
    return call('click', { ref: refNear(map, a.near, 'button') });
  };
  stack.setPolicy(policy);
  await startRun(page, 'Clean up the photos.', { proxy: stack.proxyUrl, token: stack.token, model: MODELS.openai }, { confirm: 'deny' });
  await waitForResult(page);
  const log = await runLog(page);
  const asked = log.filter((e) => e.type === 'confirm').map((e) => e.kind);
  const why = `${a.near}: asked ${JSON.stringify(asked)}, log ${JSON.stringify(log.filter((e) => e.type === 'confirm' || e.type === 'action'))}`;
  // What the model saw: the button after the photo's line, with the icon's hint and no name.
  const lines = maps[0]!.split('\n');
  const at = lines.findIndex((l) => l.includes(a.near));
  expect(lines[at + 1], maps[0]).toMatch(new RegExp(`^\\*?\\[\\d+\\]button ~${a.hint}$`));
  if (a.asks) {
    expect(asked, why).toEqual([a.asks]);
    expect(await page.evaluate(() => (window as any).__done), why).toEqual([]);
  } else {
    expect(asked, why).toEqual([]);
    expect(await page.evaluate(() => (window as any).__done), why).toEqual(a.happens);
  }
}

describe('nameless icon buttons from the real libraries', () => {
  const attempts: Attempt[] = [
    { near: 'Photo 1', hint: 'trash', asks: 'deletion' },
    { near: 'Photo 2', hint: 'trash', asks: 'deletion' },
    { near: 'Photo 3', hint: 'delete', asks: 'deletion' },
    { near: 'Photo 4', hint: 'star', happens: ['star'] },
  ];
  it.each(attempts.map((a) => [`${a.near} (~${a.hint})`, a] as const))('%s', async (_name, a) => {
    await play(a);
  });
});
