/**
 * How the runner shows a run: a human log (stderr) with a live progress line when stderr is a
 * terminal and the result on stdout, or JSON lines on stdout (--json). Every line goes out
 * through terminal-text.ts: page text never reaches the terminal with its control codes.
 */
import type { RunResult } from '../client/agent/public-types';
import { jsonForTerminal, safeForTerminal } from './terminal-text';

export interface Out {
  write(s: string): unknown;
  isTTY?: boolean;
}

export type EventName = 'step' | 'action' | 'message' | 'error' | 'done' | 'pause' | 'confirm' | 'ask';

export interface Reporter {
  event(name: EventName, payload: any, url: string): void;
  /** A line of the runner's own (a denial, a saved screenshot). */
  note(text: string, extra?: Record<string, unknown>): void;
  /** Stops the progress line so the terminal can be used (a prompt). */
  pauseProgress(): void;
  result(r: RunResult & { url?: string; elapsedMs?: number }): void;
  /** A failure before or outside the run (no Chromium, proxy down, token refused). */
  failure(message: string): void;
}

const oneLine = (s: unknown, max = 160): string => {
  const t = safeForTerminal(s).replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};

const kTokens = (n: number): string => (n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : String(n));

/** `click [12] button "Send"`, `type [2] searchbox "Search" "ernesto"`, `navigate https://…`. */
export function describeAction(call: { name: string; args?: Record<string, unknown> }, target?: { ref: string; role: string; name: string }): string {
  const args = { ...(call.args ?? {}) };
  const parts = [call.name];
  if (target) {
    parts.push(`[${target.ref}] ${target.role}${target.name ? ` ${JSON.stringify(oneLine(target.name, 60))}` : ''}`);
    delete args.ref;
  }
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined) continue;
    parts.push(
      k === 'text' || k === 'summary' || k === 'query' || k === 'url' || k === 'option'
        ? JSON.stringify(oneLine(v, 80))
        : `${k}=${oneLine(typeof v === 'string' ? v : JSON.stringify(v), 40)}`,
    );
  }
  return parts.join(' ');
}

export function jsonReporter(stdout: Out, stderr: Out): Reporter {
  const line = (o: Record<string, unknown>) => stdout.write(`${jsonForTerminal(o)}\n`);
  return {
    event(name, payload, url) {
      // The reply as it streams is one event per chunk: too many for a log; `planned` carries it whole.
      if (name === 'step' && payload?.phase === 'thinking') return;
      line({ event: name, url, ...(payload && typeof payload === 'object' ? payload : { payload }) });
    },
    note(text, extra) {
      line({ event: 'note', text, ...extra });
    },
    pauseProgress() {},
    result(r) {
      line({ event: 'result', ...r });
    },
    failure(message) {
      stderr.write(`pagehand: ${safeForTerminal(message, { multiline: true })}\n`);
      line({ event: 'result', ok: false, summary: message, steps: 0, reason: 'setup' });
    },
  };
}

export function humanReporter(stdout: Out, stderr: Out): Reporter {
  const live = !!stderr.isTTY;
  let progress = '';
  let shown = false;
  let step = 0;
  let maxSteps = 0;
  let phase = '';
  let tokens = 0;
  let startedAt = Date.now();
  let timer: ReturnType<typeof setInterval> | undefined;

  const clear = () => {
    if (live && shown) stderr.write('\r\x1b[K');
    shown = false;
  };
  const draw = () => {
    if (!live || !progress) return;
    const secs = ((Date.now() - startedAt) / 1000).toFixed(1);
    stderr.write(`\r\x1b[K${progress} · ${secs} s · ${kTokens(tokens)} tokens`);
    shown = true;
  };
  // Our own control codes (the progress line's) are added here, after the text is made safe.
  const print = (s: string) => {
    clear();
    stderr.write(`${safeForTerminal(s)}\n`);
    draw();
  };
  const setProgress = (p: string) => {
    progress = p;
    if (live && !timer) {
      timer = setInterval(draw, 250);
      timer.unref?.();
    }
    draw();
  };
  const stopProgress = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
    clear();
    progress = '';
  };

  return {
    event(name, p, url) {
      if (!p) return;
      switch (name) {
        case 'step': {
          step = p.step;
          maxSteps = p.maxSteps;
          tokens = (p.usage?.promptTokens ?? 0) + (p.usage?.completionTokens ?? 0);
          if (typeof p.elapsedMs === 'number') startedAt = Date.now() - p.elapsedMs;
          if (p.phase === 'start') {
            if (p.resumed) print(`  (resumed on ${url})`);
            phase = 'reading the page';
          } else if (p.phase === 'thinking') phase = 'thinking';
          else if (p.phase === 'planned') {
            const r = p.reasoning ?? {};
            print(`step ${p.step}/${p.maxSteps}${r.nextGoal ? ` · ${oneLine(r.nextGoal, 120)}` : ''}`);
            if (r.evaluation) print(`  eval: ${oneLine(r.evaluation)}`);
            phase = 'acting';
          }
          setProgress(`step ${step}/${maxSteps} · ${phase}`);
          break;
        }
        case 'action':
          if (p.phase === 'start') print(`  → ${describeAction(p.call, p.target)}`);
          else if (p.result) print(`    ${p.result.ok ? '✓' : '✗'} ${oneLine(p.result.message)}`);
          break;
        case 'message':
          print(`  ${p.from === 'model' ? 'model' : 'note'}: ${oneLine(p.text, 300)}`);
          break;
        case 'error':
          print(`  ${p.fatal ? 'error' : 'retrying'}: ${oneLine(p.message, 300)}`);
          break;
        case 'pause':
          print(`  ${p.paused ? 'paused' : 'resumed'}`);
          break;
        case 'confirm':
          print(`  confirm (${p.kind}): ${oneLine(p.reason)}`);
          break;
        case 'ask':
          print(`  question: ${oneLine(p.question, 300)}`);
          break;
        case 'done':
          break;
      }
    },
    note(text) {
      print(`  ${text}`);
    },
    pauseProgress() {
      clear();
    },
    result(r) {
      stopProgress();
      const secs = r.elapsedMs !== undefined ? `, ${(r.elapsedMs / 1000).toFixed(1)} s` : '';
      const cost = r.usage?.cost !== undefined ? ` ($${r.usage.cost < 1 ? r.usage.cost.toFixed(4) : r.usage.cost.toFixed(2)})` : '';
      const usage = r.usage ? `, ${r.usage.promptTokens} prompt + ${r.usage.completionTokens} completion tokens${cost}` : '';
      const head = r.ok
        ? `Done in ${r.steps} step${r.steps === 1 ? '' : 's'}${secs}${usage}.`
        : `Not done (${r.reason ?? 'failed'}) after ${r.steps} step${r.steps === 1 ? '' : 's'}${secs}${usage}.`;
      stdout.write(`${head}\n${safeForTerminal(r.summary, { multiline: true })}\n`);
      // What happened against what the model said (client/agent/honest.ts): named after its words.
      for (const x of r.refused ?? [])
        stdout.write(`${x.outcome === 'denied' ? 'Not allowed' : 'Failed'} (${x.kind}): ${safeForTerminal(x.target ? `${x.call} "${x.target}"` : x.call)}\n`);
      for (const k of r.unbacked ?? []) stdout.write(`Warning: the summary speaks of ${k.replace('_', ' ')}, but no such step was done.\n`);
      // The answer as data (--schema), as JSON a person can read; page text, so made safe to print.
      if (r.data !== undefined) stdout.write(`${safeForTerminal(JSON.stringify(r.data, null, 2), { multiline: true })}\n`);
    },
    failure(message) {
      stopProgress();
      stderr.write(`pagehand: ${safeForTerminal(message, { multiline: true })}\n`);
    },
  };
}
