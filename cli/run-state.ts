import type { BrowserContext, Page } from 'playwright-core';
import { BINDINGS, RUN_STATE_URL } from './bridge';

/**
 * The run's state as the runner keeps it between pages (the pages read it at document start,
 * so a run survives a navigation to another origin, where sessionStorage would be empty).
 *
 * The newest save of the page that drives the run wins. A page left behind can still save
 * after the next page took the run over (its pagehide comes late on a cross-process
 * navigation), so once a run instance (`owner`) is followed by another, its saves are refused.
 */
export interface RunStateKeeper {
  /** Takes a save from a page; false when it is refused (not a run state, another run, a stale page). */
  save(json: unknown): boolean;
  /** The state to resume on the next page, as saved. */
  current(): string | undefined;
}

export function runStateKeeper(): RunStateKeeper {
  let json: string | undefined;
  let id: string | undefined;
  let owner: string | undefined;
  const retired = new Set<string>();
  return {
    save(raw) {
      if (typeof raw !== 'string') return false;
      let s: { v?: unknown; id?: unknown; owner?: unknown };
      try {
        s = JSON.parse(raw);
      } catch {
        return false;
      }
      if (!s || s.v !== 1 || typeof s.id !== 'string' || typeof s.owner !== 'string') return false;
      if ((id && s.id !== id) || retired.has(s.owner)) return false;
      if (owner && owner !== s.owner) retired.add(owner);
      id = s.id;
      owner = s.owner;
      json = raw;
      return true;
    },
    current: () => json,
  };
}

/**
 * Wires the keeper to the browser: the page saves through a binding; the next page reads the
 * state at document start through a request this route answers (it never reaches the network).
 * Only the run's tab, `page()`, is heard and answered; after the run ended nobody is.
 */
export async function keepRunState(context: BrowserContext, page: () => Page, ended: () => boolean): Promise<void> {
  const state = runStateKeeper();
  await context.exposeBinding(BINDINGS.save, (source, json: unknown) => {
    if (source.page === page() && source.frame === page().mainFrame()) state.save(json);
  });
  await context.route(RUN_STATE_URL, (route) => {
    let ours = false;
    try {
      ours = route.request().frame().page() === page();
    } catch {
      // a request without a frame (a service worker's): not the run's page
    }
    const json = ended() || !ours ? undefined : state.current();
    const headers = { 'access-control-allow-origin': '*', 'cache-control': 'no-store' };
    return route.fulfill(json ? { status: 200, headers: { ...headers, 'content-type': 'application/json' }, body: json } : { status: 204, headers });
  });
}
