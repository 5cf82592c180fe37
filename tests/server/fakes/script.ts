/**
 * How a test tells the fake upstreams what to answer: a script object embedded in the last user
 * message (the proxy forwards messages, so the script reaches the fake through the real SDKs and
 * the real proxy, statelessly — the same way from Node and from inside workerd).
 *
 * Runtime-neutral: no Node APIs, so workerd tests can import it.
 */
export interface FakeToolCall {
  name: string;
  args: Record<string, unknown>;
  /** OpenAI only: the arguments as raw text instead of `args` (to send malformed JSON). */
  argumentsText?: string;
  /** Gemini only: a thought signature attached to the functionCall part. */
  thoughtSignature?: string;
}

export interface FakeScript {
  /** Labels the recorded request so a test can fetch it back from /__requests?tag=… */
  tag?: string;
  /** Reply text; streamed as `chunks` when given, else in three pieces. Default "ok". */
  text?: string;
  chunks?: string[];
  toolCalls?: FakeToolCall[];
  /** Provider-native finish reason ("length" for OpenAI, "MAX_TOKENS" for Gemini, …). */
  finish?: string;
  usage?: { prompt: number; completion: number; thoughts?: number };
  /** Answer with this HTTP error status instead of a reply. */
  status?: number;
  /** For a 429: the wait asked for (OpenAI's `retry-after` header, Gemini's RetryInfo). Default 7. */
  retryAfterSeconds?: number;
  errorMessage?: string;
  /** With `status`: this exact body instead of the provider's error object, with this type. */
  rawErrorBody?: string;
  rawErrorType?: string;
  /** Put the API key the fake received into the error message (to test redaction). */
  echoKey?: boolean;
  /** Extra response headers (to test the allowlist). */
  headers?: Record<string, string>;
  /** Wait before sending response headers. */
  delayMs?: number;
  /** Wait between streamed chunks. */
  chunkDelayMs?: number;
  /** Destroy the connection after this many streamed chunks (a cut stream). */
  cutAfter?: number;
  /** Stop sending, but keep the connection open, after this many chunks (a stalled stream). */
  stallAfter?: number;
  /** Answer JSON even when a stream was asked for (as some local servers do). */
  ignoreStream?: boolean;
  /**
   * Apply `status`, `cutAfter` and `stallAfter` only to the first N requests carrying this
   * script's `tag`; later ones get the normal reply (to script "fail twice, then succeed").
   */
  failTimes?: number;
  /** For a model without tool calls (FakeUpstreamsOptions.noTools): how it writes its calls as
   * text (no-tools.ts TextStyle: fence, prose, tags, broken, string-args). */
  textStyle?: string;
}

const OPEN = '⟦fake ';
const CLOSE = '⟧';

/** The text to put in a user message. */
export const script = (s: FakeScript): string => `${OPEN}${JSON.stringify(s)}${CLOSE}`;

/** Finds a script in any text (the fake calls this on the last user message). */
export function readScript(text: string): FakeScript | undefined {
  const start = text.lastIndexOf(OPEN);
  if (start < 0) return undefined;
  const end = text.indexOf(CLOSE, start);
  if (end < 0) return undefined;
  try {
    return JSON.parse(text.slice(start + OPEN.length, end)) as FakeScript;
  } catch {
    return undefined;
  }
}

/** One request as the fake received it. */
export interface RecordedRequest {
  seq: number;
  tag?: string;
  provider: 'openai' | 'gemini';
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  /** Every byte of the response body the fake wrote, as text. */
  sent: string;
  /** The proxy hung up before the fake finished answering. */
  aborted: boolean;
  /** The fake finished its answer normally. */
  completed: boolean;
}

/** Reads back the requests recorded under a tag (polls: the abort flag lands asynchronously). */
export async function recorded(origin: string, tag: string, fetchImpl: typeof fetch = fetch): Promise<RecordedRequest[]> {
  const res = await fetchImpl(`${origin}/__requests?tag=${encodeURIComponent(tag)}`);
  return (await res.json()) as RecordedRequest[];
}

/** Polls until `pred` holds for the recorded requests of `tag` (bounded: at most `tries` × 50 ms). */
export async function waitForRecord(origin: string, tag: string, pred: (r: RecordedRequest[]) => boolean, tries = 100): Promise<RecordedRequest[]> {
  let last: RecordedRequest[] = [];
  for (let i = 0; i < tries; i++) {
    last = await recorded(origin, tag);
    if (pred(last)) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  return last;
}
