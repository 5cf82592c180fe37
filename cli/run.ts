/**
 * `pagehand run`: the system Chromium through playwright-core, the bundle injected at document
 * start of every page of the run's tab in an isolated world, out of the page's reach
 * (cli/isolated-world.ts; so the run resumes after each navigation; the runner keeps the run's
 * state, so that works across origins too), the task run through `pagehand.run` with
 * `ui: false`, its events bridged to Node and reported, the result's `ok` as the exit status.
 */
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { ConfirmRequest, RunResult } from '../client/agent/public-types';
import { DEFAULT_CHROMIUM, type RunArgs } from './args';
import type { UrlCredentials } from './url-credentials';
import {
  BINDINGS,
  markedImageHtml,
  marksFor,
  pageWorldSource,
  worldSource,
  WORLD_API,
  type AskMessage,
  type ConfirmMessage,
  type EventMessage,
  type HoldMessage,
  type Marks,
} from './bridge';
import { checkRemoteContext, connectEndpoint } from './browser-endpoint';
import { answerDialog } from './dialogs';
import { downloadHandoff } from './download-handoff';
import { downloadSaver } from './downloads';
import { readRunFiles } from './files';
import { openIsolatedWorld, type WorldContext } from './isolated-world';
import { networkHold } from './network-hold';
import { runSecret, runStateKeeper, serveRunState } from './run-state';
import { checkChromium, checkModel, checkProxy, CliError } from './preflight';
import { describeAction, humanReporter, jsonReporter, type EventName, type Out, type Reporter } from './report';
import { safeForTerminal } from './terminal-text';
import { writeRecordingFile } from './recording-file';
import { reportCollector, type ReportCollector } from '../common/run-report';
import { reportMasks, runReportName, writeReport } from './run-report';
import { writeThreadFile } from './thread-file';
import { defaultToken } from './token';

export interface RunIo {
  env: Record<string, string | undefined>;
  stdout: Out;
  stderr: Out;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
}

/** How long a page may go without the run after a navigation before the run counts as lost. */
const LOST_RUN_MS = 15_000;

/** What the runner injects: the run's bundle and the page-world part. */
export interface Sources {
  bundle: string;
  pagePart: string;
}

/** Where a dist/ file is: next to dist/cli.js, or under dist/ when run from cli/ with tsx. */
async function distFile(name: string): Promise<string> {
  const candidates = [new URL(`./${name}`, import.meta.url), new URL(`../dist/${name}`, import.meta.url)].map((u) => fileURLToPath(u));
  for (const p of candidates) {
    try {
      await access(p);
      return p;
    } catch {
      // next
    }
  }
  throw new CliError(`dist/${name} is not built: run \`npm run build\` first.`);
}

export async function readSources(): Promise<Sources> {
  return { bundle: await readFile(await distFile('pagehand.runner.js'), 'utf8'), pagePart: await readFile(await distFile('pagehand.runner-page.js'), 'utf8') };
}

export function chromiumArgs(): string[] {
  const args = [
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    // The page calls the proxy on 127.0.0.1: let public pages reach it without a permission prompt.
    '--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessRespectPreflightResults,BlockInsecurePrivateNetworkRequests',
    // No shared workers: one outlives the tab's reach, and what it sends no route of the tab sees (cli/network-hold.ts).
    '--disable-blink-features=SharedWorker',
  ];
  // Chromium's sandbox cannot start as root (containers, CI).
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  return args;
}

/**
 * The browser context a run (or a `pagehand test` task) opens its tab in. bypassCSP: the page's
 * connect-src must not block the model calls to the proxy. serviceWorkers 'block': a page's
 * service worker sees its documents' requests, the run's world's too, and could read the
 * run-state request's secret or answer it (cli/run-state.ts). A start URL's user and password
 * answer that origin's HTTP authentication only (cli/url-credentials.ts).
 */
export function runContextOptions(credentials?: UrlCredentials) {
  return {
    viewport: { width: 1280, height: 800 },
    bypassCSP: true,
    serviceWorkers: 'block' as const,
    ...(credentials ? { httpCredentials: credentials } : {}),
  };
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
    if (!args.browserEndpoint) await checkChromium(executablePath);
    const { token, source } = await defaultToken(args.proxy, args.token, io.env);
    const info = await checkProxy(args.proxy, token, source);
    checkModel(info, args.model, args.proxy);
    const sources = await readSources();
    if (args.screenshotDir) await mkdir(args.screenshotDir, { recursive: true });

    const launch = { executablePath, headless: !args.headed, args: chromiumArgs() };
    const contextOptions = runContextOptions(args.credentials);
    if (args.browserEndpoint) {
      // Someone else's browser: only this run's context is opened there, and closed (the browser stays).
      browser = await connectEndpoint(args.browserEndpoint);
      context = await browser.newContext(contextOptions);
      await checkRemoteContext(context, args.browserEndpoint);
    } else {
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
    }

    const startedAt = new Date();
    const trail = args.report ? reportCollector(args.replay ? `${args.task} (replay)` : args.task, args.url, startedAt.toISOString()) : undefined;
    const outcome = await drive(context, sources, args, token, report, io, trail);
    await cleanup();
    if (args.report && trail) {
      const file = await writeReport(args.report, runReportName(args.task, startedAt), trail.run(outcome, { by: 'pagehand run' }));
      report.note(`report written to ${file}`);
    }
    if (args.record && outcome.recording) {
      await writeRecordingFile(args.record, outcome.recording);
      report.note(`recording written to ${args.record}`);
    }
    if (args.thread && outcome.thread) {
      await writeThreadFile(args.thread.path, outcome.thread);
      report.note(`conversation written to ${args.thread.path}`);
    }
    report.result(outcome);
    return outcome.ok ? 0 : 1;
  } catch (e) {
    await cleanup();
    report.failure(e instanceof CliError ? e.message : `unexpected failure: ${(e as Error)?.stack ?? e}`);
    return 1;
  }
}

export type Outcome = RunResult & { url?: string; elapsedMs?: number };

/** Runs one task (or replays one recording) in `context`, reporting to `report`; resolves with how it ended. */
export async function drive(
  context: BrowserContext,
  sources: Sources,
  args: RunArgs,
  token: string | undefined,
  report: Reporter,
  io: RunIo,
  /** Gathers the run for its `--report` (events, risk answers, pictures). */
  trail?: ReportCollector,
): Promise<Outcome> {
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

  // --- one terminal prompt at a time; the question (page text in it) made safe to print.
  let prompting = Promise.resolve<unknown>(undefined);
  const ask = (question: string): Promise<string> => {
    const p = prompting.then(async () => {
      report.pauseProgress();
      const rl = createInterface({ input: io.stdin, output: io.stderr as NodeJS.WritableStream });
      try {
        return await rl.question(safeForTerminal(question, { multiline: true }));
      } finally {
        rl.close();
      }
    });
    prompting = p.catch(() => undefined);
    return p;
  };

  // --- what the run's world sends (cli/isolated-world.ts hears only the main frame's world).
  const onEvent = (m: EventMessage) => {
    const name = m.name as EventName;
    const payload = m.payload as any;
    lastUrl = m.url || lastUrl;
    if (payload?.step) lastStep = Math.max(lastStep, Number(payload.step) || 0);
    if (payload?.usage) lastUsage = payload.usage;
    report.event(name, payload, m.url);
    trail?.event(name, payload);
    shot.onEvent(name, payload);
    if (name === 'done') {
      const result = payload?.result as RunResult | undefined;
      // A stale copy that stepped aside for the page the run moved to is not the end of the run.
      if (result && result.reason !== 'moved') void shot.idle().then(() => end({ ...result, url: m.url }));
    }
  };
  const onConfirm = async (request: ConfirmRequest): Promise<{ allowed: boolean; always?: boolean }> => {
    const a = await decide(request);
    trail?.question(request, a.allowed, lastStep || undefined);
    return a;
  };
  const decide = async (request: ConfirmRequest): Promise<{ allowed: boolean; always?: boolean }> => {
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
    // What pagehand could not judge is allowed one call at a time: no "always" for it.
    const once = request.kind === 'unjudged';
    const a = (await ask(`pagehand wants to: ${what}\n  ${request.reason}\n  Allow? [y]es${once ? '' : ' / [a]lways'} / [N]o: `)).trim().toLowerCase();
    const always = !once && (a === 'a' || a === 'always');
    const allowed = always || a === 'y' || a === 'yes';
    report.note(allowed ? `allowed: ${what}` : `denied: ${what}`);
    return { allowed, always };
  };
  const onAsk = async (question: string): Promise<string> => {
    report.event('ask', { question }, lastUrl);
    return (await ask(`pagehand asks: ${question}\n> `)).trim();
  };
  // The run's state between pages, kept here; only the run's world saves it and reads it back.
  const keeper = runStateKeeper();
  const secret = runSecret();
  const parse = <T>(payload: string): T | undefined => {
    try {
      return JSON.parse(payload) as T;
    } catch {
      return undefined;
    }
  };
  const onBinding = (name: string, payload: string, ctx: WorldContext): void => {
    if (name === BINDINGS.save) {
      keeper.save(payload);
    } else if (name === BINDINGS.event) {
      const m = parse<EventMessage>(payload);
      if (m && typeof m.name === 'string') onEvent(m);
    } else if (name === BINDINGS.confirm) {
      const m = parse<ConfirmMessage>(payload);
      if (m && typeof m.id === 'number' && m.request)
        void onConfirm(m.request as ConfirmRequest).then((a) => ctx.evaluate(`${WORLD_API}.answer(${m.id}, ${JSON.stringify(a)})`));
    } else if (name === BINDINGS.ask) {
      const m = parse<AskMessage>(payload);
      if (m && typeof m.id === 'number') void onAsk(String(m.question)).then((a) => ctx.evaluate(`${WORLD_API}.answer(${m.id}, ${JSON.stringify(a)})`));
    } else if (name === BINDINGS.hold) {
      // Around each call that acts: what the page sends is held at the network layer, judged in this world.
      const m = parse<HoldMessage>(payload);
      if (m && typeof m.id === 'number')
        void (m.on ? hold.start(ctx) : hold.end()).then((a) => ctx.evaluate(`${WORLD_API}.answer(${m.id}, ${JSON.stringify(a)})`));
    }
  };

  const page = context.pages()[0] ?? (await context.newPage());
  const shot = screenshots(args.screenshotDir, page, () => world.current(), report, trail && { trail, secrets: !!args.secrets });
  // With --screenshot-dir or --report, each model request waits until the page is pictured as the model sees it.
  if (args.screenshotDir || trail) {
    await context.route(`${args.proxy}/v1/chat/completions`, async (route) => {
      if (route.request().method() === 'POST') await shot.beforeModel();
      await route.continue().catch(() => {});
    });
  }
  const world = await openIsolatedWorld(page, {
    pageWorldSource: pageWorldSource(sources.pagePart),
    worldSource: worldSource(sources.bundle, secret, { marks: !!args.screenshotDir, ask: interactive }),
    bindings: Object.values(BINDINGS),
    onBinding,
  });
  await serveRunState(world, { keeper, secret, ended: () => ended });
  const hold = networkHold(page, { proxy: args.proxy, report, session: world.session });
  const inWorld = async <T>(expression: string): Promise<T | undefined> => (await world.ready())?.evaluate<T>(expression);

  page.on('dialog', (d) => void answerDialog(d, { yes: args.yes, ask: interactive ? ask : undefined }, report));
  // What it saves is handed to the run too, through the run's own world (never the page's).
  const downloads = downloadSaver(process.cwd(), report, downloadHandoff(page, { world: () => world.ready(5000) }));
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
      const alive = (await world.current()?.evaluate<boolean>(`${WORLD_API}.alive()`)) === true;
      if (!alive && !ended) lost(`The run did not continue on ${page.url()}: pagehand could not run there (or the run was lost in the navigation).`);
    }, LOST_RUN_MS);
    watch.unref?.();
  });

  // Ctrl-C stops the run (the page reports it as stopped); a second one leaves at once.
  let interrupts = 0;
  const onSigint = () => {
    if (++interrupts > 1) process.exit(130);
    report.note('stopping…');
    void world.current()?.evaluate(`${WORLD_API}.stop()`);
    setTimeout(() => lost('Interrupted.'), 3000).unref();
  };
  process.on('SIGINT', onSigint);

  try {
    try {
      await page.goto(args.url, { waitUntil: 'load', timeout: 60_000 });
    } catch (e) {
      throw new CliError(`Could not open ${args.url}: ${String((e as Error)?.message ?? e).split('\n')[0]}`);
    }
    const options = {
      proxy: args.proxy,
      token,
      model: args.model,
      maxSteps: args.maxSteps,
      ...(args.maxTokens ? { maxTokens: args.maxTokens } : {}),
      ...(args.maxCost ? { maxCost: args.maxCost } : {}),
      ...(args.verify ? { verify: true } : {}),
      ui: false,
      ...(args.secrets ? { secrets: args.secrets } : {}),
      ...(args.schema ? { schema: args.schema } : {}),
      ...(args.thread?.value ? { thread: args.thread.value } : {}),
    };
    // --file: made File objects in the run's world, for upload (the model sees names, types, sizes).
    const files = await readRunFiles(args.files ?? []);
    // --replay: the recording instead of the task (its values, and whether a broken step goes to the model).
    const start = args.replay
      ? `${WORLD_API}.replay(${JSON.stringify(args.replay)}, ${JSON.stringify({ ...options, repair: args.repair !== false, ...(args.values ? { values: args.values } : {}) })}, ${JSON.stringify(files)})`
      : `${WORLD_API}.start(${JSON.stringify(args.task)}, ${JSON.stringify(options)}, ${JSON.stringify(files)})`;
    const id = (await inWorld<{ id: string } | { error: string }>(start)) ?? { error: 'pagehand did not load in this page' };
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
function screenshots(
  dir: string | undefined,
  page: Page,
  world: () => WorldContext | undefined,
  report: Reporter,
  forReport?: { trail: ReportCollector; secrets: boolean },
) {
  const active = !!dir || !!forReport;
  // For a report, what must not be seen is blanked in the picture itself (cli/run-report.ts).
  const picture = () =>
    page.screenshot({ timeout: 10_000, ...(forReport ? { mask: reportMasks(page, forReport.secrets), maskColor: '#868e96' } : {}) }).catch(() => undefined);
  const kept = new Set<number>();
  const keep = (step: number, png: Promise<Buffer | undefined>) => {
    kept.add(step);
    const size = page.viewportSize() ?? { width: 1280, height: 800 };
    chain = chain.then(async () => {
      const b = await png;
      if (b) forReport!.trail.shot(step, { src: `data:image/png;base64,${b.toString('base64')}`, ...size });
    });
  };
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
      const p = page;
      try {
        if (marks && drawn) {
          // The live page with the marks, if it is still the page they were drawn in — before
          // and after the picture (a navigation may land in between). Asked in the run's world.
          const marked = async () => (await world()?.evaluate<boolean>(`${WORLD_API}.marked()`)) === true;
          if (await marked()) {
            const png = await p.screenshot({ timeout: 10_000 }).catch(() => undefined);
            if (png && (await marked())) {
              await writeFile(fileOf(step), png);
              await world()?.evaluate(`${WORLD_API}.clearMarks()`);
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
        scratch ??= p
          .context()
          .newPage()
          .then(async (s) => {
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
      if (!active || !p) return;
      if (name === 'step' && p.phase === 'start') for (const s of [...waiting]) if (s < p.step) take(s);
      if (name === 'step' && p.phase === 'planned') {
        // The picture taken while this step's model request waited (see beforeModel).
        if (latest) before.set(p.step, latest);
        // The report's picture: the same moment, unmarked (the report draws the box itself).
        if (forReport && latest) keep(p.step, latest);
        latest = undefined;
        const calls: Array<{ name: string; args?: Record<string, unknown> }> = p.calls ?? [];
        if (calls.some(targeted)) waiting.add(p.step);
        else take(p.step);
      }
      // A replayed step asks no model: its picture is the page as its first action starts.
      if (forReport && name === 'action' && p.phase === 'start' && !kept.has(p.step)) keep(p.step, picture());
      if (name === 'action' && p.phase === 'start') take(p.step, marksFor(p.call, p.target), p.marked === true);
      if (name === 'done') for (const s of [...waiting]) take(s);
    },
    /**
     * Called while a model request is held: the page is exactly what the model is shown, and
     * nothing can act on it before the reply. Resolves once the picture is taken.
     */
    beforeModel: async (): Promise<void> => {
      if (!active) return;
      const png = picture();
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
