/**
 * WebMCP as its draft defines it (the W3C Web Machine Learning Community Group's "WebMCP" Draft
 * Community Group Report, revision of 24 June 2026): `document.modelContext.registerTool(tool,
 * { signal, exposedTo })`, resolving once the tool is registered; a tool is unregistered by
 * aborting its signal. Earlier drafts put the object on `navigator.modelContext` and had
 * `unregisterTool`, `provideContext` and `clearContext`; the current one has none of these.
 */

export interface ToolAnnotations {
  /** The tool only reads: it changes nothing. Default false. */
  readOnlyHint?: boolean;
  /** What the tool returns holds content its author does not vouch for. Default false. */
  untrustedContentHint?: boolean;
}

/** The `ModelContextTool` dictionary. */
export interface ModelContextTool {
  /** 1–128 characters: ASCII letters, digits, `_`, `-` and `.`. */
  name: string;
  title?: string;
  description: string;
  /** A JSON Schema object for the input. */
  inputSchema?: object;
  execute(input: object): unknown;
  annotations?: ToolAnnotations;
}

export interface ModelContextRegisterToolOptions {
  /** Aborting it unregisters the tool. */
  signal?: AbortSignal;
  /** Origins of other documents in the tab that may see the tool. */
  exposedTo?: string[];
}

/** The `ModelContext` interface (an EventTarget firing `toolchange`). */
export interface ModelContext extends EventTarget {
  registerTool(tool: ModelContextTool, options?: ModelContextRegisterToolOptions): Promise<undefined>;
  ontoolchange: ((event: Event) => unknown) | null;
}

/** A registered tool as pagehand keeps it: read once at registration, as the draft does. */
export interface RegisteredTool {
  name: string;
  title?: string;
  description: string;
  /** The input schema as it was at registration (a JSON copy). */
  inputSchema?: Record<string, unknown>;
  execute: (input: object) => unknown;
  readOnlyHint: boolean;
  untrustedContentHint: boolean;
}

/**
 * What pagehand reads from a `document.modelContext` it installed or wrapped (kept on the object
 * under `Symbol.for('pagehand.webmcp')`, so the embed's agent chunk finds what its loader saw).
 */
export interface ToolRegistry {
  /** The tools registered now, oldest first (copies), without the ones pagehand registered itself. */
  tools(): RegisteredTool[];
  /** The object was there before pagehand (the browser's own, or the page's): not our polyfill. */
  readonly native: boolean;
  /** Registers a tool of pagehand's own (init's `tools`) so it is not read back as the page's. */
  own(tool: ModelContextTool, options?: ModelContextRegisterToolOptions): Promise<unknown>;
}
