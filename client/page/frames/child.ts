/**
 * pagehand in a frame answering the page around it: its map and its actions, over postMessage.
 *
 * It answers only its own parent window (`event.source === window.parent`), only when the
 * parent's origin (set by the browser, `event.origin`) is one the site listed in
 * `init({ frames })`, and only a parent that says the same proxy and token as this page's
 * pagehand. A `hello` opens a session with the parent's nonce; every later request must carry
 * it. Replies go to that origin only (`postMessage(…, origin)`), so a parent that navigated
 * away in the meantime gets nothing. An action runs only if what it would press still looks as
 * it did when the parent judged its risk.
 */
import { answerRequest, type ChildDeps } from './answer';
import { frameAllowed, sameInstallation, type FrameConfig } from './config';
import { CHANNEL, parentMessage, VERSION, type ChildMessage, type Without } from './protocol';

export type { ChildDeps } from './answer';

let installed = false;

/** Answers the parent window from now on (once per page; nothing happens when not in a frame), as `frames` allows at each message. */
export function answerParent(deps: ChildDeps, frames: () => FrameConfig): void {
  if (installed || typeof window === 'undefined' || window.parent === window) return;
  installed = true;
  let session: { nonce: string; origin: string } | undefined;
  const reply = (m: Without<ChildMessage, 'channel' | 'v'>, origin: string): void => {
    try {
      window.parent.postMessage({ channel: CHANNEL, v: VERSION, ...m }, origin);
    } catch {
      /* the parent went away */
    }
  };
  window.addEventListener('message', (e: MessageEvent) => {
    if (e.source !== window.parent) return;
    const origin = e.origin;
    if (!frameAllowed(frames(), origin)) return;
    // Where the browser says who the parent is, it must agree.
    const ancestors = (location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins;
    if (ancestors && ancestors.length && ancestors[0] !== origin) return;
    const m = parentMessage(e.data);
    if (!m) return;
    if (m.type === 'hello') {
      if (!sameInstallation(frames(), m.proxy, m.token)) return;
      session = { nonce: m.nonce, origin };
      reply({ type: 'ready', nonce: m.nonce }, origin);
      return;
    }
    if (!session || m.nonce !== session.nonce || origin !== session.origin) return;
    const { nonce } = session;
    const { channel: _c, v: _v, nonce: _n, ...request } = m;
    void answerRequest(deps, request).then((r) => reply({ ...r, nonce }, origin));
  });
}
