/**
 * The contract of `pagehand.run(task, options)`: its options, the handle it returns and the
 * events the handle emits. The overlay, the headless runner, site owners and the tests all
 * drive the agent through exactly this.
 */
import type { ActionResult } from '../page/actions/contract';

/** A page action's result, as events and the page API carry it. */
export type { ActionResult };
import type { Rect, Ref } from '../page/page-types';
import type { JsonSchema, ToolChoice, Usage } from '../llm/wire';
import type { AnswerSchema, SchemaType } from '../../common/answer-schema';
import type { RecordedExpectation, RecordedStep, RecordedTarget, Recording } from '../../common/recording';
import type { RiskyRule } from '../page/facts-types';
import type { Thread, ThreadTurn } from '../../common/thread';
import type { RiskKind, Said } from '../../common/said';

/** What a risky action is, and what pagehand says as a code (common/said.ts). */
export type { RiskKind, Said };

/** The answer's schema, recordings and threads: written once in common/ (the CLI checks them too). */
export type { AnswerSchema, SchemaType, RecordedExpectation, RecordedStep, RecordedTarget, Recording, Thread, ThreadTurn };

/** What the user allowed for the rest of a run ("always"): a kind, or one site tool by name (`tool:NAME`). */
export type Allowance = RiskKind | `tool:${string}`;

/** One tool call the model asked for, with its arguments parsed (or raw text when they were not JSON). */
export interface PlannedCall {
  name: string;
  args: Record<string, unknown>;
}

/** The element a call acts on, as the map showed it. */
export interface CallTarget {
  ref: Ref;
  role: string;
  name: string;
  /** Top-level viewport coordinates when the call was planned. */
  rect: Rect;
}

export interface ConfirmRequest {
  kind: RiskKind;
  call: PlannedCall;
  target?: CallTarget;
  /** Why it is risky, one sentence for the user. */
  reason: string;
  /** The reason as a code and its parameters, for wording it in another language (the overlay's languages). */
  said?: Said;
  /** The model's stated goal for this step, if it gave one. */
  goal?: string;
}

/** The short reasoning a model turn carries; any part may be missing. */
export interface Reasoning {
  evaluation?: string;
  memory?: string;
  nextGoal?: string;
}

/**
 * A step that did not happen, named in the result when the run ended after it: the user (or no
 * one, with nobody to ask) did not allow it, or it ran and failed, and no later step did what it
 * would have done (its `kind`).
 */
export interface RefusedStep {
  /** The model turn it was planned in. */
  step: number;
  /** The call as the step log shows it: `click [12]`, `sendMessage {…}`. */
  call: string;
  /** The element it acted on, by its name on the page, when it acted on one. */
  target?: string;
  /** What it would have done. */
  kind: RiskKind;
  /** `denied`: not allowed (by the user, or with no one to ask); `failed`: it ran and failed. */
  outcome: 'denied' | 'failed';
}

export interface RunResult {
  /**
   * The task is done as far as pagehand can tell: the model said so (`done`), the answer's data
   * matched the schema, and no step in `refused` stands against it. A model's `done` that came
   * after a refused or failed risky step is not `ok` (`reason: 'refused'`), whatever it says.
   */
  ok: boolean;
  /** The model's answer or summary (for `done`), or what was achieved before the run ended. */
  summary: string;
  /** Model turns taken. */
  steps: number;
  /** Tokens used, and their `cost` in US dollars when the proxy has a price for the model. */
  usage: Usage;
  /**
   * The answer as data, when the run had a `schema`: it matches the schema (a mismatch went
   * back to the model once with the errors).
   */
  data?: unknown;
  /**
   * Why the run ended without success: `stopped` (stop() or the signal), `max_steps`, `failed`
   * (the model gave up), `incomplete` (done with success: false), `invalid_data` (the answer's
   * data did not match the schema, twice), `model_error`, `config`, `loop`, `errors` (5 failed
   * steps in a row), `no_tool_call`, `moved` (this copy of the run went on in another page),
   * `internal`, `refused` (the model called `done` after a step it needed was not allowed or
   * failed: see `refused`), `max_tokens` / `max_cost` (the run's budget was reached before the
   * next model call); for a replay also `needs_repair` (a step broke and repair was off) and
   * `denied` (the user did not allow a recorded step).
   */
  reason?: string;
  /** pagehand's own words of `summary` as a code, for wording them in another language (absent when the summary is the model's). */
  said?: Said;
  /**
   * Risky steps that did not happen and that nothing later did: set when the run ended with
   * `done` or `fail` after them. With a `done` of success they make the result not `ok`.
   */
  refused?: RefusedStep[];
  /**
   * What the summary seems to say was done (sending, payment, deletion, saving personal data)
   * when no allowed step of that kind ran: read from the model's words, in the languages the panel
   * speaks, so it only warns; `ok` never depends on it.
   */
  unbacked?: RiskKind[];
  /**
   * The run as a recording (docs/replay.md): its page actions with their targets described
   * so they can be found again, and what each expected to see. Replaying it runs the task
   * again with no model call while every step matches. On a replay: the recording as
   * replayed, its repaired steps listed in `repaired`.
   */
  recording?: Recording;
  /** On a replay: steps replayed as recorded, steps repaired by the model, and model calls made. */
  replay?: { replayed: number; repaired: number; modelCalls: number };
  /**
   * The conversation with this run as its newest turn (task, answer, how and where it ended):
   * pass it as the next run's `thread` to continue it.
   */
  thread?: Thread;
}

/** `pagehand.replay(recording, options)`: a run's options, and the values for the recording's `{name}`s. */
export interface ReplayOptions extends RunOptions {
  /** Values for the recording's named values (`{ query: 'ernesto' }`); a name left out keeps its recorded value. */
  values?: Record<string, string>;
  /**
   * When a step's target is missing or ambiguous, its action fails, or what it expected does not
   * show: `true` (default) asks the model to redo that step only, then the replay goes on;
   * `false` ends the replay there (`reason: 'needs_repair'`) without any model call.
   */
  repair?: boolean;
}

export interface RunEvents {
  /**
   * A model turn: `start` before the model is asked, `thinking` while its reply streams
   * (`text` so far), `planned` with its reasoning and calls. `resumed` is set on the first
   * step after a page navigation.
   */
  step: {
    step: number;
    maxSteps: number;
    phase: 'start' | 'thinking' | 'planned';
    reasoning?: Reasoning;
    calls?: PlannedCall[];
    text?: string;
    resumed?: boolean;
    /** On a replay: this model turn repairs the recording's step N (from 1). */
    repairs?: number;
    usage: Usage;
    elapsedMs: number;
    url: string;
    /** On `planned`: ms spent mapping the page and waiting for the model in this step. */
    timing?: { observeMs: number; modelMs: number };
  };
  /** A tool call: `start` before it runs (with its target), `end` with its result. */
  action: {
    step: number;
    phase: 'start' | 'end';
    call: PlannedCall;
    target?: CallTarget;
    result?: ActionResult;
  };
  /** Text for the user: a model reply without a tool call, a notice (resumed, retrying). */
  message: { text: string; from: 'model' | 'agent' };
  /** A risky action waits for a yes or no: call `respond`. `always` allows this kind for the rest of the run. */
  confirm: { request: ConfirmRequest; respond(allowed: boolean, always?: boolean): void };
  /** The model asked the user something: answer with `handle.answer(text)`. */
  ask: { question: string };
  /** The run ended (successfully or not). */
  done: { result: RunResult };
  /** The user took over (`paused: true`) or handed back (`false`). */
  pause: { paused: boolean };
  /** Something went wrong. `fatal` errors end the run (a `done` follows); others are being retried. */
  error: { message: string; code: string; fatal: boolean; retryInMs?: number; said?: Said };
}

export type RunEventName = keyof RunEvents;

export interface RunHandle {
  readonly id: string;
  readonly task: string;
  /** The run wants the overlay (its `ui` option; kept across a resume). */
  readonly ui: boolean;
  on<E extends RunEventName>(event: E, fn: (payload: RunEvents[E]) => void): () => void;
  /** Ends the run at once, aborting the model request in flight. */
  stop(): void;
  /**
   * "Take over": the run holds before its next step (an action in progress finishes first)
   * until `resume()`, which goes on with a fresh look at the page.
   */
  pause(): void;
  resume(): void;
  readonly paused: boolean;
  /** Answers the pending `ask_user` question (ignored when none is pending). */
  answer(text: string): void;
  /** Never rejects. */
  readonly result: Promise<RunResult>;
  /** True until the run ended. */
  readonly active: boolean;
}

export interface RunOptions {
  /** The proxy's base URL. Default: `data-pagehand-proxy` on the bundle's script tag, then the origin it was loaded from. */
  proxy?: string;
  /** Site token. Default: `data-pagehand-token` on the bundle's script tag. */
  token?: string;
  /** Default: the proxy's default model (`GET /v1/config`). */
  model?: string;
  /** Model turns at most. Default 50. */
  maxSteps?: number;
  /** Screenshots: `'auto'` (default), `true` or `false`. Text-only until screenshots land. */
  vision?: 'auto' | boolean;
  /** Trusted instructions from the site owner, added to the system prompt. */
  instructions?: string;
  /** Decides risky actions. Default: the overlay asks; with `ui: false` and no callback, risky actions are refused. */
  confirm?: (request: ConfirmRequest) => Promise<boolean> | boolean;
  /** Default true; `false` runs with no overlay and no mask. */
  ui?: boolean;
  signal?: AbortSignal;
  /** Language for replies to the user (BCP 47, e.g. `es`). Default: the task's language. */
  lang?: string;
  /** `tool_choice` sent to the model. Default `'auto'` (some servers reject anything else). */
  toolChoice?: Extract<ToolChoice, 'auto' | 'required'>;
  /** Prompt token budget per model call. Default 12000 (and never above the proxy's `maxPromptTokens`). */
  maxPromptTokens?: number;
  /**
   * Stop the run (`reason: 'max_tokens'`) once its prompt and generated tokens together reach
   * this many: checked before each model call, so the call that crossed it is the last.
   */
  maxTokens?: number;
  /**
   * Stop the run (`reason: 'max_cost'`) once its cost in US dollars reaches this: checked before
   * each model call. Needs the model's price from the proxy (PAGEHAND_PRICES); without one the
   * run does not start.
   */
  maxCost?: number;
  /**
   * Before finishing, one more model turn: when the model calls `done`, it is shown the page
   * again (a fresh look) with the task, and either confirms with `done` or goes on. Default
   * false; `init({ verify: true })` sets it for every run of the site.
   */
  verify?: boolean;
  /** Page actions the model may use (by tool name); default all. `find`, `done`, `fail` and `ask_user` are always offered. */
  allowedActions?: string[];
  /** The site's own tools, offered to the model beside the built-in ones. */
  tools?: CustomTool[];
  /**
   * Files the model may put into the page with `upload` (a file input or a drop zone), by name:
   * `File` objects (from an `<input type="file">`, a drop, or `new File(…)`). The model sees
   * only their names, types and sizes; they may be uploaded on the origin where the run started
   * only. At most 20, distinct names.
   */
  files?: File[];
  /**
   * Values the agent may type but never see (`{ card: '4111 …', password: '…' }`): the model
   * reads `<secret:card>` and `type` puts the real value into the page, on the origin where the
   * run started only. The value is masked out of every page text the model reads and never
   * leaves the page. Names: a letter, then letters, digits, `_` or `-`; values: 3 characters
   * at least.
   */
  secrets?: Record<string, string>;
  /**
   * A JSON Schema for the answer (docs/configuration.md lists the keywords checked): `done`
   * then carries `data`, checked against it, and `result.data` holds it.
   */
  schema?: AnswerSchema;
  /**
   * A conversation to continue: a previous `result.thread`. The model reads the earlier tasks,
   * their answers and where each ended (the newest in full, older ones shortened when the prompt
   * budget is short), so a follow-up like "Cancel it" knows what "it" is. It carries no
   * permission: every risky step of this run is asked about anew.
   */
  thread?: Thread;
}

/**
 * A site owner's tool, e.g. the shop's own `addToCart(sku)`: the model calls it like any
 * other tool; `handler` runs in the page and what it returns (JSON-serialisable, or a string)
 * goes back to the model.
 */
export interface CustomTool {
  /** Letters, digits, `_` and `-`; must not clash with a built-in tool. */
  name: string;
  description: string;
  /** JSON Schema of the arguments (an object schema). */
  parameters?: JsonSchema;
  handler: (args: Record<string, unknown>) => unknown;
  /**
   * The tool only reads (looks up stock, a price, an order's status): it runs without asking.
   * Without it the user is asked before each call, as WebMCP's `readOnlyHint` means.
   */
  readOnly?: boolean;
  /** Ask the user first under this kind, as for built-in risky actions (even when `readOnly`). */
  risk?: RiskKind;
}

/**
 * Instructions for some of the site's pages: `match` is a path pattern (or several) in which
 * `*` stands for any characters, `/` included (`/products/*`, `/help/*.html`); everything else
 * is literal, and the whole path must match (the query and the fragment are not part of it).
 */
export interface RouteKnowledge {
  match: string | string[];
  instructions: string;
}

/** `init({ knowledge })`: what the site tells the agent beyond the page it is on. */
export interface Knowledge {
  /** Instructions that reach the prompt only while the page's path matches (read at each step). */
  routes?: RouteKnowledge[];
  /**
   * Read the site's `/llms.txt` once per run (size-capped) and give it to the model: as the site
   * owner's words on the site's own embed, as page data where the user brought pagehand.
   */
  llmsTxt?: boolean;
}

/**
 * What a site owner configures once per page load (`pagehand.init`): it applies to every run,
 * including one resumed after a navigation, under the run's own options.
 */
export interface SiteConfig {
  instructions?: string;
  /** Every run checks the page against the task once before finishing (RunOptions.verify). */
  verify?: boolean;
  /** Instructions by route and the site's `/llms.txt`. */
  knowledge?: Knowledge;
  /** The site's recordings (`Recording` JSON): the panel offers each as a one-click task. */
  recordings?: Recording[];
  tools?: CustomTool[];
  allowedActions?: string[];
  /** Selectors of subtrees the agent must not see or touch (besides `data-pagehand="off"`). */
  deny?: string[];
  /**
   * What the site's words do not show: controls matching `selector` (or inside a match) are
   * judged as `kind` (`payment`, `deletion`, `sending`, `personal_data`), or as safe (`none`),
   * like `data-pagehand-risk` on them. The nearest mark wins.
   */
  risky?: RiskyRule[];
  confirm?: RunOptions['confirm'];
  /**
   * Page text masked before it leaves the page: CSS selectors (the text and field values of
   * matching elements read `[redacted]`) and patterns (`'/…/flags'` strings or RegExp objects:
   * their matches in page text read `[redacted]`).
   */
  redact?: Array<string | RegExp>;
  /**
   * Offer the page's WebMCP tools (`document.modelContext.registerTool`, `<form toolname>`) to
   * the model. Default true.
   */
  webmcp?: boolean;
}

/** The overlay's colours: `auto` follows the system's (prefers-color-scheme). */
export type Theme = 'auto' | 'light' | 'dark';

/** The viewport corner of the launcher, and of the panel until the user moves it. */
export type LauncherPosition = 'bottom-right' | 'bottom-left' | 'top-right' | 'top-left';

/**
 * `pagehand.init(config)`: the site's configuration for runs (SiteConfig) and for the overlay.
 * Each call sets the whole configuration: fields left out go back to their defaults.
 */
export interface InitConfig extends SiteConfig {
  /** Default `auto`. */
  theme?: Theme;
  /** Text shown on the launcher beside its icon (and its accessible name); default icon only. */
  launcherText?: string;
  /** Open the panel when the page loads instead of showing only the launcher (not over a resumed run). */
  autoOpen?: boolean;
  /** Default `data-position` on the script tag, else `bottom-right`. */
  position?: LauncherPosition;
  /** Starter tasks the panel offers before the first task (the first four): a click puts one in the task box. */
  suggestions?: string[];
  /** The panel's language and runs' reply language (`en`, `es`, …); a run's own `lang` wins. Default `data-lang`. */
  lang?: string;
  /** Default model for runs; a run's own `model` wins. Default `data-model`, else the proxy's. */
  model?: string;
  /**
   * The proxy and token for every run, the panel's included (a run's own win). Default the script
   * tag's `data-pagehand-proxy` / `data-pagehand-token`. A bundled site (npm) has no such tag: set
   * them here, or `init({ autoOpen: true })` opens a panel whose runs cannot reach a model.
   */
  proxy?: string;
  token?: string;
  /**
   * Origins (exact, `https://pay.example`) of frames on this page, and of pages that embed this
   * one in a frame, whose pagehand this one talks to: a frame's map then joins the page's (refs
   * `f2:17`) and its elements can be acted on. Both sides must list each other, load pagehand
   * with the same proxy and token, and be the site's own embed (not the bookmarklet or the
   * userscript). Default none.
   */
  frames?: string[];
}

/** What the overlay takes from init. */
export interface UiConfig {
  theme?: Theme;
  /** The site's recordings, offered in the panel as one-click tasks. */
  recordings?: Recording[];
  launcherText?: string;
  position?: LauncherPosition;
  lang?: string;
  /** Starter tasks shown before the first task. */
  suggestions?: string[];
}

/**
 * The detail of `pagehand:feedback`, fired on `window` when the visitor rates an answer in the
 * panel (thumbs up or down) on the site's own pages. pagehand sends it nowhere itself.
 */
export interface AnswerFeedback {
  /** The run the answer ended (its handle's `id`). */
  id: string;
  rating: 'up' | 'down';
  task: string;
  /** The answer as the model wrote it (the run's `result.summary`). */
  answer: string;
}

/** `pagehand.open(options)`: how runs started from the panel are made, and how it looks. */
export interface OpenOptions extends Pick<
  RunOptions,
  'proxy' | 'token' | 'model' | 'maxSteps' | 'maxTokens' | 'maxCost' | 'verify' | 'instructions' | 'vision' | 'toolChoice'
> {
  /** `en` or `es`; default the browser's language. Also the language the agent replies in. */
  lang?: string;
  /** Default `auto` (prefers-color-scheme). */
  theme?: Theme;
}
