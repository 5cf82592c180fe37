/**
 * `npm run bench:replay` — what recording and replay save, on the agent fixtures (webmail,
 * shop, wizard, lazy list under tests/fixtures/agent/).
 *
 * Each task is solved once with the scripted fake model (through the real proxy, the bundle in
 * headless Chromium), which gives its recording; then replayed on the unchanged site; then
 * replayed after a scripted UI change (tests/browser/replay-kit.ts: a renamed button, a moved
 * field, an extra dialog, renamed row buttons), with the fake model repairing what broke. Per
 * task: model calls and wall time, fresh vs replay, and how many steps needed repair after the
 * change.
 *
 * Bar: a replay of the unchanged site makes 0 model calls; a one-element change repairs at most
 * one step. Writes bench/results/replay.json. Launches Chromium.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Recording, RunResult } from '../client/agent/public-types';
import { CHANGES, TASKS, type FixtureTask, type UiChange } from '../tests/browser/replay-kit';
import { startStaticServer } from '../tests/browser/static-server';
import { startModelStack } from './lib/model-stack';
import { renderTable } from './lib/table';

const root = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const MODEL = 'gpt-test';
/** Runs per measurement; the median wall time is reported. */
const RUNS = Number(process.env.BENCH_RUNS) || 3;

const startStack = () => startModelStack('replay', MODEL);

/**
 * Runs in the page: keeps the run's result (and answers its confirmations) in sessionStorage,
 * so it survives page loads. A string, not a function's source: tsx's transform adds helpers to
 * functions that the page does not have.
 */
const RECORDER = `(() => {
  const h = window.pagehand && window.pagehand.current();
  if (!h || h.__benchRecorded) return;
  h.__benchRecorded = true;
  h.on('confirm', (e) => e.respond(sessionStorage.getItem('agent-confirm') === 'allow'));
  h.on('done', (e) => { if (e.result.reason !== 'moved') sessionStorage.setItem('agent-result', JSON.stringify(e.result)); });
})();`;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2 : NaN;
};

interface Measured {
  ok: boolean;
  modelCalls: number;
  wallMs: number;
  steps: number;
  repaired: number;
  result: RunResult;
}

async function main(): Promise<void> {
  const bundle = await readFile(join(root, 'dist/pagehand.js'), 'utf8');
  const statics = await startStaticServer();
  const stack = await startStack();
  const browser: Browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const options = { proxy: stack.proxy.url, token: stack.proxy.personalToken, model: MODEL, ui: false };

  /** A fresh context (so nothing is left from the run before), the fixture with the bundle. */
  const open = async (t: FixtureTask, change?: UiChange): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    if (change) await page.addInitScript({ content: change.script });
    if (t.early) await page.addInitScript({ content: bundle });
    await page.addInitScript({ content: RECORDER });
    await page.goto(`${statics.origin}/fixtures/agent/${t.path}`);
    if (!t.early) await page.addScriptTag({ content: bundle });
    await t.reset(page);
    return page;
  };

  /** Starts the run or the replay in the page; the result, across page loads. */
  const measure = async (page: Page, start: { task: string } | { recording: Recording }, confirm: boolean): Promise<Measured> => {
    const before = stack.fake.modelRequests().length;
    const t0 = performance.now();
    await page.evaluate(
      ({ start, options, confirm, recorder }) => {
        sessionStorage.setItem('agent-confirm', confirm ? 'allow' : 'deny');
        const p = (window as any).pagehand;
        if ('task' in start) p.run(start.task, options);
        else p.replay(start.recording, options);
        (0, eval)(recorder);
      },
      { start, options, confirm, recorder: RECORDER },
    );
    const deadline = Date.now() + 120_000;
    let result: RunResult | undefined;
    while (!result && Date.now() < deadline) {
      try {
        const raw = await page.evaluate(() => sessionStorage.getItem('agent-result'));
        if (raw) result = JSON.parse(raw) as RunResult;
      } catch {
        /* navigating */
      }
      if (!result) await new Promise((r) => setTimeout(r, 50));
    }
    if (!result) throw new Error('no result within 120 s');
    const wallMs = performance.now() - t0;
    return {
      ok: result.ok,
      modelCalls: stack.fake.modelRequests().length - before,
      wallMs,
      steps: result.steps,
      repaired: result.replay?.repaired ?? 0,
      result,
    };
  };

  const rows: Array<Record<string, unknown>> = [];
  try {
    for (const t of TASKS) {
      const change = CHANGES.find((c) => c.task === t.id)!;
      const fresh: Measured[] = [];
      const replay: Measured[] = [];
      const changed: Measured[] = [];
      let recording: Recording | undefined;
      for (let i = 0; i < RUNS; i++) {
        stack.setPolicy(t.model());
        let page = await open(t);
        const f = await measure(page, { task: t.task }, t.confirm);
        f.ok &&= await t.solved(page);
        fresh.push(f);
        recording ??= f.result.recording;
        await page.context().close();

        // No model answers during a replay of the unchanged site: any call would fail it.
        stack.setPolicy(() => ({ status: 500, errorMessage: 'the model was asked during a replay' }));
        page = await open(t);
        const r = await measure(page, { recording: recording! }, t.confirm);
        r.ok &&= await t.solved(page);
        replay.push(r);
        await page.context().close();

        stack.setPolicy(change.repair ?? (() => ({ status: 500, errorMessage: 'no repair was expected' })));
        page = await open(t, change);
        const c = await measure(page, { recording: recording! }, t.confirm);
        c.ok &&= await t.solved(page);
        changed.push(c);
        await page.context().close();
      }
      const row = {
        task: t.id,
        steps: recording!.steps.length,
        fresh: { ok: fresh.every((x) => x.ok), modelCalls: fresh[0]!.modelCalls, wallMs: median(fresh.map((x) => x.wallMs)) },
        replay: { ok: replay.every((x) => x.ok), modelCalls: Math.max(...replay.map((x) => x.modelCalls)), wallMs: median(replay.map((x) => x.wallMs)) },
        change: {
          id: change.id,
          what: change.what,
          ok: changed.every((x) => x.ok),
          modelCalls: Math.max(...changed.map((x) => x.modelCalls)),
          repairedSteps: Math.max(...changed.map((x) => x.repaired)),
          wallMs: median(changed.map((x) => x.wallMs)),
        },
      };
      rows.push(row);
      console.error(
        `  ${t.id}: fresh ${row.fresh.modelCalls} calls, replay ${row.replay.modelCalls}, after "${change.id}" ${row.change.repairedSteps} repaired`,
      );
    }

    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    const r = rows as Array<{
      task: string;
      steps: number;
      fresh: Measured & { ok: boolean };
      replay: Measured & { ok: boolean };
      change: { id: string; what: string; ok: boolean; modelCalls: number; repairedSteps: number; wallMs: number };
    }>;
    console.log(
      `\nbench:replay — ${TASKS.length} fixture tasks, median of ${RUNS} runs each, ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)}\n`,
    );
    console.log(
      renderTable(
        [
          { header: 'task' },
          { header: 'steps', align: 'right' },
          { header: 'fresh calls', align: 'right' },
          { header: 'fresh time', align: 'right' },
          { header: 'replay calls', align: 'right' },
          { header: 'replay time', align: 'right' },
          { header: 'UI change' },
          { header: 'repaired', align: 'right' },
          { header: 'calls', align: 'right' },
          { header: 'time', align: 'right' },
          { header: 'solved' },
        ],
        r.map((x) => [
          x.task,
          x.steps,
          x.fresh.modelCalls,
          s(x.fresh.wallMs),
          x.replay.modelCalls,
          s(x.replay.wallMs),
          x.change.id,
          x.change.repairedSteps,
          x.change.modelCalls,
          s(x.change.wallMs),
          [x.fresh.ok, x.replay.ok, x.change.ok].every(Boolean) ? 'yes' : 'NO',
        ]),
      ),
    );
    const pass = (b: boolean) => (b ? 'PASS' : 'FAIL');
    const verdicts = [
      `${pass(r.every((x) => x.replay.modelCalls === 0 && x.replay.ok))} replay of the unchanged site: 0 model calls, every task solved`,
      `${pass(r.every((x) => x.change.repairedSteps <= 1 && x.change.ok))} a one-element change repairs at most one step (${r.map((x) => `${x.change.id}: ${x.change.repairedSteps}`).join(', ')}), every task solved`,
      `model calls saved by replay: ${r.reduce((n, x) => n + x.fresh.modelCalls, 0)} fresh → ${r.reduce((n, x) => n + x.replay.modelCalls, 0)} replayed; wall time ${s(r.reduce((n, x) => n + x.fresh.wallMs, 0))} → ${s(r.reduce((n, x) => n + x.replay.wallMs, 0))} (the fake model answers at once: a real one adds seconds per call)`,
    ];
    console.log(`\n${verdicts.join('\n')}`);
    await mkdir(join(root, 'bench/results'), { recursive: true });
    await writeFile(
      join(root, 'bench/results/replay.json'),
      `${JSON.stringify({ date: new Date().toISOString(), cores: cpus().length, load: loadavg()[0], runs: RUNS, tasks: rows, verdicts }, null, 2)}\n`,
    );
  } finally {
    await browser.close();
    await statics.close();
    await stack.close();
  }
}

await main();
