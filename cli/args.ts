/**
 * The command line of `pagehand`: parsing (no I/O but checking that a --url without a scheme
 * names a file, that each --file exists, and reading the --schema file) and the help text. Every flag the runner takes is listed in HELP; a flag it
 * does not know is an error, not ignored.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { schemaProblem, type AnswerSchema } from '../common/answer-schema';
import { secretsProblem } from '../common/secrets-check';
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Recording } from '../client/agent/public-types';
import { browserEndpointOf } from './endpoint-url';
import { readFlags, type FlagSpec } from './flags';
import { readThreadFile } from './thread-file';
import type { Thread } from '../common/thread';
import { readRecordingFile, valuesOf } from './recording-file';
import { parseTestArgs, TEST_HELP, type TestArgs } from './test-args';
import { splitCredentials, type UrlCredentials } from './url-credentials';

export interface RunArgs {
  task: string;
  /** The start page, without the user and password it may have been given with (`credentials`). */
  url: string;
  /** The user and password from the start URL, for that origin's HTTP authentication (cli/url-credentials.ts). */
  credentials?: UrlCredentials;
  proxy: string;
  token?: string;
  model?: string;
  maxSteps?: number;
  /** `--max-tokens N`: stop once the run's tokens reach N. */
  maxTokens?: number;
  /** `--max-cost USD`: stop once the run's cost reaches it (the proxy must have the model's price). */
  maxCost?: number;
  /** `--verify`: one more model turn checks the page against the task before the run ends. */
  verify?: boolean;
  json: boolean;
  screenshotDir?: string;
  profile?: string;
  headed: boolean;
  chromium?: string;
  /** `--browser-endpoint URL`: a browser to connect to instead of launching one (cli/browser-endpoint.ts). */
  browserEndpoint?: string;
  yes: boolean;
  /** Files the task may upload (`--file`, repeatable): absolute paths, each an existing file. */
  files: string[];
  /** Values the agent may type but not see (`--secret name=value`, repeatable). */
  secrets?: Record<string, string>;
  /** The answer's JSON Schema (`--schema FILE`), read and checked. */
  schema?: AnswerSchema;
  /** `--replay FILE`: the recording to run again instead of the task (read and checked). */
  replay?: Recording;
  /** `--value NAME=VALUE` (repeatable): the recording's named values. */
  values?: Record<string, string>;
  /** `--no-repair`: a broken step ends the replay instead of going to the model. */
  repair?: boolean;
  /** `--report DIR`: write the run's HTML report there (absolute). */
  report?: string;
  /** `--record FILE`: where to write the run's recording. */
  record?: string;
  /** `--thread FILE`: the conversation to continue (read when the file exists) and where the run writes it back. */
  thread?: { path: string; value?: Thread };
}

export type Parsed =
  { kind: 'help' } | { kind: 'version' } | { kind: 'run'; args: RunArgs } | { kind: 'test'; args: TestArgs } | { kind: 'error'; message: string };

export const DEFAULT_PROXY = 'http://127.0.0.1:8787';
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

export const HELP = `pagehand — run a task in a web page from the command line (headless Chromium)

Usage:
  pagehand run --url URL [options] "task"
  pagehand run --replay FILE [--url URL] [options]
  pagehand test TASKS.json [options]      (see below)
  pagehand --help | --version

Opens URL in the system Chromium with the pagehand bundle injected at document start (so the
run goes on across page navigations), runs the task through pagehand.run (no overlay), streams
the step log and prints the result. Exit status 0 when the task succeeded, 1 otherwise.

Options:
  --url URL             The page to start on (required): a URL, an address like example.org
                        (https), or a local file. A site behind HTTP authentication:
                        https://user:password@host/… (used for that site, never printed).
  --proxy URL           The pagehand proxy (default ${DEFAULT_PROXY}; start it with \`npm start\`).
  --token T             The proxy token. Default: the personal token \`npm start\` keeps
                        (~/.config/pagehand/personal-token, or $PAGEHAND_TOKEN_FILE)
                        when the proxy is on this machine, else $PAGEHAND_TOKEN.
  --model M             The model (default: the proxy's default model).
  --max-steps N         Model turns at most (default 50).
  --max-tokens N        Stop the run (not done, max_tokens) once its prompt and reply tokens
                        reach N; checked before each model call.
  --max-cost USD        Stop the run (not done, max_cost) once it has cost USD dollars, e.g.
                        0.05; checked before each model call. Needs the model's price on the
                        proxy (PAGEHAND_PRICES): without one the run does not start.
  --verify              Before the run ends, one more model turn checks the page against the
                        task (done again, or it goes on).
  --json                One JSON object per line on stdout for every event (step, action,
                        message, confirm, ask, error, pause, done; not the reply as it
                        streams), a {"event":"note","text":…} for what the runner itself
                        says (an answered dialog, a saved download, an allowed or denied
                        risky action), then {"event":"result",…}. Without it the step log (and a progress
                        line on a terminal) goes to stderr and the result to stdout.
  --screenshot-dir D    Save one PNG per step in D (step-001.png, …), the acted-on element's box
                        and the click point marked.
  --profile DIR         Use (and keep) a browser profile in DIR, e.g. to stay logged in
                        between runs. Default: a fresh profile that is thrown away.
  --headed              Show the browser window (default headless).
  --chromium PATH       The Chromium executable (default $CHROMIUM_PATH, else ${DEFAULT_CHROMIUM}).
  --browser-endpoint URL  Connect to a browser that runs elsewhere instead of launching one:
                        a Playwright browser server (ws://…) or a Chromium with a remote
                        debugging port (http://host:9222). The run opens its own context there
                        and closes it; the browser stays. docs/runner.md: remote browsers.
  --yes                 Allow risky actions (payment, deletion, sending, personal data, leaving
                        the site, downloads) without asking.
  --file PATH           A file the task may upload (repeatable). The model sees its name, type
                        and size; upload puts it into a file input or a drop zone of the site
                        the run starts on. No other file can be uploaded.
  --secret NAME=VALUE   A value the agent may type but never see (repeatable): the model reads
                        <secret:NAME>, typing it puts VALUE into the page (on the site the run
                        starts on only), and VALUE is masked out of all it reads. --secret NAME
                        alone reads $PAGEHAND_SECRET_NAME (upper case; - as _), which keeps the
                        value out of the process list and the shell's history.
  --schema FILE         A JSON Schema for the answer (the subset docs/configuration.md lists).
                        The result then carries the answer as data: printed as JSON after the
                        summary, and as "data" in the --json result line.
  --report DIR          Write the run's report to DIR: one HTML file that opens offline (the
                        outcome, then each step with its screenshot and the acted-on element
                        boxed, the calls and results, the model's words, risk questions and
                        answers, time, tokens and cost). docs/runner.md shows one.
  --record FILE         Write the run's recording to FILE (JSON; docs/replay.md): run it again
                        with --replay, or list it in a test kit's tasks file.
  --thread FILE         Continue a conversation: the model reads the earlier tasks in FILE,
                        their answers and where each ended (so "Cancel it" knows what "it" is),
                        and the run writes FILE back with its own turn added. A FILE that does
                        not exist yet starts one. Nothing allowed in an earlier run carries over.
  --replay FILE         Run a recording again instead of a task: no model call while every
                        step matches; a step that broke goes to the model, which redoes that
                        step only. --url defaults to the page the recording starts on.
  --value NAME=VALUE    A value for the recording's {NAME} (repeatable).
  --no-repair           With --replay: a broken step ends the run (exit 1) without a model call.
  -h, --help            This text.
  -v, --version         The version.

Risky actions: with --yes they are allowed. Otherwise, when stdin is a terminal, the runner asks
(y = yes, a = yes for the rest of the run, anything else = no); when stdin is not a terminal
(a pipe, CI) they are denied, the model is told so and the run goes on without them.
The page's own dialogs (confirm, prompt, "leave this page?") are answered the same way: OK with
--yes, else asked on the terminal, else Cancel. Alerts are accepted. Each is logged.
Questions the model asks the user are answered on the terminal too (not answered without one).

Examples:
  npm start &                                   # the proxy, on ${DEFAULT_PROXY}
  npx pagehand run --url https://example.org "Find the contact email"
  npx pagehand run --url http://127.0.0.1:8787/demo/ --json --screenshot-dir shots "…"
  npx pagehand run --url http://127.0.0.1:8787/demo/todo-list.html --record todo.json "Add Water the plants"
  npx pagehand run --replay todo.json --no-repair
${TEST_HELP}`;

const RUN_FLAGS: FlagSpec = {
  values: [
    'url',
    'proxy',
    'token',
    'model',
    'max-steps',
    'max-tokens',
    'max-cost',
    'screenshot-dir',
    'profile',
    'chromium',
    'browser-endpoint',
    'schema',
    'replay',
    'record',
    'thread',
    'report',
  ],
  /** Flags that may be given more than once, each time with a value. */
  lists: ['file', 'secret', 'value'],
  booleans: ['json', 'headed', 'yes', 'no-repair', 'verify'],
};
/** The most `--file`s one run takes. */
export const MAX_FILES = 20;

/**
 * The page to start on, as a browser's address bar reads it: a URL with a scheme as is; a bare
 * address (example.org/contact, localhost:3000) over https, or http for this machine; a path to
 * a file that exists as a file URL. Undefined for anything else.
 */
export function pageUrl(input: string, cwd: string): string | undefined {
  const text = input.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) || /^file:/i.test(text)) {
    try {
      const u = new URL(text);
      return /^(https?|file):$/.test(u.protocol) ? u.href : undefined;
    } catch {
      return undefined;
    }
  }
  const file = resolve(cwd, text);
  if (existsSync(file) && statSync(file).isFile()) return pathToFileURL(file).href;
  // Reads as a path, not an address: a file that does not exist.
  if (/^[./~]|\.x?html?$/i.test(text)) return undefined;
  const host = /^([^/?#:]+)(:\d+)?(?:[/?#]|$)/.exec(text)?.[1]?.toLowerCase();
  if (!host || !(host.includes('.') || host === 'localhost') || /\s/.test(text)) return undefined;
  const local = host === 'localhost' || host === '127.0.0.1';
  try {
    return new URL(`${local ? 'http' : 'https'}://${text}`).href;
  } catch {
    return undefined;
  }
}

/** Parses argv (without node and the script). */
export function parseArgs(argv: readonly string[], env: Record<string, string | undefined> = {}, cwd: string = process.cwd()): Parsed {
  if (!argv.length || argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') return { kind: 'help' };
  // Anywhere, like --help: `pagehand run --version` is asking for the version too.
  if (argv.includes('--version') || argv.includes('-v')) return { kind: 'version' };
  const [command, ...rest] = argv;
  if (command === 'test') return parseTestArgs(rest, env, cwd);
  if (command !== 'run')
    return { kind: 'error', message: `unknown command "${command}" (the commands are \`pagehand run\` and \`pagehand test\`; see --help)` };

  const read = readFlags(rest, RUN_FLAGS, (a) => `unknown option ${a} (see --help)`);
  if (typeof read === 'string') return { kind: 'error', message: read };
  const { values, lists, flags, words } = read;

  let replay: Recording | undefined;
  if (values.replay !== undefined) {
    const r = readRecordingFile(resolve(cwd, values.replay), `--replay ${values.replay}`);
    if (typeof r === 'string') return { kind: 'error', message: r };
    replay = r;
    values.url ??= r.url;
  }
  const replayOnly = [lists.value?.length ? '--value' : '', flags.has('no-repair') ? '--no-repair' : ''].find(Boolean);
  if (replayOnly && !replay) return { kind: 'error', message: `${replayOnly} goes with --replay FILE` };
  const recordValues = valuesOf(lists.value ?? []);
  if (typeof recordValues === 'string') return { kind: 'error', message: recordValues };
  const task = words.join(' ').trim() || (replay?.task ?? '');
  if (!values.url) return { kind: 'error', message: 'missing --url URL: the page to start on' };
  const start = pageUrl(values.url, cwd);
  if (!start)
    return { kind: 'error', message: `--url must be an http(s) or file URL, an address like example.org, or a file that exists; got "${values.url}"` };
  // Before the task: `--max-steps oops` took the word meant as the task, and saying so helps more.
  let maxSteps: number | undefined;
  if (values['max-steps'] !== undefined) {
    maxSteps = Number(values['max-steps']);
    if (!Number.isInteger(maxSteps) || maxSteps < 1)
      return { kind: 'error', message: `--max-steps must be a positive whole number, got "${values['max-steps']}"` };
  }
  let maxTokens: number | undefined;
  if (values['max-tokens'] !== undefined) {
    maxTokens = Number(values['max-tokens']);
    if (!Number.isInteger(maxTokens) || maxTokens < 1)
      return { kind: 'error', message: `--max-tokens must be a positive whole number, got "${values['max-tokens']}"` };
  }
  let maxCost: number | undefined;
  if (values['max-cost'] !== undefined) {
    maxCost = Number(values['max-cost'].replace(/^\$/, ''));
    if (!Number.isFinite(maxCost) || maxCost <= 0)
      return { kind: 'error', message: `--max-cost must be an amount in US dollars above 0, like 0.05, got "${values['max-cost']}"` };
  }
  if (!task) return { kind: 'error', message: 'missing the task: pagehand run --url URL "what to do"' };
  const { url, credentials } = splitCredentials(start);
  const files: string[] = [];
  for (const f of lists.file ?? []) {
    const path = resolve(cwd, f);
    if (!existsSync(path) || !statSync(path).isFile()) return { kind: 'error', message: `--file must name a file that exists, got "${f}"` };
    if (!files.includes(path)) files.push(path);
  }
  if (files.length > MAX_FILES) return { kind: 'error', message: `--file: at most ${MAX_FILES} files, got ${files.length}` };
  const names = files.map((f) => basename(f));
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) return { kind: 'error', message: `--file: two files are named "${twice}" (the task names files by name)` };
  const secrets = secretsOf(lists.secret ?? [], env);
  if (typeof secrets === 'string') return { kind: 'error', message: secrets };
  const schema = values.schema === undefined ? undefined : schemaFrom(resolve(cwd, values.schema), values.schema);
  if (typeof schema === 'string') return { kind: 'error', message: schema };
  let thread: RunArgs['thread'];
  if (values.thread !== undefined) {
    if (replay) return { kind: 'error', message: '--thread goes with a task, not with --replay' };
    const t = readThreadFile(resolve(cwd, values.thread), values.thread);
    if (typeof t === 'string') return { kind: 'error', message: t };
    thread = { path: resolve(cwd, values.thread), ...(t ? { value: t } : {}) };
  }
  const proxy = (values.proxy ?? DEFAULT_PROXY).replace(/\/+$/, '');
  try {
    if (!/^https?:$/.test(new URL(proxy).protocol)) throw new Error('not http');
  } catch {
    return { kind: 'error', message: `--proxy must be an http(s) URL, got "${proxy}"` };
  }
  const endpoint = browserEndpointOf(values);
  if (endpoint.error) return { kind: 'error', message: endpoint.error };
  if (endpoint.url && values.profile !== undefined)
    return { kind: 'error', message: '--profile goes with a browser the runner launches, not with --browser-endpoint' };
  return {
    kind: 'run',
    args: {
      task,
      url,
      ...(credentials ? { credentials } : {}),
      proxy,
      token: values.token,
      model: values.model,
      maxSteps,
      ...(maxTokens ? { maxTokens } : {}),
      ...(maxCost ? { maxCost } : {}),
      ...(flags.has('verify') ? { verify: true } : {}),
      json: flags.has('json'),
      screenshotDir: values['screenshot-dir'],
      profile: values.profile,
      headed: flags.has('headed'),
      chromium: values.chromium ?? (env.CHROMIUM_PATH?.trim() || undefined),
      ...(endpoint.url ? { browserEndpoint: endpoint.url } : {}),
      yes: flags.has('yes'),
      files,
      ...(secrets ? { secrets } : {}),
      ...(schema ? { schema } : {}),
      ...(replay ? { replay, repair: !flags.has('no-repair'), ...(recordValues ? { values: recordValues } : {}) } : {}),
      ...(values.record !== undefined ? { record: resolve(cwd, values.record) } : {}),
      ...(values.report !== undefined ? { report: resolve(cwd, values.report) } : {}),
      ...(thread ? { thread } : {}),
    },
  };
}

/** `--secret NAME=VALUE` (or `--secret NAME`, from $PAGEHAND_SECRET_NAME) as run secrets, or the error. */
function secretsOf(given: readonly string[], env: Record<string, string | undefined>): Record<string, string> | undefined | string {
  if (!given.length) return undefined;
  const out: Record<string, string> = {};
  for (const g of given) {
    const eq = g.indexOf('=');
    const name = eq < 0 ? g : g.slice(0, eq);
    const variable = `PAGEHAND_SECRET_${name.toUpperCase().replace(/-/g, '_')}`;
    const value = eq < 0 ? env[variable] : g.slice(eq + 1);
    if (value === undefined || value === '')
      return eq < 0 ? `--secret ${name}: $${variable} is not set (or give --secret ${name}=VALUE)` : `--secret ${name}= needs a value`;
    if (Object.prototype.hasOwnProperty.call(out, name)) return `--secret ${name} is given twice`;
    out[name] = value;
  }
  // The run's own check, worded for the flag (never with the value in it).
  const problem = secretsProblem(out);
  return problem ? `--secret: ${problem}` : out;
}

/** The `--schema` file: JSON, and a schema pagehand checks; or the error. */
function schemaFrom(path: string, given: string): AnswerSchema | string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return `--schema must name a JSON file that exists, got "${given}"`;
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (e) {
    return `--schema ${given} is not valid JSON: ${String((e as Error)?.message ?? e)}`;
  }
  const problem = schemaProblem(schema);
  return problem ? `--schema ${given}: ${problem}` : (schema as AnswerSchema);
}
