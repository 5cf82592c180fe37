/**
 * The step-log trace hook: the test support code (fake upstreams, agent harness, run recorder,
 * CLI runner) reports what it sees here — every model request the fake upstreams receive and the
 * run events the tests observe — and tests/trace/setup.ts writes one file per test.
 *
 * Off unless PAGEHAND_TRACE_DIR is set: vitest.config.ts loads setup.ts only then, and setup.ts
 * is what installs the collector; without it `traceRecord` does nothing and `tracing()` is
 * false, so the harness behaves exactly as before. No vitest import: the fake upstreams that
 * call this also run in the bench and in globalSetup, outside any test.
 */

/** What one test saw, in order of arrival within each kind. */
export interface TraceEntry {
  kind: 'request' | 'event' | 'run-log' | 'cli';
  /** Kept as given and serialised when the file is written (a request's `reply` is filled in
   * after it arrives). */
  data: unknown;
}

export interface TraceCollector {
  record(entry: TraceEntry): void;
}

const KEY = '__pagehandTraceCollector';

/** Installed by setup.ts (once per test file's worker). */
export function installCollector(c: TraceCollector): void {
  (globalThis as Record<string, unknown>)[KEY] = c;
}

const collector = (): TraceCollector | undefined => (globalThis as Record<string, unknown>)[KEY] as TraceCollector | undefined;

/** Whether traces are being captured (PAGEHAND_TRACE_DIR set and this is a traced test file). */
export const tracing = (): boolean => collector() !== undefined;

export function traceRecord(kind: TraceEntry['kind'], data: unknown): void {
  collector()?.record({ kind, data });
}
