/**
 * The only upstream headers a page ever sees. Everything else is dropped: `set-cookie` would leak
 * the provider's cookies, `content-encoding`/`content-length` describe bytes the runtime already
 * decoded, and account headers (rate-limit budgets, organisation ids) are the operator's business.
 */
const PASSED = ['x-request-id', 'openai-processing-ms'];

export function passedHeaders(upstream: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of PASSED) {
    const v = upstream.get(name);
    if (v !== null && v.length <= 200) out[name] = v;
  }
  return out;
}
