/**
 * `pagehand run`: the system Chromium through playwright-core, the bundle injected at document
 * start of every page (so the run resumes after each navigation; the runner keeps the run's
 * state, so that works across origins too), the task run through
 * `pagehand.run` with `ui: false`, its events bridged to Node and reported, the result's `ok`
 * as the exit status.
 */
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { ConfirmRequest, RunResult } from '../client/agent/types';
import { DEFAULT_CHROMIUM, type RunArgs } from './args';
import { BINDINGS, bridgeSource, markedImageHtml, marksFor, runnerBundleSource, type Marks } from './bridge';
import { answerDialog } from './dialogs';
import { downloadSaver } from './downloads';
import { keepRunState } from './run-state';
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

/** Where dist/pagehand.runner.js is: next to dist/cli.js, or under dist/ when run from cli/ with tsx. */
async function bundlePath(): Promise<string> {
  const candidates = [new URL('./pagehand.runner.js', import.meta.url), new URL('../dist/pagehand.runner.js', import.meta.url)].map((u) => fileURLToPath(u));
  for (const p of candidates) {
    try {
      await access(p);
      return p;
    } catch {
      // next
    }
  }
  throw new CliError('dist/pagehand.runner.js is not built: run `npm run build` first.');
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
  // The run's state between pages, kept here: only the run's own tab saves and reads it (the
  // scratch page for marked screenshots loads the bundle too, and must not resume the run).
  await keepRunState(context, () => page, () => ended);
  // With --screenshot-dir, each model request waits until the page is pictured as the model sees it.
  if (args.screenshotDir) {
    await context.route(`${args.proxy}/v1/chat/completions`, async (route) => {
      if (route.request().method() === 'POST') await shot.beforeModel();
      await route.continue().catch(() => {});
    });
  }
  await context.addInitScript({ content: `${runnerBundleSource(bundle)}\n${bridgeSource({ marks: !!args.screenshotDir, ask: interactive })}` });

  page = context.pages()[0] ?? (await context.newPage());
  page.on('dialog', (d) => void answerDialog(d, { yes: args.yes, ask: interactive ? ask : undefined }, report));
  const downloads = downloadSaver(process.cwd(), report);
  page.on('download', (d) => downloads.save(d));
  // pagehand keeps links in its tab; a tab the page opens by script is only said (the run stays).
  page.on('popup', (p) => report.note(`the page opened a new tab (${p.url() || 'about:blank'}); the run stays in its own tab`, { popup: p.url() }));
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
    const outcome = await finished;
    await downloads.idle();
    return outcome;
  } finally {
    if (watch) clearTimeout(watch);
    process.off('SIGINT', onSigint);
  }
}

/**
 * One PNG per step. The page is pictured while the step's model request is held (what the model
 * is shown; the request goes on once the picture is taken); as the step's first action starts, the bridge draws its marks in the page and the live page is
 * pictured with them — unless the action already took the page elsewhere (a link, a submit),
 * then the picture taken for the model request gets the marks instead (drawn over it in a
 * scratch page). Steps without a target (done, scroll, navigate…) keep that picture as it is.
 */
function screenshots(dir: string | undefined, page: () => Page, report: Reporter) {
  let chain: Promise<void> = Promise.resolve();
  let scratch: Promise<Page> | undefined;
  const before = new Map<number, Promise<Buffer | undefined>>();
  const taken = new Set<number>();
  const waiting = new Set<number>();
  const fileOf = (step: number) => join(dir!, `step-${String(step).padStart(3, '0')}.png`);
  const fail = (step: number, e: unknown) => report.note(`no screenshot for step ${step}: ${String((e as Error)?.message ?? e).split('\n')[0]}`);

  const take = (step: number, marks?: Marks, drawn = false) => {
    if (!dir || taken.has(step)) return;
    taken.add(step);
    waiting.delete(step);
    const pre = before.get(step) ?? Promise.resolve(undefined);
    before.delete(step);
    chain = chain.then(async () => {
      const p = page();
      try {
        if (marks && drawn) {
          // The live page with the marks, if it is still the page they were drawn in — before
          // and after the picture (a navigation may land in between).
          const marked = () => p.evaluate(() => !!document.querySelector('[data-pagehand-runner-marks]')).catch(() => false);
          if (await marked()) {
            const png = await p.screenshot({ timeout: 10_000 }).catch(() => undefined);
            if (png && (await marked())) {
              await writeFile(fileOf(step), png);
              await p.evaluate(() => (window as any).__pagehandRunnerClearMarks?.()).catch(() => {});
              return;
            }
          }
        }
        const png = await pre;
        if (!png) {
          await p.waitForLoadState('domcontentloaded', { timeout: 10_000 }).catch(() => {});
          await p.screenshot({ path: fileOf(step), timeout: 10_000 });
          return;
        }
        if (!marks) {
          await writeFile(fileOf(step), png);
          return;
        }
        scratch ??= p.context().newPage().then(async (s) => {
          await s.setViewportSize(p.viewportSize() ?? { width: 1280, height: 800 });
          return s;
        });
        const s = await scratch;
        await s.setContent(markedImageHtml(png, marks));
        await s.screenshot({ path: fileOf(step), timeout: 10_000 });
      } catch (e) {
        fail(step, e);
      }
    });
  };
  let latest: Promise<Buffer | undefined> | undefined;
  const targeted = (c: { name: string; args?: Record<string, unknown> }) => c.name === 'click_at' || (c.args?.ref !== undefined && c.args?.ref !== null);
  return {
    onEvent(name: EventName, p: any) {
      if (!dir || !p) return;
      if (name === 'step' && p.phase === 'start') for (const s of [...waiting]) if (s < p.step) take(s);
      if (name === 'step' && p.phase === 'planned') {
        // The picture taken while this step's model request waited (see beforeModel).
        if (latest) before.set(p.step, latest);
        latest = undefined;
        const calls: Array<{ name: string; args?: Record<string, unknown> }> = p.calls ?? [];
        if (calls.some(targeted)) waiting.add(p.step);
        else take(p.step);
      }
      if (name === 'action' && p.phase === 'start') take(p.step, marksFor(p.call, p.target), p.marked === true);
      if (name === 'done') for (const s of [...waiting]) take(s);
    },
    /**
     * Called while a model request is held: the page is exactly what the model is shown, and
     * nothing can act on it before the reply. Resolves once the picture is taken.
     */
    beforeModel: async (): Promise<void> => {
      if (!dir) return;
      const png = page()
        .screenshot({ timeout: 10_000 })
        .catch(() => undefined);
      latest = png;
      await png;
    },
    /** Resolves when every picture is written (the scratch page closed). */
    idle: async () => {
      await chain;
      const s = await scratch?.catch(() => undefined);
      await s?.close().catch(() => {});
      scratch = undefined;
    },
  };
}
