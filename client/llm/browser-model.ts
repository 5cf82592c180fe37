/**
 * The browser's own model as a model client: Chrome's Prompt API (`LanguageModel`), no proxy
 * and no key. It takes the request the proxy client takes and answers with the same ChatReply
 * (one tool call), so everything after it — the risk check, the actions, the recording — is the
 * proxy path's. Its output is held to a JSON Schema of the offered tools; each step's text is
 * measured against its small context window and cut (page text first) to fit. Loaded on first
 * use (client/on-demand.ts): most runs never need it.
 */
import { aborted } from './errors';
import { BROWSER_MODEL } from './models';
import { answerSchema, browserSystem, replyFromAnswer, trimStep } from './browser-prompt';
import { ModelError, type ChatRequest, type ContentPart, type ModelClient, type ProxyInfo } from './wire';

/** The part of a Prompt API session used here; older Chrome names the window `inputQuota`/`inputUsage`. */
interface Session {
  prompt(input: string, options?: { responseConstraint?: object; omitResponseConstraintInput?: boolean; signal?: AbortSignal }): Promise<string>;
  clone?(options?: { signal?: AbortSignal }): Promise<Session>;
  destroy(): void;
  measureContextUsage?(input: string, options?: { signal?: AbortSignal }): Promise<number>;
  measureInputUsage?(input: string, options?: { signal?: AbortSignal }): Promise<number>;
  contextWindow?: number;
  inputQuota?: number;
  contextUsage?: number;
  inputUsage?: number;
}

type Availability = 'unavailable' | 'downloadable' | 'downloading' | 'available';

interface LanguageModelApi {
  availability(options?: object): Promise<Availability>;
  create(options?: object): Promise<Session>;
}

/** What availability and create are asked: text in, text out (English covers the JSON and the tools). */
const EXPECTED = { expectedInputs: [{ type: 'text', languages: ['en'] }], expectedOutputs: [{ type: 'text', languages: ['en'] }] };
/** Room kept in the window for the answer (an action and three short lines). */
const ANSWER_ROOM = 512;

export interface BrowserModelOptions {
  signal?: AbortSignal;
  /** The model is being downloaded: `loaded` from 0 to 1. */
  onDownload?: (loaded: number) => void;
}

/** The browser's model client, with the prompt budget its window allows. */
export interface BrowserModelClient extends ModelClient {
  /** Tokens a step's request may take (the window less the answer's room). */
  promptBudget: number;
}

export const languageModel = (): LanguageModelApi | undefined => (globalThis as { LanguageModel?: LanguageModelApi }).LanguageModel;

/** A `downloadprogress` event's share downloaded, 0–1. */
const loadedOf = (e: Event): number => Number((e as Event & { loaded?: number }).loaded) || 0;
const windowOf = (s: Session): number => s.contextWindow ?? s.inputQuota ?? Infinity;
const usageOf = (s: Session): number => s.contextUsage ?? s.inputUsage ?? 0;
const measure = (s: Session, text: string, signal?: AbortSignal): Promise<number> =>
  s.measureContextUsage ? s.measureContextUsage(text, { signal }) : s.measureInputUsage ? s.measureInputUsage(text, { signal }) : Promise.resolve(0);

/** A Prompt API failure as ModelError: its DOMException's name says what it was. */
function modelError(e: unknown, signal?: AbortSignal): ModelError {
  if (e instanceof ModelError) return e;
  if (signal?.aborted) return aborted();
  const name = (e as { name?: string })?.name;
  const msg = String((e as Error)?.message ?? e);
  if (name === 'NotAllowedError')
    return new ModelError(
      'browser_model_needs_click',
      "The browser's model has to be downloaded first, and the browser allows that only after the user clicked or typed on the page: send the task from the panel, or start the run from a click.",
    );
  if (name === 'QuotaExceededError')
    return new ModelError('context_overflow', `The step does not fit the browser's model's context window, even with the page text cut (${msg}).`);
  return new ModelError('browser_model', `The browser's model failed: ${msg}`);
}

const UNAVAILABLE =
  "The browser's own model is not available here: it needs desktop Chrome with its built-in model turned on, enough free disk space and memory. Use a proxy with a model instead.";

/**
 * Opens the browser's model (downloading it first when needed, reporting progress): the
 * client, or a ModelError saying why it cannot be used here.
 */
export async function openBrowserModel(options: BrowserModelOptions = {}): Promise<BrowserModelClient> {
  const { signal, onDownload } = options;
  const api = languageModel();
  if (!api) throw new ModelError('browser_model_unavailable', `This browser has no model of its own (no LanguageModel). ${UNAVAILABLE}`);
  let state: Availability;
  try {
    state = await api.availability(EXPECTED);
  } catch (e) {
    throw modelError(e, signal);
  }
  if (state === 'unavailable') throw new ModelError('browser_model_unavailable', UNAVAILABLE);
  /** A session with no prompt of its own: made now (the download happens here) and kept to learn the window. */
  const create = (initialPrompts?: Array<{ role: 'system'; content: string }>): Promise<Session> =>
    api.create({
      ...EXPECTED,
      ...(initialPrompts ? { initialPrompts } : {}),
      signal,
      monitor: (m: EventTarget) => m.addEventListener('downloadprogress', (e) => onDownload?.(loadedOf(e))),
    });
  let probe: Session;
  try {
    probe = await create();
  } catch (e) {
    throw modelError(e, signal);
  }
  const budget = windowOf(probe) - ANSWER_ROOM;
  probe.destroy();
  /** The session holding this system prompt, cloned for each step (the system prompt is read once). */
  let base: { system: string; session: Session } | undefined;

  async function baseFor(system: string): Promise<Session> {
    if (base?.system === system) return base.session;
    base?.session.destroy();
    base = undefined;
    const session = await create([{ role: 'system', content: system }]);
    base = { system, session };
    return session;
  }

  /** The step's text cut until it fits the session's window (page text first), with its measured size. */
  async function fit(s: Session, text: string): Promise<{ text: string; tokens: number }> {
    const room = windowOf(s) - usageOf(s) - ANSWER_ROOM;
    let tokens = await measure(s, text, signal);
    for (let keep = 1, tries = 0; tokens > room && tries < 4; tries++) {
      // Page text in proportion to what is over, a little more each try; at last the earlier steps too.
      keep = tries === 3 ? 0 : Math.max(0.05, keep * (room / tokens) * 0.9);
      text = trimStep(text, keep);
      tokens = await measure(s, text, signal);
    }
    if (tokens > room) throw new ModelError('context_overflow', "The step does not fit the browser's model's context window, even with the page text cut.");
    return { text, tokens };
  }

  const info: ProxyInfo = {
    models: [BROWSER_MODEL],
    defaultModel: BROWSER_MODEL,
    providers: { openai: false, gemini: false },
    features: { streaming: false, tools: false, images: false },
    limits: { maxTokens: ANSWER_ROOM, maxN: 1, maxBodyBytes: 0, rpm: 0 },
  };

  return {
    promptBudget: budget,
    config: () => Promise.resolve(info),
    async chat(request: ChatRequest, opts = {}) {
      const sig = opts.signal ?? signal;
      if (sig?.aborted) throw aborted();
      const system = request.messages.find((m) => m.role === 'system')?.content ?? '';
      const user = request.messages
        .filter((m) => m.role === 'user')
        .map((m) => (typeof m.content === 'string' ? m.content : m.content.map((p: ContentPart) => (p.type === 'text' ? p.text : '')).join('\n')))
        .join('\n\n');
      const tools = request.tools ?? [];
      let step: Session | undefined;
      try {
        const root = await baseFor(browserSystem(typeof system === 'string' ? system : '', tools));
        step = root.clone ? await root.clone({ signal: sig }) : await create([{ role: 'system', content: base!.system }]);
        const before = usageOf(step);
        let { text, tokens } = await fit(step, user);
        const ask = (t: string) =>
          step!.prompt(t, {
            // The tools are in the system prompt in words; the schema holds the answer without costing the window.
            responseConstraint: answerSchema(tools),
            omitResponseConstraintInput: true,
            signal: sig,
          });
        let answer: string;
        try {
          answer = await ask(text);
        } catch (e) {
          // The measure was off (it is the browser's estimate): once more with half the page text.
          if ((e as { name?: string })?.name !== 'QuotaExceededError' || sig?.aborted) throw e;
          text = trimStep(text, 0.5);
          tokens = await measure(step, text, sig);
          answer = await ask(text);
        }
        const after = usageOf(step);
        const usage = { promptTokens: tokens, completionTokens: Math.max(0, after - before - tokens) };
        const reply = replyFromAnswer(answer, usage);
        try {
          opts.onDelta?.({ content: reply.content, text: reply.content, toolCalls: reply.toolCalls.length });
        } catch {
          // a display callback must not lose the reply
        }
        return reply;
      } catch (e) {
        throw modelError(e, sig);
      } finally {
        if (step && step !== base?.session) step.destroy();
      }
    },
  };
}

/**
 * For the panel, before the first run: what the browser says of its model and, when it must be
 * downloaded (or is being), the download now with its progress (`show` gets 0–1), then
 * "available". A download the browser refuses (no click yet) leaves "downloadable": the first
 * task downloads it.
 */
export async function watchBrowserModel(show: (state: Availability | number) => void): Promise<void> {
  const api = languageModel();
  try {
    const a = api ? await api.availability(EXPECTED) : 'unavailable';
    show(a);
    if (api && (a === 'downloadable' || a === 'downloading')) {
      (await api.create({ ...EXPECTED, monitor: (m: EventTarget) => m.addEventListener('downloadprogress', (e) => show(loadedOf(e))) })).destroy();
      show('available');
    }
  } catch {
    // still "downloadable": the first task downloads it
  }
}
