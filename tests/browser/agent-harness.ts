/**
 * End-to-end harness for the agent loop: the real proxy (the app `npm start` runs) in-process
 * between fake OpenAI/Gemini upstreams and the bundle in Chromium, and a scripted model.
 *
 *   const stack = await startAgentStack();
 *   stack.setPolicy((req) => {
 *     const map = latestMap(req);
 *     if (!hasText(map, 'results for')) return call('type', { ref: refFor(map, 'searchbox', 'Search mail'), text: 'ernesto', submit: true });
 *     return call('done', { summary: '…' });
 *   });
 *   const page = await openWithAgent(session, 'webmail/inbox.html', { early: true });
 *   const run = await runAgent(page, stack, 'Find the emails Ernesto sent', { confirm: () => true });
 *   expect(await run.result).toMatchObject({ ok: true });
 *
 * The fixture pages come from the static server (one origin); the proxy listens on another
 * port, so every model call from the page is a cross-origin request with the personal
 * any-origin token, as for a bookmarklet.
 *
 * The toolkit reads requests as a model would and depends on the loop's prompt only through
 * the map's own format (its header line, the ⟪page content⟫ markers — with the run's value in a
 * run's prompt, bare in `pagehand.map()` — and `[ref]role "name"` lines).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { ConfirmRequest, RunOptions, RunResult } from '../../client/agent/public-types';
import { startNodeServer, type NodeServer } from '../../server/node';
import { startFakeUpstreams, type FakeUpstreams } from '../server/fakes/fake-upstreams';
import type { ModelMessage, ModelRequest } from '../server/fakes/model-request';
import type { FakeScript, FakeToolCall } from '../server/fakes/script';
import type { NoTools } from '../server/fakes/no-tools';
import { afterAll, beforeAll } from 'vitest';
import { open, type Session } from './harness';
import { traceRecord } from '../trace/trace';

export type { ModelRequest } from '../server/fakes/model-request';

/** What the scripted model answers: tool calls and/or text, or any fault the fake can play
 * (`status`, `retryAfterSeconds`, `cutAfter`, `delayMs`, … — see FakeScript). */
export type Reply = FakeScript;
export type Policy = (req: ModelRequest) => Reply | undefined | Promise<Reply | undefined>;

/** The model names the stack allows: one per provider path. */
export const MODELS = { openai: 'gpt-test', gemini: 'gemini-test-flash' } as const;

export interface AgentStack {
  /** The proxy's base URL (no trailing /v1): `RunOptions.proxy`. */
  proxyUrl: string;
  /** The personal any-origin token: `RunOptions.token`. */
  token: string;
  fake: FakeUpstreams;
  proxy: NodeServer;
  /** Installs the scripted model for the next requests (replaces the previous one). Without
   * one, a request without an inline script is answered with a 400 saying so. */
  setPolicy(fn: Policy | undefined): void;
  /** Every model request the fake received (both providers), normalised, oldest first. */
  requests(): ModelRequest[];
  close(): Promise<void>;
}

export interface AgentStackOptions {
  /** Extra models without tool calls, allowed on the proxy and played by the fake
   * (FakeUpstreamsOptions.noTools): `reject` refuses tools, `text` ignores them; both write the
   * policy's calls as text. */
  noTools?: Record<string, NoTools>;
  /** PAGEHAND_TEXT_MODELS: models the proxy speaks to in text from the start. */
  textModels?: string[];
}

export async function startAgentStack(options: AgentStackOptions = {}): Promise<AgentStack> {
  let policy: Policy | undefined;
  const fake = await startFakeUpstreams({
    respond: (req) => {
      if (!policy) throw new Error('no model policy set (call stack.setPolicy first)');
      return policy(req);
    },
    noTools: options.noTools,
  });
  const dir = await mkdtemp(join(tmpdir(), 'pagehand-agent-'));
  let proxy: NodeServer;
  try {
    proxy = await startNodeServer({
      env: {
        PORT: '0',
        HOST: '127.0.0.1',
        OPENAI_BASE_URL: fake.openaiBaseURL,
        OPENAI_API_KEY: 'sk-test-agent-harness-0123456789abcdef',
        GEMINI_BASE_URL: fake.geminiBaseUrl,
        GEMINI_API_KEY: 'AIzaTEST-agent-harness-0123456789abcd',
        PAGEHAND_MODELS: [MODELS.openai, MODELS.gemini, ...Object.keys(options.noTools ?? {})].join(','),
        ...(options.textModels ? { PAGEHAND_TEXT_MODELS: options.textModels.join(',') } : {}),
      },
      tokenFile: join(dir, 'personal-token'),
      log: () => {},
      // The scripted model answers at once: files that play dozens of runs would meet the
      // personal token's 60 a minute and spend seconds per run waiting out 429s.
      personalRpm: 10_000,
    });
  } catch (e) {
    await fake.close();
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
  if (!proxy.personalToken) throw new Error('the proxy made no personal token');
  return {
    proxyUrl: proxy.url,
    token: proxy.personalToken,
    fake,
    proxy,
    setPolicy: (fn) => {
      policy = fn;
    },
    requests: () => fake.modelRequests(),
    close: async () => {
      await proxy.close();
      await fake.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Opens a fixture under tests/fixtures/agent/ with the bundle injected. `early: true` injects
 * it at document start on every navigation of this page (userscript-style) — what the wizard
 * needs for a run to resume on each step.
 */
export function openWithAgent(session: Session, path: string, opts: { early?: boolean } = {}): Promise<Page> {
  return open(session, `agent/${path.replace(/^\/+/, '')}`, opts);
}

// ---------------------------------------------------------------------------------------------
// Driving a run from Node, across full page navigations.

/** One event of a run as Node saw it (functions dropped), with the page it came from. */
export interface RunEventRecord {
  event: 'step' | 'action' | 'message' | 'confirm' | 'ask' | 'done' | 'error';
  payload: any;
  url: string;
}

export interface AgentRunOptions extends Omit<RunOptions, 'confirm' | 'signal' | 'proxy' | 'token'> {
  /** Answers risky actions from Node (also on pages the run resumed on). Without it nobody is
   * asked, so the loop refuses them. */
  confirm?: (request: ConfirmRequest) => boolean | Promise<boolean>;
  /** Answers `ask_user` questions from Node. Without it the question goes unanswered. */
  answer?: (question: string) => string | Promise<string>;
  /** Give up (reject, listing events and model requests) after this long. Default 60 s. */
  timeoutMs?: number;
}

export interface AgentRun {
  /** The `done` event's result, from whichever page the run ended on. Rejects only on timeout. */
  result: Promise<RunResult>;
  /** Every event so far, in order. */
  events: RunEventRecord[];
}

interface Reporter {
  listener?: (e: RunEventRecord) => void;
  confirm?: AgentRunOptions['confirm'];
  answer?: AgentRunOptions['answer'];
}
const reporters = new WeakMap<Page, Reporter>();

/** Subscribes to the run handle on this page (the current one, or `h`), once per handle. */
const SUBSCRIBE = `(() => {
  const seen = new WeakSet();
  const plain = (v) => { try { return JSON.parse(JSON.stringify(v ?? null)); } catch { return null; } };
  window.__pagehandSubscribe = (h) => {
    h = h || (window.pagehand && window.pagehand.current && window.pagehand.current());
    if (!h || seen.has(h)) return;
    seen.add(h);
    for (const ev of ['step', 'action', 'message', 'ask', 'done', 'error']) h.on(ev, (p) => window.__pagehandReport(ev, plain(p)));
    h.on('ask', (p) => { window.__pagehandAnswer(p.question).then((a) => { if (typeof a === 'string') h.answer(a); }); });
    // After every init script has run, so the flag from the latest runAgent call counts. Only
    // with a Node decider is anyone listening, else the loop refuses risky actions itself.
    setTimeout(() => {
      if (!window.__pagehandHasConfirm) return;
      h.on('confirm', (p) => {
        window.__pagehandReport('confirm', plain(p.request));
        window.__pagehandConfirm(plain(p.request)).then((ok) => p.respond(ok === true), () => p.respond(false));
      });
    }, 0);
  };
  window.__pagehandSubscribe();
})();`;

/**
 * Starts `pagehand.run(task)` on the page against the stack's proxy (`ui: false`, model
 * `MODELS.openai` unless given) and follows it across full navigations: open the page with
 * `openWithAgent(…, { early: true })` for runs that leave the page, so the bundle — and the
 * saved run — come back on every page. One run at a time per page.
 */
export async function runAgent(page: Page, stack: AgentStack, task: string, options: AgentRunOptions = {}): Promise<AgentRun> {
  const { confirm, answer, timeoutMs = 60_000, ...runOptions } = options;
  const events: RunEventRecord[] = [];
  let rep = reporters.get(page);
  if (!rep) {
    const r: Reporter = {};
    reporters.set(page, (rep = r));
    await page.exposeBinding('__pagehandReport', (source, event: RunEventRecord['event'], payload: unknown) => {
      r.listener?.({ event, payload, url: source.frame.url() });
    });
    await page.exposeBinding('__pagehandConfirm', async (_source, request: ConfirmRequest) => (r.confirm ? (await r.confirm(request)) === true : false));
    await page.exposeBinding('__pagehandAnswer', async (_source, question: string) => (r.answer ? r.answer(question) : null));
    await page.addInitScript({ content: SUBSCRIBE });
  }
  rep.confirm = confirm;
  rep.answer = answer;
  await page.addInitScript({ content: `window.__pagehandHasConfirm = ${confirm ? 'true' : 'false'};` });

  let settle!: (r: RunResult) => void;
  let fail!: (e: Error) => void;
  const result = new Promise<RunResult>((res, rej) => {
    settle = res;
    fail = rej;
  });
  rep.listener = (e) => {
    events.push(e);
    traceRecord('event', e);
    // A stale copy that stepped aside for the page the run moved to is not the end of it.
    if (e.event === 'done' && e.payload?.result?.reason !== 'moved') settle(e.payload.result as RunResult);
  };
  const timer = setTimeout(() => {
    const log = events.map((e) => `${e.event} ${JSON.stringify(e.payload).slice(0, 200)}`).join('\n');
    const calls = stack
      .requests()
      .map((r) => `#${r.seq} ${r.provider} → ${JSON.stringify(r.reply ?? null).slice(0, 160)}${r.policyError ? ` (policy error: ${r.policyError})` : ''}`)
      .join('\n');
    fail(new Error(`run "${task}" did not finish in ${timeoutMs} ms.\nEvents:\n${log}\nModel requests:\n${calls}`));
  }, timeoutMs);
  void result.then(
    () => clearTimeout(timer),
    () => clearTimeout(timer),
  );

  await page.evaluate(
    ([t, o, sub, hasConfirm]) => {
      (window as any).__pagehandHasConfirm = hasConfirm;
      if (!(window as any).__pagehandSubscribe) (0, eval)(sub);
      const h = (window as any).pagehand.run(t, o);
      (window as any).__pagehandSubscribe(h);
    },
    [task, { model: MODELS.openai, ui: false, ...runOptions, proxy: stack.proxyUrl, token: stack.token }, SUBSCRIBE, !!confirm] as const,
  );
  return { result, events };
}

// ---------------------------------------------------------------------------------------------
// The scripted-model toolkit.

/** The markers: a run's carry its value (`⟪page content 7f3a9c2e41b0⟫`), `pagehand.map()`'s none. */
const START = /^⟪page content(?: [0-9a-f]{12})?⟫$/;
const END = /^⟪\/page content(?: [0-9a-f]{12})?⟫$/;
/** The first line at or after `from` that is a marker of this kind, or -1. */
const lineOf = (lines: string[], marker: RegExp, from = 0): number => {
  for (let i = Math.max(0, from); i < lines.length; i++) if (marker.test(lines[i]!)) return i;
  return -1;
};
const HEADER = /^page "/;

/** A reply with one tool call (and optional text, e.g. reasoning). */
export function call(name: string, args: Record<string, unknown> = {}, text?: string): Reply {
  return { toolCalls: [{ name, args }], ...(text !== undefined ? { text } : {}) };
}

/** A reply with several tool calls in order. */
export function calls(list: FakeToolCall[], text?: string): Reply {
  return { toolCalls: list, ...(text !== undefined ? { text } : {}) };
}

/**
 * A policy that gives the steps in order, one per request: a step is a reply or a function
 * of the request. Past the last step it throws (so the run ends with a clear 400 naming it).
 */
export function sequence(...steps: Array<Reply | Policy>): Policy & { readonly used: number } {
  let i = 0;
  const fn = (async (req: ModelRequest) => {
    if (i >= steps.length) throw new Error(`the scripted model ran out of replies after ${steps.length}`);
    const step = steps[i++]!;
    return typeof step === 'function' ? step(req) : step;
  }) as Policy & { used: number };
  Object.defineProperty(fn, 'used', { get: () => i });
  return fn;
}

/** A map's block: its header line (`page "Title" url  viewport …`) is right before the start
 *  marker (pagehand.map()'s own text) or the first line inside it (the loop's prompt). */
const isMapStart = (lines: string[], i: number): boolean => (i > 0 && HEADER.test(lines[i - 1]!)) || HEADER.test(lines[i + 1] ?? '');

/** Where the last map sits in a message: the index of its first line and of its last. */
function findMap(text: string, headedOnly = false): { header: number; end: number; lines: string[] } | undefined {
  const lines = text.split('\n');
  // The markers also fence other page data (tool results); a map's block is the one with its
  // header line. The last such block, else the last block.
  const starts = lines.flatMap((l, i) => (START.test(l) ? [i] : []));
  if (!starts.length) return undefined;
  const headed = starts.filter((i) => isMapStart(lines, i));
  if (headedOnly && !headed.length) return undefined;
  const start = headed.length ? headed[headed.length - 1]! : starts[starts.length - 1]!;
  let end = lineOf(lines, END, start + 1);
  if (end < 0) end = lines.length - 1;
  const header = start > 0 && HEADER.test(lines[start - 1]!) ? start - 1 : start;
  // The map's count lines follow the end marker, each starting with "…".
  let last = end;
  while (last + 1 < lines.length && lines[last + 1]!.startsWith('… ')) last++;
  return { header, end: last, lines };
}

/**
 * The most recent page map in the request — header line, the marked page content and the
 * count lines after it — from the latest message that carries one (a user or a tool turn).
 * Throws when no message holds a map.
 */
export function latestMap(req: ModelRequest): string {
  for (let i = req.messages.length - 1; i >= 0; i--) {
    const found = findMap(req.messages[i]!.text);
    if (found) return found.lines.slice(found.header, found.end + 1).join('\n');
  }
  const roles = req.messages.map((m) => `${m.role}(${m.text.length} chars)`).join(', ');
  throw new Error(`no page map (⟪page content⟫ … ⟪/page content⟫) in any message of request #${req.seq}: ${roles}`);
}

/** The map's header line: `page "Title" url  viewport …`. */
export function mapHeader(mapText: string): string {
  const lines = mapText.split('\n');
  const first = (START.test(lines[0] ?? '') ? lines[1] : lines[0]) ?? '';
  return HEADER.test(first) ? first : '';
}

/** The page URL the map was taken on (from its header), or '' when the header names none. */
export function mapUrl(mapText: string): string {
  return /^page "(?:[^"\\]|\\.)*" (\S+)/.exec(mapHeader(mapText))?.[1] ?? '';
}

export interface MapElement {
  /** As the tools take it: "12" or "f2:7". */
  ref: string;
  role: string;
  name: string;
  /** Marked `*` (new since the previous map). */
  isNew: boolean;
  /** The whole map line it is on. */
  line: string;
  /** Line number within the page content (0-based). */
  index: number;
}

const ELEMENT = /(\*?)\[((?:f\d+:)?\d+)\]([\w-]+)(?: ("(?:[^"\\]|\\.)*"))?/g;

/** The page-content lines of a map (between the markers). Accepts a map or a whole message. */
function contentLines(mapText: string): string[] {
  const found = findMap(mapText);
  if (!found) return mapText.split('\n');
  let start = lineOf(found.lines, START, found.header);
  const end = lineOf(found.lines, END, start + 1);
  if (HEADER.test(found.lines[start + 1] ?? '')) start++; // the header inside the block
  return found.lines.slice(start + 1, end < 0 ? undefined : end);
}

/** Every element line of the map, parsed. */
export function mapElements(mapText: string): MapElement[] {
  const out: MapElement[] = [];
  contentLines(mapText).forEach((line, index) => {
    for (const m of line.matchAll(ELEMENT)) {
      let name = '';
      if (m[4]) {
        try {
          name = JSON.parse(m[4]) as string;
        } catch {
          name = m[4].slice(1, -1);
        }
      }
      out.push({ ref: m[2]!, role: m[3]!, name, isNew: m[1] === '*', line, index });
    }
  });
  return out;
}

const matchesName = (name: string, want: string | RegExp): boolean => (typeof want === 'string' ? name === want : want.test(name));

/**
 * The ref of the one element with this role and name (exact string, or a pattern) — what a
 * model would pick. Throws, listing the map, unless exactly one element matches.
 */
export function refFor(mapText: string, role: string, name: string | RegExp): string {
  const hits = mapElements(mapText).filter((e) => e.role === role && matchesName(e.name, name));
  if (hits.length !== 1) {
    throw new Error(`${hits.length} elements with role ${role} and name ${String(name)} in the map (want exactly 1):\n${mapText}`);
  }
  return hits[0]!.ref;
}

/**
 * The ref of the first element with this role (and name, if given) on the first content line
 * matching `text`, or on the lines after it — for rows of identically named buttons ("Open")
 * told apart by the text beside them. Throws, listing the map, when there is none.
 */
export function refNear(mapText: string, text: string | RegExp, role: string, name?: string | RegExp): string {
  const lines = contentLines(mapText);
  const at = lines.findIndex((l) => (typeof text === 'string' ? l.includes(text) : text.test(l)));
  if (at >= 0) {
    const hit = mapElements(mapText).find((e) => e.index >= at && e.role === role && (name === undefined || matchesName(e.name, name)));
    if (hit) return hit.ref;
  }
  throw new Error(`no ${role}${name === undefined ? '' : ` ${String(name)}`} at or after a line with ${String(text)} in the map:\n${mapText}`);
}

/** Whether the map's page content shows this text (substring, or a pattern). */
export function hasText(mapText: string, pattern: string | RegExp): boolean {
  const body = contentLines(mapText).join('\n');
  return typeof pattern === 'string' ? body.includes(pattern) : pattern.test(body);
}

/** Cuts every page map (header, content, count lines) out of a text. */
function withoutMaps(text: string): string {
  let rest = text;
  for (let found = findMap(rest, true); found; found = findMap(rest, true)) {
    rest = [...found.lines.slice(0, found.header), ...found.lines.slice(found.end + 1)].join('\n');
  }
  return rest;
}

/**
 * The task: the first user turn's text with any page map cut out. It may carry the loop's own
 * wording around the task, so match it with a pattern (`/Ernesto/.test(taskOf(req))`).
 */
export function taskOf(req: ModelRequest): string {
  const first = req.messages.find((m) => m.role === 'user');
  return first ? withoutMaps(first.text).trim() : '';
}

/**
 * What the loop reported about the calls it just ran, oldest first; empty on the first step.
 * Either the tool turns since the model's last turn, or — for a loop that reports results in
 * its user message — the marker-fenced blocks of the latest user turn other than the map.
 */
export function lastToolResults(req: ModelRequest): string[] {
  const out: string[] = [];
  let i = req.messages.length - 1;
  for (; i >= 0 && req.messages[i]!.role !== 'assistant'; i--) {
    const m: ModelMessage = req.messages[i]!;
    if (m.role === 'tool') out.unshift(m.text);
  }
  if (out.length) return out;
  const user = [...req.messages].reverse().find((m) => m.role === 'user');
  if (!user) return [];
  const lines = user.text.split('\n');
  for (let at = lineOf(lines, START); at >= 0; at = lineOf(lines, START, at + 1)) {
    if (isMapStart(lines, at)) continue; // the map
    if (at > 0 && /^# (Memory|Earlier steps|Attached files\b.*)$/.test(lines[at - 1]!)) continue; // the loop's memory, step log and attached files' names
    const end = lineOf(lines, END, at + 1);
    out.push(lines.slice(at + 1, end < 0 ? undefined : end).join('\n'));
  }
  return out;
}

/**
 * One agent stack for the whole test file: started before the first test, closed after the
 * last. The returned object is filled in by `beforeAll`, so use it inside tests only.
 */
export function useAgentStack(options: AgentStackOptions = {}): AgentStack {
  const stack = {} as AgentStack;
  beforeAll(async () => {
    Object.assign(stack, await startAgentStack(options));
  });
  afterAll(async () => {
    await stack.close?.();
  });
  return stack;
}

/**
 * The signup task of fixtures/delivery/csp: sign up on the strict-CSP page, follow the link to the
 * partner site on the other origin (a cross-origin navigation), confirm there.
 */
export function signupModel(): Policy {
  return (req) => {
    const map = latestMap(req);
    const url = mapUrl(map);
    if (url.includes('partner.html')) {
      if (!hasText(map, 'Subscription confirmed'))
        return call('click', { ref: refFor(map, 'button', 'Confirm subscription') }, 'goal: confirm on the partner site');
      return call('done', { summary: `Signed up Ada Lovelace and confirmed on ${new URL(url).host}.` });
    }
    if (!hasText(map, 'Saved: Ada Lovelace'))
      return call('type', { ref: refFor(map, 'textbox', 'Your name'), text: 'Ada Lovelace', submit: true }, 'goal: sign up');
    return call('click', { ref: refFor(map, 'link', 'Continue on the partner site') }, 'goal: go to the partner site');
  };
}

/**
 * The sign-up wizard's scripted model (wizard/step1.html → step2 → step3 → done, each a full page
 * load): it fills each step from the map and submits, then says it is done.
 */
export function wizardModel(): Policy {
  return (req) => {
    const map = latestMap(req);
    const url = mapUrl(map);
    if (url.includes('step1')) {
      return calls([
        { name: 'type', args: { ref: refFor(map, 'textbox', 'Full name'), text: 'Ada Lovelace' } },
        { name: 'type', args: { ref: refFor(map, 'textbox', 'Email'), text: 'ada@example.org' } },
        { name: 'click', args: { ref: refFor(map, 'button', 'Next') } },
      ]);
    }
    if (url.includes('step2')) {
      return calls([
        { name: 'type', args: { ref: refFor(map, 'textbox', 'Street address'), text: '12 St James Square' } },
        { name: 'type', args: { ref: refFor(map, 'textbox', 'City'), text: 'London' } },
        { name: 'select_option', args: { ref: refFor(map, 'combobox', 'Country'), option: 'United Kingdom' } },
        { name: 'click', args: { ref: refFor(map, 'button', 'Next') } },
      ]);
    }
    if (url.includes('step3')) {
      return calls([
        { name: 'click', args: { ref: refFor(map, 'radio', /^Pro/) } },
        { name: 'click', args: { ref: refFor(map, 'checkbox', 'I agree to the terms') } },
        { name: 'click', args: { ref: refFor(map, 'button', 'Submit') } },
      ]);
    }
    return call('done', { summary: 'Signed up.' });
  };
}

/**
 * The webmail task's scripted model ("find the emails Ernesto sent and summarise them"): it
 * reads the map as a model would — search, open each of Ernesto's emails, come back — and
 * keeps what it read in `read`.
 */
export function webmailModel(): { policy: Policy; read: string[] } {
  const read: string[] = [];
  const policy: Policy = (req) => {
    const map = latestMap(req);
    const url = mapUrl(map);
    if (url.includes('message.html')) {
      const subject = /^# (.+)$/m.exec(map)?.[1]?.trim() ?? '?';
      if (!read.includes(subject)) read.push(subject);
      return call('go_back', {}, `eval: the email is open\nmemory: read ${read.join('; ')}\ngoal: back to the results`);
    }
    if (!url.includes('q=')) {
      return call(
        'type',
        { ref: refFor(map, 'searchbox', 'Search mail'), text: 'ernesto', submit: true },
        'eval: the inbox is open\nmemory: nothing read yet\ngoal: search for Ernesto',
      );
    }
    const links = mapElements(map).filter((e) => e.role === 'link' && /^Ernesto Ruiz/.test(e.name));
    if (!links.length) return call('wait', { text: 'Ernesto Ruiz' }, 'goal: wait for the results');
    const next = links.find((l) => !read.some((s) => l.name.includes(s)));
    if (next) return call('click', { ref: next.ref }, `goal: open ${next.name}`);
    return call('done', { summary: `Ernesto Ruiz sent ${read.length} emails: ${read.join('; ')}.` });
  };
  return { policy, read };
}
