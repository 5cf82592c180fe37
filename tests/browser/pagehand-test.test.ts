/**
 * The test kit end to end, as a site owner's CI runs it: `node dist/cli.js run --record` writes
 * recordings (the fake model through the real proxy), `run --replay` runs one again, and
 * `pagehand test tasks.json` replays a tasks file against the fixture site with no model and no
 * proxy at all (its --proxy points at a closed port): exit status, a line per task, the summary,
 * JUnit XML, screenshots of failed tasks, --shard, --workers; `--mode repair` and `--mode
 * model` go through the proxy.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Recording } from '../../client/agent/public-types';
import { MODELS, startAgentStack, type AgentStack } from './agent-harness';
import { origin } from './harness';
import { CHANGES, task } from './replay-kit';
import { runCli, type Exit } from './runner-cli';

const cli = (args: string[], cwd: string): Promise<Exit> => runCli(args, { cwd });

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

let stack: AgentStack;
let dir: string;
let noProxy: string;
const fixture = (path: string) => `${origin()}/fixtures/agent/${path}`;

beforeAll(async () => {
  stack = await startAgentStack();
  dir = await mkdtemp(join(tmpdir(), 'pagehand-test-kit-'));
  noProxy = `http://127.0.0.1:${await closedPort()}`;
  // Two recordings, made by the runner with the scripted model through the real proxy.
  for (const [id, file] of [
    ['shop', 'shop.json'],
    ['lazy', 'lazy.json'],
  ] as const) {
    const t = task(id);
    stack.setPolicy(t.model());
    const r = await cli(
      ['run', '--url', fixture(t.path), '--record', file, '--yes', '--proxy', stack.proxyUrl, '--token', stack.token, '--model', MODELS.openai, t.task],
      dir,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`recording written to ${join(dir, file)}`);
  }
}, 170_000);

afterAll(async () => {
  await stack?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const read = async (file: string): Promise<Recording> => JSON.parse(await readFile(join(dir, file), 'utf8')) as Recording;

describe('pagehand run --record / --replay', () => {
  it('--record writes the run as a recording; --replay runs it again with no model call', async () => {
    const shop = await read('shop.json');
    expect(shop).toMatchObject({ pagehand: 'recording', v: 1, task: 'Buy the espresso grinder' });
    expect(shop.steps.map((s) => s.target?.name)).toEqual(['Search products', 'Add Espresso grinder to cart', 'Checkout', 'Place order']);
    const before = stack.requests().length;
    const r = await cli(['run', '--replay', 'shop.json', '--no-repair', '--yes', '--json', '--proxy', stack.proxyUrl, '--token', stack.token], dir);
    expect(r.code, r.stderr).toBe(0);
    const result = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((l) => l.event === 'result');
    expect(result).toMatchObject({ ok: true, replay: { modelCalls: 0, repaired: 0, replayed: 4 } });
    expect(stack.requests().length).toBe(before);
  });

  it('--value and --no-repair need --replay; a file that is not a recording is refused', async () => {
    await writeFile(join(dir, 'not-a-recording.json'), '{"hello": 1}');
    const bad = await cli(['run', '--replay', 'not-a-recording.json'], dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--replay not-a-recording.json: not a pagehand recording/);
    const lone = await cli(['run', '--url', fixture('shop/index.html'), '--no-repair', 'x'], dir);
    expect(lone.stderr).toMatch(/--no-repair goes with --replay FILE/);
  });
});

describe('pagehand test', () => {
  const tasksFile = async (name: string, tasks: unknown[]): Promise<string> => {
    await writeFile(join(dir, name), JSON.stringify({ baseUrl: `${origin()}/fixtures/agent/`, tasks }, null, 2));
    return name;
  };
  const shopTask = {
    name: 'buy the grinder',
    url: 'shop/index.html',
    recording: 'shop.json',
    yes: true,
    checks: [{ text: 'placed' }, { url: 'checkout.html' }, { js: "JSON.parse(localStorage.getItem('shopOrders')).length === 1" }],
  };
  const lazyTask = {
    name: 'open the quantum widget',
    url: 'lazy/list.html',
    recording: 'lazy.json',
    checks: [{ text: 'You opened: Quantum widget' }, { element: { role: 'button', name: 'Open' }, state: { visible: true } }],
  };

  it('replays every task with no model and no proxy; failing checks and a broken step fail it: exit 1, JUnit, screenshots', async () => {
    const broken = await read('shop.json');
    broken.steps[3]!.target!.name = 'Complete purchase';
    await writeFile(join(dir, 'broken.json'), JSON.stringify(broken));
    const file = await tasksFile('mixed.json', [
      shopTask,
      lazyTask,
      { ...lazyTask, name: 'a check that does not hold', checks: [{ text: 'You opened: Brass hinge' }, { element: { role: 'checkbox', name: 'Nope' } }] },
      { ...shopTask, name: 'a step the UI change broke', recording: 'broken.json' },
    ]);
    const before = stack.requests().length;
    const r = await cli(['test', file, '--junit', 'out.xml', '--workers', '2', '--output', 'shots', '--proxy', noProxy], dir);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(1);
    expect(stack.requests().length).toBe(before);
    // A line per task, then the summary table and the count.
    expect(r.stdout).toMatch(/✓ \[\d\/4\] buy the grinder {2}\(replay, 4 steps, 0 model calls/);
    expect(r.stdout).toMatch(/✓ \[\d\/4\] open the quantum widget/);
    expect(r.stdout).toMatch(
      /✗ \[\d\/4\] a check that does not hold[^\n]*\n\s+checks failed:\n\s+- text "You opened: Brass hinge" is not on the page\n\s+- no checkbox "Nope" on the page/,
    );
    expect(r.stdout).toMatch(
      /✗ \[\d\/4\] a step the UI change broke[^\n]*\n\s+the replay did not succeed \(needs_repair\): Step 4 of the recording \(click button "Complete purchase"\) needs repair/,
    );
    expect(r.stdout).toMatch(/task\s+result\s+steps\s+model calls\s+repaired\s+time/);
    expect(r.stdout).toContain('2 passed, 2 failed');
    const xml = await readFile(join(dir, 'out.xml'), 'utf8');
    expect(xml).toMatch(/<testsuite name="mixed.json" tests="4" failures="2" skipped="0"/);
    expect(xml.match(/<testcase /g)).toHaveLength(4);
    expect(xml).toMatch(/<testcase name="a check that does not hold"[^>]*>\s*<failure message="checks failed:">/);
    expect(xml).toMatch(/<testcase name="buy the grinder"[^>]*\/>/);
    expect(existsSync(join(dir, 'shots', 'a-check-that-does-not-hold.png'))).toBe(true);
    expect(existsSync(join(dir, 'shots', 'a-step-the-ui-change-broke.png'))).toBe(true);
    expect(existsSync(join(dir, 'shots', 'buy-the-grinder.png'))).toBe(false);
  });

  it('all passing: exit 0; --shard splits the file as Playwright Test does', async () => {
    const file = await tasksFile('pass.json', [shopTask, lazyTask, { ...lazyTask, name: 'open it again' }]);
    const all = await cli(['test', file, '--workers', '1', '--proxy', noProxy], dir);
    expect(all.code, all.stdout + all.stderr).toBe(0);
    expect(all.stdout).toContain('3 passed, 0 failed');
    const one = await cli(['test', file, '--shard', '1/2', '--proxy', noProxy], dir);
    const two = await cli(['test', file, '--shard', '2/2', '--proxy', noProxy], dir);
    expect(one.code).toBe(0);
    expect(two.code).toBe(0);
    expect(one.stdout).toMatch(/shard 1\/2: 1 of 3/);
    expect(two.stdout).toMatch(/shard 2\/2: 2 of 3/);
    expect(one.stdout).toContain('buy the grinder');
    expect(two.stdout).not.toContain('buy the grinder');
    expect(two.stdout).toContain('open it again');
  }, 90_000); // three CLI runs, each launching its own browser

  it('--mode repair: the broken step goes to the model through the proxy, and the task passes', async () => {
    const file = await tasksFile('repair.json', [{ ...shopTask, name: 'renamed order button', recording: 'broken.json' }]);
    // The recording names "Complete purchase"; the site says "Place order": the model clicks that.
    stack.setPolicy(task('shop').model());
    const before = stack.requests().length;
    const r = await cli(['test', file, '--mode', 'repair', '--proxy', stack.proxyUrl, '--token', stack.token, '--model', MODELS.openai], dir);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/✓ \[1\/1\] renamed order button {2}\(replay\+repair, \d+ steps, 1 model call, 1 repaired/);
    expect(stack.requests().length).toBe(before + 1);
    expect(CHANGES.length).toBeGreaterThan(0);
  });

  it('--mode model runs the task itself; bad input is told before anything starts', async () => {
    const file = await tasksFile('model.json', [
      { name: 'open it with the model', url: 'lazy/list.html', task: 'Open the Quantum widget', checks: [{ text: 'You opened: Quantum widget' }] },
    ]);
    stack.setPolicy(task('lazy').model());
    const r = await cli(['test', file, '--mode', 'model', '--proxy', stack.proxyUrl, '--token', stack.token, '--model', MODELS.openai], dir);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\(model, \d+ steps, \d+ model calls/);
    const replayOnly = await cli(['test', file, '--proxy', noProxy], dir);
    expect(replayOnly.code).toBe(1);
    expect(replayOnly.stderr).toMatch(/task "open it with the model" has no recording to replay \(give it one, or use --mode model\)/);
    const missing = await cli(['test', '--shard', '3/2', file], dir);
    expect(missing.stderr).toMatch(/--shard must be I\/N with 1 ≤ I ≤ N/);
  });
});
