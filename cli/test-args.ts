/**
 * The command line of `pagehand test TASKS.json` (the test kit: docs/testing-kit.md). Parsing
 * only, plus reading the tasks file and the recordings it names, so every mistake is told before
 * a browser starts. `--workers` and `--shard` mean what they mean in Playwright Test.
 */
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { browserEndpointOf } from './endpoint-url';
import { readFlags, type FlagSpec } from './flags';
import { reportersOf, type ReporterSpec } from './test-reporters';
import { readTasksFile, shardOf, type TestTask } from './test-tasks';

export type TestMode = 'replay' | 'repair' | 'model';
export const TEST_MODES: readonly TestMode[] = ['replay', 'repair', 'model'];

export interface TestArgs {
  /** The tasks file, absolute. */
  file: string;
  /** This shard's tasks, in the file's order. */
  tasks: TestTask[];
  /** How many the file holds (all shards). */
  total: number;
  mode: TestMode;
  /** `--junit FILE` (also among the reporters). */
  junit?: string;
  /** `--reporter` (and `--junit FILE`): how the results are told (cli/test-reporters.ts). */
  reporters: ReporterSpec[];
  workers: number;
  shard?: { index: number; total: number };
  proxy: string;
  token?: string;
  model?: string;
  chromium?: string;
  /** `--browser-endpoint URL`: every worker's context on this browser (cli/browser-endpoint.ts). */
  browserEndpoint?: string;
  headed: boolean;
  yes: boolean;
  /** `--report DIR`: an HTML report per task and an index.html (absolute). */
  report?: string;
  /** Where screenshots of failed tasks go. */
  outputDir: string;
}

export const DEFAULT_OUTPUT = 'test-results/pagehand';

export const TEST_HELP = `
pagehand test TASKS.json — the test kit: a site's copilot tasks, run headless, checked

Each task in TASKS.json has a start url, the task, optionally a recording (a file written by
pagehand run --record) and checks: {"text"}, {"noText"}, {"url"}, {"element": {"role",
"name"}, "state": {"visible", "checked", "disabled", "value"}} and {"js"} (an expression
evaluated in the page). docs/testing-kit.md has the format and a worked example.

  --mode M              replay (default): replay each task's recording with no model at all;
                        a step that needs repair fails the task (a UI change broke the
                        copilot). repair: replay, and a broken step goes to the model through
                        the proxy. model: run each task with the model, recordings unused.
  --reporter R          How the results are told, as in Playwright Test: list (default: a
                        line per task and a table), dot, junit, json, github (annotations and
                        a step summary in GitHub Actions). Several with commas or the flag
                        repeated; junit:FILE and json:FILE write a file (else stdout, or
                        $PAGEHAND_JUNIT_OUTPUT_NAME / $PAGEHAND_JSON_OUTPUT_NAME).
  --junit FILE          Also write the results as JUnit XML (as --reporter junit:FILE).
  --workers N           Run N tasks at once, each in its own browser (or N% of the CPU cores;
                        default half of them), as Playwright Test's --workers.
  --shard I/N           Run only the I-th of N shares of the tasks (from 1), as Playwright
                        Test's --shard: split a suite across CI machines.
  --base-url URL        Resolve tasks' relative urls against URL (over the file's "baseUrl").
  --report DIR          Write an HTML report per task (as pagehand run --report) and an
                        index.html linking them to DIR.
  --output DIR          Screenshots of failed tasks (default ${DEFAULT_OUTPUT}).
  --yes                 Allow every task's risky actions (a task's own "yes" says so for it).
  --browser-endpoint URL  Run in a browser that runs elsewhere (a Playwright browser server,
                        ws://…, or a Chromium's DevTools, http://host:9222): --workers N opens
                        N contexts there at a time, one per task; the browser stays running.
  --proxy, --token, --model, --chromium, --headed   As for pagehand run (the proxy and the
                        token are not needed in replay mode).

One progress line per task, a summary table, and exit status 1 when any task failed.
  npx pagehand test tasks.json --junit results.xml
  npx pagehand test tasks.json --mode repair --workers 4 --shard 1/2
`;

const TEST_FLAGS: FlagSpec = {
  lists: ['reporter'],
  values: ['mode', 'junit', 'workers', 'shard', 'base-url', 'output', 'report', 'proxy', 'token', 'model', 'chromium', 'browser-endpoint'],
  booleans: ['headed', 'yes'],
};

/** `--workers`: a count, or a share of the CPU cores (`50%`); default half of them. */
export function workersOf(v: string | undefined, cores = cpus().length): number | string {
  if (v === undefined) return Math.max(1, Math.floor(cores / 2));
  const pct = /^(\d+(?:\.\d+)?)%$/.exec(v);
  if (pct) return Math.max(1, Math.floor((cores * Number(pct[1])) / 100));
  const n = Number(v);
  return Number.isInteger(n) && n >= 1 ? n : `--workers must be a whole number from 1 or a percentage, got "${v}"`;
}

export function parseTestArgs(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  cwd: string,
): { kind: 'test'; args: TestArgs } | { kind: 'error'; message: string } {
  const read = readFlags(argv, TEST_FLAGS, (a) => `unknown option ${a} for pagehand test (see --help)`);
  if (typeof read === 'string') return { kind: 'error', message: read };
  const { values, lists, flags, words } = read;
  if (words.length !== 1)
    return {
      kind: 'error',
      message: words.length
        ? `pagehand test takes one tasks file, got ${words.length}: ${words.join(' ')}`
        : 'missing the tasks file: pagehand test TASKS.json',
    };
  const mode = (values.mode ?? 'replay') as TestMode;
  if (!TEST_MODES.includes(mode)) return { kind: 'error', message: `--mode must be replay, repair or model, got "${values.mode}"` };
  const workers = workersOf(values.workers);
  if (typeof workers === 'string') return { kind: 'error', message: workers };
  let shard: TestArgs['shard'];
  if (values.shard !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(values.shard);
    const index = Number(m?.[1]);
    const total = Number(m?.[2]);
    if (!m || total < 1 || index < 1 || index > total) return { kind: 'error', message: `--shard must be I/N with 1 ≤ I ≤ N, got "${values.shard}"` };
    shard = { index, total };
  }
  if (values['base-url'] !== undefined) {
    try {
      new URL(values['base-url']);
    } catch {
      return { kind: 'error', message: `--base-url must be a URL, got "${values['base-url']}"` };
    }
  }
  const proxy = (values.proxy ?? 'http://127.0.0.1:8787').replace(/\/+$/, '');
  try {
    if (!/^https?:$/.test(new URL(proxy).protocol)) throw new Error('not http');
  } catch {
    return { kind: 'error', message: `--proxy must be an http(s) URL, got "${proxy}"` };
  }
  const reporters = reportersOf(lists.reporter ?? [], values.junit, env, cwd);
  if (typeof reporters === 'string') return { kind: 'error', message: reporters };
  const endpoint = browserEndpointOf(values);
  if (endpoint.error) return { kind: 'error', message: endpoint.error };
  const file = resolve(cwd, words[0]!);
  const all = readTasksFile(file, values['base-url']);
  if (typeof all === 'string') return { kind: 'error', message: all };
  if (mode !== 'model') {
    const bare = all.find((t) => !t.recording);
    if (bare)
      return {
        kind: 'error',
        message: `task "${bare.name}" has no recording to ${mode === 'replay' ? 'replay' : 'replay and repair'} (give it one, or use --mode model)`,
      };
  }
  return {
    kind: 'test',
    args: {
      file,
      tasks: shardOf(all, shard),
      total: all.length,
      mode,
      ...(values.junit !== undefined ? { junit: resolve(cwd, values.junit) } : {}),
      reporters,
      ...(values.report !== undefined ? { report: resolve(cwd, values.report) } : {}),
      workers,
      ...(shard ? { shard } : {}),
      proxy,
      token: values.token,
      model: values.model,
      chromium: values.chromium ?? (env.CHROMIUM_PATH?.trim() || undefined),
      ...(endpoint.url ? { browserEndpoint: endpoint.url } : {}),
      headed: flags.has('headed'),
      yes: flags.has('yes'),
      outputDir: resolve(cwd, values.output ?? DEFAULT_OUTPUT),
    },
  };
}
