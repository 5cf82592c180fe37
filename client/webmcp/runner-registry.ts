/**
 * The page's registered WebMCP tools for the headless runner. The runner's agent lives in an
 * isolated world (cli/isolated-world.ts), where `document.modelContext` is a JavaScript object
 * of its own, not the page's: the tools a page registers are in the page's world. So the
 * runner's page-world part (client/entries/runner-page.ts) installs the registry there at document
 * start (`answerToolRequests`) and the isolated world reads it through DOM events
 * (`pageWorldToolRegistry`), a `ToolRegistry` the bridge takes instead of its own world's.
 *
 * The page world is the page: whatever comes back is page data, as a page tool's description
 * and result always are (a stranger's page: neutral description, stripped schema, every call
 * asks). The channel gives the page nothing more than that:
 * - only the isolated world asks (list the tools, or call one it decided to call after the
 *   user's yes); the page can only answer, and an answer settles only the one request whose id
 *   it carries — an id of 128 random bits made for that request, forgotten once answered, so
 *   an answer sent before the question, a replayed one, or one with an id never asked does
 *   nothing;
 * - every answer is capped before it is read (tool count, name, description, schema, result);
 * - a request carries only the tool's name and the model's arguments for it (what the page's
 *   tool receives however it is called); nothing of the run, its state or its token.
 */
import { installModelContext } from './polyfill';
import type { RegisteredTool, ToolRegistry } from './webmcp-types';

/** The DOM events of the channel (on `window`; both worlds share it). */
export const TOOL_EVENTS = {
  /** Isolated world → page world: detail is the JSON of a `ToolRequest`. */
  request: 'pagehand:webmcp-request',
  /** Page world → isolated world: detail is the request's id followed by the JSON answer. */
  answer: 'pagehand:webmcp-answer',
} as const;

/** What the channel carries at most (the bridge cuts further what reaches the model). */
export const CHANNEL_LIMITS = {
  tools: 32,
  title: 200,
  description: 600,
  /** The input schema's JSON; a longer one is left out (the tool takes any object). */
  schema: 4000,
  /** A result's JSON; a longer one arrives as its text, cut. */
  result: 16_000,
  error: 500,
  /** A whole list answer. */
  list: 32 * (128 + 200 + 600 + 4000 + 200),
  /** A call that never answers fails after this, as the bridge's own timeout does. */
  callMs: 30_000,
} as const;

const ID = /^[0-9a-f]{32}$/;
const NAME = /^[A-Za-z0-9_.-]{1,128}$/;
/** Room for the answer's own keys around a result or an error. */
const ENVELOPE = 200;

type ToolRequest = { id: string; op: 'list' } | { id: string; op: 'call'; name: string; args: string };

/** One tool as the list answer carries it. */
interface ListedTool {
  name: string;
  title?: string;
  description: string;
  inputSchema?: Record<string, unknown>;
  readOnlyHint: boolean;
  untrustedContentHint: boolean;
}

type CallAnswer = { ok: true; value?: unknown } | { ok: false; error: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `s` cut so that its JSON is at most `max` characters. */
function cutForJson(s: string, max: number): string {
  let out = s.length > max ? s.slice(0, max) : s;
  while (out && JSON.stringify(out).length > max) out = out.slice(0, Math.floor(out.length * 0.8));
  return out;
}

/** A result as it travels: the value when its JSON fits, else its text (an MCP result's texts), cut. */
export function wireResult(value: unknown, max: number = CHANNEL_LIMITS.result): CallAnswer {
  if (value === undefined) return { ok: true };
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  if (json !== undefined && json.length <= max) return { ok: true, value: JSON.parse(json) as unknown };
  let text: string;
  if (typeof value === 'string') text = value;
  else if (isObject(value) && Array.isArray(value.content))
    text = value.content.map((c: unknown) => (isObject(c) && typeof c.text === 'string' ? c.text : '')).join('\n');
  else text = json ?? String(value);
  return { ok: true, value: `${cutForJson(text, max - 20)}… (cut)` };
}

/** A tool as the list answer carries it, capped; undefined for one that is not a tool. */
function listed(t: RegisteredTool | ListedTool): ListedTool | undefined {
  if (!t || typeof t.name !== 'string' || !NAME.test(t.name) || typeof t.description !== 'string') return undefined;
  let inputSchema: Record<string, unknown> | undefined;
  if (isObject(t.inputSchema)) {
    try {
      const json = JSON.stringify(t.inputSchema);
      if (json.length <= CHANNEL_LIMITS.schema) inputSchema = JSON.parse(json) as Record<string, unknown>;
    } catch {
      inputSchema = undefined;
    }
  }
  return {
    name: t.name,
    ...(typeof t.title === 'string' ? { title: t.title.slice(0, CHANNEL_LIMITS.title) } : {}),
    description: t.description.slice(0, CHANNEL_LIMITS.description),
    ...(inputSchema ? { inputSchema } : {}),
    readOnlyHint: t.readOnlyHint === true,
    untrustedContentHint: t.untrustedContentHint === true,
  };
}

const errorText = (e: unknown): string => {
  try {
    return String((e as Error)?.message ?? e).slice(0, CHANNEL_LIMITS.error);
  } catch {
    return 'an error';
  }
};

/**
 * In the page's world, at document start (the runner's page-world part): `document.modelContext`
 * for the page to register with (pagehand's polyfill, or the browser's own wrapped), and the
 * answers to the isolated world's requests. What it uses is taken now, before the page's
 * scripts run, so a page that later replaces `JSON` or `dispatchEvent` breaks only its own tools.
 */
export function answerToolRequests(win: Window & typeof globalThis = window): void {
  const registry = installModelContext(win.document);
  if (!registry) return; // not a secure context: the page has no document.modelContext to register with
  const { parse, stringify } = JSON;
  const CustomEventOf = win.CustomEvent;
  const dispatch = win.EventTarget.prototype.dispatchEvent;
  const setTimer = win.setTimeout.bind(win);
  const clearTimer = win.clearTimeout.bind(win);
  const answer = (id: string, body: unknown): void => {
    try {
      dispatch.call(win, new CustomEventOf(TOOL_EVENTS.answer, { detail: id + stringify(body) }));
    } catch {
      /* a result that cannot be sent: the isolated world's timeout ends the call */
    }
  };
  win.addEventListener(
    TOOL_EVENTS.request,
    (e) => {
      let req: ToolRequest;
      try {
        const detail = (e as CustomEvent).detail as unknown;
        req = parse(typeof detail === 'string' ? detail : 'null') as ToolRequest;
      } catch {
        return;
      }
      if (!isObject(req) || typeof req.id !== 'string' || !ID.test(req.id)) return;
      const id = req.id;
      if (req.op === 'list') {
        let tools: ListedTool[];
        try {
          tools = registry
            .tools()
            .slice(0, CHANNEL_LIMITS.tools)
            .map(listed)
            .filter((t): t is ListedTool => !!t);
        } catch {
          tools = [];
        }
        answer(id, { tools });
        return;
      }
      if (req.op !== 'call' || typeof req.name !== 'string' || typeof req.args !== 'string') return;
      const name = req.name;
      const args = req.args;
      void (async () => {
        let timer: number | undefined;
        try {
          const tool = registry.tools().find((t) => t.name === name);
          if (!tool) throw new Error(`the page has no tool "${name.slice(0, 128)}" now`);
          const input = parse(args) as unknown;
          const stop = new Promise<never>((_, reject) => {
            timer = setTimer(() => reject(new Error(`it did not answer within ${CHANNEL_LIMITS.callMs / 1000} s`)), CHANNEL_LIMITS.callMs);
          });
          const value = await Promise.race([Promise.resolve().then(() => tool.execute(isObject(input) ? input : {})), stop]);
          answer(id, wireResult(value));
        } catch (err) {
          answer(id, { ok: false, error: errorText(err) });
        } finally {
          clearTimer(timer);
        }
      })();
    },
    true,
  ); // capture, added before the page's scripts run: the page's own listeners come after
}

/** 128 random bits as hex: a request's id. */
function newId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

/**
 * In the runner's isolated world: the page's registered tools, read from the page world
 * (`answerToolRequests`) on each call of `tools()` (a synchronous round trip: DOM events are
 * dispatched synchronously), each tool's `execute` a call there. Never throws.
 */
export function pageWorldToolRegistry(win: Window & typeof globalThis = window): ToolRegistry {
  /** The requests waiting for their answer, by id: each settles once, then is forgotten. */
  const pending = new Map<string, (body: string) => void>();
  win.addEventListener(TOOL_EVENTS.answer, (e) => {
    let detail: unknown;
    try {
      detail = (e as CustomEvent).detail;
    } catch {
      return;
    }
    if (typeof detail !== 'string' || detail.length < 32) return;
    const id = detail.slice(0, 32);
    const settle = pending.get(id);
    if (!settle) return; // never asked, or answered already
    pending.delete(id);
    settle(detail.slice(32));
  });
  const send = (request: ToolRequest): void => {
    win.dispatchEvent(new CustomEvent(TOOL_EVENTS.request, { detail: JSON.stringify(request) }));
  };

  const callTool = (name: string, input: object): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = newId();
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`it did not answer within ${CHANNEL_LIMITS.callMs / 1000} s`));
      }, CHANNEL_LIMITS.callMs);
      pending.set(id, (body) => {
        clearTimeout(timer);
        if (body.length > CHANNEL_LIMITS.result + ENVELOPE) return reject(new Error(`its answer was too large (${body.length} characters)`));
        let a: unknown;
        try {
          a = JSON.parse(body);
        } catch {
          return reject(new Error('its answer was not JSON'));
        }
        if (!isObject(a)) return reject(new Error('its answer was not a result'));
        if (a.ok === true) return resolve(a.value);
        reject(new Error(typeof a.error === 'string' ? a.error.slice(0, CHANNEL_LIMITS.error) : 'it failed'));
      });
      let args: string;
      try {
        args = JSON.stringify(input ?? {});
      } catch {
        args = '{}';
      }
      try {
        send({ id, op: 'call', name, args });
      } catch (err) {
        pending.delete(id);
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error('the call could not be sent'));
      }
    });

  const tools = (): RegisteredTool[] => {
    const id = newId();
    let body: string | undefined;
    pending.set(id, (b) => (body = b));
    try {
      send({ id, op: 'list' });
    } catch {
      /* no page world to ask */
    } finally {
      pending.delete(id);
    }
    if (body === undefined || body.length > CHANNEL_LIMITS.list + ENVELOPE) return [];
    let answer: unknown;
    try {
      answer = JSON.parse(body);
    } catch {
      return [];
    }
    if (!isObject(answer) || !Array.isArray(answer.tools)) return [];
    const out: RegisteredTool[] = [];
    const seen = new Set<string>();
    for (const raw of answer.tools.slice(0, CHANNEL_LIMITS.tools)) {
      const t = isObject(raw) ? listed(raw as unknown as ListedTool) : undefined;
      if (!t || seen.has(t.name)) continue;
      seen.add(t.name);
      const name = t.name;
      out.push({ ...t, execute: (input) => callTool(name, input) });
    }
    return out;
  };

  return Object.freeze({
    tools,
    // The page's object, not pagehand's: but the runner publishes nothing of its own there.
    native: false,
    own: () => Promise.resolve(undefined),
  });
}
