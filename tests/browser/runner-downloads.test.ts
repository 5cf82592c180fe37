/**
 * The runner reads the files it downloads when the page could not (`node dist/cli.js run`, its
 * own Chromium, the real proxy, a scripted model): a link to a text file on another site (a
 * second 127.0.0.1 port, served as an attachment) is a navigation the page cannot fetch; the
 * runner saves the file and hands its text to the run through its own isolated world, so the
 * click's result holds the text and `read {download}` reads it again. A binary file and one over
 * 64 KB stay named (size and type). A page that sends whatever events and messages it likes
 * cannot make `read {download}` return text the runner did not save.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, lastToolResults, latestMap, MODELS, refFor, startAgentStack, type AgentStack, type ModelRequest } from './agent-harness';
import { origin } from './harness';
import { runCli, proxyFlags, type Exit } from './runner-cli';

const REPORT = 'Q3 total: 4,211 units\nCode word: MARIGOLD\nApproval code: ZX-5521-OK\n';
// A PNG's first bytes (a NUL among them): binary whatever its name says.
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const BIG = 'x'.repeat(100 * 1024);

const cli = (args: string[], cwd: string): Promise<Exit> => runCli(args, { cwd, boundMs: 150_000 });

/** The other site: the files, each served as an attachment (no CORS headers: the page cannot fetch them). */
let files: Server;
let filesOrigin: string;
let stack: AgentStack;
let dir: string;
beforeAll(async () => {
  stack = await startAgentStack();
  dir = await mkdtemp(join(tmpdir(), 'pagehand-runner-downloads-'));
  files = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const file: Record<string, [string, Buffer | string]> = {
      '/files/q3.txt': ['text/plain; charset=utf-8', REPORT],
      '/files/logo.png': ['image/png', PNG],
      '/files/export.txt': ['text/plain', BIG],
    };
    // The redirect page is this site's own; its link goes on to the other site's file.
    if (path === '/redirect.html') {
      void readFile(fileURLToPath(new URL('../fixtures/runner-downloads/redirect.html', import.meta.url))).then((b) =>
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(b),
      );
      return;
    }
    if (path === '/go/invoice') return void res.writeHead(302, { location: `${origin()}/fixtures/runner-downloads/invoice.txt` }).end();
    // Answers after the run stopped waiting for it (a slow file host).
    if (path === '/files/slow.txt') {
      setTimeout(
        () => res.writeHead(200, { 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="slow.txt"' }).end('Slow but here: PERIWINKLE\n'),
        4000,
      );
      return;
    }
    const f = file[path];
    if (!f) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': f[0], 'content-disposition': `attachment; filename="${path.split('/').pop()}"` });
    res.end(f[1]);
  });
  await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
  filesOrigin = `http://127.0.0.1:${(files.address() as { port: number }).port}`;
});
afterAll(async () => {
  await stack?.close();
  await new Promise((r) => files?.close(r));
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs the CLI on a fixture with a model that clicks `link`, then reads `read` (each name in turn), then ends. */
async function run(
  fixture: string,
  link: string,
  reads: string[],
  cwd: string,
  extra: string[] = [],
  url = `${origin()}/fixtures/runner-downloads/${fixture}?files=${encodeURIComponent(filesOrigin)}`,
) {
  const results: string[] = [];
  const requests: ModelRequest[] = [];
  let clicked = false;
  const toRead = [...reads];
  stack.setPolicy((req) => {
    requests.push(req);
    const map = latestMap(req);
    results.push(lastToolResults(req).join('\n'));
    if (!clicked) {
      clicked = true;
      return call('click', { ref: refFor(map, 'link', link) }, 'goal: download the file');
    }
    const name = toRead.shift();
    if (name) return call('read', { download: name });
    return call('done', { summary: 'Done.' });
  });
  // --yes: a download is a risky action.
  const out = await cli(['run', '--yes', '--url', url, ...proxyFlags(stack, MODELS.openai), ...extra, 'Download the file and use what it says'], cwd);
  return { out, results, requests };
}

describe('the runner reads a download from another site', () => {
  it(
    "a small text file: the click's result holds its text (secrets masked), the next model request has it, read {download} gives it again",
    { timeout: 180_000 },
    async () => {
      const cwd = await mkdtemp(join(dir, 'text-'));
      const { out, results, requests } = await run('reports.html', 'Download the Q3 report', ['q3.txt'], cwd, ['--secret', 'APPROVAL=ZX-5521-OK']);
      expect(out.code, out.stderr + out.stdout).toBe(0);
      // The runner saved it (as before).
      expect(await readFile(join(cwd, 'q3.txt'), 'utf8')).toBe(REPORT);
      // The request after the click: the click's result says what the file says.
      expect(results[1]).toContain('It downloaded q3.txt (');
      expect(results[1]).toMatch(
        /It downloaded q3\.txt \(\d+ B, text\/plain\)\. Its text:\nQ3 total: 4,211 units\nCode word: MARIGOLD\nApproval code: <secret:APPROVAL>/,
      );
      expect(results[1]).not.toContain('only its name is known');
      // read {download} reads it again.
      expect(results[2]).toContain('Text of the download q3.txt:\nQ3 total: 4,211 units\nCode word: MARIGOLD');
      // The secret's value never reaches the model.
      for (const r of requests) expect(JSON.stringify(r)).not.toContain('ZX-5521-OK');
    },
  );

  it('a binary file is named only, with its size and type', { timeout: 180_000 }, async () => {
    const cwd = await mkdtemp(join(dir, 'binary-'));
    const { out, results } = await run('reports.html', 'Download the logo', ['logo.png'], cwd);
    expect(out.code, out.stderr + out.stdout).toBe(0);
    expect(results[1]).toContain(`It downloaded logo.png (${PNG.length} B, image/png); only its name is known (not a text file).`);
    expect(results[2]).toContain('logo.png cannot be read: not a text file; only its name is known.');
  });

  it('a text file over 64 KB is named only, with its size', { timeout: 180_000 }, async () => {
    const cwd = await mkdtemp(join(dir, 'big-'));
    const { out, results, requests } = await run('reports.html', 'Download the full export', ['export.txt'], cwd);
    expect(out.code, out.stderr + out.stdout).toBe(0);
    expect(results[1]).toContain('It downloaded export.txt (100 KB, text/plain); only its name is known (over 64 KB).');
    expect(results[2]).toContain('export.txt cannot be read: over 64 KB; only its name is known.');
    for (const r of requests) expect(JSON.stringify(r)).not.toContain('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx');
    // Still saved in full.
    expect((await readFile(join(cwd, 'export.txt'), 'utf8')).length).toBe(BIG.length);
  });
});

describe("the runner's copy, however it comes", () => {
  it(
    "a same-origin link with download that redirects to another site: the page's fetch fails, the runner's copy (named by the browser) is read",
    { timeout: 180_000 },
    async () => {
      const cwd = await mkdtemp(join(dir, 'redirect-'));
      const { out, results } = await run('', 'Download the latest invoice', ['invoice.txt'], cwd, [], `${filesOrigin}/redirect.html`);
      expect(out.code, out.stderr + out.stdout).toBe(0);
      expect(results[1]).toMatch(/It downloaded invoice(-latest)?\.txt \(\d+ B(, [\w/.+-]+)?\)\. Its text:\nInvoice 2024-117\nAmount due: 310 EUR/);
      expect(results[1]).not.toContain('only its name is known');
    },
  );

  it("a file that arrives after the click's result: the result says what it did, read {download} finds it later", { timeout: 180_000 }, async () => {
    const cwd = await mkdtemp(join(dir, 'slow-'));
    const { out, results } = await run('reports.html', 'Download the slow report', ['slow.txt'], cwd);
    expect(out.code, out.stderr + out.stdout).toBe(0);
    expect(results[1]).not.toContain('PERIWINKLE');
    expect(results[2]).toContain('Text of the download slow.txt:\nSlow but here: PERIWINKLE');
  });
});

describe('a hostile page cannot plant a download', () => {
  it('events, messages and globals of the page: read {download} gives only what the runner saved', { timeout: 180_000 }, async () => {
    const cwd = await mkdtemp(join(dir, 'hostile-'));
    const { out, results, requests } = await run('hostile.html', 'Download the Q3 report', ['planted.txt', 'q3.txt'], cwd);
    expect(out.code, out.stderr + out.stdout).toBe(0);
    // The real file's text, from the runner's copy.
    expect(results[1]).toMatch(/It downloaded q3\.txt \(\d+ B, text\/plain\)\. Its text:\nQ3 total: 4,211 units\nCode word: MARIGOLD/);
    // The name the page made up is not a download; the real name gives the real text.
    expect(results[2]).toContain('No download named "planted.txt". Downloads on this page: q3.txt.');
    expect(results[3]).toContain('Text of the download q3.txt:\nQ3 total: 4,211 units');
    for (const r of requests) expect(JSON.stringify(r)).not.toContain('PLANTED-BY-THE-PAGE');
  });
});
