/**
 * The run's own JavaScript world in the run's tab, as browser extensions run content scripts:
 * an isolated world (CDP) that shares the page's DOM but none of its JavaScript — not its
 * globals, not its prototypes, not its fetch or XMLHttpRequest. The page's scripts cannot see
 * what lives there (the bundle, `pagehand`, the run, the token), cannot wrap what it calls, and
 * cannot call the bindings Node hears it through: those exist only in that world.
 *
 * - The world's script is registered for every new document of the tab (`worldName`), before
 *   the first navigation (so `runImmediately` is not needed: the tab is still about:blank).
 * - A small page-world script is registered too, without a world name: the hooks that must see
 *   the page's own calls at document start (client/entries/runner-page.ts). It holds nothing of ours.
 * - Bindings (`Runtime.addBinding` with `executionContextName`) are installed in that world
 *   only; a call arrives as `Runtime.bindingCalled` with a string and the id of the context it
 *   came from, and is heard only from the world of the tab's main frame.
 * - Node reaches the world with `Runtime.evaluate` in its context (the newest document's),
 *   never with `page.evaluate`, which runs in the page's world.
 */
import type { CDPSession, Page } from 'playwright-core';

/** The isolated world's name (also how its contexts are recognised). */
export const WORLD_NAME = 'pagehand';

export interface IsolatedWorldOptions {
  /** Runs in the page's own world at document start, before the page's scripts. */
  pageWorldSource: string;
  /** Runs in the isolated world at document start. */
  worldSource: string;
  /** Binding names installed in the isolated world only. */
  bindings: readonly string[];
  /** A binding called from the isolated world of the tab's main frame. `context` answers it. */
  onBinding(name: string, payload: string, context: WorldContext): void;
}

/** One document's isolated world. */
export interface WorldContext {
  /** Evaluates an expression there; undefined when it throws or the document is gone. */
  evaluate<T = unknown>(expression: string): Promise<T | undefined>;
}

export interface IsolatedWorld {
  /** The newest document's world in the main frame, if its document started. */
  current(): WorldContext | undefined;
  /** Waits (bounded) for the main frame's world to exist, after a navigation. */
  ready(timeoutMs?: number): Promise<WorldContext | undefined>;
  /** The CDP session on the run's tab (for the run-state route, cli/run-state.ts). */
  session: CDPSession;
  /** True for the id of the tab's main frame. */
  isMainFrame(frameId: string | undefined): boolean;
}

interface ContextDescription {
  id: number;
  uniqueId: string;
  name: string;
  auxData?: { frameId?: string; isDefault?: boolean };
}

export async function openIsolatedWorld(page: Page, o: IsolatedWorldOptions): Promise<IsolatedWorld> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  let mainFrameId: string | undefined;
  // The main frame's isolated contexts still alive, by id, with their uniqueId (what Node
  // evaluates in: ids may repeat across renderer processes, uniqueIds never do; a binding call
  // carries only the id, but only the run's own worlds have the bindings). A document left
  // behind may still send (its pagehide save): the run-state keeper decides what is stale.
  const ours = new Map<number, string>();
  let newest: string | undefined;
  const waiters = new Set<() => void>();

  const contextFor = (uniqueId: string): WorldContext => ({
    async evaluate<T>(expression: string): Promise<T | undefined> {
      try {
        const r = await cdp.send('Runtime.evaluate', { expression, uniqueContextId: uniqueId, returnByValue: true, awaitPromise: true });
        return r.exceptionDetails ? undefined : (r.result.value as T);
      } catch {
        return undefined; // the document went away
      }
    },
  });

  cdp.on('Runtime.executionContextCreated', ({ context }: { context: ContextDescription }) => {
    if (context.name !== WORLD_NAME || !mainFrameId || context.auxData?.frameId !== mainFrameId) return;
    ours.set(context.id, context.uniqueId);
    newest = context.uniqueId;
    for (const w of [...waiters]) w();
  });
  cdp.on('Runtime.executionContextDestroyed', ({ executionContextId }: { executionContextId: number }) => {
    const u = ours.get(executionContextId);
    ours.delete(executionContextId);
    if (u !== undefined && u === newest) newest = undefined;
  });
  cdp.on('Runtime.executionContextsCleared', () => {
    ours.clear();
    newest = undefined;
  });
  cdp.on('Runtime.bindingCalled', ({ name, payload, executionContextId }: { name: string; payload: string; executionContextId: number }) => {
    const u = ours.get(executionContextId);
    // Only the run's world of the main frame is heard (frames get the world too, and stay silent).
    if (u === undefined || !o.bindings.includes(name)) return;
    o.onBinding(name, payload, contextFor(u));
  });
  cdp.on('Page.frameNavigated', ({ frame }: { frame: { id: string; parentId?: string } }) => {
    if (!frame.parentId) mainFrameId = frame.id;
  });

  await cdp.send('Page.enable');
  const { frameTree } = await cdp.send('Page.getFrameTree');
  mainFrameId = frameTree.frame.id;
  await cdp.send('Runtime.enable');
  for (const name of o.bindings) await cdp.send('Runtime.addBinding', { name, executionContextName: WORLD_NAME });
  // The page-world part first: both run before the page's scripts, this one before ours.
  await cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: o.pageWorldSource });
  await cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: o.worldSource, worldName: WORLD_NAME });

  const current = () => (newest === undefined ? undefined : contextFor(newest));
  return {
    session: cdp,
    isMainFrame: (frameId) => !!frameId && frameId === mainFrameId,
    current,
    ready(timeoutMs = 10_000) {
      const now = current();
      if (now) return Promise.resolve(now);
      return new Promise((resolve) => {
        const done = () => {
          waiters.delete(done);
          clearTimeout(timer);
          resolve(current());
        };
        const timer = setTimeout(done, timeoutMs);
        timer.unref?.();
        waiters.add(done);
      });
    },
  };
}
