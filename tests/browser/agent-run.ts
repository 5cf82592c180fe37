/**
 * Helpers for the loop's end-to-end tests: start `pagehand.run` in the page, and record what
 * the run emits into sessionStorage so it survives full navigations (the resumed run on the
 * next page is recorded by the same code, injected after the bundle at document start).
 */
import type { Page } from 'playwright-core';
import type { RunResult } from '../../client/agent/public-types';
import { traceRecord, tracing } from '../trace/trace';

/** Runs in the page: hooks a handle's events into sessionStorage['agent-log']. */
function recordRun(): void {
  const w = window as unknown as { pagehand?: { current(): any } };
  const h = w.pagehand?.current();
  if (!h || (h as any).__recorded) return;
  (h as any).__recorded = true;
  const log = (entry: unknown): void => {
    const all = JSON.parse(sessionStorage.getItem('agent-log') ?? '[]');
    all.push(entry);
    sessionStorage.setItem('agent-log', JSON.stringify(all));
  };
  h.on('step', (e: any) => {
    if (e.phase !== 'thinking') log({ type: 'step', step: e.step, phase: e.phase, resumed: e.resumed ?? false, url: e.url, reasoning: e.reasoning });
  });
  h.on('action', (e: any) =>
    log({
      type: 'action',
      phase: e.phase,
      name: e.call.name,
      args: e.call.args,
      ok: e.result?.ok,
      message: e.result?.message,
      navigated: e.result?.changes?.navigation?.url,
      target: e.target,
    }),
  );
  h.on('message', (e: any) => log({ type: 'message', text: e.text, from: e.from }));
  h.on('pause', (e: any) => log({ type: 'pause', paused: e.paused }));
  h.on('error', (e: any) => log({ type: 'error', message: e.message, code: e.code, fatal: e.fatal }));
  h.on('confirm', (e: any) => {
    log({ type: 'confirm', kind: e.request.kind, reason: e.request.reason, target: e.request.target });
    e.respond(sessionStorage.getItem('agent-confirm') === 'allow');
  });
  h.on('ask', (e: any) => {
    log({ type: 'ask', question: e.question });
    const answer = sessionStorage.getItem('agent-answer');
    if (answer !== null) setTimeout(() => h.answer(answer), 10);
  });
  h.on('done', (e: any) => {
    log({ type: 'done', result: e.result });
    sessionStorage.setItem('agent-result', JSON.stringify(e.result));
  });
}

export const RECORDER = `(${recordRun.toString()})()`;

export interface StartOptions {
  /** What the recorder answers to confirmations: allow or deny. Default deny. */
  confirm?: 'allow' | 'deny';
  /** The answer to ask_user, if any. */
  answer?: string;
}

/**
 * Starts a run in the page with the recorder attached (now, and on every later page of this
 * tab through an init script).
 */
export async function startRun(page: Page, task: string, options: Record<string, unknown>, start: StartOptions = {}): Promise<void> {
  await page.context().addInitScript({ content: RECORDER });
  await page.evaluate(
    ({ task, options, start, recorder }) => {
      sessionStorage.removeItem('agent-log');
      sessionStorage.removeItem('agent-result');
      sessionStorage.setItem('agent-confirm', start.confirm ?? 'deny');
      if (start.answer !== undefined) sessionStorage.setItem('agent-answer', start.answer);
      (window as any).pagehand.run(task, { ui: false, ...options });
      (0, eval)(recorder);
    },
    { task, options, start, recorder: RECORDER },
  );
}

/** Waits (bounded) for the run's result, across navigations. */
export async function waitForResult(page: Page, timeoutMs = 60_000): Promise<RunResult> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const raw = await page.evaluate(() => sessionStorage.getItem('agent-result'));
      if (raw) {
        // Tracing only: the recorded log up to the result (what tests read with runLog).
        if (tracing()) traceRecord('run-log', { log: await runLog(page), result: JSON.parse(raw) });
        return JSON.parse(raw) as RunResult;
      }
    } catch {
      /* the page is navigating; ask again */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const log = await runLog(page).catch(() => []);
  throw new Error(`no run result within ${timeoutMs} ms; log:\n${JSON.stringify(log, null, 1).slice(-4000)}`);
}

export async function runLog(page: Page): Promise<any[]> {
  return page.evaluate(() => JSON.parse(sessionStorage.getItem('agent-log') ?? '[]'));
}
