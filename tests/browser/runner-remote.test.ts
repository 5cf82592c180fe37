/**
 * `--browser-endpoint`: the runner in a browser it did not launch — a Playwright browser server
 * and a Chromium with a DevTools port, both on 127.0.0.1 (tests/browser/remote-browsers.ts) —
 * with the guarantees it has in its own: the hostile page reads nothing of the run (the pages
 * and the collector of runner-hostile.test.ts), a download from another site is saved on the
 * runner's side and handed to the run (runner-downloads' pages), a --file is uploaded (sent
 * to the remote side; runner-files' pages), the page's dialogs are answered. The remote browser
 * is still running afterwards. `pagehand test --workers 2` on one server; and the errors for an
 * endpoint that is not there or speaks another protocol.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumArgs } from '../../cli/run';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, hasText, lastToolResults, latestMap, mapUrl, MODELS, refFor, useAgentStack } from './agent-harness';
import { crossOrigin, origin } from './harness';
import { startBrowserServer, startCdpChromium, type RemoteBrowser } from './remote-browsers';
import { useReportCollector } from './report-collector';
import { jsonLines, proxyFlags, runCli, type Exit } from './runner-cli';

const stack = useAgentStack();
const collector = useReportCollector();
const cli = (args: string[], cwd?: string): Promise<Exit> => runCli(args, { cwd, boundMs: 150_000 });

const REPORT = 'Q3 total: 4,211 units\nCode word: MARIGOLD\n';
let files: Server;
let filesOrigin: string;
let dir: string;
const remotes: Record<string, RemoteBrowser> = {};
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pagehand-remote-'));
  // The other site of runner-downloads.test.ts: a text file served as an attachment, no CORS.
  files = createServer((req, res) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/files/q3.txt') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-disposition': 'attachment; filename="q3.txt"' }).end(REPORT);
  });
  await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
  filesOrigin = `http://127.0.0.1:${(files.address() as { port: number }).port}`;
  remotes['a Playwright browser server'] = await startBrowserServer();
  remotes['a Chromium over CDP'] = await startCdpChromium();
}, 60_000);
afterAll(async () => {
  for (const r of Object.values(remotes)) await r.close().catch(() => {});
  await new Promise((r) => files?.close(r));
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.each(['a Playwright browser server', 'a Chromium over CDP'])('pagehand run --browser-endpoint: %s', (kind) => {
  const remote = () => ['--browser-endpoint', remotes[kind]!.endpoint];

  it('a hostile page reads nothing of the run, across origins; the remote browser keeps running', { timeout: 180_000 }, async () => {
    const task = 'Go to checkout for order KIWI-REMOTE-5530';
    stack.setPolicy((req) => {
      const map = latestMap(req);
      if (/checkout\.html/.test(mapUrl(map))) return call('done', { summary: 'REAL SUMMARY: at checkout.' });
      return call('click', { ref: refFor(map, 'link', 'Continue to checkout') }, 'goal: go to checkout');
    });
    const seen = collector.reports().length;
    const url = `${origin()}/fixtures/delivery/hostile/start.html?${new URLSearchParams({ report: collector.url, next: crossOrigin() })}`;
    const out = await cli(['run', '--json', '--url', url, ...proxyFlags(stack, MODELS.openai), ...remote(), '--yes', task]);
    expect(out.code, out.stderr + out.stdout).toBe(0);
    const last = jsonLines(out).pop();
    expect(last).toMatchObject({ event: 'result', ok: true, summary: 'REAL SUMMARY: at checkout.' });
    expect(new URL(last.url).origin).toBe(crossOrigin());

    const reports = collector.reports().slice(seen);
    const of = (k: string, page?: string) => reports.filter((r) => r.kind === k && (page === undefined || r.page === page));
    for (const page of ['start.html', 'checkout.html']) expect(of('globals', page).length, page).toBeGreaterThan(1);
    for (const r of of('globals')) {
      expect(
        Object.values(r.data.types).every((t) => t === 'undefined'),
        r.raw,
      ).toBe(true);
      expect(r.data.names, r.raw).toEqual([]);
    }
    for (const r of of('state')) for (const got of r.data) expect(got.status === 200 && got.text !== '', r.raw).toBe(false);
    for (const r of [...of('wrapped-fetch'), ...of('wrapped-xhr')]) expect(r.data.url, r.raw).not.toContain(stack.proxyUrl);
    const everything = reports.map((r) => r.raw).join('\n');
    expect(everything).not.toContain(stack.token);
    expect(everything).not.toContain('KIWI-REMOTE-5530');
    expect(await remotes[kind]!.alive()).toBe(true);
  });

  it('a download from another site is saved on the runner’s side and its text handed to the run', { timeout: 180_000 }, async () => {
    const cwd = await mkdtemp(join(dir, 'download-'));
    const results: string[] = [];
    let clicked = false;
    stack.setPolicy((req) => {
      const map = latestMap(req);
      results.push(lastToolResults(req).join('\n'));
      if (!clicked) {
        clicked = true;
        return call('click', { ref: refFor(map, 'link', 'Download the Q3 report') }, 'goal: download the file');
      }
      return call('done', { summary: 'Done.' });
    });
    const url = `${origin()}/fixtures/runner-downloads/reports.html?files=${encodeURIComponent(filesOrigin)}`;
    const out = await cli(['run', '--yes', '--url', url, ...proxyFlags(stack, MODELS.openai), ...remote(), 'Download the Q3 report'], cwd);
    expect(out.code, out.stderr + out.stdout).toBe(0);
    expect(await readFile(join(cwd, 'q3.txt'), 'utf8')).toBe(REPORT);
    expect(results[1]).toMatch(/It downloaded q3\.txt \(\d+ B, text\/plain\)\. Its text:\nQ3 total: 4,211 units\nCode word: MARIGOLD/);
  });

  it('a --file is uploaded into the remote page; its bytes never reach a model request', { timeout: 180_000 }, async () => {
    const cv = join(dir, 'cv.pdf');
    await writeFile(cv, '%PDF-1.4 REMOTE-BYTES-NEVER-SENT');
    const results: string[] = [];
    stack.setPolicy((req) => {
      const map = latestMap(req);
      results.push(lastToolResults(req).join('\n'));
      if (hasText(map, 'Careers')) return call('click', { ref: refFor(map, 'link', 'Apply for this job') });
      if (!/Put cv\.pdf/.test(results.join('\n'))) return call('upload', { ref: refFor(map, 'button', /Résumé/), files: ['cv.pdf'] });
      return call('done', { summary: 'Applied.' });
    });
    const before = stack.requests().length;
    const url = `${origin()}/fixtures/actions/upload-start.html`;
    const out = await cli(['run', '--json', '--url', url, ...proxyFlags(stack, MODELS.openai), ...remote(), '--file', cv, 'Apply with my CV']);
    expect(out.code, out.stderr + out.stdout.slice(-2000)).toBe(0);
    expect(results.join('\n')).toMatch(/Put cv\.pdf \(32 B, application\/pdf\) into /);
    for (const r of stack.requests().slice(before)) expect(JSON.stringify(r)).not.toContain('REMOTE-BYTES-NEVER-SENT');
  });

  it("the page's dialogs are answered as at home: a confirm() gets Cancel without a terminal", { timeout: 180_000 }, async () => {
    stack.setPolicy((req) => {
      const map = latestMap(req);
      const status = /The draft (?:has 3 lines|is empty|was kept)\./.exec(map)?.[0];
      if (status !== 'The draft has 3 lines.') return call('done', { summary: status ?? 'no status' });
      return call('click', { ref: refFor(map, 'button', 'Clear draft') }, 'goal: clear the draft');
    });
    const out = await cli([
      'run',
      '--json',
      '--url',
      `${origin()}/fixtures/delivery/dialogs.html`,
      ...proxyFlags(stack, MODELS.openai),
      ...remote(),
      'Clear the draft',
    ]);
    expect(out.code, out.stderr + out.stdout).toBe(0);
    expect(jsonLines(out).pop().summary).toBe('The draft was kept.');
    expect(
      jsonLines(out)
        .filter((l) => l.event === 'note' && l.dialog)
        .map((l) => [l.dialog, l.answer]),
    ).toEqual([
      ['alert', 'ok'],
      ['confirm', 'cancel'],
    ]);
  });
});

describe('pagehand test --browser-endpoint', () => {
  it('--workers 2 runs the tasks in contexts of one Playwright browser server, which keeps running', { timeout: 300_000 }, async () => {
    const server = await startBrowserServer();
    try {
      const cwd = await mkdtemp(join(dir, 'kit-'));
      const tasks = ['one', 'two', 'three'].map((n) => ({
        name: `draft ${n}`,
        url: `${origin()}/fixtures/delivery/dialogs.html`,
        task: 'Say what the draft holds',
        checks: [{ text: 'The draft has 3 lines.' }],
      }));
      await writeFile(join(cwd, 'tasks.json'), JSON.stringify({ tasks }));
      stack.setPolicy(() => call('done', { summary: 'Looked.' }));
      const out = await cli(
        ['test', 'tasks.json', '--mode', 'model', '--workers', '2', '--browser-endpoint', server.endpoint, ...proxyFlags(stack, MODELS.openai)],
        cwd,
      );
      expect(out.code, out.stdout + out.stderr).toBe(0);
      expect(out.stdout).toContain('3 tasks, mode model, 2 workers');
      expect(out.stdout).toContain('3 passed, 0 failed');
      expect(await server.alive()).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('--browser-endpoint errors', () => {
  it('nothing listening, and a URL that speaks the other protocol, are told in a sentence', { timeout: 120_000 }, async () => {
    const closed = await cli([
      'run',
      '--url',
      `${origin()}/fixtures/delivery/dialogs.html`,
      '--browser-endpoint',
      'ws://127.0.0.1:9/pw',
      ...proxyFlags(stack, MODELS.openai),
      'x',
    ]);
    expect(closed.code).toBe(1);
    expect(closed.stderr).toMatch(/could not reach the browser at ws:\/\/127\.0\.0\.1:9\/pw \(.*ECONNREFUSED.*\)\. Is it running/);
    // The Playwright server's ws:// address given as http://: the DevTools protocol is asked of it.
    const wrong = remotes['a Playwright browser server']!.endpoint.replace(/^ws:/, 'http:');
    const other = await cli([
      'run',
      '--url',
      `${origin()}/fixtures/delivery/dialogs.html`,
      '--browser-endpoint',
      wrong,
      ...proxyFlags(stack, MODELS.openai),
      'x',
    ]);
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(
      /does not answer as Chromium's DevTools protocol .* a Playwright browser server is reached with the ws:\/\/ address it prints/,
    );
    // A Chromium that allows shared workers is refused (the run's network hold would not see them).
    const lax = await startCdpChromium(chromiumArgs().filter((a) => !a.includes('SharedWorker')));
    try {
      const out = await cli([
        'run',
        '--url',
        `${origin()}/fixtures/delivery/dialogs.html`,
        '--browser-endpoint',
        lax.endpoint,
        ...proxyFlags(stack, MODELS.openai),
        'x',
      ]);
      expect(out.code).toBe(1);
      expect(out.stderr).toMatch(/allows shared workers.*--disable-blink-features=SharedWorker/);
      expect(await lax.alive()).toBe(true);
    } finally {
      await lax.close();
    }
  });
});
