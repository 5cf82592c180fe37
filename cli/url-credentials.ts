/**
 * A start URL's user and password (`https://user:pass@staging.example.org/`, as people reach a
 * staging site behind HTTP authentication), taken out of it: the browser answers that origin's
 * authentication challenges with them, and the URL the run prints, reports and saves carries
 * neither. Pure.
 *
 * @example
 *   splitCredentials('https://ann:s%40fe@staging.test/a');
 *   // { url: 'https://staging.test/a', credentials: { username: 'ann', password: 's@fe', origin: 'https://staging.test' } }
 */

/** Playwright's `httpCredentials`, held to the one origin they were given for. */
export interface UrlCredentials {
  username: string;
  password: string;
  origin: string;
}

const decode = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

export function splitCredentials(url: string): { url: string; credentials?: UrlCredentials } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { url };
  }
  if (!u.username && !u.password) return { url };
  const credentials = { username: decode(u.username), password: decode(u.password), origin: u.origin };
  u.username = '';
  u.password = '';
  return { url: u.href, credentials };
}
