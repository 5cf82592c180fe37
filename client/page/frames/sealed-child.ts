/**
 * The userscript in a frame answering its parent (loaded on the first hello). It answers only
 * its own parent window, proves the installation's key over the parent's nonce and a fresh one
 * of its own (and both origins), and opens a session only when the parent proves the key back
 * over the same. Requests then come sealed and in order; anything else — a page script's
 * hello or confirm without the key, a replayed, reflected or altered message — gets no answer
 * beyond a challenge that is of no use without the key.
 */
import { answerRequest, type ChildDeps } from './answer';
import { CHANNEL, frameRequest, type FrameReply, type Without } from './protocol';
import { openInOrder, sealedEnd, sendInOrder, type SealedEnd } from './sealed-channel';
import { freshNonce, proofHolds, proofOf, sessionKey, type Binding } from './sealed-crypto';
import { toChild, targetOf, type ToParent } from './sealed-messages';
import type { FrameCrypto } from './secret';

/** Handshakes answered and not yet confirmed, by the parent's nonce (a page script can send hellos too: a few are kept). */
const MAX_PENDING = 8;

/** The frame's message handler: call it with every message event (in order). */
export function sealedChild(c: FrameCrypto, deps: ChildDeps): (e: MessageEvent) => void {
  const pending = new Map<string, { nc: string; origin: string; challenge: Without<ToParent, 'channel' | 'v'> }>();
  let session: SealedEnd | undefined;
  let inbox: Promise<void> = Promise.resolve();

  const post = (m: Without<ToParent, 'channel' | 'v'>, origin: string): void => {
    try {
      window.parent.postMessage({ channel: CHANNEL, v: 2, ...m }, targetOf(origin));
    } catch {
      /* the parent went away */
    }
  };

  const reply = (s: SealedEnd, r: FrameReply): void => sendInOrder(c, s, 'c2p', r, (m) => post(m, s.binding.parentOrigin));

  const handle = async (e: MessageEvent): Promise<void> => {
    if (e.source !== window.parent || window.top === window.self) return;
    const origin = e.origin;
    // Where the browser says who the parent is, it must agree.
    const ancestors = (location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins;
    if (ancestors && ancestors.length && ancestors[0] !== origin) return;
    const m = toChild(e.data);
    if (!m) return;
    if (m.type === 'hello') {
      const known = pending.get(m.np);
      if (known && known.origin === origin) return post(known.challenge, origin); // the same hello again: the same answer
      const nc = freshNonce(c);
      const binding: Binding = { np: m.np, nc, parentOrigin: origin, childOrigin: self.origin };
      const challenge = { type: 'challenge' as const, np: m.np, nc, proof: await proofOf(c, 'c2p', binding) };
      pending.set(m.np, { nc, origin, challenge });
      if (pending.size > MAX_PENDING) pending.delete(pending.keys().next().value!);
      return post(challenge, origin);
    }
    if (m.type === 'confirm') {
      const p = pending.get(m.np);
      if (!p || p.nc !== m.nc || p.origin !== origin) return;
      const binding: Binding = { np: m.np, nc: m.nc, parentOrigin: origin, childOrigin: self.origin };
      if (!(await proofHolds(c, 'p2c', binding, m.proof))) return;
      pending.delete(m.np);
      // The parent proved the key: this is its session now (a new page up there opens a new one).
      session = sealedEnd(binding, await sessionKey(c, binding));
      return;
    }
    const s = session;
    if (!s || origin !== s.binding.parentOrigin) return;
    const request = await openInOrder(c, s, 'p2c', m, frameRequest);
    if (request) void answerRequest(deps, request).then((r) => reply(s, r));
  };

  return (e) => {
    inbox = inbox.then(() => handle(e)).catch(() => undefined);
  };
}
