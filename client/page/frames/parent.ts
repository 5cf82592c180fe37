/**
 * pagehand in a page talking to pagehand in its frames from other origins: their maps go into
 * the page's map (refs `f2:17`), calls on their refs go to them.
 *
 * A frame takes part only when its document is at an origin the site listed in
 * `init({ frames })`: `hello` (with a fresh nonce, and this page's proxy and token, so that
 * only a pagehand of the same proxy and token answers) is posted to that origin only. A reply
 * counts only from that frame's own window (`event.source`), from the origin the session was
 * opened with (`event.origin`), with the session's nonce. A frame that does not answer stays
 * the opaque line it always was.
 */
import type { ActionCall, ActionResult } from '../actions/contract';
import type { TargetFacts } from '../facts-types';
import { contentOrigin } from '../dom/flat-tree';
import { activatingKey, parseKeyCombo } from '../actions/keys';
import { parseRef, RefError, refOf } from '../map/refs';
import { nativeSetTimeout } from '../settle/settle';
import { frameIdOf } from '../map/walk';
import { frameAllowed, type FrameConfig } from './config';
import type { PageSettings, Zones } from '../settings';
import type { RemoteFrameMap } from './merge';
import { CHANNEL, childMessage, newNonce, VERSION, type FrameReply, type FrameRequest, type ParentMessage, type Without } from './protocol';
import { frameCrypto } from './secret';
import { crossOrigin, keptOut, markReady, sessions, type FrameSession } from './sessions';
import { pageLazy } from '../lazy';

/** The site protocol's session nonce, per session. */
const nonces = new WeakMap<FrameSession, string>();
let nextId = 1;
let listening = false;

/** How long an action in a frame may take (it settles there first). */
const ACT_TIMEOUT_MS = 70_000;

function onMessage(e: MessageEvent): void {
  const m = childMessage(e.data);
  if (!m) return;
  for (const s of sessions.values()) {
    if (s.kind !== 'site' || e.source !== s.win || e.origin !== s.origin || m.nonce !== nonces.get(s)) continue;
    if (m.type === 'ready') markReady(s);
    else if (s.ready) {
      const { channel: _c, v: _v, nonce: _n, ...reply } = m;
      s.waiting.get(m.id)?.(reply);
    }
    return;
  }
}

function post(s: FrameSession, m: Without<ParentMessage, 'channel' | 'v'>): void {
  try {
    // To the session's origin only: a frame that navigated elsewhere gets nothing.
    s.win.postMessage({ channel: CHANNEL, v: VERSION, ...m }, s.origin);
  } catch {
    /* the frame went away */
  }
}

/** The origin an iframe's document is at, as far as the page can tell (its src), if it is one the site listed. */
function listedOrigin(iframe: HTMLIFrameElement, frames: FrameConfig): string | undefined {
  try {
    const o = new URL(iframe.src, location.href).origin;
    return frameAllowed(frames, o) && o !== location.origin ? o : undefined;
  } catch {
    return undefined;
  }
}

/** Opens sessions with the listed cross-origin frames of this document (and drops gone ones). */
function discover({ zones, frames }: PageSettings): void {
  if (!listening) {
    listening = true;
    window.addEventListener('message', onMessage);
  }
  for (const [iframe, s] of sessions) {
    if (!iframe.isConnected || iframe.contentWindow !== s.win || (s.kind === 'site' && listedOrigin(iframe, frames) !== s.origin) || keptOut(iframe, zones))
      sessions.delete(iframe);
  }
  const { proxy, token } = frames;
  if (!token) return;
  for (const iframe of document.querySelectorAll('iframe')) {
    if (sessions.has(iframe) || !iframe.contentWindow || !crossOrigin(iframe) || keptOut(iframe, zones)) continue;
    const origin = listedOrigin(iframe, frames);
    if (!origin) continue;
    const nonce = newNonce();
    const s: FrameSession = {
      kind: 'site',
      iframe,
      win: iframe.contentWindow,
      frameId: frameIdOf(iframe),
      origin,
      ready: false,
      waiting: new Map(),
      onReady: [],
      send: (m) => post(s, { ...m, nonce }),
    };
    nonces.set(s, nonce);
    sessions.set(iframe, s);
    // A frame that loads a new document needs a new session (its pagehand is a new one).
    iframe.addEventListener('load', () => sessions.get(iframe) === s && sessions.delete(iframe), { once: true });
    post(s, { type: 'hello', nonce, proxy, token });
  }
}

/** The userscript's frames: every frame from another origin is asked (top page only: a frame's own frames stay its own). */
async function discoverUserscriptFrames(zones: Zones): Promise<void> {
  if (!frameCrypto() || window.top !== window.self) return;
  // Loaded on first use, with what else the agent loads then (one file in the embed's split build).
  const { openUserscriptSessions } = await pageLazy();
  await openUserscriptSessions(zones);
}

function ask<T>(s: FrameSession, m: Without<FrameRequest, 'id'>, timeoutMs: number, pick: (m: FrameReply) => T | undefined): Promise<T | undefined> {
  return new Promise((resolve) => {
    const id = nextId++;
    const done = (v: T | undefined): void => {
      s.waiting.delete(id);
      resolve(v);
    };
    s.waiting.set(id, (reply) => done(pick(reply)));
    nativeSetTimeout(() => done(undefined), timeoutMs);
    s.send({ ...m, id } as FrameRequest);
  });
}

function whenReady(s: FrameSession, timeoutMs: number): Promise<boolean> {
  if (s.ready) return Promise.resolve(true);
  return new Promise((resolve) => {
    s.onReady.push(() => resolve(true));
    nativeSetTimeout(() => resolve(s.ready), timeoutMs);
  });
}

/** Asks every taking-part frame for its map (bounded); what does not come in time keeps the last one. */
export async function refreshRemoteMaps(maxTokens: number, settings: PageSettings, timeoutMs = 400): Promise<void> {
  discover(settings);
  await discoverUserscriptFrames(settings.zones);
  // The frames share the budget (the userscript may find several: a widget, a player, an ad).
  const perFrame = Math.max(200, Math.floor(maxTokens / Math.max(1, [...sessions.values()].filter((s) => !s.quiet).length)));
  await Promise.all(
    [...sessions.values()].map(async (s) => {
      // A userscript frame that never answered (most frames run no pagehand) is not waited for again.
      if (!(await whenReady(s, s.quiet ? 0 : timeoutMs))) {
        if (s.kind === 'userscript') s.quiet = true;
        return;
      }
      const map = await ask(s, { type: 'map', maxTokens: perFrame }, timeoutMs * 2, (r) => (r.type === 'map-result' ? r.map : undefined));
      if (map) s.map = map;
    }),
  );
}

/** How many frames have a map to add (before the page's map gives them refs). */
export function remoteFrameCount(settings: PageSettings): number {
  discover(settings);
  return [...sessions.values()].filter((s) => s.ready && s.map).length;
}

/** The frames' last maps, for merging into the page's map (after it: the frame elements' own refs are needed). */
export function remoteFrameMaps(settings: PageSettings): RemoteFrameMap[] {
  discover(settings);
  const out: RemoteFrameMap[] = [];
  for (const s of sessions.values()) {
    const frameRef = refOf(s.iframe);
    if (!s.ready || !s.map || !frameRef) continue;
    out.push({ frameId: s.frameId, frameRef, origin: s.origin, offset: contentOrigin(s.iframe), map: s.map });
  }
  return out;
}

function sessionAt(ref: unknown, zones: Zones): { s: FrameSession; local: string } | undefined {
  const m = /^(f\d+):(\d+)$/.exec(parseRef(ref) ?? '');
  if (!m) return undefined;
  for (const s of sessions.values()) if (s.frameId === m[1] && s.ready && s.iframe.isConnected && !keptOut(s.iframe, zones)) return { s, local: m[2]! };
  return undefined;
}

/**
 * The risk facts the frame gave for this call's element with its last map (what the parent's
 * risk check reads), `null` when the call presses nothing the frame named; undefined when the
 * call is not on a remote element.
 */
export function remoteFacts(call: { name: string; args?: Record<string, unknown> }, settings: PageSettings): TargetFacts | null | undefined {
  // A run that stays out of frames (one a stranger's page started) learns nothing of theirs,
  // not even through the question its risk check would ask.
  if (!settings.remoteFrames) return undefined;
  const sessionFor = (ref: unknown) => sessionAt(ref, settings.zones);
  const a = call.args ?? {};
  const on = (ref: unknown, kind: 'click' | 'enter' | 'space' | 'submit'): TargetFacts | null | undefined => {
    const hit = sessionFor(ref);
    if (!hit) return undefined;
    // A ref the frame never listed is no element at all: refused as the frame would refuse it.
    const map = hit.s.map;
    if (map && !map.elements.some((e) => String(e.ref) === String(hit.local)))
      throw new RefError('unknown', String(ref), `There is no element [${String(ref)}] in the map. Use a ref from the latest observation.`);
    return map?.facts[hit.local]?.[kind] ?? null;
  };
  switch (call.name) {
    case 'click':
    case 'double_click':
      return on(a.ref, 'click');
    case 'drag':
      return a.to_ref !== undefined && a.to_ref !== null ? on(a.to_ref, 'click') : sessionFor(a.ref) ? null : undefined;
    case 'press_key': {
      let key: 'Enter' | ' ' | undefined;
      try {
        key = activatingKey(parseKeyCombo(String(a.key ?? '')));
      } catch {
        key = undefined;
      }
      if (key) return on(a.ref, key === 'Enter' ? 'enter' : 'space');
      return sessionFor(a.ref) ? null : undefined;
    }
    case 'type':
      return a.submit === true || a.submit === 'true' || /[\r\n]/.test(String(a.text ?? '')) ? on(a.ref, 'submit') : sessionFor(a.ref) ? null : undefined;
    default:
      return ['ref', 'to_ref'].some((k) => sessionFor(a[k])) ? null : undefined;
  }
}

/**
 * Runs a call on a frame's elements there: its refs without the frame's prefix, with the facts
 * the risk check judged (the frame refuses if its element no longer matches them).
 */
export async function actInFrame(call: ActionCall, settings: PageSettings): Promise<ActionResult | undefined> {
  const args = { ...(call.args ?? {}) };
  const hits = (['ref', 'to_ref'] as const).filter((k) => args[k] !== undefined).map((k) => [k, sessionAt(args[k], settings.zones)] as const);
  const remote = hits.filter(([, h]) => h);
  if (!remote.length) return undefined;
  const s = remote[0]![1]!.s;
  if (hits.some(([, h]) => !h || h.s !== s)) {
    return { ok: false, message: 'A drag stays within one page or frame: both elements must be in the same frame.', error: { kind: 'bad_args' }, changes: {} };
  }
  for (const [k, h] of remote) args[k] = h!.local;
  // A canonical click (the loop's) holds as { hold: { ms } }: the frame reads hold_ms.
  const hold = args.hold as { ms?: unknown } | undefined;
  if (call.name === 'click' && hold && typeof hold === 'object') {
    args.hold_ms = hold.ms;
    delete args.hold;
  }
  const judged = remoteFacts(call, settings) ?? null;
  const result = await ask(s, { type: 'act', call: { name: call.name, args }, judged }, ACT_TIMEOUT_MS, (r) =>
    r.type === 'act-result' ? r.result : undefined,
  );
  return (
    result ?? {
      ok: false,
      message: `The frame ${s.frameId} did not answer; it may have changed page. Look at the new map.`,
      error: { kind: 'failed' },
      changes: {},
    }
  );
}
