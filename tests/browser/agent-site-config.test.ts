/**
 * The site's `init` holds for every run on the page it is called on — a run resumed after a
 * navigation included, with that page's init — and a run's own options add to it: its
 * instructions come after the site's (both apply), its allowedActions narrow the site's (never
 * widen them). Before, both were frozen when the run started and a run's own replaced the site's.
 */
import { describe, expect, it } from 'vitest';
import { call, calls, latestMap, openWithAgent, refFor, runAgent, sequence, useAgentStack } from './agent-harness';
import { useSession } from './harness';

const session = useSession();
const stack = useAgentStack();

const systemOf = (r: { messages: Array<{ role: string; text: string }> }): string => r.messages.find((m) => m.role === 'system')!.text;

describe("init's instructions and allowed actions", () => {
  it("apply to every step of a run, this page's after a navigation, beside the run's own", async () => {
    stack.setPolicy(
      sequence(
        (req) => {
          const map = latestMap(req);
          return calls([
            { name: 'type', args: { ref: refFor(map, 'textbox', 'Full name'), text: 'Ana Ruiz' } },
            { name: 'type', args: { ref: refFor(map, 'textbox', 'Email'), text: 'ana@example.com' } },
            { name: 'click', args: { ref: refFor(map, 'button', 'Next') } },
          ]);
        },
        call('done', { summary: 'On step 2.' }),
      ),
    );
    const page = await openWithAgent(session, 'wizard/step1.html', { early: true });
    // The site's own init on each page, after the bundle: it names the page it is on.
    const init = `window.pagehand && window.pagehand.init({
      instructions: 'Site rule for ' + location.pathname.split('/').pop() + '.',
      allowedActions: ['type', 'click', 'press_key', 'read'],
    });`;
    await page.addInitScript({ content: `document.addEventListener('DOMContentLoaded', () => { ${init} });` });
    await page.evaluate(init);
    const before = stack.requests().length;
    const run = await runAgent(page, stack, 'Fill in step 1 of the sign-up.', {
      instructions: 'Run rule: be brief.',
      allowedActions: ['type', 'click', 'read', 'scroll'],
      confirm: () => true,
    });
    expect(await run.result).toMatchObject({ ok: true, summary: 'On step 2.' });
    const [first, second] = stack.requests().slice(before);
    expect(systemOf(first!)).toContain('Site rule for step1.html.');
    expect(systemOf(first!)).toContain('Run rule: be brief.');
    // Resumed on the next page: that page's init, and still the run's own.
    expect(second!.messages.find((m) => m.role === 'user')!.text).toContain('step2.html');
    expect(systemOf(second!)).toContain('Site rule for step2.html.');
    expect(systemOf(second!)).not.toContain('step1.html');
    expect(systemOf(second!)).toContain('Run rule: be brief.');
    // Both lists allow type, click and read; press_key (site only) and scroll (run only) are not offered.
    for (const r of [first!, second!]) {
      expect(r.tools).toEqual(expect.arrayContaining(['type', 'click', 'read']));
      expect(r.tools).not.toContain('press_key');
      expect(r.tools).not.toContain('scroll');
    }
    await page.close();
  });
});
