/**
 * `pagehand test TASKS.json`: a site's copilot tasks run headless against the site, each in a
 * fresh browser context, `--workers` at once (each worker its own browser), then checked in the
 * page. In replay mode no model is involved at all (no proxy needed): a step that needs repair
 * fails its task — the UI changed under the copilot. Prints a line per task and a summary
 * table, writes `--junit`, saves a screenshot of each failed task's page, and exits 1 when any
 * task failed.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import type { RunResult } from '../client/agent/public-types';
import { DEFAULT_CHROMIUM, type RunArgs } from './args';
import { reportCollector } from '../common/run-report';
import { checkRemoteContext, connectEndpoint } from './browser-endpoint';
import { progressLine } from './progress-line';
import { indexHtml, reportSlug, writeReport, type IndexRow } from './run-report';
import { checkChromium, checkModel, checkProxy, CliError } from './preflight';
import type { Reporter } from './report';
import { chromiumArgs, drive, readSources, runContextOptions, type RunIo, type Sources } from './run';
import { safeForTerminal } from './terminal-text';
import { runChecks } from './test-checks';
import { taskLine, testReporters, type TaskReport } from './test-reporters';
import type { TestArgs } from './test-args';
import type { TestTask } from './test-tasks';
import { defaultToken } from './token';

/** A reporter that keeps quiet (the test kit prints one line per task) and keeps the notes. */
function quietReporter(notes: string[]): Reporter {
  return { event: () => {}, note: (text) => void notes.push(text), pauseProgress: () => {}, result: () => {}, failure: (m) => void notes.push(m) };
}

const slug = (name: string): string =>
  name
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60)
    .toLowerCase() || 'task';
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** What a task's run gives the reporters, and its row in the reports' index. */
type TaskResult = TaskReport & { row?: IndexRow };

export async function testCommand(args: TestArgs, io: RunIo): Promise<number> {
  try {
    const executablePath = args.chromium ?? DEFAULT_CHROMIUM;
    if (!args.browserEndpoint) await checkChromium(executablePath);
    // Replay mode makes no model call: no proxy, no token.
    let token: string | undefined;
    if (args.mode !== 'replay') {
      const t = await defaultToken(args.proxy, args.token, io.env);
      token = t.token;
      const info = await checkProxy(args.proxy, token, t.source);
      checkModel(info, args.model, args.proxy);
    }
    const sources = await readSources();
    const shard = args.shard ? ` (shard ${args.shard.index}/${args.shard.total}: ${args.tasks.length} of ${args.total})` : '';
    const workers = Math.max(1, Math.min(args.workers, args.tasks.length));
    const file = relative(process.cwd(), args.file) || args.file;
    // The dot reporter's line is a progress of its own, which a redrawn line would erase.
    const progress = progressLine(args.reporters.some((r) => r.name === 'dot') ? { write: () => {} } : io.stderr);
    const reporter = testReporters(args.reporters, { write: progress.around((t) => io.stdout.write(t)), env: io.env, cwd: process.cwd() });
    const fileText = await readFile(args.file, 'utf8').catch(() => '');
    reporter.begin({
      file,
      total: args.tasks.length,
      header: `pagehand test ${file}: ${args.tasks.length} task${args.tasks.length === 1 ? '' : 's'}${shard}, mode ${args.mode}, ${workers} worker${workers === 1 ? '' : 's'}`,
      outputDir: relative(process.cwd(), args.outputDir) || args.outputDir,
    });

    const results: TaskResult[] = new Array(args.tasks.length);
    let next = 0;
    let done = 0;
    const running = new Set<string>();
    const showProgress = () =>
      progress.show(`[${done}/${args.tasks.length}] ${running.size ? `running: ${[...running].map((n) => safeForTerminal(n)).join(', ')}` : ''}`);
    const launch = { executablePath, headless: !args.headed, args: chromiumArgs() };
    // --browser-endpoint: one connection, each worker's tasks in contexts of their own there.
    const remote = args.browserEndpoint ? await connectEndpoint(args.browserEndpoint) : undefined;
    if (remote && args.browserEndpoint) {
      const probe = await remote.newContext();
      try {
        await checkRemoteContext(probe, args.browserEndpoint);
      } finally {
        await probe.close().catch(() => {});
      }
    }
    const worker = async (): Promise<void> => {
      let browser: Browser | undefined = remote;
      try {
        browser ??= await chromium.launch(launch);
      } catch (e) {
        throw new CliError(`Chromium at ${executablePath} did not start: ${String((e as Error)?.message ?? e).split('\n')[0]}.`);
      }
      try {
        while (next < args.tasks.length) {
          const i = next++;
          const name = args.tasks[i]!.name;
          running.add(name);
          showProgress();
          const r = await runTask(browser, sources, args, args.tasks[i]!, token, io);
          running.delete(name);
          const line = taskLine(fileText, r.name);
          results[i] = { ...r, ...(line ? { line } : {}) };
          done++;
          reporter.task(results[i]!, done, args.tasks.length);
          showProgress();
        }
      } finally {
        // A remote browser is only disconnected from, once all workers are done.
        if (!remote) await browser.close().catch(() => {});
      }
    };
    try {
      await Promise.all(Array.from({ length: workers }, worker));
    } finally {
      // Closing a connected browser closes this runner's contexts and the connection, never the browser.
      await remote?.close().catch(() => {});
    }
    if (args.report) {
      const rows = results.flatMap((r) => (r.row ? [r.row] : []));
      await writeFile(join(args.report, 'index.html'), indexHtml(file, rows));
    }

    progress.clear();
    await reporter.end(results);
    if (args.report) {
      // Not into a JSON or JUnit document written to stdout.
      const machine = args.reporters.some((r) => (r.name === 'json' || r.name === 'junit') && !r.file);
      const index = join(args.report, 'index.html');
      (machine ? io.stderr : io.stdout).write(`Reports: ${relative(process.cwd(), index) || index}\n`);
    }
    const failed = results.filter((r) => !r.ok).length;
    return failed ? 1 : 0;
  } catch (e) {
    io.stderr.write(`pagehand test: ${e instanceof CliError ? e.message : `unexpected failure: ${(e as Error)?.stack ?? e}`}\n`);
    return 1;
  }
}

/** One task in a fresh context of `browser`: its run (or replay), then its checks. */
async function runTask(browser: Browser, sources: Sources, args: TestArgs, t: TestTask, token: string | undefined, io: RunIo): Promise<TaskResult> {
  const started = Date.now();
  const notes: string[] = [];
  const context = await browser.newContext(runContextOptions(t.credentials));
  const replaying = args.mode !== 'model' && t.recording;
  const runArgs: RunArgs = {
    task: t.task,
    url: t.url,
    proxy: args.proxy,
    token,
    model: args.model,
    maxSteps: t.maxSteps,
    // Never interactive: nobody is at a terminal for each task.
    json: true,
    headed: args.headed,
    chromium: args.chromium,
    yes: t.yes ?? args.yes,
    files: [],
    ...(replaying ? { replay: t.recording, repair: args.mode === 'repair', ...(t.values ? { values: t.values } : {}) } : {}),
  };
  let outcome: (RunResult & { url?: string }) | undefined;
  let failure: string | undefined;
  let failedChecks: string[] | undefined;
  const trail = args.report ? reportCollector(t.task, t.url, new Date(started).toISOString()) : undefined;
  try {
    outcome = await drive(context, sources, runArgs, token, quietReporter(notes), io, trail);
    if (!outcome.ok) failure = `the ${replaying ? 'replay' : 'run'} did not succeed (${outcome.reason ?? 'failed'}): ${outcome.summary}`;
  } catch (e) {
    failure = e instanceof CliError ? e.message : String((e as Error)?.message ?? e);
  }
  const page = context.pages()[0];
  if (page && !failure) {
    const failed = await runChecks(page, t.checks).catch((e) => [`the checks could not run: ${String((e as Error)?.message ?? e)}`]);
    if (failed.length) failedChecks = failed;
    if (failed.length) failure = `check${failed.length === 1 ? '' : 's'} failed:\n${failed.map((f) => `- ${f}`).join('\n')}`;
  }
  let screenshot: string | undefined;
  if (failure && page) {
    try {
      await mkdir(args.outputDir, { recursive: true });
      screenshot = join(args.outputDir, `${slug(t.name)}.png`);
      await page.screenshot({ path: screenshot, timeout: 10_000 });
      failure += `\nscreenshot: ${relative(process.cwd(), screenshot) || screenshot}`;
    } catch {
      screenshot = undefined;
    }
  }
  await context.close().catch(() => {});
  let row: IndexRow | undefined;
  if (args.report && trail) {
    // Tasks are named uniquely in the file; the index says which file is whose.
    const file = `${reportSlug(t.name)}.html`;
    const run = trail.run(outcome ?? { ok: false, summary: failure ?? '' }, {
      by: `pagehand test, ${args.mode} mode, task "${t.name}"`,
      ...(failedChecks ? { failedChecks } : {}),
      ...(outcome ? {} : { reason: 'setup' }),
    });
    await writeReport(args.report, file, run);
    row = { name: t.name, file, run };
  }
  const replay = outcome?.replay;
  const modelCalls = replay ? replay.modelCalls : (outcome?.steps ?? 0);
  const repaired = replay?.repaired ?? 0;
  const steps = outcome?.steps ?? 0;
  const mode = replaying ? (args.mode === 'repair' ? 'replay+repair' : 'replay') : 'model';
  const detail = `${mode}, ${steps} step${steps === 1 ? '' : 's'}, ${modelCalls} model call${modelCalls === 1 ? '' : 's'}${repaired ? `, ${repaired} repaired` : ''}, ${seconds(Date.now() - started)}`;
  return {
    name: t.name,
    ok: !failure,
    time: (Date.now() - started) / 1000,
    detail,
    steps,
    modelCalls,
    repaired,
    ...(failure ? { failure } : {}),
    ...(screenshot ? { screenshot } : {}),
    ...(row && args.report ? { row, report: join(args.report, row.file) } : {}),
  };
}
