/**
 * Vitest setup file for the browser project, loaded only when PAGEHAND_TRACE_DIR is set (see
 * vitest.config.ts): collects what trace.ts is told during each test and, after the file's last
 * test, writes one file per test to $PAGEHAND_TRACE_DIR:
 *
 *   <test file, without tests/browser/ and .test.ts>--<describe > … > test name>.json
 *
 * (characters other than letters, digits, `.`, `_` and `-` become `_`; a long name is cut and
 * given a hash of the full one). What arrives before a file's first test or between tests goes
 * to the test that ran last; before any test, to `<file>--(outside tests).json`.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeEach, inject } from 'vitest';
import { normaliseTrace } from './normalise';
import { installCollector, type TraceEntry } from './trace';

const dir = process.env.PAGEHAND_TRACE_DIR;

interface TestTrace {
  name: string;
  file: string;
  state: () => string;
  entries: TraceEntry[];
}

if (dir) {
  const traces: TestTrace[] = [];
  let current: TestTrace | undefined;
  let file = '';
  const outside: TestTrace = { name: '(outside tests)', file: '', state: () => '', entries: [] };
  installCollector({ record: (e) => (current ?? outside).entries.push(e) });

  beforeEach((ctx) => {
    file = ctx.task.file.name;
    current = {
      name: ctx.task.fullTestName ?? ctx.task.name,
      file,
      // Read when the file is written, after the test has finished.
      state: () => ctx.task.result?.state ?? 'unknown',
      entries: [],
    };
    traces.push(current);
  });

  afterAll(() => {
    mkdirSync(dir, { recursive: true });
    const staticPort = new URL(inject('origin')).port;
    const used = new Set<string>();
    for (const t of [outside, ...traces]) {
      if (t === outside && (!t.entries.length || !file)) continue;
      const base = fileName(t.file || file, t.name);
      // Two tests with the same full name (vitest allows it) get -2, -3… in the order they ran.
      let name = base;
      for (let i = 2; used.has(name); i++) name = `${base}-${i}`;
      used.add(name);
      const trace = normaliseTrace(t.name, t.state(), t.entries, { staticPort });
      writeFileSync(`${dir}/${name}.json`, `${JSON.stringify(trace, null, 1)}\n`);
    }
  });
}

function fileName(testFile: string, test: string): string {
  const clean = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^_+|_+$/g, '');
  const base = `${clean(testFile.replace(/^tests\/browser\//, '').replace(/\.test\.ts$/, ''))}--${clean(test)}`;
  if (base.length <= 160) return base;
  return `${base.slice(0, 150)}-${createHash('sha256').update(`${testFile} > ${test}`).digest('hex').slice(0, 8)}`;
}
