/**
 * The end card's downloads, loaded on first use (with client/on-demand.ts: the panel on open
 * carries none of it): a run's recording as JSON, or the finished run's report as the same HTML
 * file `pagehand run --report` writes (common/run-report.ts), built in the page. The panel's
 * log holds no screenshots, so its report has none.
 */
import { reportCollector, reportHtml } from '../../common/run-report';
import type { Recording } from '../agent/public-types';
import type { RunView } from './state';

/** Saves a recording, or the run a view shows as its report (the browser's download). */
export function saveFile(what: Recording | RunView): void {
  const recording = 'pagehand' in what;
  const url = URL.createObjectURL(
    recording ? new Blob([`${JSON.stringify(what, null, 2)}\n`], { type: 'application/json' }) : new Blob([reportFromView(what)], { type: 'text/html' }),
  );
  const a = document.createElement('a');
  a.href = url;
  a.download = `${
    what.task
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40)
      .toLowerCase() || 'pagehand'
  }${recording ? '.recording.json' : '.report.html'}`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The report of the run `view` shows: its steps, the questions the user answered, how it ended. */
export function reportFromView(view: RunView): string {
  const trail = reportCollector(view.task, undefined, new Date(view.startedAt).toISOString());
  for (const e of view.entries) {
    if (e.kind === 'step') {
      trail.event('step', { step: e.step, phase: 'planned', reasoning: e.reasoning, calls: e.calls });
      for (const a of e.actions) trail.event('action', { step: e.step, phase: 'start', call: a.call, target: a.target, result: a.result });
    } else if (e.kind === 'message') trail.event('message', { text: e.from === 'user' ? `The user answered: ${e.text}` : e.text });
    else trail.event('error', { message: e.message });
  }
  for (const [step, request, allowed] of view.asked ?? []) trail.question(request, allowed, step);
  const r = view.result;
  return reportHtml(
    trail.run(r ?? { ok: false, summary: view.error?.message ?? '' }, {
      by: 'the pagehand panel',
      elapsedMs: view.elapsedMs,
      ...(view.error ? { summary: view.error.message } : {}),
    }),
  );
}
