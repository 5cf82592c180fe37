/**
 * The userscript in a page asking its frames from other origins (loaded on the first map that
 * asks). Every such frame gets a `hello` with a fresh nonce; a frame takes part once it answers
 * with proof of the installation's key over both nonces and both origins, which a frame
 * without pagehand, or with another token or proxy, cannot give. From then on each request and
 * reply is sealed and taken only in order (sealed-channel.ts): a message that does not open as
 * the next one from that frame is dropped.
 */
import { frameIdOf } from '../map/walk';
import { frameReply, CHANNEL, type FrameRequest, type Without } from './protocol';
import { frameCrypto, type FrameCrypto } from './secret';
import { openInOrder, sealedEnd, sendInOrder, type SealedEnd } from './sealed-channel';
import { freshNonce, proofHolds, proofOf, sessionKey, type Binding } from './sealed-crypto';
import { toParent, targetOf, type Challenge, type Sealed, type ToChild } from './sealed-messages';
import { crossOrigin, keptOut, markReady, sessions, type FrameSession } from './sessions';
import type { Zones } from '../settings';

interface Link {
  np: string;
  /** Once the frame proved the key. */
  end?: SealedEnd;
  /** What comes in is handled one message at a time, in order. */
  inbox: Promise<void>;
}

const links = new WeakMap<FrameSession, Link>();
let listening = false;

function post(s: FrameSession, m: Without<ToChild, 'channel' | 'v'>, target: string): void {
  try {
    s.win.postMessage({ channel: CHANNEL, v: 2, ...m }, target);
  } catch {
    /* the frame went away */
  }
}

/** The hello goes to whatever document the frame holds: it says nothing but a nonce. */
const hello = (s: FrameSession, link: Link): void => post(s, { type: 'hello', np: link.np }, '*');

function sendSealed(c: FrameCrypto, s: FrameSession, link: Link, m: FrameRequest): void {
  if (link.end) sendInOrder(c, link.end, 'p2c', m, (x) => post(s, x, targetOf(s.origin)));
}

async function onChallenge(c: FrameCrypto, s: FrameSession, link: Link, m: Challenge, origin: string): Promise<void> {
  if (s.ready || m.np !== link.np) return;
  const binding: Binding = { np: link.np, nc: m.nc, parentOrigin: self.origin, childOrigin: origin };
  if (!(await proofHolds(c, 'c2p', binding, m.proof))) return;
  link.end = sealedEnd(binding, await sessionKey(c, binding));
  s.origin = origin;
  post(s, { type: 'confirm', np: link.np, nc: m.nc, proof: await proofOf(c, 'p2c', binding) }, targetOf(origin));
  markReady(s);
}

async function onSealed(c: FrameCrypto, s: FrameSession, link: Link, m: Sealed, origin: string): Promise<void> {
  if (!s.ready || !link.end || origin !== s.origin) return;
  const reply = await openInOrder(c, link.end, 'c2p', m, frameReply);
  if (reply) s.waiting.get(reply.id)?.(reply);
}

function listen(c: FrameCrypto): void {
  if (listening) return;
  listening = true;
  window.addEventListener('message', (e: MessageEvent) => {
    const m = toParent(e.data);
    if (!m) return;
    for (const s of sessions.values()) {
      const link = s.kind === 'userscript' && e.source === s.win ? links.get(s) : undefined;
      if (!link) continue;
      const origin = e.origin;
      link.inbox = link.inbox
        .then(() => (m.type === 'challenge' ? onChallenge(c, s, link, m, origin) : onSealed(c, s, link, m, origin)))
        .catch(() => undefined);
      return;
    }
  });
}

/** A frame with no box (hidden, or a tracker's 0×0) has nothing the map would show. */
function shown(iframe: HTMLIFrameElement): boolean {
  const r = iframe.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
}

/** Asks this document's frames from other origins that have no session yet (again, those that have not answered). */
export async function openUserscriptSessions(zones: Zones): Promise<void> {
  const c = frameCrypto();
  if (!c) return;
  listen(c);
  for (const iframe of document.querySelectorAll('iframe')) {
    const known = sessions.get(iframe);
    if (known) {
      // Its pagehand may have come after the first hello (a frame still loading): ask again, the same way.
      const link = links.get(known);
      if (link && !known.ready) hello(known, link);
      continue;
    }
    if (!iframe.contentWindow || !crossOrigin(iframe) || keptOut(iframe, zones) || !shown(iframe)) continue;
    const link: Link = { np: freshNonce(c), inbox: Promise.resolve() };
    const s: FrameSession = {
      kind: 'userscript',
      iframe,
      win: iframe.contentWindow,
      frameId: frameIdOf(iframe),
      origin: '',
      ready: false,
      waiting: new Map(),
      onReady: [],
      send: (m) => sendSealed(c, s, link, m),
    };
    links.set(s, link);
    sessions.set(iframe, s);
    // A frame that loads a new document needs a new session (its pagehand is a new one).
    iframe.addEventListener('load', () => sessions.get(iframe) === s && sessions.delete(iframe), { once: true });
    hello(s, link);
  }
}
