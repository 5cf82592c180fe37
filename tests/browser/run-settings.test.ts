/**
 * A run's settings are its own (real proxy, scripted model, Chromium): what `init` and a run
 * decided — deny zones, secrets, the hook before a navigation — travel with the operation that
 * uses them, so two runs configured differently on one page, and the page's own calls made
 * while a run is going, never see each other's. Before settings were one value passed down,
 * the run's secrets masked the page's own `pagehand.map()`, and the end of a run removed the
 * page's own navigation hook.
 */
import { describe, expect, it } from 'vitest';
import { call, latestMap, openWithAgent, runAgent, sequence, useAgentStack } from './agent-harness';
import { useSession } from './harness';

const session = useSession();
const stack = useAgentStack();

const CODE = '4921-7730';
const VAULT = 'Vault balance';

describe('two runs on one page', () => {
  it('each reads the page with its own settings, and the page meanwhile with its own', async () => {
    const page = await openWithAgent(session, 'settings/two-runs.html');
    await page.evaluate(() => (window as any).pagehand.init({ deny: ['#vault'] }));
    const maps: string[] = [];
    const pageOwn: string[] = [];
    // While each run waits for the model, the page maps itself through its own API.
    const step = async (req: Parameters<typeof latestMap>[0]) => {
      maps.push(latestMap(req));
      pageOwn.push(await page.evaluate(() => (window as any).pagehand.map().text as string));
      return call('done', { summary: 'Read.' });
    };

    stack.setPolicy(sequence(step));
    const a = await runAgent(page, stack, 'Read the order code', { secrets: { code: CODE } });
    expect((await a.result).ok).toBe(true);

    // The site changes its mind: no deny zone now. The next run has no secrets.
    await page.evaluate(() => (window as any).pagehand.init({ deny: [] }));
    stack.setPolicy(sequence(step));
    const b = await runAgent(page, stack, 'Read the page');
    expect((await b.result).ok).toBe(true);

    // Run A: its secret masked, the site's zone left out.
    expect(maps[0]).toContain('<secret:code>');
    expect(maps[0]).not.toContain(CODE);
    expect(maps[0]).not.toContain(VAULT);
    // The page's own call during run A: the site's zone left out, but not the run's secret (the page is not the run).
    expect(pageOwn[0]).toContain(CODE);
    expect(pageOwn[0]).not.toContain('<secret:');
    expect(pageOwn[0]).not.toContain(VAULT);
    // Run B: no secret of A's, and the zone the site no longer denies.
    expect(maps[1]).toContain(CODE);
    expect(maps[1]).not.toContain('<secret:');
    expect(maps[1]).toContain(VAULT);
    expect(pageOwn[1]).toContain(VAULT);
  });

  it("a run's end leaves the page's own navigation hook in place", async () => {
    const page = await openWithAgent(session, 'settings/two-runs.html');
    await page.evaluate(() =>
      (window as any).pagehand.setBeforeNavigate((info: { url: string; kind: string }) => sessionStorage.setItem('page-hook', `${info.kind} ${info.url}`)),
    );
    stack.setPolicy(sequence(call('done', { summary: 'Nothing to do.' })));
    const run = await runAgent(page, stack, 'Look around');
    expect((await run.result).ok).toBe(true);

    const url = new URL('next.html', page.url()).href;
    await Promise.all([
      page.waitForURL(/next\.html$/),
      page.evaluate((u) => (window as any).pagehand.act({ name: 'navigate', args: { url: u } }), url).catch(() => undefined),
    ]);
    expect(await page.evaluate(() => sessionStorage.getItem('page-hook'))).toBe(`navigate ${url}`);
  });
});
