/**
 * The human message in an upstream's error body, whatever its shape: OpenAI's
 * `{error: {message}}`, Ollama's `{error: "..."}`, vLLM's and llama.cpp's `{message}`,
 * FastAPI's `{detail}` (a string or a list of `{msg}`), `{errors: [{message}]}`, plain text or
 * HTML; an empty body gives the status text. Pure.
 */
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** The message a parsed body carries, or undefined when it carries none. */
export function messageOfValue(v: unknown): string | undefined {
  if (typeof v === 'string') return text(v);
  if (Array.isArray(v)) return messageOfValue(v[0]);
  if (!isObj(v)) return undefined;
  if (v.error !== undefined) {
    const inner = messageOfValue(v.error);
    if (inner) return inner;
  }
  for (const key of ['message', 'detail', 'msg', 'error_description']) {
    const m = isObj(v[key]) || Array.isArray(v[key]) ? messageOfValue(v[key]) : text(v[key]);
    if (m) return m;
  }
  if (Array.isArray(v.errors)) return messageOfValue(v.errors[0]);
  return undefined;
}

/**
 * @example
 * messageOfBody('{"object":"error","message":"\\"auto\\" tool choice requires --enable-auto-tool-choice"}', 400, 'Bad Request');
 * // '"auto" tool choice requires --enable-auto-tool-choice'
 * messageOfBody('', 400, ''); // 'HTTP 400 with an empty body'
 */
export function messageOfBody(body: string, status: number, statusText: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const fromJson = parsed === undefined ? undefined : messageOfValue(parsed);
  if (fromJson) return fromJson;
  const plain = body
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (plain) return plain.slice(0, 500);
  return statusText ? `${statusText} (HTTP ${status}, empty body)` : `HTTP ${status} with an empty body`;
}
