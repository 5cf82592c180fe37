import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../cli/args';
import { progressLine } from '../../cli/progress-line';
import { githubData, githubProperty, markdownText, reportersOf, taskLine, testReporters, type RunInfo, type TaskReport } from '../../cli/test-reporters';

const ESC = '\x1b';
const info: RunInfo = { file: 'tasks.json', total: 3, header: 'pagehand test tasks.json: 3 tasks, mode replay, 1 worker', outputDir: 'shots' };
const passed: TaskReport = { name: 'buy the grinder', ok: true, time: 1.25, steps: 4, modelCalls: 0, repaired: 0, detail: 'replay, 4 steps', line: 3 };
// Page text in a failure: a forged command on a new line, a percent, a colon and a comma, an escape code.
const failed: TaskReport = {
  name: 'pay, then: check',
  ok: false,
  time: 2,
  steps: 2,
  modelCalls: 1,
  repaired: 0,
  detail: 'model, 2 steps',
  line: 9,
  failure: `checks failed:\n- text "Paid 100%" is not on the page\r\n::error::FORGED${ESC}[2K\nscreenshot: shots/pay-then-check.png`,
  screenshot: '/work/x/shots/pay-then-check.png',
};
const third: TaskReport = { ...passed, name: 'open | the <b>widget</b>', line: 15 };

async function report(specs: string[], env: Record<string, string> = {}, results = [passed, failed, third]) {
  const cwd = await mkdtemp(join(tmpdir(), 'pagehand-reporters-'));
  const given = reportersOf(specs, undefined, env, cwd);
  if (typeof given === 'string') throw new Error(given);
  let out = '';
  const r = testReporters(given, { write: (t) => void (out += t), env, cwd: '/work/x' });
  r.begin(info);
  results.forEach((x, i) => r.task(x, i + 1, results.length));
  await r.end(results);
  return { out, cwd };
}

describe('--reporter', () => {
  it('reads names as Playwright Test does: commas, the flag repeated, junit:FILE and json:FILE, --junit; list by default', () => {
    expect(reportersOf([], undefined, {}, '/d')).toEqual([{ name: 'list' }]);
    expect(reportersOf(['dot,junit:out.xml', 'github'], undefined, {}, '/d')).toEqual([
      { name: 'dot' },
      { name: 'junit', file: '/d/out.xml' },
      { name: 'github' },
    ]);
    // --junit alone keeps today's output: the list, and the file.
    expect(reportersOf([], 'r.xml', {}, '/d')).toEqual([{ name: 'list' }, { name: 'junit', file: '/d/r.xml' }]);
    expect(reportersOf(['json'], undefined, { PAGEHAND_JSON_OUTPUT_NAME: 'res.json' }, '/d')).toEqual([{ name: 'json', file: '/d/res.json' }]);
    expect(reportersOf(['html'], undefined, {}, '/d')).toBe('--reporter must be list, dot, junit, json, github (several with commas), got "html"');
    expect(reportersOf(['dot:x.txt'], undefined, {}, '/d')).toBe('--reporter dot writes no file (junit:FILE and json:FILE do)');
    const p = parseArgs(['test', 'missing.json', '--reporter=nope'], {}, '/');
    expect(p).toEqual({ kind: 'error', message: '--reporter must be list, dot, junit, json, github (several with commas), got "nope"' });
  });
});

describe('the github reporter', () => {
  it('escapes %, CR, LF in a message, and : and , too in a property; drops escape codes', () => {
    expect(githubData('100%\r\nnext')).toBe('100%25%0D%0Anext');
    expect(githubData(`a${ESC}[2Kb\n::error::x`)).toBe('ab%0A::error::x');
    expect(githubProperty('pay, then: 50%\nx')).toBe('pay%2C then%3A 50%25%0Ax');
  });

  it('writes one ::error per failed task (file, line, title; the failed check and its screenshot) and a ::notice, line by line', async () => {
    const { out } = await report(['github'], { GITHUB_SERVER_URL: 'http://ci.invalid', GITHUB_REPOSITORY: 'o/r', GITHUB_RUN_ID: '7' });
    const lines = out.split('\n');
    expect(lines).toEqual([
      '::error file=tasks.json,line=9,title=pagehand test%3A pay%2C then%3A check::checks failed:%0A- text "Paid 100%25" is not on the page%0D%0A::error::FORGED%0Ascreenshot: shots/pay-then-check.png (in the artifacts of http://ci.invalid/o/r/actions/runs/7)',
      '::notice title=pagehand test tasks.json::2 passed, 1 failed',
      '',
    ]);
    // The forged command is inside the first one's message: no line of the output starts with it.
    expect(lines.filter((l) => l.startsWith('::error'))).toHaveLength(1);
  });

  it('with a report path known, links the report; without a failure, only the notice', async () => {
    const { out } = await report(['github'], {}, [{ ...failed, report: '/work/x/report/pay.html' }]);
    expect(out.split('\n')[0]).toMatch(/%0Areport: report\/pay\.html$/);
    expect((await report(['github'], {}, [passed])).out).toBe('::notice title=pagehand test tasks.json::1 passed, 0 failed\n');
  });

  it('writes the summary to $GITHUB_STEP_SUMMARY: counts and a table, page text inert as Markdown', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pagehand-summary-'));
    const file = join(dir, 'summary.md');
    await report(['github'], { GITHUB_STEP_SUMMARY: file });
    const md = await readFile(file, 'utf8');
    expect(md.split('\n').slice(0, 6)).toEqual([
      '### pagehand test tasks.json',
      '',
      '**2 passed, 1 failed**',
      '',
      '| task | result | steps | model calls | repaired | time | why |',
      '| --- | --- | ---: | ---: | ---: | ---: | --- |',
    ]);
    expect(md).toContain('| open \\| the &lt;b&gt;widget&lt;/b&gt; | ✅ passed | 4 | 0 | 0 | 1.3 s |  |');
    expect(md).toContain('| pay, then: check | ❌ failed | 2 | 1 | 0 | 2.0 s | checks failed: - text "Paid 100%" is not on the page ::error::FORGED |');
    expect(md).not.toContain(ESC);
    expect(markdownText('[x](javascript:y) `z`')).toBe('\\[x\\]\\(javascript:y\\) \\`z\\`');
  });
});

describe('the dot and json reporters', () => {
  it('dot: a character per task, then each failure and the counts', async () => {
    const { out } = await report(['dot']);
    const [dots, , ...rest] = out.split('\n');
    expect(dots).toBe('·F·');
    expect(rest.join('\n')).toContain('  1) pay, then: check\n      checks failed:\n      - text "Paid 100%" is not on the page\n      ::error::FORGED\n');
    expect(out).not.toContain(ESC);
    expect(out.trimEnd().split('\n').pop()).toBe('2 passed, 1 failed');
  });

  it('json: one document, to stdout or to json:FILE, that parses back to the results', async () => {
    const { out } = await report(['json']);
    const doc = JSON.parse(out);
    expect(doc).toMatchObject({ file: 'tasks.json', total: 3, passed: 2, failed: 1 });
    expect(doc.tasks.map((t: { name: string; ok: boolean }) => [t.name, t.ok])).toEqual([
      ['buy the grinder', true],
      ['pay, then: check', false],
      ['open | the <b>widget</b>', true],
    ]);
    expect(doc.tasks[1].failure).toContain(`::error::FORGED${ESC}[2K`);
    expect(out).not.toContain(ESC);
    const { out: said, cwd } = await report(['json:res.json,dot']);
    expect(said).toContain('JSON report: ');
    expect(JSON.parse(await readFile(join(cwd, 'res.json'), 'utf8')).tasks[1].screenshot).toBe(failed.screenshot);
  });
});

describe('taskLine', () => {
  it("finds a task's name in the tasks file's text", () => {
    const text = JSON.stringify({ tasks: [{ name: 'a' }, { name: 'b "q"' }] }, null, 2);
    expect(taskLine(text, 'a')).toBe(4);
    expect(taskLine(text, 'b "q"')).toBe(7);
    expect(taskLine(text, 'c')).toBeUndefined();
  });
});

describe('the progress line', () => {
  it('on a terminal: drawn in place, cleared before other output and drawn again after; nothing when not a terminal', () => {
    let tty = '';
    const line = progressLine({ isTTY: true, columns: 40, write: (t) => (tty += t) });
    const out = line.around((t) => (tty += t));
    line.show('[1/3] running: a');
    out('  ✓ [1/3] a\n');
    line.clear();
    expect(tty).toBe(`\r${ESC}[K[1/3] running: a\r${ESC}[K  ✓ [1/3] a\n\r${ESC}[K[1/3] running: a\r${ESC}[K`);
    let piped = '';
    const quiet = progressLine({ write: (t) => (piped += t) });
    quiet.show('[1/3]');
    quiet.around((t) => (piped += t))('x\n');
    quiet.clear();
    expect(piped).toBe('x\n');
  });
});
