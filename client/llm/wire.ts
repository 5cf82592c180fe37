/**
 * The model client's contracts: what the agent sends to the proxy and what comes back. The
 * wire format is OpenAI Chat Completions (the proxy converts for Gemini), so these types are a
 * small subset of it. No DOM here.
 */

/** One part of a user message: text, or an image as a `data:` URL. */
export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string; detail?: 'low' | 'high' | 'auto' } };

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | ContentPart[] }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string }; extra_content?: ToolCallExtra }>;
    }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A JSON Schema object, as small as the tool needs. */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: Array<string | number | boolean>;
  minimum?: number;
  maximum?: number;
  additionalProperties?: boolean;
}

/** A tool in the OpenAI `tools` format. */
export interface ToolSpec {
  type: 'function';
  function: { name: string; description?: string; parameters?: JsonSchema };
}

export type ToolChoice = 'auto' | 'required' | 'none';

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools?: ToolSpec[];
  tool_choice?: ToolChoice;
  max_tokens?: number;
  temperature?: number;
}

/**
 * Provider data riding on a tool call that must go back unchanged with the assistant message:
 * Gemini's thought signature (the proxy puts it here, as Google's OpenAI endpoint does).
 */
export interface ToolCallExtra {
  google?: { thought_signature?: string };
  [k: string]: unknown;
}

/** A tool call as the model made it; `arguments` is the raw JSON text (it may be malformed). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
  /** Send back as `extra_content` in the assistant message (see `assistantMessage`). */
  extra_content?: ToolCallExtra;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  /**
   * What the tokens cost in US dollars, by the proxy's price table (`PAGEHAND_PRICES`, given in
   * `GET /v1/config`); absent when the proxy has no price for the model.
   */
  cost?: number;
}

/** One finished model reply, assembled from the stream. */
export interface ChatReply {
  content: string;
  toolCalls: ToolCall[];
  /** `stop`, `tool_calls`, `length`, `content_filter`, … or null when the stream gave none. */
  finishReason: string | null;
  /** Null when the upstream reported no usage. */
  usage: Usage | null;
}

/** Progress while a reply streams in: the text so far, and how many tool calls have begun. */
export interface ChatDelta {
  /** The new piece of content text. */
  content: string;
  /** All content text so far. */
  text: string;
  toolCalls: number;
}

/** Told before the client waits to try again. */
export interface RetryInfo {
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
  /** Why: the proxy's message, e.g. "Rate limited" or "network error". */
  reason: string;
  code: string;
}

export interface ChatOptions {
  signal?: AbortSignal;
  onDelta?: (delta: ChatDelta) => void;
  /** Before each retry. A reply that broke off mid-stream is discarded: the next `onDelta`
   * starts again from empty `text`. */
  onRetry?: (info: RetryInfo) => void;
}

/** What `GET /v1/config` says this token may use. */
export interface ProxyInfo {
  models: string[];
  defaultModel: string | null;
  providers: { openai: boolean; gemini: boolean };
  features: { streaming: boolean; tools: boolean; images: boolean | string[]; [k: string]: unknown };
  limits: { maxTokens: number; maxN: number; maxBodyBytes: number; rpm: number; maxPromptTokens?: number };
  /** US dollars per million prompt (`input`) and generated (`output`) tokens, for the token's models that have a price. */
  prices?: Record<string, { input: number; output: number }>;
}

export interface ModelClient {
  /** `GET {proxy}/v1/config`. Throws ModelError. */
  config(signal?: AbortSignal): Promise<ProxyInfo>;
  /** `POST {proxy}/v1/chat/completions` with `stream: true`, retried as ModelError.retryable says. */
  chat(request: ChatRequest, options?: ChatOptions): Promise<ChatReply>;
}

export interface ModelClientOptions {
  /** The proxy's base URL, e.g. `http://127.0.0.1:8787` (no trailing `/v1`). */
  proxy: string;
  /** The site token, sent as `Authorization: Bearer …`. */
  token?: string;
  /** The transport; default `globalThis.fetch`. The userscript passes one over GM_xmlhttpRequest. */
  fetch?: typeof fetch;
  /** Retries after a 429, a 5xx, a network error or a cut stream. Default 4. */
  retries?: number;
  /** First backoff delay; doubled each retry (with jitter), capped by maxDelayMs. Default 1000. */
  baseDelayMs?: number;
  /** Longest single wait, for backoff and for Retry-After. Default 60000. */
  maxDelayMs?: number;
}

/**
 * Why a model call failed. `code` is the proxy's stable `error.code` when it sent one, else
 * one of `network`, `stream_cut`, `aborted`, `bad_response`, `http_<status>`.
 */
export class ModelError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status?: number,
    /** Worth trying again (429, 5xx, network, cut stream). */
    readonly retryable = false,
    /** For 429: how long the server asked to wait. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}
