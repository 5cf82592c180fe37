/**
 * A scripted stand-in of Chrome's Prompt API (`LanguageModel`), installed in the page before the
 * bundle: its availability states, download progress events, a context window it enforces
 * (QuotaExceededError), the `responseConstraint` it receives (checked against each answer, as
 * a constrained decoder would never break it) and aborts. The answers come from Node.
 */
import type { Page } from 'playwright-core';
import { bundleSource, origin, type Session } from './harness';

export interface StandInConfig {
  state: 'unavailable' | 'downloadable' | 'downloading' | 'available';
  /** Progress events a create() that downloads sends, then it waits for `release()` when `hold`. */
  progress?: number[];
  hold?: boolean;
  /** Tokens the window has beyond the system prompt. */
  room?: number;
  /** The first prompt overflows whatever its size (the browser's measure was off). */
  overflowOnce?: boolean;
  /** Characters a token holds (default 4; fewer: a tokenizer costlier than the bundle's estimate). */
  charsPerToken?: number;
}

/** One prompt as the stand-in saw it. */
export interface Prompted {
  system: string;
  text: string;
  schema: any;
  omit: boolean;
}

function standIn(cfg: StandInConfig): void {
  const w = window as any;
  const log: any = (w.__lmLog = { prompts: 0, overflows: 0, aborted: 0, creates: 0, destroyed: 0, progress: [] as number[] });
  const tokens = (s: string): number => Math.ceil(s.length / (cfg.charsPerToken ?? 4));
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  w.__lmRelease = () => release();
  /** Whether `answer` fits the schema's one branch for its tool (required arguments there). */
  const fits = (schema: any, answer: any): boolean => {
    const branch = schema?.properties?.action?.oneOf?.find((b: any) => b.properties.tool.const === answer?.action?.tool);
    if (!branch) return false;
    const args = answer.action.arguments ?? {};
    return (
      (branch.properties.arguments.required ?? []).every((k: string) => k in args) && ['eval', 'memory', 'goal'].every((k) => typeof answer[k] === 'string')
    );
  };
  class LmSession {
    inputUsage: number;
    inputQuota: number;
    constructor(readonly system: string) {
      this.inputUsage = tokens(system);
      this.inputQuota = tokens(system) + (cfg.room ?? 100_000);
    }
    async measureInputUsage(text: string): Promise<number> {
      return tokens(text);
    }
    async clone(): Promise<LmSession> {
      return new LmSession(this.system);
    }
    destroy(): void {
      log.destroyed++;
    }
    async prompt(text: string, o: { responseConstraint?: any; omitResponseConstraintInput?: boolean; signal?: AbortSignal } = {}): Promise<string> {
      if (this.inputUsage + tokens(text) > this.inputQuota || (cfg.overflowOnce && !log.overflows)) {
        log.overflows++;
        throw new DOMException('The input is too large.', 'QuotaExceededError');
      }
      log.prompts++;
      const answer = w.__lmAnswer({ system: this.system, text, schema: o.responseConstraint, omit: o.omitResponseConstraintInput === true });
      let stop = (): void => {};
      const aborted = new Promise<never>((_, reject) => {
        stop = () => {
          log.aborted++;
          reject(new DOMException('Aborted', 'AbortError'));
        };
        if (o.signal?.aborted) stop();
        o.signal?.addEventListener('abort', stop, { once: true });
      });
      // Only an abort while the prompt is pending counts.
      const out: string = await Promise.race([answer, aborted]).finally(() => o.signal?.removeEventListener('abort', stop));
      if (!fits(o.responseConstraint, JSON.parse(out))) throw new Error(`the stand-in's answer breaks the constraint: ${out}`);
      this.inputUsage += tokens(text) + tokens(out);
      return out;
    }
  }
  w.LanguageModel = {
    async availability() {
      return cfg.state;
    },
    async create(o: any = {}) {
      log.creates++;
      if (cfg.state === 'unavailable') throw new DOMException('The model is not available.', 'NotSupportedError');
      if (cfg.state !== 'available') {
        const m = new EventTarget();
        o.monitor?.(m);
        for (const p of cfg.progress ?? [0, 1]) {
          await new Promise((r) => setTimeout(r, 10));
          log.progress.push(p);
          m.dispatchEvent(Object.assign(new Event('downloadprogress'), { loaded: p }));
        }
        if (cfg.hold) await held;
        cfg.state = 'available';
      }
      const system = o.initialPrompts?.find((p: any) => p.role === 'system')?.content ?? '';
      return new LmSession(system);
    },
  };
}

/** Opens a fixture with the stand-in and then the bundle (at document start with `early`, on every page). */
export async function openWithStandIn(
  session: Session,
  fixture: string,
  cfg: StandInConfig,
  answer: (p: Prompted) => object | Promise<object>,
  opts: { early?: boolean } = {},
): Promise<Page> {
  const page = await session.context.newPage();
  page.on('pageerror', (e) => console.error('[page error]', e.message));
  await page.exposeBinding('__lmAnswer', async (_src, p: Prompted) => JSON.stringify(await answer(p)));
  await page.addInitScript({ content: `(${standIn.toString()})(${JSON.stringify(cfg)});` });
  if (opts.early) await page.addInitScript({ content: bundleSource() });
  await page.goto(`${origin()}/fixtures/${fixture}`);
  if (!opts.early) await page.addScriptTag({ content: bundleSource() });
  return page;
}

/** The answer the browser's model gives: the reasoning lines and one action. */
export const act = (tool: string, args: Record<string, unknown> = {}, goal = ''): object => ({ eval: '', memory: '', goal, action: { tool, arguments: args } });

export const lmLog = (page: Page): Promise<{ prompts: number; overflows: number; aborted: number; creates: number; progress: number[] }> =>
  page.evaluate(() => (window as any).__lmLog);
