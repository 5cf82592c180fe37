/**
 * The userscript in a frame (not the top page): no launcher, no panel, no run of its own — it
 * only answers a parent page where the same installation runs. Until a hello comes it costs a
 * message listener and the document-start hooks the map relies on; the handshake, the map and
 * the actions load with the first hello.
 */
import { installHooks } from '../hooks';
import { installActivityHooks } from '../settle';
import { CHANNEL } from './protocol';
import { SEALED_VERSION } from './sealed-messages';
import { frameCrypto } from './secret';

export function answerUserscriptParent(): void {
  const c = frameCrypto();
  if (!c || typeof window === 'undefined' || window.parent === window) return;
  // At document start, as in the top page: closed shadow roots, listener-only click targets, and the activity settle waits for.
  installHooks();
  installActivityHooks();
  let handler: Promise<(e: MessageEvent) => void> | undefined;
  window.addEventListener('message', (e: MessageEvent) => {
    if (e.source !== window.parent) return;
    const d = e.data as { channel?: unknown; v?: unknown } | null;
    if (!d || typeof d !== 'object' || d.channel !== CHANNEL || d.v !== SEALED_VERSION) return;
    handler ??= Promise.all([import('./sealed-child'), import('./child-deps')]).then(([{ sealedChild }, { childDeps }]) => sealedChild(c, childDeps));
    // Reactions run in the order they were added: messages are handled in the order they came.
    void handler.then((h) => h(e), () => undefined);
  });
}
