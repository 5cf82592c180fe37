/**
 * `--report DIR` end to end: `node dist/cli.js run …` with the scripted model through the real
 * proxy on a page with a deny zone, a secret typed into a field, a button named with hostile
 * markup and a risky "Delete account" that is denied (no terminal); the HTML file must hold every
 * step, the question and "denied", and none of the zone's text or the secret's value; it is
 * opened in Chromium (nothing loads, no script runs), the acted-on element's box sits where the
 * element was, and a picture of it is kept for a person to look at (REPORT_SHOT, when set).
 * `pagehand test --report` writes a report per task and an index.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, hasText, lastToolResults, latestMap, MODELS, refFor, startAgentStack, type AgentStack, type Policy } from './agent-harness';
import { origin } from './harness';
import { decodePng } from './png';
import { CHROMIUM, jsonLines, proxyFlags, runCli } from './runner-cli';
import { task } from './replay-kit';

const ZONE = 'ZONE-TEXT-7731';
const SECRET = 'SECRET-VALUE-90210';
const HOSTILE = '<img src=x onerror=alert(1)></script>';

let stack: AgentStack;
let dir: string;
let browser: Browser;
beforeAll(async () => {
  stack = await startAgentStack();
  dir = await mkdtemp(join(tmpdir(), 'pagehand-report-'));
  browser = await chromium.launch({ executablePath: CHROMIUM });
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Types the secret, presses the oddly named button, tries to delete the account, gives up. */
const settingsModel = (): Policy => {
  let turn = 0;
  return (req) => {
    turn++;
    const map = latestMap(req);
    if (/did not allow/.test(lastToolResults(req).join('\n'))) return call('fail', { reason: 'The user did not allow deleting the account.' });
    if (turn === 1) return call('type', { ref: refFor(map, 'textbox', 'API key'), text: '<secret:apikey>' }, 'goal: enter the API key');
    if (turn === 2) return call('click', { ref: refFor(map, 'button', /onerror/) }, `goal: press ${HOSTILE}`);
    if (hasText(map, 'Pressed.')) return call('click', { ref: refFor(map, 'button', 'Delete account') }, 'goal: delete the account');
    return call('fail', { reason: 'The button did not react.' });
  };
};

describe('pagehand run --report', () => {
  it(
    'writes one HTML file: outcome first, every step, the question and "denied"; no zone text, no secret, no markup from the page',
    { timeout: 180_000 },
    async () => {
      stack.setPolicy(settingsModel());
      const reports = join(dir, 'run');
      const url = `${origin()}/fixtures/report/settings.html`;
      const out = await runCli([
        'run',
        '--url',
        url,
        ...proxyFlags(stack, MODELS.openai),
        '--json',
        '--secret',
        `apikey=${SECRET}`,
        '--report',
        reports,
        'Delete my account',
      ]);
      expect(out.code, out.stderr).toBe(1);
      const lines = jsonLines(out);
      const result = lines.find((l) => l.event === 'result');
      expect(result).toMatchObject({ ok: false });
      const planned = lines.filter((l) => l.event === 'step' && l.phase === 'planned').map((l) => l.step);
      expect(planned).toEqual([1, 2, 3, 4]);
      expect(lines.some((l) => l.event === 'note' && /report written to /.test(l.text))).toBe(true);

      const files = await readdir(reports);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/^delete-my-account-\d{8}-\d{6}\.html$/);
      const file = join(reports, files[0]!);
      const html = await readFile(file, 'utf8');

      // Every step, in order, after the outcome.
      expect([...html.matchAll(/data-step="(\d+)"/g)].map((m) => Number(m[1]))).toEqual(planned);
      expect(html.indexOf('data-outcome="')).toBeLessThan(html.indexOf('data-step="1"'));
      expect(html).toContain('data-outcome="refused"');
      // The question and its answer.
      expect(html).toMatch(/data-question>Asked: <code>click \[\d+\] button &quot;Delete account&quot;<\/code>[^<]*<span class="tag denied">denied<\/span>/);
      // The secret as its placeholder, never its value; nothing of the zone.
      expect(html).toContain('&lt;secret:apikey&gt;');
      expect(html).not.toContain(SECRET);
      expect(html).not.toContain(ZONE);
      expect(html).not.toContain('private note');
      // The page's and the model's markup is text: no element, no script at all, a CSP that loads nothing.
      expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;&lt;/script&gt;');
      expect(html).not.toMatch(/<img src=x|<\/script|<script/i);
      expect(html).toContain(`content="default-src 'none'; img-src data:;`);
      // A picture per model turn, inline.
      const shots = [...html.matchAll(/<img alt="The page at this step" src="data:image\/png;base64,([^"]+)"/g)].map((m) => Buffer.from(m[1]!, 'base64'));
      expect(shots).toHaveLength(4);
      // The zone is blanked in the picture itself (maskColor #868e96), where it was on the page.
      const first = decodePng(shots[0]!);
      const at = (x: number, y: number) => Array.from(first.rgba.subarray((y * first.width + x) * 4, (y * first.width + x) * 4 + 3));
      expect(at(240, 460)).toEqual([0x86, 0x8e, 0x96]);

      // Opened in Chromium: nothing is requested, no script runs, the box is where the button was.
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      try {
        const live = await ctx.newPage();
        await live.goto(url);
        const odd = (await live.locator('#odd').boundingBox())!;
        const page = await ctx.newPage();
        const requests: string[] = [];
        page.on('request', (r) => void requests.push(r.url()));
        const dialogs: string[] = [];
        page.on('dialog', (d) => void (dialogs.push(d.message()), d.dismiss()));
        await page.goto(pathToFileURL(file).href);
        expect(requests.filter((u) => !u.startsWith('file:') && !u.startsWith('data:'))).toEqual([]);
        expect(dialogs).toEqual([]);
        expect(await page.locator('[data-outcome]').innerText()).toMatch(/^REFUSED\n/);
        // Step 2 clicked the oddly named button: its box, in the picture's pixels.
        const box = await page.locator('[data-step="2"] .box').evaluate((b) => {
          const img = b.parentElement!.querySelector('img')!;
          const r = b.getBoundingClientRect();
          const i = img.getBoundingClientRect();
          const k = img.naturalWidth / i.width;
          return { x: (r.x - i.x) * k, y: (r.y - i.y) * k, width: r.width * k, height: r.height * k };
        });
        for (const key of ['x', 'y', 'width', 'height'] as const)
          expect(Math.abs(box[key] - odd[key]), `${key}: ${JSON.stringify({ box, odd })}`).toBeLessThan(2);
        // Step 3's call was denied: the box shows what it would have pressed.
        expect(await page.locator('[data-step="3"] .box').count()).toBe(1);
        if (process.env.REPORT_SHOT) await page.screenshot({ path: process.env.REPORT_SHOT, fullPage: true });
      } finally {
        await ctx.close();
      }
    },
  );
});

describe('pagehand test --report', () => {
  it('writes a report per task and an index.html linking them; a failed check stands out in its report', { timeout: 180_000 }, async () => {
    const t = task('lazy');
    stack.setPolicy(t.model());
    const rec = await runCli(['run', '--url', `${origin()}/fixtures/agent/${t.path}`, '--record', 'lazy.json', ...proxyFlags(stack, MODELS.openai), t.task], {
      cwd: dir,
    });
    expect(rec.code, rec.stderr).toBe(0);
    const base = { url: 'lazy/list.html', recording: 'lazy.json' };
    await writeFile(
      join(dir, 'tasks.json'),
      JSON.stringify({
        baseUrl: `${origin()}/fixtures/agent/`,
        tasks: [
          { ...base, name: 'open the quantum widget', checks: [{ text: 'You opened: Quantum widget' }] },
          { ...base, name: 'a check that does not hold', checks: [{ text: 'You opened: Brass hinge' }] },
        ],
      }),
    );
    const out = await runCli(['test', 'tasks.json', '--workers', '1', '--report', 'reports', '--output', 'shots'], { cwd: dir });
    expect(out.code, out.stdout + out.stderr).toBe(1);
    expect(out.stdout).toContain('Reports: reports/index.html');
    expect((await readdir(join(dir, 'reports'))).sort()).toEqual(['a-check-that-does-not-hold.html', 'index.html', 'open-the-quantum-widget.html']);
    const index = await readFile(join(dir, 'reports', 'index.html'), 'utf8');
    expect(index).toMatch(/<tr class="ok"><td><a href="open-the-quantum-widget\.html">open the quantum widget<\/a><\/td><td>ok<\/td>/);
    expect(index).toMatch(/<tr class="failed"><td><a href="a-check-that-does-not-hold\.html">a check that does not hold<\/a><\/td><td>failed<\/td>/);
    expect(index).toContain('1 passed, 1 failed');
    const bad = await readFile(join(dir, 'reports', 'a-check-that-does-not-hold.html'), 'utf8');
    expect(bad).toContain('data-outcome="failed"');
    expect(bad).toMatch(/data-failed-checks><b>Failed check<\/b><ul><li>text &quot;You opened: Brass hinge&quot; is not on the page<\/li>/);
    const good = await readFile(join(dir, 'reports', 'open-the-quantum-widget.html'), 'utf8');
    expect(good).toContain('data-outcome="ok"');
    // The replayed step (no model turn) has its picture too, taken as its action started.
    expect(good).toMatch(/<section class="step" data-step="\d+">[\s\S]*<img alt="The page at this step" src="data:image\/png;base64,/);
  });
});
