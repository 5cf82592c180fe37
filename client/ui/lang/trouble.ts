/**
 * A model call's error in a language's words, by what kind of trouble its code is (the proxy's
 * `error.code`, or the client's `network`, `stream_cut`, `http_<status>`): `busy` (rate
 * limits), `access` (the proxy or the provider refused who is asking), `reach` (the model could
 * not be reached or its answer broke off); anything else is `other`, which names the code.
 */
export function trouble(why: string, words: { busy: string; access: string; reach: string }, other: string): string {
  if (/rate_limit|http_429/.test(why)) return words.busy;
  if (/token|not_allowed|auth|refused|outdated|http_40[13]/.test(why)) return words.access;
  if (/network|stream|unreachable|timeout|upstream|http_5/.test(why)) return words.reach;
  return other;
}
