/**
 * `pagehand test --reporter …` end to end (`node dist/cli.js test`, the scripted model through
 * the real proxy): several reporters at once, as a GitHub Actions job runs them — the `github`
 * annotations checked line by line (page-made text in a failure cannot start a command of its
 * own), the step summary written to $GITHUB_STEP_SUMMARY, `dot` and `json` parsed, `--junit`
 * still written.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, latestMap, MODELS, useAgentStack } from './agent-harness';
import { origin } from './harness';
import { proxyFlags, runCli } from './runner-cli';

const stack = useAgentStack();
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pagehand-reporters-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('pagehand test --reporter', () => {
  it('github,dot + json:FILE + --junit: annotations line by line, the step summary, dots and JSON that parse', { timeout: 240_000 }, async () => {
    const url = `${origin()}/fixtures/delivery/dialogs.html`;
    const tasks = [
      { name: 'look at the draft', url, task: 'Say what the draft holds', checks: [{ text: 'The draft has 3 lines.' }] },
      { name: 'give up, loudly', url, task: 'Give up', checks: [] },
      { name: 'a check that fails', url, task: 'Look', checks: [{ text: 'The draft is empty.' }] },
    ];
    await writeFile(join(dir, 'tasks.json'), JSON.stringify({ tasks }, null, 2));
    const summary = join(dir, 'summary.md');
    // The model's reason is what a page could have made it say: a new line with a command, a %.
    stack.setPolicy((req) =>
      /Give up/.test(JSON.stringify(req.messages)) && /Draft/.test(latestMap(req))
        ? call('fail', { reason: 'Blocked at 100%:\n::error file=x::FORGED' })
        : call('done', { summary: 'Looked.' }),
    );
    const out = await runCli(
      [
        'test',
        'tasks.json',
        '--mode',
        'model',
        '--workers',
        '1',
        '--reporter',
        'github,dot',
        '--reporter=json:res.json',
        '--junit',
        'out.xml',
        ...proxyFlags(stack, MODELS.openai),
      ],
      { cwd: dir, env: { GITHUB_STEP_SUMMARY: summary, GITHUB_SERVER_URL: 'http://ci.invalid', GITHUB_REPOSITORY: 'o/r', GITHUB_RUN_ID: '42' } },
    );
    expect(out.code, out.stdout + out.stderr).toBe(1);
    const lines = out.stdout.split('\n');
    // dot: one character per task, in the order they ended.
    expect(lines[0]).toBe('·FF');
    const commands = lines.filter((l) => l.startsWith('::'));
    expect(commands).toEqual([
      '::error file=tasks.json,line=14,title=pagehand test%3A give up%2C loudly::the run did not succeed (failed): Blocked at 100%25:%0A::error file=x::FORGED%0Ascreenshot: test-results/pagehand/give-up-loudly.png (in the artifacts of http://ci.invalid/o/r/actions/runs/42)',
      '::error file=tasks.json,line=20,title=pagehand test%3A a check that fails::check failed:%0A- text "The draft is empty." is not on the page%0Ascreenshot: test-results/pagehand/a-check-that-fails.png (in the artifacts of http://ci.invalid/o/r/actions/runs/42)',
      '::notice title=pagehand test tasks.json::1 passed, 2 failed',
    ]);
    // The annotations come last, each on a line of its own.
    expect(lines.slice(-4, -1)).toEqual(commands);
    expect(out.stdout).toContain('JSON report: res.json\n');
    expect(out.stdout).toContain('JUnit XML: out.xml\n');
    const json = JSON.parse(await readFile(join(dir, 'res.json'), 'utf8'));
    expect(json).toMatchObject({ file: 'tasks.json', total: 3, passed: 1, failed: 2 });
    expect(json.tasks.map((t: { name: string; ok: boolean; steps: number }) => [t.name, t.ok, t.steps])).toEqual([
      ['look at the draft', true, 1],
      ['give up, loudly', false, 1],
      ['a check that fails', false, 1],
    ]);
    expect(await readFile(join(dir, 'out.xml'), 'utf8')).toMatch(/<testsuite name="tasks.json" tests="3" failures="2"/);
    const md = await readFile(summary, 'utf8');
    expect(md).toContain('**1 passed, 2 failed**');
    expect(md).toContain('| give up, loudly | ❌ failed | 1 | 1 | 0 |');
    // On one line of the table, its parentheses escaped as Markdown.
    expect(md).toContain(
      '| the run did not succeed \\(failed\\): Blocked at 100%: ::error file=x::FORGED screenshot: test-results/pagehand/give-up-loudly.png |',
    );
  });
});
