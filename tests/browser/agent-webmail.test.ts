/**
 * The loop end to end on the webmail fixture: "find the emails Ernesto sent and summarise
 * them" — a delayed XHR search, each email opened (a full navigation, so the run resumes on
 * every page) and the way back, then a summary naming each subject. Once through the proxy's
 * OpenAI path and once through its Gemini path.
 */
import { describe, expect, it } from 'vitest';
import { MODELS, openWithAgent, useAgentStack, webmailModel } from './agent-harness';
import { runLog, startRun, waitForResult } from './agent-run';
import { useSession } from './harness';

const session = useSession();
const stack = useAgentStack();

describe.each([
  ['OpenAI', MODELS.openai],
  ['Gemini', MODELS.gemini],
])('webmail task through the %s path', (_label, model) => {
  it("searches, opens each of Ernesto's emails, comes back, and summarises them", async () => {
    const m = webmailModel();
    stack.setPolicy(m.policy);
    const before = stack.requests().length;
    const page = await openWithAgent(session, 'webmail/inbox.html', { early: true });
    await page.evaluate(() => localStorage.clear());
    await startRun(page, 'Find the emails Ernesto sent and summarise them', { proxy: stack.proxyUrl, token: stack.token, model });
    const result = await waitForResult(page);
    const log = await runLog(page);

    expect(result.ok, JSON.stringify(log.slice(-6))).toBe(true);
    for (const subject of ['Budget for Q3', 'Offsite agenda', 'Invoice 2291 overdue']) expect(result.summary).toContain(subject);
    // The site's own record: every one of Ernesto's emails was opened, and no other.
    const opened = await page.evaluate(() => JSON.parse(localStorage.getItem('mailRead') ?? '[]'));
    expect([...opened].sort()).toEqual([11, 3, 7].sort());
    // One model request per step, every one through the chosen provider.
    const reqs = stack.requests().slice(before);
    expect(reqs).toHaveLength(result.steps);
    expect(new Set(reqs.map((r) => r.model))).toEqual(new Set([model]));
    // Every page change resumed the run and said so in a step event.
    const resumed = log.filter((e) => e.type === 'step' && e.phase === 'start' && e.resumed);
    expect(resumed.length).toBeGreaterThanOrEqual(6); // 3 opens + 3 backs
    // Every action that started also ended, the ones that navigated away too (their end is
    // sent from the next page when the old one unloaded first).
    const actions = log.filter((e) => e.type === 'action');
    expect(actions.filter((e) => e.phase === 'end').map((e) => e.name)).toEqual(actions.filter((e) => e.phase === 'start').map((e) => e.name));
    const opens = actions.filter((e) => e.phase === 'end' && e.name === 'click' && /message\.html/.test(e.navigated ?? ''));
    expect(opens).toHaveLength(3);
    expect(result.usage.promptTokens).toBeGreaterThan(0);
    await page.close();
  });
});
