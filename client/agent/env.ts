/**
 * What the embedding supplies to the agent: the userscript swaps the transport for
 * GM_xmlhttpRequest (strict-CSP pages) and the store for GM storage (cross-origin
 * navigations); the runner keeps the run in Node. Each entry hands its environment to
 * `startPagehand` (client/start.ts), which passes it down: to the agent API, each run, and its
 * risk check.
 */
import type { RunStore } from './persist';

export interface AgentEnv {
  /** Transport for model calls; default the page's fetch. */
  fetch?: typeof fetch;
  /** Where the run's state survives a page load; default sessionStorage. */
  store?: RunStore;
  /**
   * Who put pagehand on this page. `'site'` (the embed, the npm entry): the page is the site
   * owner's, so its marks, `init` and callbacks are trusted. `'user'` (bookmarklet, userscript,
   * runner): the page is a stranger's, so it may add caution but never remove it. Default 'site'.
   */
  installedBy?: 'site' | 'user';
  /**
   * Page scripts cannot reach this `pagehand` (the runner's isolated world): it keeps the whole
   * API — the runner's own bridge answers confirmations — even where the page is a stranger's.
   */
  isolated?: boolean;
  /**
   * The runner: while a page call runs, what the page sends is also held at the browser's
   * network layer, where no page script can avoid it (a worker's fetch, a fresh frame's), and
   * judged by the action's own gate (cli/network-hold.ts). Resolves once the hold is on (it
   * rejects when it could not be set: the call does not run); what it resolves to ends it.
   */
  networkHold?: () => Promise<() => Promise<void>>;
}

/** The page is a stranger's (bookmarklet, userscript, runner): its marks and callbacks may only add caution. */
export const untrustedPage = (env: AgentEnv): boolean => env.installedBy === 'user';

/**
 * Whether `token` is a session token the proxy made for the user's own pagehand (the
 * bookmarklet: its claims say `u: 1`). Read, not verified: the proxy verifies it on every call,
 * and a page cannot make one without the user's token (a session token cannot make another) —
 * so a page that strips the bookmarklet's mark off the script tag still gets the stranger's API.
 */
export function isUserSession(token: string | undefined): boolean {
  const m = /^phs_([A-Za-z0-9_-]{1,2000})\./.exec(token ?? '');
  if (!m) return false;
  try {
    const b64 = m[1]!.replace(/-/g, '+').replace(/_/g, '/');
    const claims = JSON.parse(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4))) as { u?: unknown };
    return claims.u === 1;
  } catch {
    return false;
  }
}

/**
 * The environment as it applies on this page: the entry's own, made a stranger's page's when the
 * script tag carries the bookmarklet's loader mark or the token is a session token made for the
 * user's own pagehand (what a page cannot forge).
 */
export const pageEnv = (given: AgentEnv, script: Element | null, token: string | undefined): AgentEnv =>
  script?.hasAttribute('data-pagehand-loader') || isUserSession(token) ? { ...given, installedBy: 'user' } : given;
