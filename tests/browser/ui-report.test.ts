/**
 * The panel's "Save report": a finished run's view downloaded as the same HTML report the runner
 * writes (common/run-report.ts, built in the page): the outcome, each step, the risk question
 * the user denied in the card, and none of the deny zone's text; hostile names as text.
 */
import { describe, expect, it } from 'vitest';
import { call, hasText, lastToolResults, latestMap, refFor, useAgentStack, type Policy } from './agent-harness';
import { open } from './harness';
import { inUi, openPanel, sendTask, useUiSession, waitIn } from './ui-kit';

const session = useUiSession();
const stack = useAgentStack();

const model = (): Policy => {
  let turn = 0;
  return (req) => {
    turn++;
    const map = latestMap(req);
    if (/did not allow/.test(lastToolResults(req).join('\n'))) return call('fail', { reason: 'The user did not allow deleting the account.' });
    if (turn === 1) return call('click', { ref: refFor(map, 'button', /onerror/) }, 'goal: press the odd button </script><script>alert(2)</script>');
    if (hasText(map, 'Pressed.')) return call('click', { ref: refFor(map, 'button', 'Delete account') }, 'goal: delete the account');
    return call('fail', { reason: 'The button did not react.' });
  };
};

describe('Save report in the panel', () => {
  it("downloads the finished run as one HTML file with the same sections as the runner's", { timeout: 90_000 }, async () => {
    const page = await open(session, 'report/settings.html');
    stack.setPolicy(model());
    await openPanel(page, stack);
    await sendTask(page, 'Delete my account');
    await (await waitIn(page, '[data-confirm] [data-deny]', 30_000)).click();
    await waitIn(page, '[data-end="failed"]', 30_000);
    const [download] = await Promise.all([page.waitForEvent('download'), inUi(page, '[data-save-report]').click()]);
    expect(download.suggestedFilename()).toBe('delete-my-account.report.html');
    const chunks: Buffer[] = [];
    for await (const c of await download.createReadStream()) chunks.push(c as Buffer);
    const html = Buffer.concat(chunks).toString('utf8');
    expect(html).toContain('data-outcome="refused"');
    expect([...html.matchAll(/data-step="(\d+)"/g)].map((m) => Number(m[1]))).toEqual([1, 2, 3]);
    expect(html.indexOf('data-outcome="')).toBeLessThan(html.indexOf('data-step="1"'));
    expect(html).toMatch(/data-question>Asked: <code>click \[\d+\] button &quot;Delete account&quot;<\/code>[^<]*<span class="tag denied">denied<\/span>/);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;&lt;/script&gt;');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(html).not.toMatch(/<img src=x|<\/script|<script/i);
    expect(html).not.toContain('ZONE-TEXT-7731');
    expect(html).toContain(`content="default-src 'none'; img-src data:;`);
    await page.close();
  });
});
