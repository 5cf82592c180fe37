/**
 * The runner holds what an action makes the page send at the network layer, where no page
 * script can avoid it: `node dist/cli.js run …` as a user runs it (its own Chromium, the real
 * proxy, a scripted model) on a page whose innocuous "Refresh" makes a Web Worker, or the fetch
 * of a fresh same-origin frame, POST to /account/delete — requests the page's hooks never see.
 * A site of its own (a small server here) records what reaches it. Without a terminal the
 * runner's answer is no; --yes is yes.
 */
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, lastToolResults, latestMap, MODELS, refFor, useAgentStack, type ModelRequest } from './agent-harness';
import { jsonLines, runCli, proxyFlags, type Exit } from './runner-cli';

const FIXTURES = fileURLToPath(new URL('../fixtures/delivery/caused/', import.meta.url));
const TYPES: Record<string, string> = { html: 'text/html; charset=utf-8', js: 'text/javascript; charset=utf-8' };

const stack = useAgentStack();
/** Every request that reached /account/…: `METHOD /path`. */
let reached: string[] = [];
/** The list requests waiting for /account/ to be called. */
const listing: Array<() => void> = [];
let server: Server;
let site = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path.startsWith('/account/')) {
      reached.push(`${req.method} ${path}`);
      for (const answer of listing.splice(0)) answer();
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end('done');
    }
    // The list the click reloads: answered once /account/ was called, or after a while (it never
    // is when the runner stops that request), so the click's settle outlasts the worker's send.
    if (path === '/orders.json') {
      const answer = () => void res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
      if (reached.length) return answer();
      listing.push(answer);
      setTimeout(() => {
        const at = listing.indexOf(answer);
        if (at >= 0) listing.splice(at, 1)[0]!();
      }, 1500);
      return;
    }
    const name = /^\/([a-z-]+\.(html|js))$/.exec(path);
    if (!name) return void res.writeHead(404).end();
    readFile(FIXTURES + name[1]).then(
      (body) => res.writeHead(200, { 'content-type': TYPES[name[2]!]! }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  site = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  reached = [];
  listing.splice(0);
});

/** Clicks "Refresh" once, then reports what the page shows and what the click's result said. */
let results: string[] = [];
function refreshModel() {
  let clicked = false;
  results = [];
  return (req: ModelRequest) => {
    const map = latestMap(req);
    if (clicked) {
      results = lastToolResults(req);
      return call('done', { summary: `Page says: ${/Refreshed: [^.]*\.|3 orders\./.exec(map)?.[0] ?? '?'}` });
    }
    clicked = true;
    return call('click', { ref: refFor(map, 'button', 'Refresh') }, 'goal: refresh the list');
  };
}

const run = (via: string, ...flags: string[]): Promise<Exit> =>
  runCli(['run', '--json', ...flags, '--url', `${site}/orders.html?via=${via}`, ...proxyFlags(stack, MODELS.openai), 'Refresh the orders']);

const confirms = (out: Exit) => jsonLines(out).filter((l) => l.event === 'confirm');
const notes = (out: Exit) =>
  jsonLines(out)
    .filter((l) => l.event === 'note')
    .map((l) => String(l.text));

describe('pagehand run holds what an action makes the page send, at the network layer', () => {
  for (const via of ['worker', 'frame', 'page'] as const) {
    const from = { worker: "a Web Worker's fetch", frame: "a fresh frame's fetch", page: "the page's own fetch" }[via];
    it(`a POST to /account/delete from ${from}, caused by clicking "Refresh": asked; no means it never reaches the site`, { timeout: 180_000 }, async () => {
      stack.setPolicy(refreshModel());
      const out = await run(via);

      expect(out.code, out.stderr + out.stdout).toBe(0);
      // The runner asked, naming the click and what it caused.
      expect(confirms(out)).toEqual([
        expect.objectContaining({
          kind: 'deletion',
          reason: expect.stringMatching(/^Clicking button "Refresh" made the page send a POST request to \/account\/delete, which may delete something\./),
        }),
      ]);
      expect(notes(out)).toContainEqual(expect.stringMatching(/^denied: click \[\d+\] button "Refresh" — no terminal to ask/));
      expect(notes(out)).toContain(`stopped the page's POST request to ${site}/account/delete: not allowed`);
      // Never sent; the page saw it fail, and the model read that it was stopped.
      expect(reached).toEqual([]);
      expect(jsonLines(out).pop()).toMatchObject({ event: 'result', ok: true, summary: 'Page says: Refreshed: failed.' });
      expect(results.join('\n')).toMatch(/The page's request was stopped\./);
    });

    it(`the same POST from ${from} with --yes: allowed, and it reaches the site`, { timeout: 180_000 }, async () => {
      stack.setPolicy(refreshModel());
      const out = await run(via, '--yes');

      expect(out.code, out.stderr + out.stdout).toBe(0);
      expect(confirms(out)).toHaveLength(1);
      expect(notes(out)).toContainEqual(expect.stringMatching(/^allowed \(--yes\): click \[\d+\] button "Refresh"/));
      expect(reached).toEqual(['POST /account/delete']);
      expect(jsonLines(out).pop()).toMatchObject({ event: 'result', ok: true, summary: 'Page says: Refreshed: 200.' });
    });
  }

  it('a window the click makes the page open on /account/delete: asked; no means it never loads, --yes lets it', { timeout: 180_000 }, async () => {
    stack.setPolicy(refreshModel());
    const denied = await run('window');
    expect(denied.code, denied.stderr + denied.stdout).toBe(0);
    expect(confirms(denied)).toEqual([
      expect.objectContaining({
        kind: 'deletion',
        reason: expect.stringMatching(/^Clicking button "Refresh" made the page open a window on \/account\/delete, which may delete something\./),
      }),
    ]);
    expect(notes(denied)).toContain(`stopped the page's new window on ${site}/account/delete: not allowed`);
    expect(reached).toEqual([]);
    expect(results.join('\n')).toMatch(/The page's window was stopped\./);

    stack.setPolicy(refreshModel());
    const allowed = await run('window', '--yes');
    expect(allowed.code, allowed.stderr + allowed.stdout).toBe(0);
    expect(confirms(allowed)).toHaveLength(1);
    expect(reached).toEqual(['GET /account/delete']);
  });

  it('a shared worker, which outlives the tab and no route of it sees, cannot start: its POST never happens', { timeout: 180_000 }, async () => {
    stack.setPolicy(refreshModel());
    const out = await run('shared', '--yes');

    expect(out.code, out.stderr + out.stdout).toBe(0);
    expect(reached).toEqual([]);
    expect(jsonLines(out).pop()).toMatchObject({ event: 'result', ok: true, summary: 'Page says: Refreshed: no shared workers.' });
  });

  it('a GET from the worker is not held: no question, and it reaches the site', { timeout: 180_000 }, async () => {
    stack.setPolicy(refreshModel());
    const out = await run('worker-get');

    expect(out.code, out.stderr + out.stdout).toBe(0);
    expect(confirms(out)).toEqual([]);
    expect(reached).toEqual(['GET /account/delete']);
    expect(jsonLines(out).pop()).toMatchObject({ event: 'result', ok: true, summary: 'Page says: Refreshed: 200.' });
  });
});
