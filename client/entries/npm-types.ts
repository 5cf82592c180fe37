/**
 * The types of the npm entry (`import { run, init } from 'pagehand'`): the run contract of
 * client/agent/public-types.ts and the page API. Types only — build.ts emits declarations from this
 * file (and the three type modules it reads), so they never depend on the implementation.
 */
import type { ActionCall, ActionResult, ActOptions } from '../page/actions/contract';
import type { FindResult, MapOptions, PageMap, Ref } from '../page/page-types';
import type { AnswerFeedback, InitConfig, OpenOptions, Recording, ReplayOptions, RunHandle, RunOptions } from '../agent/public-types';
import type { Screenshot, ScreenshotOptions } from '../page/screenshot/capture-types';

export type * from '../agent/public-types';
export type { ActionCall, ActionErrorKind, ActionResult, ActionChanges, ActOptions } from '../page/actions/contract';
export type { FindResult, FoundElement, MapOptions, PageMap, MappedElement, Rect, Ref } from '../page/page-types';
export type { Mark, Screenshot, ScreenshotOptions } from '../page/screenshot/capture-types';
export type { Usage } from '../llm/wire';
/** WebMCP as pagehand reads it (docs/webmcp.md): what a page registers with `document.modelContext`. */
export type { ModelContext, ModelContextRegisterToolOptions, ModelContextTool, ToolAnnotations } from '../webmcp/webmcp-types';

declare global {
  interface WindowEventMap {
    /** The visitor rated an answer in the panel (on the site's own pages): `addEventListener('pagehand:feedback', (e) => e.detail.rating)`. */
    'pagehand:feedback': CustomEvent<AnswerFeedback>;
  }
}

/** What `window.pagehand` offers (and `init()` returns). */
export interface PagehandApi {
  /** This API, at once (on a page with the embed's loader, the loader's `ready` resolves to it). */
  readonly ready: Promise<PagehandApi>;
  /** Starts a task: the observe → think → act loop behind a handle (README, "Running a task"). */
  run(task: string, options?: RunOptions): RunHandle;
  /**
   * Runs a recording (a finished run's `result.recording`) again: no model call while every
   * step matches; a step that broke goes to the model, which redoes that step only (docs/replay.md).
   * Throws `pagehand.replay: …` on a recording it cannot read.
   */
  replay(recording: Recording, options?: ReplayOptions): RunHandle;
  /** The running handle (also after a resume), or undefined. */
  current(): RunHandle | undefined;
  /**
   * The site's configuration for every run on this page and for the overlay (README,
   * `pagehand.init`): the whole of it each call. Throws `pagehand.init: …` on a bad value.
   */
  init(config?: InitConfig): { ignoredDeny: string[] };
  /** Shows / hides the overlay. */
  open(options?: OpenOptions): void;
  close(): void;
  toggle(): void;
  /** The page map the model reads. */
  map(options?: MapOptions): PageMap;
  /** The same map, built in short slices with the page running in between. */
  mapAsync(options?: MapOptions): Promise<PageMap>;
  /** Role and accessible name of any element. */
  describe(el: Element): { role: string; name: string };
  /** The live element for a ref as the map gives it (`"12"`, `12`, `"f2:7"`); throws a `RefError` when it is unknown or stale. */
  resolve(ref: Ref | string | number): Element;
  /** Elements and text anywhere on the page; `text` is what the model reads. */
  find(query: string): FindResult;
  /** Runs one tool call (click, type, …); never throws. */
  act(call: ActionCall, options?: ActOptions): Promise<ActionResult>;
  /** A JPEG of the viewport (Set-of-Marks on request); `{ dataUrl: null, reason }` instead of failing. */
  screenshot(options?: ScreenshotOptions): Promise<Screenshot>;
  /** The bundle's version. */
  readonly version: string;
}

/**
 * `window.pagehand` on a page with the embed's loader (`pagehand-loader.js`) until the agent
 * has loaded (docs/embed.md, "The loader"). It becomes the full `PagehandApi` then; a reference
 * kept to this object forwards every call to it.
 */
export interface PagehandLoaderApi {
  /** The full API once the agent has loaded. Reading it starts loading the agent; rejects when it could not be loaded (reading it again tries again). */
  readonly ready: Promise<PagehandApi>;
  /** Checked at once (the same errors as the full API's), shown on the launcher at once, applied to the agent when it arrives. Does not load the agent, except with `autoOpen: true`. */
  init(config?: InitConfig): { ignoredDeny: string[] };
  /** Loads the agent, then starts the task: a promise of its handle (rejects where the full API's `run` throws). */
  run(task: string, options?: RunOptions): Promise<RunHandle>;
  /** Loads the agent, then replays the recording: a promise of its handle. */
  replay(recording: Recording, options?: ReplayOptions): Promise<RunHandle>;
  /** Undefined until the agent has loaded (no run is active before). */
  current(): RunHandle | undefined;
  /** Loads the agent and opens the panel (the launcher shows that it is loading). */
  open(options?: OpenOptions): void;
  /** Hides the launcher (and the panel the agent would open). */
  close(): void;
  toggle(): void;
  /** Available after `ready`: before, they start loading the agent and throw `pagehand.map() is available once the agent has loaded: …`. */
  map(options?: MapOptions): PageMap;
  describe(el: Element): { role: string; name: string };
  resolve(ref: Ref | string | number): Element;
  find(query: string): FindResult;
  /** Load the agent, then answer as the full API does. */
  mapAsync(options?: MapOptions): Promise<PageMap>;
  act(call: ActionCall, options?: ActOptions): Promise<ActionResult>;
  screenshot(options?: ScreenshotOptions): Promise<Screenshot>;
  readonly version: string;
}

/** Same as `pagehand.run`: starts a task and returns its handle at once. */
export declare function run(task: string, options?: RunOptions): RunHandle;

/** Same as `pagehand.replay`: runs a recording again and returns its handle at once. */
export declare function replay(recording: Recording, options?: ReplayOptions): RunHandle;

/**
 * Installs pagehand in this page (the `pagehand` global, the hooks, a run saved before a
 * navigation resumed) — importing the package already does — applies the site's configuration
 * if given (as `pagehand.init(config)`: instructions, custom tools, deny zones, allowed actions,
 * confirm; theme, launcherText, autoOpen, position, lang, model), and returns the API.
 */
export declare function init(config?: InitConfig): PagehandApi;
