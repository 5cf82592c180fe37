/**
 * The userscript in a frame (not the top page): no launcher, no panel, no run of its own — it
 * only answers a parent page where the same installation runs. Until a hello comes it costs a
 * message listener and the document-start hooks the map relies on (closed shadow roots,
 * listener-only click targets); the watch on the page's requests and timers that actions settle
 * by, the handshake, the map and the actions start with the first hello.
 */
import { installHooks } from '../dom/hooks';
import { installActivityHooks } from '../settle/settle';
import { CHANNEL } from './protocol';
import { SEALED_VERSION } from './sealed-messages';
import { frameCrypto } from './secret';
import type { PageSettings } from '../settings';
import type { FactsOf } from './child-deps';

/** `settings`: a stranger's frame configures nothing (no deny selectors, marks or masks of a site); `facts`: the risk check's reading of a call. */
export function answerUserscriptParent(settings: PageSettings, facts: FactsOf): void {
  const c = frameCrypto();
  if (!c || typeof window === 'undefined' || window.top === window.self) return;
  // At document start, as in the top page: what a page's scripts do later is seen only from here.
  installHooks();
  let handler: Promise<(e: MessageEvent) => void> | undefined;
  window.addEventListener('message', (e: MessageEvent) => {
    if (e.source !== window.parent) return;
    const d = e.data as { channel?: unknown; v?: unknown } | null;
    if (!d || typeof d !== 'object' || d.channel !== CHANNEL || d.v !== SEALED_VERSION) return;
    if (!handler) installActivityHooks();
    handler ??= Promise.all([import('./sealed-child'), import('./child-deps')]).then(([{ sealedChild }, { childDeps }]) =>
      sealedChild(
        c,
        childDeps(() => settings, facts),
      ),
    );
    // Reactions run in the order they were added: messages are handled in the order they came.
    void handler.then(
      (h) => h(e),
      () => undefined,
    );
  });
}
