/**
 * What to do about a proxy with no model provider: said by the loop in the page and by the
 * runner before it starts a browser, in the same words.
 */
export const NO_PROVIDER_FIX =
  'set OPENAI_API_KEY (or OPENAI_BASE_URL and PAGEHAND_MODEL for a local server) or GEMINI_API_KEY where the proxy runs, then restart it.';
