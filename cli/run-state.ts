import { randomBytes } from 'node:crypto';
import { RUN_STATE_URL } from './bridge';
import type { IsolatedWorld } from './isolated-world';

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
 * Serves the keeper's state to the run's isolated world, and to nothing else. The world asks
 * at document start with a synchronous POST of the run's secret to RUN_STATE_URL; the run's
 * tab intercepts that one URL (CDP `Fetch`, nothing else is paused) and answers it — the
 * request never reaches the network — only when the body is that secret, the request comes
 * from the tab's main frame, and the run has not ended. Anything else (a page script's fetch
 * or XHR, a frame) gets a 404 with no CORS header.
 *
 * Why a secret pulled at document start, and not the state pushed into the next document
 * (the world's init script re-registered with the state in it after every save): a push races
 * the navigation — the save a page sends as it unloads (the action under way, so the next
 * page can report its end) reaches Node about when the next document starts, and a document
 * that started before the new script was registered would resume an older state. The pull
 * reads the newest save at the last moment, as the old sessionStorage read did.
 *
 * The secret is known only to the world's init script (registered with CDP, never in the
 * page's world) and travels in the request body (a page sees other requests' URLs in its
 * resource timing, never their bodies). A page's service worker would see the body, and could
 * answer the request itself: the runner's context blocks service workers (cli/run.ts).
 */
export async function serveRunState(
  world: Pick<IsolatedWorld, 'session' | 'isMainFrame'>,
  o: { keeper: RunStateKeeper; secret: string; ended: () => boolean },
): Promise<void> {
  const cdp = world.session;
  cdp.on(
    'Fetch.requestPaused',
    (e: {
      requestId: string;
      frameId?: string;
      request: { method: string; headers: Record<string, string>; postData?: string; postDataEntries?: Array<{ bytes?: string }> };
    }) => {
      const r = e.request;
      const body = r.postData ?? (r.postDataEntries ?? []).map((p) => Buffer.from(p.bytes ?? '', 'base64').toString('utf8')).join('');
      const ours = r.method === 'POST' && body === o.secret && world.isMainFrame(e.frameId);
      const json = ours && !o.ended() ? o.keeper.current() : undefined;
      const header = (name: string, value: string) => ({ name, value });
      // The run's world shares the page's origin, so its request is a cross-origin one: allow
      // exactly that origin, for this answer only.
      const origin = Object.entries(r.headers).find(([k]) => k.toLowerCase() === 'origin')?.[1] ?? '*';
      const answer = !ours
        ? { responseCode: 404, responseHeaders: [header('Cache-Control', 'no-store')] }
        : json
          ? {
              responseCode: 200,
              responseHeaders: [header('Access-Control-Allow-Origin', origin), header('Cache-Control', 'no-store'), header('Content-Type', 'application/json')],
              body: Buffer.from(json).toString('base64'),
            }
          : { responseCode: 204, responseHeaders: [header('Access-Control-Allow-Origin', origin), header('Cache-Control', 'no-store')] };
      cdp.send('Fetch.fulfillRequest', { requestId: e.requestId, ...answer }).catch(() => {});
    },
  );
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern: `${RUN_STATE_URL}*`, requestStage: 'Request' }] });
}

/** A fresh secret for one run (128 bits). */
export const runSecret = (): string => randomBytes(16).toString('hex');
