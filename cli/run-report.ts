/**
 * `--report DIR`: the run's report written as one HTML file (common/run-report.ts builds it, the
 * same builder as the panel's "Save report"), and for `pagehand test` an index.html linking each
 * task's. The runner's pictures for it are taken while the step's model request is held (the
 * page as the model was shown it), with the deny zones — and, in a run with secrets, the text
 * fields, where a secret may be typed — blanked by Chromium before the picture is encoded.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { esc, outcomeOf, reportHtml, type ReportRun } from '../common/run-report';

/** What is blanked in a report's pictures: the `data-pagehand="off"` zones, and text fields when the run has secrets. */
export function reportMasks(page: Page, secrets: boolean) {
  const zones = page.locator('[data-pagehand="off"]');
  return secrets ? [zones, page.locator('input:not([type=hidden]):not([type=checkbox]):not([type=radio]), textarea, [contenteditable]')] : [zones];
}

export const reportSlug = (name: string): string =>
  name
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60)
    .toLowerCase() || 'run';

/** `DIR/<task>-<time>.html` for `pagehand run` (a file per run: runs do not overwrite each other). */
export function runReportName(task: string, at: Date): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${reportSlug(task)}-${stamp}.html`;
}

/** Writes `run` as `dir/name`; resolves to the file's path. */
export async function writeReport(dir: string, name: string, run: ReportRun): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, name);
  await writeFile(file, reportHtml(run));
  return file;
}

export interface IndexRow {
  name: string;
  file: string;
  run: ReportRun;
}

/** `pagehand test --report`: the list of tasks, each with its outcome and a link to its report. */
export function indexHtml(title: string, rows: readonly IndexRow[]): string {
  const failed = rows.filter((r) => outcomeOf(r.run) !== 'ok').length;
  const items = rows
    .map((r) => {
      const o = outcomeOf(r.run);
      return `<tr class="${o}"><td><a href="${esc(encodeURI(r.file))}">${esc(r.name)}</a></td><td>${o}</td><td>${r.run.steps.length}</td><td>${esc(r.run.failedChecks?.[0] ?? (o === 'ok' ? '' : r.run.summary))}</td></tr>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<title>pagehand test: ${esc(title)}</title>
<style>body{font:14px/1.45 system-ui,sans-serif;margin:20px;color:#1d2329}table{border-collapse:collapse}td,th{border-bottom:1px solid #dde1e6;padding:6px 10px;text-align:left;vertical-align:top}tr.failed td:nth-child(2),tr.refused td:nth-child(2){color:#c92a2a;font-weight:700}tr.ok td:nth-child(2){color:#2b8a3e}</style></head>
<body><h1>${esc(title)}</h1><p>${rows.length - failed} passed, ${failed} failed</p>
<table><thead><tr><th>task</th><th>outcome</th><th>steps</th><th>why</th></tr></thead><tbody>
${items}
</tbody></table></body></html>
`;
}
