/**
 * The headless runner end to end: `node dist/cli.js run …` as a user runs it (its own Chromium,
 * the real proxy from the agent harness, a scripted model), on the webmail task whose every
 * email opens with a full navigation — so the run resumes on each page through the init
 * script. Also the failures that must end in one clear sentence and exit status 1.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  hasText,
  lastToolResults,
  latestMap,
  mapUrl,
  MODELS,
  refFor,
  signupModel,
  startAgentStack,
  type AgentStack,
  type Policy,
  webmailModel,
} from './agent-harness';
import { origin } from './harness';
import { decodePng, type Png } from './png';
import { jsonLines, runCli, proxyFlags, type Exit } from './runner-cli';

const TASK = 'Find the emails Ernesto sent and summarise them';
const SUBJECTS = ['Budget for Q3', 'Offsite agenda', 'Invoice 2291 overdue'];

const cli = (args: string[], env: Record<string, string> = {}, cwd?: string): Promise<Exit> => runCli(args, { env, cwd });

function countPixels(img: Png, [r, g, b]: [number, number, number]): number {
  let n = 0;
  for (let i = 0; i < img.rgba.length; i += 4) if (img.rgba[i] === r && img.rgba[i + 1] === g && img.rgba[i + 2] === b) n++;
  return n;
}

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

let stack: AgentStack;
let dir: string;
beforeAll(async () => {
  stack = await startAgentStack();
  dir = await mkdtemp(join(tmpdir(), 'pagehand-runner-'));
});
afterAll(async () => {
  await stack?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const inbox = () => `${origin()}/fixtures/agent/webmail/inbox.html`;

describe('pagehand run', () => {
  it('completes the webmail task across navigations, prints the summary, saves a marked screenshot per step, exits 0', { timeout: 180_000 }, async () => {
    stack.setPolicy(webmailModel().policy);
    const before = stack.requests().length;
    const shots = join(dir, 'shots');
    const out = await cli(['run', '--url', inbox(), ...proxyFlags(stack, MODELS.openai), '--screenshot-dir', shots, TASK]);

    expect(out.code, out.stderr + out.stdout).toBe(0);
    expect(out.stdout).toMatch(/^Done in \d+ steps/);
    for (const s of SUBJECTS) expect(out.stdout).toContain(s);
    // The step log: every step, the actions with their targets, and the resumes after navigations.
    const steps = [...out.stderr.matchAll(/^step (\d+)\/50\b/gm)].map((m) => Number(m[1]));
    const taken = stack.requests().length - before;
    expect(steps).toEqual(Array.from({ length: taken }, (_, i) => i + 1));
    expect(out.stderr).toContain('→ type [');
    expect(out.stderr).toMatch(/→ click \[\d+\] link "Ernesto Ruiz/);
    expect(out.stderr.match(/\(resumed on /g)?.length ?? 0).toBeGreaterThanOrEqual(6); // 3 opens + 3 backs
    // One PNG per step.
    const files = (await readdir(shots)).sort();
    expect(files, out.stderr).toEqual(steps.map((n) => `step-${String(n).padStart(3, '0')}.png`));
    // Each step that acted on an element shows the click point (the mark's solid red centre),
    // also when the click navigated away; the steps without a target show no mark.
    const firstAction = new Map<number, string>();
    let current = 0;
    for (const line of out.stderr.split('\n')) {
      const step = /^step (\d+)\//.exec(line);
      if (step) current = Number(step[1]);
      const action = /^\s+→ (\w+)/.exec(line);
      if (action && !firstAction.has(current)) firstAction.set(current, action[1]!);
    }
    for (const n of steps) {
      const red = countPixels(decodePng(await readFile(join(shots, `step-${String(n).padStart(3, '0')}.png`))), [0xe0, 0x31, 0x31]);
      const targeted = ['click', 'type'].includes(firstAction.get(n) ?? '');
      if (targeted) expect(red, `step ${n} (${firstAction.get(n)})\n${out.stderr}`).toBeGreaterThan(20);
      else expect(red, `step ${n} (${firstAction.get(n) ?? 'no action'})`).toBe(0);
    }
  });

  it('--json streams one JSON object per event line and ends with the result', { timeout: 180_000 }, async () => {
    stack.setPolicy(webmailModel().policy);
    const out = await cli(['run', '--json', '--url', inbox(), '--proxy', stack.proxyUrl, '--token', stack.token, '--model', MODELS.openai, TASK]);

    expect(out.code, out.stderr).toBe(0);
    const lines = jsonLines(out);
    const last = lines[lines.length - 1];
    expect(last).toMatchObject({ event: 'result', ok: true });
    for (const s of SUBJECTS) expect(last.summary).toContain(s);
    expect(lines.filter((l) => l.event === 'step' && l.phase === 'planned')).toHaveLength(last.steps);
    expect(lines.some((l) => l.event === 'step' && l.phase === 'thinking')).toBe(false);
    expect(lines.filter((l) => l.event === 'step' && l.resumed).length).toBeGreaterThanOrEqual(6);
    const clicks = lines.filter((l) => l.event === 'action' && l.phase === 'end' && l.call.name === 'click');
    expect(clicks).toHaveLength(3);
    expect(clicks.every((l) => l.result.ok && /message\.html/.test(l.result.changes.navigation?.url ?? ''))).toBe(true);
    expect(lines.find((l) => l.event === 'done')?.result).toMatchObject({ ok: true });
  });

  it('carries the run across a navigation to another origin (the runner keeps the state, not sessionStorage)', { timeout: 180_000 }, async () => {
    stack.setPolicy(signupModel());
    const url = `${origin()}/fixtures/delivery/csp/signup.html`;
    // --yes: leaving the site is a risky action.
    const out = await cli([
      'run',
      '--json',
      '--yes',
      '--url',
      url,
      '--proxy',
      stack.proxyUrl,
      '--token',
      stack.token,
      '--model',
      MODELS.gemini,
      'Sign up as Ada Lovelace and confirm on the partner site',
    ]);

    expect(out.code, out.stderr + out.stdout).toBe(0);
    const lines = jsonLines(out);
    const last = lines[lines.length - 1];
    expect(last).toMatchObject({ event: 'result', ok: true });
    expect(last.summary).toMatch(/confirmed on localhost:\d+/);
    expect(new URL(last.url).hostname).toBe('localhost');
    // Resumed once, on the other origin, with the steps before it.
    const resumed = lines.filter((l) => l.event === 'step' && l.resumed);
    expect(resumed.map((l) => new URL(l.url).hostname)).toEqual(['localhost']);
    expect(resumed[0].step).toBeGreaterThan(1);
    // The click that left the site got its end on the new page, with the navigation.
    const partnerClick = lines.filter((l) => l.event === 'action' && l.call?.name === 'click' && l.phase === 'end');
    expect(partnerClick[0]?.result.changes.navigation?.url).toMatch(/^http:\/\/localhost:\d+\/.*partner\.html$/);
    expect(lines.filter((l) => l.event === 'action' && l.phase === 'start')).toHaveLength(
      lines.filter((l) => l.event === 'action' && l.phase === 'end').length,
    );
  });

  it('denies risky actions when stdin is not a terminal and says how to allow them; --yes allows them', { timeout: 180_000 }, async () => {
    const accountModel = (): Policy => (req) => {
      const map = latestMap(req);
      if (hasText(map, 'Account deleted.')) return call('done', { summary: 'The account is deleted.' });
      const last = lastToolResults(req).join('\n');
      if (/did not allow/.test(last)) return call('fail', { reason: 'The user did not allow deleting the account.' });
      return call('click', { ref: refFor(map, 'button', 'Delete account') }, 'goal: delete the account');
    };
    const url = `${origin()}/fixtures/delivery/account.html`;
    const base = ['run', '--url', url, '--proxy', stack.proxyUrl, '--token', stack.token, '--model', MODELS.openai, 'Delete my account'];

    stack.setPolicy(accountModel());
    const denied = await cli(base);
    expect(denied.code, denied.stderr).toBe(1);
    expect(denied.stderr).toMatch(/denied: click \[\d+\] button "Delete account" — no terminal to ask \(pass --yes to allow risky actions\)/);
    expect(denied.stdout).toMatch(/^Not done \(failed\)/);
    expect(denied.stdout).toContain('did not allow deleting the account');

    stack.setPolicy(accountModel());
    const allowed = await cli([...base.slice(0, -1), '--yes', 'Delete my account']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stderr).toMatch(/allowed \(--yes\): click \[\d+\] button "Delete account"/);
    expect(allowed.stdout).toContain('The account is deleted.');
  });

  it("answers the page's own dialogs: alerts are logged, a confirm() gets Cancel without a terminal and OK with --yes", { timeout: 180_000 }, async () => {
    const draftModel = (): Policy => (req) => {
      const map = latestMap(req);
      const status = /The draft (?:has 3 lines|is empty|was kept)\./.exec(map)?.[0];
      if (status !== 'The draft has 3 lines.') return call('done', { summary: status ?? 'no status' });
      return call('click', { ref: refFor(map, 'button', 'Clear draft') }, 'goal: clear the draft');
    };
    const base = ['run', '--json', '--url', `${origin()}/fixtures/delivery/dialogs.html`, ...proxyFlags(stack, MODELS.openai)];
    const notes = (out: Exit) => jsonLines(out).filter((l) => l.event === 'note' && l.dialog);

    stack.setPolicy(draftModel());
    const kept = await cli([...base, 'Clear the draft']);
    expect(kept.code, kept.stderr + kept.stdout).toBe(0);
    expect(jsonLines(kept).pop().summary).toBe('The draft was kept.');
    expect(notes(kept)).toEqual([
      { event: 'note', dialog: 'alert', message: 'Drafts are kept for 30 days.', answer: 'ok', text: 'the page said: "Drafts are kept for 30 days."' },
      {
        event: 'note',
        dialog: 'confirm',
        message: 'Clear the draft?',
        answer: 'cancel',
        text: 'the page asks: "Clear the draft?" — answered Cancel (no terminal to ask; pass --yes to answer OK)',
      },
    ]);

    stack.setPolicy(draftModel());
    const cleared = await cli([...base, '--yes', 'Clear the draft']);
    expect(cleared.code, cleared.stderr + cleared.stdout).toBe(0);
    expect(jsonLines(cleared).pop().summary).toBe('The draft is empty.');
    expect(notes(cleared).map((n) => [n.dialog, n.answer])).toEqual([
      ['alert', 'ok'],
      ['confirm', 'ok'],
    ]);
  });

  it('saves a download the run makes in the working directory, next to an existing file of that name', { timeout: 180_000 }, async () => {
    const cwd = join(dir, 'downloads');
    await mkdir(cwd, { recursive: true });
    await writeFile(join(cwd, 'june-report.csv'), 'mine');
    let clicked = false;
    stack.setPolicy((req) => {
      const map = latestMap(req);
      if (clicked) return call('done', { summary: 'Downloaded the June report.' });
      clicked = true;
      return call('click', { ref: refFor(map, 'link', 'Download the June report') }, 'goal: download the report');
    });
    // --yes: a download is a risky action.
    const out = await cli(
      ['run', '--yes', '--url', `${origin()}/fixtures/delivery/report.html`, ...proxyFlags(stack, MODELS.openai), 'Download the June report'],
      {},
      cwd,
    );
    expect(out.code, out.stderr + out.stdout).toBe(0);
    const saved = join(cwd, 'june-report (2).csv');
    expect(out.stderr).toContain(`saved the download: ${saved}`);
    expect(await readFile(saved, 'utf8')).toBe('month,total\nJune,1200\n');
    expect(await readFile(join(cwd, 'june-report.csv'), 'utf8')).toBe('mine');
  });

  it('says when the page opens a tab by script, and the run goes on in its own tab', { timeout: 180_000 }, async () => {
    let clicked = false;
    stack.setPolicy((req) => {
      const map = latestMap(req);
      if (clicked) return call('done', { summary: `Still on ${mapUrl(map).replace(/^.*\//, '')}.` });
      clicked = true;
      return call('click', { ref: refFor(map, 'button', 'Open the preview') }, 'goal: open the preview');
    });
    const out = await cli(['run', '--url', `${origin()}/fixtures/delivery/popup.html`, ...proxyFlags(stack, MODELS.openai), 'Open the preview']);
    expect(out.code, out.stderr + out.stdout).toBe(0);
    expect(out.stderr).toContain(`the page opened a new tab (${origin()}/fixtures/delivery/report.html); the run stays in its own tab`);
    expect(out.stdout).toContain('Still on popup.html.');
  });

  it('runs on a local file given by its path, and follows a link to another file', { timeout: 180_000 }, async () => {
    const cwd = join(dir, 'local');
    await mkdir(cwd, { recursive: true });
    await writeFile(join(cwd, 'start.html'), '<!doctype html><title>Start</title><h1>Start</h1><a href="end.html">Go to the end</a>');
    await writeFile(join(cwd, 'end.html'), '<!doctype html><title>End</title><h1>The end</h1><p>Nothing more here.</p>');
    stack.setPolicy((req) => {
      const map = latestMap(req);
      if (hasText(map, 'Nothing more here.')) return call('done', { summary: `Reached ${mapUrl(map).replace(/^.*\//, '')}.` });
      return call('click', { ref: refFor(map, 'link', 'Go to the end') }, 'goal: go to the end');
    });
    const out = await cli(
      ['run', '--url', 'start.html', '--proxy', stack.proxyUrl, '--token', stack.token, '--model', MODELS.openai, 'Go to the end'],
      {},
      cwd,
    );
    expect(out.code, out.stderr + out.stdout).toBe(0);
    expect(out.stdout).toContain('Reached end.html.');
    expect(out.stderr).toContain('(resumed on file://');
  });

  it(
    'opens a site behind HTTP authentication with the user and password of its URL, follows a link there, and prints, reports and sends neither',
    { timeout: 180_000 },
    async () => {
      // A staging server on 127.0.0.1 that answers 401 without the right Basic credentials.
      const PASSWORD = 'st4ging-S3CRET';
      const auth = `Basic ${Buffer.from(`tester:${PASSWORD}`).toString('base64')}`;
      const seen: string[] = [];
      const server = createHttpServer((req, res) => {
        seen.push(`${req.url} ${req.headers.authorization === auth ? 'authorized' : 'anonymous'}`);
        if (req.headers.authorization !== auth) {
          res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="staging"', 'content-type': 'text/plain' });
          return res.end('Unauthorized');
        }
        res.writeHead(200, { 'content-type': 'text/html' });
        if (req.url === '/') return res.end('<!doctype html><title>Staging</title><h1>Staging home</h1><a href="/orders">Orders</a>');
        return res.end('<!doctype html><title>Orders</title><h1>Orders</h1><p>3 open orders.</p>');
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const { port } = server.address() as { port: number };
      try {
        stack.setPolicy((req) => {
          const map = latestMap(req);
          if (hasText(map, '3 open orders.')) return call('done', { summary: `Found 3 open orders at ${mapUrl(map)}.` });
          return call('click', { ref: refFor(map, 'link', 'Orders') }, 'goal: open the orders');
        });
        const before = stack.requests().length;
        const reports = join(dir, 'auth-reports');
        const out = await cli([
          'run',
          '--url',
          `http://tester:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}/`,
          ...proxyFlags(stack, MODELS.openai),
          '--json',
          '--report',
          reports,
          'How many open orders?',
        ]);
        expect(out.code, out.stderr + out.stdout).toBe(0);
        expect(jsonLines(out).at(-1)).toMatchObject({ event: 'result', ok: true, summary: `Found 3 open orders at http://127.0.0.1:${port}/orders.` });
        expect(seen).toContain('/orders authorized');
        // The password is in nothing the run wrote or sent: its output, its report, the model's requests.
        const requests = JSON.stringify(stack.requests().slice(before));
        const report = (
          await Promise.all((await readdir(reports, { recursive: true })).filter((f) => f.endsWith('.html')).map((f) => readFile(join(reports, f), 'utf8')))
        ).join('');
        expect(report).toContain('Found 3 open orders');
        for (const text of [out.stdout, out.stderr, requests, report]) expect(text).not.toContain(PASSWORD);
      } finally {
        await new Promise<void>((r) => server.close(() => r()));
      }
    },
  );

  it('--profile keeps the browser profile between runs', { timeout: 180_000 }, async () => {
    const profile = join(dir, 'profile');
    const args = ['run', '--url', `${origin()}/fixtures/delivery/visits.html`, ...proxyFlags(stack, MODELS.openai), '--profile', profile, 'How many visits?'];
    const model: Policy = (req) => call('done', { summary: /Visits: \d+/.exec(latestMap(req))?.[0] ?? 'no count' });
    stack.setPolicy(model);
    const first = await cli(args);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('Visits: 1');
    const second = await cli(args);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('Visits: 2');
  });

  it('exits 1 with a clear message when the proxy is down', async () => {
    const port = await closedPort();
    const out = await cli(['run', '--url', inbox(), '--proxy', `http://127.0.0.1:${port}`, '--token', stack.token, TASK]);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`The pagehand proxy at http://127.0.0.1:${port} is not reachable (connection refused)`);
    expect(out.stderr).toContain('npm start');
    expect(out.stdout).toBe('');
  });

  it('exits 1 with a clear message when the token is refused', async () => {
    const out = await cli(['run', '--url', inbox(), '--proxy', stack.proxyUrl, '--token', 'ph_not-a-token-the-proxy-knows-0123456789', TASK]);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/refused the token \(from --token\) \(invalid_token/);
    expect(out.stderr).not.toContain('ph_not-a-token');
  });

  it('exits 1 with a clear message when no token is given', async () => {
    const out = await cli(['run', '--url', inbox(), '--proxy', stack.proxyUrl, TASK]);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/refused the request: no token was given \(missing_token/);
  });

  it('exits 1 with a clear message when Chromium is missing (CHROMIUM_PATH)', async () => {
    const out = await cli(['run', '--url', inbox(), '--proxy', stack.proxyUrl, TASK], { CHROMIUM_PATH: '/nonexistent/chromium' });
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('Chromium not found at /nonexistent/chromium');
    expect(out.stderr).toContain('--chromium PATH');
  });

  it('--help documents every flag', async () => {
    const out = await cli(['--help']);
    expect(out.code).toBe(0);
    for (const flag of [
      '--url',
      '--proxy',
      '--token',
      '--model',
      '--max-steps',
      '--json',
      '--screenshot-dir',
      '--profile',
      '--headed',
      '--chromium',
      '--yes',
      'stdin is a terminal',
      'denied',
    ]) {
      expect(out.stdout).toContain(flag);
    }
  });
});
