/**
 * `tsx bench/loop-profile.ts` — where a step of bench:loop's run spends its time, by Chromium's
 * CPU profiler (through CDP). The same page, scripted model and task as bench:loop, on an
 * unminified build of the bundle (function names kept, each module under its source path), so
 * the profile reads in source terms: self time per source file, and time inside (inclusive of
 * callees) the functions named in BENCH_FNS (comma-separated; a default list otherwise).
 * Writes .tmp/loop.cpuprofile (not committed; open it in Chromium's DevTools). Launches Chromium.
 */
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleOptions } from '../build';
import { serveLoopPage } from './lib/loop-page';
import { startModelStack } from './lib/model-stack';
import { renderTable } from './lib/table';

const root = fileURLToPath(new URL('..', import.meta.url));
const STEPS = Number(process.env.BENCH_STEPS) || 30;
const MODEL = 'gpt-test';
const FNS = (
  process.env.BENCH_FNS ??
  'buildMapAsync,readReply,confirmCall,risksOf,targetFacts,classifyRisks,beforeAction,beginStep,describeTarget,pageCandidates,afterAction,endStep,save,emitStep,emit,act,recordStep,pageKey,callsKey,walk,formatMap,buildRequest,maskRequest,planPrompt,chat'
).split(',');

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

async function main(): Promise<void> {
  const out = await build({ ...bundleOptions, minify: false, keepNames: false, write: false, outfile: 'pagehand-profile.js' });
  const bundle = out.outputFiles[0]!.text;
  // esbuild marks each module's start with a `// path` comment: line → source file.
  const lines = bundle.split('\n');
  const fileAt: string[] = [];
  let current = '(runtime)';
  for (const l of lines) {
    const m = /^\s*\/\/ ((?:client|common|node_modules)\/\S+)$/.exec(l);
    if (m) current = m[1]!;
    fileAt.push(current);
  }
  const stack = await startModelStack('loop-profile', MODEL);
  const pages = await serveLoopPage();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    stack.setPolicy((req) => {
      const user = req.messages
        .filter((m) => m.role === 'user')
        .map((m) => m.text)
        .join('\n');
      const ref = /\[((?:f\d+:)?\d+)\]button "Add one"/.exec(user)?.[1];
      return ref ? { toolCalls: [{ name: 'click', args: { ref } }] } : { toolCalls: [{ name: 'scroll', args: { direction: 'up', pages: 20 } }] };
    });
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await ctx.newPage();
    await page.goto(`${pages.origin}/5k.html`);
    await page.addScriptTag({ content: bundle });
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    // Two steps of warm-up outside the profile.
    const runIt = (steps: number) =>
      page.evaluate(
        ({ proxy, token, steps, model }) =>
          new Promise<number>((resolve) => {
            const h = (window as any).pagehand.run('Click "Add one" again and again', { proxy, token, model, maxSteps: steps, ui: false });
            h.on('done', (e: any) => resolve(e.result.steps));
          }),
        { proxy: stack.proxy.url, token: stack.proxy.personalToken!, steps, model: MODEL },
      );
    await runIt(2);
    await cdp.send('Profiler.start');
    const steps = await runIt(STEPS);
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
    await ctx.close();
    await mkdir(join(root, '.tmp'), { recursive: true });
    await writeFile(join(root, '.tmp/loop.cpuprofile'), JSON.stringify(profile));

    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    // The bundle is an inline script: its frames have lines but no url; natives have neither.
    const fileOf = (n: ProfileNode): string =>
      n.callFrame.lineNumber >= 0 && !n.callFrame.url
        ? `${fileAt[n.callFrame.lineNumber] ?? '?'} ${n.callFrame.functionName}`
        : `(${n.callFrame.functionName || 'native'})`;
    const selfByFile = new Map<string, number>();
    const incl = new Map<string, number>();
    let total = 0;
    let idle = 0;
    for (let i = 0; i < profile.samples.length; i++) {
      const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
      const n = byId.get(profile.samples[i]!)!;
      if (n.callFrame.functionName === '(idle)') {
        idle += dt;
        continue;
      }
      total += dt;
      const f = fileOf(n);
      selfByFile.set(f, (selfByFile.get(f) ?? 0) + dt);
      const seen = new Set<string>();
      for (let id: number | undefined = n.id; id !== undefined; id = parent.get(id)) {
        const fn = byId.get(id)!.callFrame.functionName;
        if (FNS.includes(fn) && !seen.has(fn)) {
          seen.add(fn);
          incl.set(fn, (incl.get(fn) ?? 0) + dt);
        }
      }
    }
    const per = (x: number) => (x / steps).toFixed(2);
    console.log(`\nloop profile — ${steps} steps, busy ${per(total)} ms/step, idle ${per(idle)} ms/step, load ${loadavg()[0]!.toFixed(1)}\n`);
    const top = [...selfByFile].sort((a, b) => b[1] - a[1]).slice(0, 30);
    console.log(
      renderTable(
        [{ header: 'self time by file' }, { header: 'ms/step', align: 'right' }],
        top.map(([f, t]) => [f, per(t)]),
      ),
    );
    console.log(
      renderTable(
        [{ header: 'inside function' }, { header: 'ms/step', align: 'right' }],
        [...incl].sort((a, b) => b[1] - a[1]).map(([f, t]) => [f, per(t)]),
      ),
    );
  } finally {
    await browser.close();
    await pages.close();
    await stack.close();
  }
}

await main();
