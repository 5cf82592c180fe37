/**
 * What a trace keeps of each entry, and the only rewrites made to it. Each rewrite removes
 * something that legitimately differs from one run of the same tree to the next; anything else
 * is kept byte for byte, since a rewrite too many would hide the very change a trace is for.
 */
import { tmpdir } from 'node:os';
import type { TraceEntry } from './trace';

export interface Origins {
  /** The static fixture server's port (tests/browser/global-setup.ts), random per run. */
  staticPort: string;
}

/**
 * A whole test's trace, normalised: `requests` in order of arrival at the fake upstreams,
 * `events` (run events, run logs, CLI output) in the order the harness observed them. The two
 * lists are kept apart because their interleaving is a race (a page reports an event over a
 * Playwright binding while its next request travels over HTTP), not part of the step log.
 */
export function normaliseTrace(test: string, state: string, entries: TraceEntry[], origins: Origins): unknown {
  const requests: unknown[] = [];
  const events: unknown[] = [];
  for (const e of entries) {
    if (e.kind === 'request') requests.push(requestOf(e.data));
    else if (e.kind === 'cli') events.push({ kind: e.kind, ...cliOf(e.data) });
    else events.push({ kind: e.kind, ...(plain(e.data) as object) });
  }
  const ports = new Map<string, string>([[origins.staticPort, 'static']]);
  const trace = { test, state, requests, events };
  return lines(rewrite(trace, { ports, fences: fencesIn(JSON.stringify(trace)) }));
}

/**
 * A model request as the model gets it: the provider, the path (model and method) and the JSON
 * body the fake upstream received, with what the scripted model answered. Dropped: `seq` (counts
 * every request since the file's fake started, so it depends on which tests ran before; the
 * position in `requests` says the order) and the fields model-request.ts derives from the body
 * (`messages`, `tools`, `model`, `stream`: the body holds them).
 */
function requestOf(data: unknown): unknown {
  const r = plain(data) as { provider: string; path: string; body: unknown; reply?: unknown; policyError?: string };
  return { provider: r.provider, path: r.path, body: r.body, reply: r.reply, policyError: r.policyError };
}

/**
 * A `pagehand` CLI run: its arguments, exit code, stdout and stderr. Representation only: each
 * output is a list of lines, a line that is JSON (`--json`) parsed, so the rewrites below reach
 * its fields.
 */
function cliOf(data: unknown): Record<string, unknown> {
  const r = data as { args: string[]; code: number | null; stdout: string; stderr: string };
  const parse = (text: string) =>
    text.split('\n').map((l) => {
      if (!l.startsWith('{')) return l;
      try {
        return JSON.parse(l) as unknown;
      } catch {
        return l;
      }
    });
  return { args: r.args, code: r.code, stdout: parse(r.stdout), stderr: parse(r.stderr) };
}

/** Functions and undefined dropped, as JSON would (what a page or a file would hold). */
const plain = (v: unknown): unknown => (v === undefined ? null : JSON.parse(JSON.stringify(v)));

/**
 * Ports. Every server in a test listens on 127.0.0.1 port 0 (the static fixture server, the
 * proxy, the fake upstreams, the CLI's bridge), so its port is new each run and shows up in
 * page URLs, map headers, tool results and event payloads. `127.0.0.1:PORT` / `localhost:PORT`
 * (also URL-encoded, `%3A`) becomes `…:<static>` for the fixture server and `…:<port-N>` for
 * the others, N by first appearance in this test's trace — so two different servers stay
 * apart, and the host name (which says same-origin or cross-origin) is kept.
 */
const PORT = /(127\.0\.0\.1|localhost)(:|%3A|%3a)(\d{2,5})\b/g;

/**
 * Clock times. A run's recording carries `created`, the ISO time the run started (and the same
 * shape may appear in any text a run reports). An ISO-8601 UTC time within a day of the capture
 * becomes `<now>`; other dates (a fixture's "2024-03-01T09:00:00Z") are kept.
 */
const ISO_TIME = /\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z\b/g;
const DAY_MS = 86_400_000;

/**
 * Retry waits. A retried model call says "… — trying again in 0.9 s."; without a Retry-After
 * the wait is backoff with random jitter (client/llm/retry.ts), so the number becomes `<n>`.
 * (A Retry-After wait is exact but reads the same; the fault tests assert those numbers.)
 */
const RETRY_WAIT = /(trying again in )\d+(?:\.\d+)? s\b/g;

/**
 * Other measured seconds in text: a wait's "The text … appeared after 0.4 s" (the model reads
 * it), the CLI's "Done in 2 steps, 0.8 s, …" and `pagehand test`'s "…, 2 model calls, 1.3 s".
 * The number becomes `<n>`; the words around it stay.
 */
const MEASURED_SECONDS = /(appeared after |\d+ steps?, |model calls?, |repaired, )\d+(?:\.\d+)? s\b/g;
/** The last column (`time`) of a row of `pagehand test`'s table: "buy the grinder  passed  4  0  0  3.1 s". */
const TABLE_TIME = /^(.*\S {2,}\d+ {2,}\d+ {2,}\d+ {2,})\d+(?:\.\d+)? s$/;
/**
 * The same table is padded to its widest cell, a time among them ("9.8 s" or "10.2 s"): its
 * header, its rule and its rows are compared with runs of spaces and of rules made one wide.
 */
const TABLE_HEAD = /^(task {2,}result {2,}.* time|[─ ]*─[─ ]*)$/;
const unpadded = (row: string): string => row.replace(/ {2,}/g, '  ').replace(/─+/g, '─');

/**
 * A report's file name carries the local time the run started: `buy-the-grinder-20261129-091028.html`.
 * The date and time become `<when>`.
 */
const REPORT_TIME = /-\d{8}-\d{6}(\.html)\b/g;

/**
 * A Playwright browser server's endpoint path is 32 random hex digits per server
 * (`ws://127.0.0.1:PORT/3968f681…`): it becomes `<server>`.
 */
const SERVER_PATH = /((?:127\.0\.0\.1|localhost):\d{2,5}\/)[0-9a-f]{32}\b/g;

/**
 * Made fresh by each run: the proxy's personal token (`ph_` + 24 random bytes, base64url; it is
 * on the CLI's command line) and temporary directories made with mkdtemp (`/tmp/NAME-XXXXXX`,
 * also nested, `/tmp/NAME-XXXXXX/SUB-XXXXXX/file`: the CLI runner's working directories,
 * downloads, profiles). Only in paths under the OS temp directory, only segments of that shape.
 */
const TOKEN = /\bph_[A-Za-z0-9_-]{32}(?![A-Za-z0-9_-])/g;
const TMP_PATH = new RegExp(`${tmpdir().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/[^\\s"'\\\\]+`, 'g');
/** A path segment mkdtemp made: its prefix, then 6 random characters. */
const TMP_SEGMENT = /^([A-Za-z0-9._-]+-)[A-Za-z0-9]{6}$/;
const tmpPath = (path: string): string =>
  path
    .split('/')
    .map((seg) => seg.replace(TMP_SEGMENT, '$1<tmp>'))
    .join('/');

/**
 * A run's marker value (client/page/map/fence.ts): 12 random hex digits made per run, in every
 * data marker (`⟪page content 7f3a9c2e41b0⟫`) and in the system prompt that names it. Each value
 * a marker in the trace carries becomes `<fence-N>` wherever it stands, N by first appearance: two
 * runs' values stay apart, and a value outside the markers still shows where it appears.
 */
const MARKER_VALUE = /⟪\/?page content ([0-9a-f]{12})⟫/g;

function fencesIn(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(MARKER_VALUE)) if (!out.has(m[1]!)) out.set(m[1]!, `<fence-${out.size + 1}>`);
  return out;
}

interface Rewrites {
  ports: Map<string, string>;
  fences: Map<string, string>;
}

function rewriteString(s: string, { ports, fences }: Rewrites): string {
  let out = s;
  for (const [value, label] of fences) out = out.split(value).join(label);
  if (TABLE_HEAD.test(out) || TABLE_TIME.test(out)) out = unpadded(out);
  return out
    .replace(TOKEN, 'ph_<token>')
    .replace(REPORT_TIME, '-<when>$1')
    .replace(SERVER_PATH, '$1<server>')
    .replace(TMP_PATH, tmpPath)
    .replace(MEASURED_SECONDS, '$1<n> s')
    .replace(TABLE_TIME, '$1<n> s')
    .replace(RETRY_WAIT, '$1<n> s')
    .replace(PORT, (_m, host: string, sep: string, port: string) => {
      let label = ports.get(port);
      if (!label) ports.set(port, (label = `port-${ports.size}`));
      return `${host}${sep}<${label}>`;
    })
    .replace(ISO_TIME, (t) => (Math.abs(Date.parse(t) - Date.now()) < DAY_MS ? '<now>' : t));
}

/**
 * Durations, measured with the clock: a step event's `elapsedMs` (since the run started) and
 * every number under a `timing` object (a step's `observeMs`/`modelMs`, an action result's
 * `totalMs`/`settleMs`) become `"<ms>"`. The key stays, so a field that appears or goes still
 * shows. Numbers a test chooses (a script's `delayMs`, a tool's `hold_ms`) are kept.
 */
const DURATION_KEYS = new Set(['elapsedMs']);

function rewrite(v: unknown, r: Rewrites, inTiming = false): unknown {
  if (typeof v === 'string') return rewriteString(v, r);
  if (typeof v === 'number' && inTiming) return '<ms>';
  if (Array.isArray(v)) return v.map((x) => rewrite(x, r));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      out[rewriteString(k, r)] = typeof x === 'number' && DURATION_KEYS.has(k) ? '<ms>' : rewrite(x, r, inTiming || k === 'timing');
    }
    return out;
  }
  return v;
}

/**
 * Representation only, nothing dropped: a string that spans lines (a page map, a prompt, a
 * tool result) is written as `{ "lines": [...] }`, one array item a line, so a diff points at
 * the line that changed instead of one long JSON string.
 */
function lines(v: unknown): unknown {
  if (typeof v === 'string') return v.includes('\n') ? { lines: v.split('\n') } : v;
  if (Array.isArray(v)) return v.map(lines);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, lines(x)]));
  return v;
}
