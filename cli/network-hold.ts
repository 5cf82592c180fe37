/**
 * What an action makes the page send, held where no page script can avoid it: the browser's
 * network layer. The run's hooks live in an isolated world (cli/isolated-world.ts), so they see
 * the page's navigations (the Navigation API's events reach every world) but not the page's
 * own fetch, XHR, beacons or windows — nor what a worker or a fresh frame's `fetch` sends,
 * which no page hook sees anywhere. So around each call that acts, the run asks Node to hold
 * (a binding, answered once the hold is on: nothing the call causes can start before), and
 * while it holds, every request of the run's tab, its frames, its workers and the windows it
 * opens that changes something (not GET or HEAD), and every window it opens, is paused here and
 * handed to the run's world, where the action's own gate judges it (client/safety/effects.ts:
 * the rules, the question, "always", the model told) — the same gate the page hooks use, so an
 * effect both see is asked about once. A no (or a request that could not be judged: its page
 * went away) fails the request, and the log says so.
 *
 * Not the top frame's own navigations: while one is paused, Chromium holds back every DevTools
 * message to that frame (`Runtime.evaluate` waits until it commits or ends), so the run's world
 * could not judge it and the action would wait for nothing. Those are held in the run's world
 * already, at the Navigation API's `navigate` event (client/page/settle/effects.ts).
 *
 * Playwright's `context.route`, not the CDP session's `Fetch`: it follows the tab's workers
 * (nested too), its frames from other origins and the windows it opens; the session's `Fetch`
 * sees neither of the last two. Service workers are blocked in the runner's context and shared
 * workers are off in its browser (cli/run.ts): neither can send from outside the tab's reach.
 *
 * Outside a call nothing is routed (no request waits on Node); pagehand's own proxy and the
 * run-state request (cli/run-state.ts) are never held.
 */
import type { CDPSession, Page, Request, Route } from 'playwright-core';
import type { PageEffect } from '../client/page/settle/effect-gate';
import { RUN_STATE_URL, WORLD_API } from './bridge';
import type { WorldContext } from './isolated-world';
import type { Reporter } from './report';

/** What the network layer tells of one request. */
export interface SeenRequest {
  method: string;
  url: string;
  /** Playwright's resource type (`document`, `fetch`, `xhr`, `ping`…). */
  type: string;
  /** A document request of a frame (a navigation, a frame's load, a window's first page). */
  navigation: boolean;
  /** The run's tab's top frame, one of its frames, the top frame of a window it opened, or none known (a worker). */
  from: 'top' | 'frame' | 'window' | 'other';
}

const reads = (method: string): boolean => /^(get|head)$/i.test(method);

/**
 * The effect a held request is judged as, or undefined: it goes untouched. Reading goes, except
 * the first page of a window the page opened (judged as `window.open` there: another site, a
 * file, `/account/delete`). A form posted into a frame is a request (the top page stays). The
 * top frame's navigations go (see above); so do pagehand's proxy and the run-state request.
 */
export function effectOf(r: SeenRequest, o: { proxy: string }): PageEffect | undefined {
  const proxy = o.proxy.replace(/\/+$/, '');
  if (r.url.startsWith(RUN_STATE_URL) || r.url === proxy || r.url.startsWith(`${proxy}/`)) return undefined;
  const method = r.method.toUpperCase();
  if (r.navigation && r.from === 'top') return undefined;
  if (r.navigation && r.from === 'window') return { kind: 'window', url: r.url, method };
  if (reads(method)) return undefined;
  return { kind: r.type === 'ping' || r.type === 'beacon' ? 'beacon' : 'request', url: r.url, method };
}

/** `POST request to https://…/account/delete`, for the log. */
export function described(e: PageEffect): string {
  const to = e.url.replace(/#.*/, '');
  if (e.kind === 'request') return `${e.method} request to ${to}`;
  if (e.kind === 'beacon') return `beacon to ${to}`;
  if (e.kind === 'window') return `new window on ${to}`;
  return e.method === 'POST' ? `form submission to ${to}` : `navigation to ${to}`;
}

function seen(r: Request, page: Page): SeenRequest {
  const navigation = r.isNavigationRequest();
  let from: SeenRequest['from'];
  try {
    const f = r.frame();
    const ours = f.page() === page;
    from = f.parentFrame() ? (ours ? 'frame' : 'other') : ours ? 'top' : 'window';
  } catch {
    // No frame yet: the first page of a window opened with an address (`window.open(url)`); or a worker's request.
    from = navigation ? 'window' : 'other';
  }
  return { method: r.method(), url: r.url(), type: r.resourceType(), navigation, from };
}

export interface NetworkHold {
  /** Holds from now on; what is held is judged in `ctx`, the world of the call that acts. True once on. */
  start(ctx: WorldContext): Promise<boolean>;
  /** Stops holding (what is held already still gets its answer). */
  end(): Promise<boolean>;
}

export function networkHold(page: Page, o: { proxy: string; report: Reporter; session: CDPSession }): NetworkHold {
  const context = page.context();
  let holding: { ctx: WorldContext } | undefined;
  let routed = false;
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(f: () => Promise<T>): Promise<T> => {
    const p = chain.then(f);
    chain = p.catch(() => undefined);
    return p;
  };

  const matches = (): boolean => holding !== undefined;
  const handler = async (route: Route): Promise<void> => {
    const h = holding;
    const e = h && effectOf(seen(route.request(), page), { proxy: o.proxy });
    if (!h || !e) return route.fallback().catch(() => undefined);
    const verdict = await h.ctx.evaluate<string>(`${WORLD_API}.effect(${JSON.stringify(e)})`);
    if (verdict === 'go') return route.fallback().catch(() => undefined);
    o.report.note(`stopped the page's ${described(e)}: ${verdict === 'stop' ? 'not allowed' : 'it could not be judged (its page went away)'}`, {
      stopped: e,
    });
    await route.abort('blockedbyclient').catch(() => undefined);
  };

  const end = (): Promise<boolean> =>
    serial(async () => {
      holding = undefined;
      if (routed) {
        routed = false;
        await context.unroute(matches, handler).catch(() => undefined);
      }
      return true;
    });
  // A new document in the top frame: the call's world is gone with its action (the next page
  // resumes the run); that page's own loading is no action's effect.
  o.session.on('Page.frameNavigated', ({ frame }: { frame: { parentId?: string } }) => {
    if (!frame.parentId && holding) void end();
  });

  return {
    start: (ctx) =>
      serial(async () => {
        holding = { ctx };
        if (routed) return true;
        try {
          await context.route(matches, handler);
          routed = true;
          return true;
        } catch {
          holding = undefined;
          return false;
        }
      }),
    end,
  };
}
