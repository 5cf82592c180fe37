/**
 * How `pagehand test` reports, named as in Playwright Test: `--reporter list` (a line per task
 * and the summary table, the default), `dot` (a character per task), `junit`, `json` (each to a
 * file given as `junit:FILE`, by $PAGEHAND_JUNIT_OUTPUT_NAME / $PAGEHAND_JSON_OUTPUT_NAME, else
 * to stdout) and `github` (GitHub Actions workflow commands: an annotation on each failed task,
 * and a summary in $GITHUB_STEP_SUMMARY). Several at once: `--reporter=dot,junit` or the flag
 * repeated. Everything a page may have written is made safe for where it goes.
 */
import { appendFile, writeFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { junitXml, type CaseResult } from './junit';
import { jsonForTerminal, safeForTerminal } from './terminal-text';

export const REPORTER_NAMES = ['list', 'dot', 'junit', 'json', 'github'] as const;
export type ReporterName = (typeof REPORTER_NAMES)[number];
export interface ReporterSpec {
  name: ReporterName;
  /** Where junit and json write (absolute); stdout without one. */
  file?: string;
}

/**
 * `--reporter` values (each may list several, comma-separated; `junit:FILE`, `json:FILE`) and
 * the old `--junit FILE`, as reporters; default list. Pure but for resolving paths.
 */
export function reportersOf(
  given: readonly string[],
  junit: string | undefined,
  env: Record<string, string | undefined>,
  cwd: string,
): ReporterSpec[] | string {
  const specs: ReporterSpec[] = [];
  for (const item of given.flatMap((g) => g.split(','))) {
    const text = item.trim();
    const colon = text.indexOf(':');
    const name = (colon < 0 ? text : text.slice(0, colon)) as ReporterName;
    const file = colon < 0 ? undefined : text.slice(colon + 1);
    if (!REPORTER_NAMES.includes(name)) return `--reporter must be ${REPORTER_NAMES.join(', ')} (several with commas), got "${text}"`;
    if (file !== undefined && name !== 'junit' && name !== 'json') return `--reporter ${name} writes no file (junit:FILE and json:FILE do)`;
    if (file === '') return `--reporter ${name}: needs a file name after the colon`;
    const fromEnv = name === 'junit' ? env.PAGEHAND_JUNIT_OUTPUT_NAME : name === 'json' ? env.PAGEHAND_JSON_OUTPUT_NAME : undefined;
    const out = file ?? (fromEnv?.trim() || undefined);
    if (specs.some((s) => s.name === name && s.file === (out && resolve(cwd, out)))) continue;
    specs.push({ name, ...(out ? { file: resolve(cwd, out) } : {}) });
  }
  if (junit !== undefined) specs.push({ name: 'junit', file: resolve(cwd, junit) });
  if (!specs.some((s) => s.name !== 'junit' || !s.file)) specs.unshift({ name: 'list' });
  return specs;
}

export interface TaskReport extends CaseResult {
  steps: number;
  modelCalls: number;
  repaired: number;
  /** The task's line in the tasks file (for annotations). */
  line?: number;
  /** A report of the run, when one was written. */
  report?: string;
}

export interface RunInfo {
  /** The tasks file as shown (relative to the working directory). */
  file: string;
  total: number;
  /** The first line of the list reporter. */
  header: string;
  /** Where failed tasks' screenshots went (shown). */
  outputDir: string;
}

export interface TestReporter {
  begin(info: RunInfo): void;
  task(r: TaskReport, done: number, total: number): void;
  end(results: readonly TaskReport[]): Promise<void>;
}

export interface ReporterIo {
  write(text: string): void;
  env: Record<string, string | undefined>;
  cwd: string;
}

const shown = (cwd: string, path: string): string => relative(cwd, path) || path;
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const counts = (rs: readonly TaskReport[]) => {
  const failed = rs.filter((r) => !r.ok).length;
  return { failed, passed: rs.length - failed };
};

export function listReporter(io: ReporterIo): TestReporter {
  let info: RunInfo;
  return {
    begin(i) {
      info = i;
      io.write(`${i.header}\n`);
    },
    task(r, done, total) {
      const why = r.ok
        ? ''
        : `\n      ${safeForTerminal(r.failure ?? '', { multiline: true })
            .split('\n')
            .join('\n      ')}`;
      io.write(`  ${r.ok ? '✓' : '✗'} [${done}/${total}] ${safeForTerminal(r.name)}  (${r.detail})${why}\n`);
    },
    async end(results) {
      const { passed, failed } = counts(results);
      io.write(`\n${summaryTable(results)}\n\n${passed} passed, ${failed} failed${failed ? ` — screenshots in ${info.outputDir}` : ''}\n`);
    },
  };
}

/** `·` a passed task, `F` a failed one, as Playwright Test's dot reporter; the failures after. */
export function dotReporter(io: ReporterIo): TestReporter {
  let wrote = 0;
  return {
    begin: () => {},
    task(r) {
      io.write(r.ok ? '·' : 'F');
      if (++wrote % 80 === 0) io.write('\n');
    },
    async end(results) {
      const { passed, failed } = counts(results);
      const lines = results
        .filter((r) => !r.ok)
        .map(
          (r, i) =>
            `  ${i + 1}) ${safeForTerminal(r.name)}\n      ${safeForTerminal(r.failure ?? '', { multiline: true })
              .split('\n')
              .join('\n      ')}`,
        );
      io.write(`\n\n${lines.length ? `${lines.join('\n\n')}\n\n` : ''}${passed} passed, ${failed} failed\n`);
    },
  };
}

/** The results as one JSON document (for tools), to `file` or stdout. */
export function jsonReport(info: RunInfo, results: readonly TaskReport[]): unknown {
  const { passed, failed } = counts(results);
  return {
    file: info.file,
    total: info.total,
    passed,
    failed,
    tasks: results.map((r) => ({
      name: r.name,
      ok: r.ok,
      time: r.time,
      steps: r.steps,
      modelCalls: r.modelCalls,
      repaired: r.repaired,
      ...(r.failure ? { failure: r.failure } : {}),
      ...(r.screenshot ? { screenshot: r.screenshot } : {}),
      ...(r.report ? { report: r.report } : {}),
    })),
  };
}

function fileReporter(io: ReporterIo, spec: ReporterSpec, write: (info: RunInfo, results: readonly TaskReport[]) => string, label: string): TestReporter {
  let info: RunInfo;
  return {
    begin: (i) => void (info = i),
    task: () => {},
    async end(results) {
      const text = write(info, results);
      if (!spec.file) return io.write(text.endsWith('\n') ? text : `${text}\n`);
      await writeFile(spec.file, text);
      io.write(`${label}: ${shown(io.cwd, spec.file)}\n`);
    },
  };
}

/**
 * A workflow command's message: `%`, CR and LF escaped (GitHub's own rule, so page text cannot
 * start a command of its own on a new line), escape codes and other controls removed.
 */
export function githubData(text: string): string {
  return String(text)
    .split(/(\r|\n)/)
    .map((part) => (part === '\r' ? '%0D' : part === '\n' ? '%0A' : safeForTerminal(part).replace(/%/g, '%25')))
    .join('');
}

/** A workflow command's property value (file, title): also `:` and `,`, which end a property. */
export function githubProperty(text: string): string {
  return githubData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** Page text in the step summary's Markdown: no HTML, no Markdown that would link or break the table. */
export function markdownText(text: string): string {
  return safeForTerminal(text)
    .replace(/\s+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]|#!~()]/g, (c) => `\\${c}`);
}

/**
 * GitHub Actions: `::error file=…,line=…,title=…::` on each failed task, once all ended (the failed check, and
 * where its report or screenshot is), a `::notice` with the counts, and the table in
 * $GITHUB_STEP_SUMMARY when it is set.
 */
export function githubReporter(io: ReporterIo): TestReporter {
  let info: RunInfo;
  const runUrl = (): string | undefined => {
    const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: run } = io.env;
    return server && repo && run ? `${server}/${repo}/actions/runs/${run}` : undefined;
  };
  const annotate = (r: TaskReport): void => {
    const where = r.report ?? r.screenshot;
    const link = where ? `\n${r.report ? 'report' : 'screenshot'}: ${shown(io.cwd, where)}${runUrl() ? ` (in the artifacts of ${runUrl()})` : ''}` : '';
    // The screenshot's line is already in the failure text (list reporter's form): not twice.
    const failure = (r.failure ?? 'failed').replace(/\nscreenshot: [^\n]*$/, '');
    const props = [`file=${githubProperty(info.file)}`, ...(r.line ? [`line=${r.line}`] : []), `title=${githubProperty(`pagehand test: ${r.name}`)}`];
    io.write(`::error ${props.join(',')}::${githubData(`${failure}${link}`)}\n`);
  };
  return {
    begin: (i) => void (info = i),
    task: () => {},
    async end(results) {
      const { passed, failed } = counts(results);
      results.filter((r) => !r.ok).forEach(annotate);
      io.write(`::notice title=${githubProperty(`pagehand test ${info.file}`)}::${passed} passed, ${failed} failed\n`);
      const summary = io.env.GITHUB_STEP_SUMMARY;
      if (summary) await appendFile(summary, githubSummary(info, results));
    },
  };
}

/** The step summary: the counts, a table of the tasks, each failure's first line. */
export function githubSummary(info: RunInfo, results: readonly TaskReport[]): string {
  const { passed, failed } = counts(results);
  const rows = results.map((r) => {
    const why = r.ok ? '' : markdownText((r.failure ?? 'failed').split('\n').slice(0, 3).join(' '));
    return `| ${markdownText(r.name)} | ${r.ok ? '✅ passed' : '❌ failed'} | ${r.steps} | ${r.modelCalls} | ${r.repaired} | ${seconds(r.time * 1000)} | ${why} |`;
  });
  return [
    `### pagehand test ${markdownText(info.file)}`,
    '',
    `**${passed} passed, ${failed} failed**`,
    '',
    '| task | result | steps | model calls | repaired | time | why |',
    '| --- | --- | ---: | ---: | ---: | ---: | --- |',
    ...rows,
    '',
    '',
  ].join('\n');
}

export function summaryTable(rows: readonly TaskReport[]): string {
  const head = ['task', 'result', 'steps', 'model calls', 'repaired', 'time'];
  const body = rows.map((r) => [
    safeForTerminal(r.name),
    r.ok ? 'passed' : 'FAILED',
    String(r.steps),
    String(r.modelCalls),
    String(r.repaired),
    seconds(r.time * 1000),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), widths.map((w) => '─'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

/** The reporters the specs name, as one. */
export function testReporters(specs: readonly ReporterSpec[], io: ReporterIo): TestReporter {
  const all = specs.map((s): TestReporter => {
    if (s.name === 'list') return listReporter(io);
    if (s.name === 'dot') return dotReporter(io);
    if (s.name === 'github') return githubReporter(io);
    if (s.name === 'junit') return fileReporter(io, s, (info, rs) => junitXml(info.file, rs), 'JUnit XML');
    return fileReporter(
      io,
      s,
      (info, rs) => (s.file ? `${JSON.stringify(jsonReport(info, rs), null, 2)}\n` : jsonForTerminal(jsonReport(info, rs))),
      'JSON report',
    );
  });
  return {
    begin: (info) => all.forEach((r) => r.begin(info)),
    task: (r, done, total) => all.forEach((x) => x.task(r, done, total)),
    // GitHub reads a workflow command only at the start of a line: the github reporter ends last,
    // after the others have ended their lines.
    end: async (rs) => {
      for (const r of [...all.filter((_, i) => specs[i]!.name !== 'github'), ...all.filter((_, i) => specs[i]!.name === 'github')]) await r.end(rs);
    },
  };
}

/** The line a task's `"name": "…"` is on in the tasks file's text (1-based), if found. Pure. */
export function taskLine(text: string, name: string): number | undefined {
  const at = new RegExp(`"name"\\s*:\\s*${JSON.stringify(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`).exec(text)?.index;
  return at === undefined ? undefined : text.slice(0, at).split('\n').length;
}
