/**
 * The runner's --file end to end (`node dist/cli.js run --file …`, its own Chromium, the real
 * proxy, a scripted model): the model sees the file's name, type and size, never its bytes; it
 * uploads it on the next page of the site the run started on (the file goes along with the
 * run); a name it was not given is refused.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, hasText, lastToolResults, latestMap, MODELS, refFor, startAgentStack, type AgentStack } from './agent-harness';
import { origin } from './harness';
import { runCli, proxyFlags, type Exit } from './runner-cli';

const cli = (args: string[]): Promise<Exit> => runCli(args, { boundMs: 100_000 });

let stack: AgentStack;
let dir: string;
beforeAll(async () => {
  stack = await startAgentStack();
  dir = await mkdtemp(join(tmpdir(), 'pagehand-runner-files-'));
});
afterAll(async () => {
  await stack?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('runner --file', () => {
  it('the model uploads the given file on the next page of the site; its bytes never reach a request', async () => {
    const cv = join(dir, 'cv.pdf');
    await writeFile(cv, '%PDF-1.4 RUNNER-BYTES-NEVER-SENT');
    const results: string[] = [];
    let tried = false;
    stack.setPolicy((req) => {
      const map = latestMap(req);
      results.push(lastToolResults(req).join('\n'));
      if (hasText(map, 'Careers')) return call('click', { ref: refFor(map, 'link', 'Apply for this job') });
      if (!tried) {
        tried = true;
        return call('upload', { ref: refFor(map, 'button', /Résumé/), files: ['passport.pdf'] });
      }
      if (!/Put cv\.pdf/.test(results.join('\n'))) return call('upload', { ref: refFor(map, 'button', /Résumé/), files: ['cv.pdf'] });
      return call('done', { summary: 'Applied.' });
    });
    const before = stack.requests().length;
    const out = await cli([
      'run',
      '--json',
      '--url',
      `${origin()}/fixtures/actions/upload-start.html`,
      ...proxyFlags(stack, MODELS.openai),
      '--file',
      cv,
      'Apply with my CV',
    ]);
    expect(out.code, out.stderr + out.stdout.slice(-2000)).toBe(0);
    const requests = stack.requests().slice(before);
    const first = requests[0]!.messages
      .filter((m) => m.role === 'user')
      .map((m) => m.text)
      .join('\n');
    expect(first).toMatch(/# Attached files \(upload puts them into the page by name\)\n⟪page content [0-9a-f]{12}⟫\ncv\.pdf \(32 B, application\/pdf\)/);
    expect(results.join('\n')).toContain('"passport.pdf" is not an attached file. Attached: cv.pdf.');
    expect(results.join('\n')).toMatch(/Put cv\.pdf \(32 B, application\/pdf\) into /);
    for (const r of requests) expect(JSON.stringify(r)).not.toContain('RUNNER-BYTES-NEVER-SENT');
  }, 120_000);
});
