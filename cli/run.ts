/**
 * `pagehand run`: the system Chromium through playwright-core, the bundle injected at document
 * start of every page (so the run resumes after each navigation), the task run through
 * `pagehand.run` with `ui: false`, its events bridged to Node and reported, the result's `ok`
 * as the exit status.
 */
import { access, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { ConfirmRequest, RunResult } from '../client/agent/types';
import { DEFAULT_CHROMIUM, type RunArgs } from './args';
import { BINDINGS, bridgeSource, topFrameOnly } from './bridge';
import { checkChromium, checkModel, checkProxy, CliError } from './preflight';
import { describeAction, humanReporter, jsonReporter, type EventName, type Out, type Reporter } from './report';
import { defaultToken } from './token';

export interface RunIo {
  env: Record<string, string | undefined>;
  stdout: Out;
  stderr: Out;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
}

/** How long a page may go without the run after a navigation before the run counts as lost. */
const LOST_RUN_MS = 15_000;

/** Where dist/pagehand.js is: next to dist/cli.js, or under dist/ when run from cli/ with tsx. */
async function bundlePath(): Promise<string> {
  const candidates = [new URL('./pagehand.js', import.meta.url), new URL('../dist/pagehand.js', import.meta.url)].map((u) => fileURLToPath(u));
  for (const p of candidates) {
    try {
      await access(p);
      return p;
    } catch {
      // next
    }
  }
  throw new CliError('dist/pagehand.js is not built: run `npm run build` first.');
}

function chromiumArgs(): string[] {
  const args = [
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    // The page calls the proxy on 127.0.0.1: let public pages reach it without a permission prompt.
    '--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessRespectPreflightResults,BlockInsecurePrivateNetworkRequests',
  ];
  // Chromium's sandbox cannot start as root (containers, CI).
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  return args;
}

/** Runs the task; resolves to the exit status. */
export async function runCommand(args: RunArgs, io: RunIo): Promise<number> {
  const report: Reporter = args.json ? jsonReporter(io.stdout, io.stderr) : humanReporter(io.stdout, io.stderr);
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  const cleanup = async () => {
    await context?.close().catch(() => {});
    await browser?.close().catch(() => {});
  };
  try {
    const executablePath = args.chromium ?? DEFAULT_CHROMIUM;
    await checkChromium(executablePath);
    const { token, source } = await defaultToken(args.proxy, args.token, io.env);
    const info = await checkProxy(args.proxy, token, source);
    checkModel(info, args.model, args.proxy);
    const bundle = await readFile(await bundlePath(), 'utf8');
    if (args.screenshotDir) await mkdir(args.screenshotDir, { recursive: true });

    const launch = { executablePath, headless: !args.headed, args: chromiumArgs() };
    // bypassCSP: the page's connect-src must not block the model calls to the proxy.
    const contextOptions = { viewport: { width: 1280, height: 800 }, bypassCSP: true };
    try {
      if (args.profile) {
        await mkdir(args.profile, { recursive: true });
        context = await chromium.launchPersistentContext(args.profile, { ...launch, ...contextOptions });
      } else {
        browser = await chromium.launch(launch);
        context = await browser.newContext(contextOptions);
      }
    } catch (e) {
      const msg = String((e as Error)?.message ?? e).split('\n')[0];
      const inUse = args.profile && /singleton|in use|lock/i.test(String(e)) ? ` Is another browser using the profile ${args.profile}?` : '';
      throw new CliError(`Chromium at ${executablePath} did not start: ${msg}.${inUse}`);
    }

    const outcome = await drive(context, bundle, args, token, report, io);
    await cleanup();
    report.result(outcome);
    return outcome.ok ? 0 : 1;
  } catch (e) {
    await cleanup();
    report.failure(e instanceof CliError ? e.message : `unexpected failure: ${(e as Error)?.stack ?? e}`);
    return 1;
  }
}

type Outcome = RunResult & { url?: string; elapsedMs?: number };

async function drive(context: BrowserContext, bundle: string, args: RunArgs, token: string | undefined, report: Reporter, io: RunIo): Promise<Outcome> {
  const interactive = !!io.stdin.isTTY && !args.json;
  const startedAt = Date.now();
  let finish!: (o: Outcome) => void;
  const finished = new Promise<Outcome>((r) => (finish = r));
  let ended = false;
  let lastUrl = args.url;
  const end = (o: Outcome) => {
    if (ended) return;
    ended = true;
    finish({ ...o, url: o.url ?? lastUrl, elapsedMs: Date.now() - startedAt });
  };
  const lost = (summary: string): void => end({ ok: false, summary, steps: lastStep, usage: lastUsage, reason: 'lost' });
  let lastStep = 0;
  let lastUsage = { promptTokens: 0, completionTokens: 0 };

  // --- screenshots: one per step, serialised.
  let page!: Page;
  const shot = screenshots(args.screenshotDir, () => page, report);

  // --- one terminal prompt at a time.
  let prompting = Promise.resolve<unknown>(undefined);
  const ask = (question: string): Promise<string> => {
    const p = prompting.then(async () => {
      report.pauseProgress();
      const rl = createInterface({ input: io.stdin, output: io.stderr as NodeJS.WritableStream });
      try {
        return await rl.question(question);
      } finally {
        rl.close();
      }
    });
    prompting = p.catch(() => undefined);
    return p;
  };

  await context.exposeBinding(BINDINGS.event, (source, name: EventName, payload: any, url: string) => {
    if (source.frame !== source.page.mainFrame()) return;
    lastUrl = url || lastUrl;
    if (payload?.step) lastStep = Math.max(lastStep, Number(payload.step) || 0);
    if (payload?.usage) lastUsage = payload.usage;
    report.event(name, payload, url);
    shot.onEvent(name, payload);
    if (name === 'done') {
      const result = payload?.result as RunResult | undefined;
      // A stale copy that stepped aside for the page the run moved to is not the end of the run.
      if (result && result.reason !== 'moved') void shot.idle().then(() => end({ ...result, url }));
    }
  });
  await context.exposeBinding(BINDINGS.confirm, async (_source, request: ConfirmRequest) => {
    report.event('confirm', request, lastUrl);
    const what = describeAction(request.call, request.target);
    if (args.yes) {
      report.note(`allowed (--yes): ${what}`);
      return { allowed: true };
    }
    if (!interactive) {
      report.note(`denied: ${what} — no terminal to ask (pass --yes to allow risky actions)`);
      return { allowed: false };
    }
    const a = (await ask(`pagehand wants to: ${what}\n  ${request.reason}\n  Allow? [y]es / [a]lways / [N]o: `)).trim().toLowerCase();
    const allowed = a === 'y' || a === 'yes' || a === 'a' || a === 'always';
    report.note(allowed ? `allowed: ${what}` : `denied: ${what}`);
    return { allowed, always: a === 'a' || a === 'always' };
  });
  await context.exposeBinding(BINDINGS.ask, async (_source, question: string) => {
    report.event('ask', { question }, lastUrl);
    return (await ask(`pagehand asks: ${question}\n> `)).trim();
  });
  await context.addInitScript({ content: `${topFrameOnly(bundle)}\n${bridgeSource({ marks: !!args.screenshotDir, ask: interactive })}` });

  page = context.pages()[0] ?? (await context.newPage());
  page.on('crash', () => lost(`The page crashed on ${lastUrl}.`));
  page.on('close', () => lost('The page was closed before the run ended.'));

  // After each load the run must be there again (resumed by the bundle), else it was lost:
  // a download, a page the bundle cannot run in (a PDF viewer, a browser error page).
  let started = false;
  let watch: ReturnType<typeof setTimeout> | undefined;
  page.on('load', () => {
    if (!started || ended) return;
    if (watch) clearTimeout(watch);
    watch = setTimeout(async () => {
      if (ended) return;
      const alive = await page.evaluate(() => !!(window as any).pagehand?.current?.()).catch(() => false);
      if (!alive && !ended) lost(`The run did not continue on ${page.url()}: pagehand could not run there (or the run was lost in the navigation).`);
    }, LOST_RUN_MS);
    watch.unref?.();
  });

  // Ctrl-C stops the run (the page reports it as stopped); a second one leaves at once.
  let interrupts = 0;
  const onSigint = () => {
    if (++interrupts > 1) process.exit(130);
    report.note('stopping…');
    void page.evaluate(() => (window as any).pagehand?.current?.()?.stop()).catch(() => {});
    setTimeout(() => lost('Interrupted.'), 3000).unref();
  };
  process.on('SIGINT', onSigint);

  try {
    try {
      await page.goto(args.url, { waitUntil: 'load', timeout: 60_000 });
    } catch (e) {
      throw new CliError(`Could not open ${args.url}: ${String((e as Error)?.message ?? e).split('\n')[0]}`);
    }
    const options = { proxy: args.proxy, token, model: args.model, maxSteps: args.maxSteps, ui: false };
    const id = await page
      .evaluate(
        ([task, o]) => {
          const w = window as any;
          if (!w.pagehand) return { error: 'pagehand did not load in this page' };
          const h = w.pagehand.run(task, o);
          w.__pagehandRunnerSubscribe(h);
          return { id: h.id as string };
        },
        [args.task, options] as const,
      )
      .catch((e: Error) => ({ error: e.message.split('\n')[0] }));
    if ('error' in id) throw new CliError(`Could not start the run on ${args.url}: ${id.error}.`);
    started = true;
    return await finished;
  } finally {
    if (watch) clearTimeout(watch);
    process.off('SIGINT', onSigint);
  }
}

/**
 * One PNG per step: taken as the step's first action starts (the bridge has drawn its marks by
 * then), or when the step is planned if none of its calls has a target (done, scroll, navigate…),
 * or at the next step if its actions never started (refused, not allowed).
 */
function screenshots(dir: string | undefined, page: () => Page, report: Reporter) {
  let chain: Promise<void> = Promise.resolve();
  const taken = new Set<number>();
  const waiting = new Set<number>();
  const take = (step: number) => {
    if (!dir || taken.has(step)) return;
    taken.add(step);
    waiting.delete(step);
    const path = join(dir, `step-${String(step).padStart(3, '0')}.png`);
    chain = chain.then(async () => {
      const p = page();
      try {
        await p.screenshot({ path, timeout: 10_000 });
      } catch {
        // The step's action navigated while the picture was taken: take the page it led to.
        try {
          await p.waitForLoadState('domcontentloaded', { timeout: 10_000 });
          await p.screenshot({ path, timeout: 10_000 });
        } catch (e) {
          report.note(`no screenshot for step ${step}: ${String((e as Error)?.message ?? e).split('\n')[0]}`);
        }
      }
      await p.evaluate(() => (window as any).__pagehandRunnerClearMarks?.()).catch(() => {});
    });
  };
  const targeted = (c: { name: string; args?: Record<string, unknown> }) => c.name === 'click_at' || (c.args?.ref !== undefined && c.args?.ref !== null);
  return {
    onEvent(name: EventName, p: any) {
      if (!dir || !p) return;
      if (name === 'step' && p.phase === 'start') for (const s of [...waiting]) if (s < p.step) take(s);
      if (name === 'step' && p.phase === 'planned') {
        const calls: Array<{ name: string; args?: Record<string, unknown> }> = p.calls ?? [];
        if (calls.some(targeted)) waiting.add(p.step);
        else take(p.step);
      }
      if (name === 'action' && p.phase === 'start') take(p.step);
      if (name === 'done') for (const s of [...waiting]) take(s);
    },
    idle: () => chain,
  };
}
