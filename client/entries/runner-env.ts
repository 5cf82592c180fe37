/**
 * The headless runner's environment (dist/pagehand.runner.js), handed to the entry. The
 * runner runs this bundle in an isolated world (cli/isolated-world.ts): its globals, its
 * `fetch` (the model calls' transport) and its prototypes are its own, out of the page's reach.
 *
 * - The run's state is kept by the runner in Node instead of the page's sessionStorage, so a
 *   run survives a navigation to another origin. The runner wraps this bundle in a scope that
 *   defines `PAGEHAND_RUNNER` (cli/bridge.ts): a synchronous read (the page cannot wait at
 *   document start) and a save sent to Node.
 * - What only the page's world can see (closed shadow roots, listener-only click targets, the
 *   page's pending requests and timers) comes from the runner's page-world part
 *   (client/entries/runner-page.ts), handed over through DOM events; so do the page's WebMCP tools
 *   (client/webmcp/runner-registry.ts): this world's `document.modelContext` is not the page's.
 * - The downloads the runner saves (another site's file, a link that turned into a download)
 *   are handed in by Node through `PAGEHAND_RUNNER.downloads`: a call Node evaluates in this
 *   world (cli/download-handoff.ts), never a DOM event, so no page script can plant a file.
 * - What an action makes the page send is held by the runner at the network layer too, where
 *   no page script can avoid it (cli/network-hold.ts): the run asks Node to hold around each
 *   call that acts (`PAGEHAND_RUNNER.hold`), and Node hands each request it holds to the
 *   action's own gate (`PAGEHAND_RUNNER.effects`: the one the page hooks use,
 *   page/settle/effect-gate.ts), so it is judged, asked about and told to the model the same way.
 * - The pages are strangers' (the user runs pagehand on them): their marks may only add caution
 *   (`installedBy: 'user'`). Yet the `pagehand` the entry makes lives in the isolated world, out
 *   of the page scripts' reach (`isolated`): it keeps the whole API, so the runner's own bridge
 *   answers the run's confirmations and questions from the terminal.
 *
 * Only the runner injects this build; pagehand.js never reads the name.
 */
import type { AgentEnv } from '../agent/env';
import { createRunStore } from '../agent/persist';
import { useRunnerDownloads } from '../page/runner-downloads';
import { useHooksFromPageWorld } from '../page/dom/hooks';
import { held, type PageEffect } from '../page/settle/effect-gate';
import { usePageWorldActivity } from '../page/settle/settle';
import { setPageToolRegistry } from '../webmcp/offer';
import { pageWorldToolRegistry } from '../webmcp/runner-registry';

declare const PAGEHAND_RUNNER:
  | {
      get(): string | null;
      set(json: string): void;
      /** Registers what takes the runner's notes about downloads (Node calls it in this world). */
      downloads?(take: (note: unknown) => void): void;
      /** Asks Node to hold what the page sends while a call runs; resolves to what ends the hold. */
      hold?(): Promise<() => Promise<void>>;
      /** Registers what judges a request Node holds (Node calls it in this world): the current action's gate. */
      effects?(judge: (e: PageEffect) => Promise<boolean> | undefined): void;
    }
  | undefined;

/** Wires the runner's page-world parts and returns what the entry gets; outside the runner, nothing. */
export function runnerEnv(): AgentEnv {
  if (typeof PAGEHAND_RUNNER !== 'object' || !PAGEHAND_RUNNER) return {};
  const host = PAGEHAND_RUNNER;
  useHooksFromPageWorld();
  usePageWorldActivity();
  setPageToolRegistry(pageWorldToolRegistry());
  const listen = host.downloads;
  if (typeof listen === 'function') useRunnerDownloads((take) => listen(take));
  const hold = host.hold;
  host.effects?.(held);
  return {
    installedBy: 'user',
    isolated: true,
    ...(typeof hold === 'function' ? { networkHold: () => hold() } : {}),
    store: createRunStore(() => ({
      get: () => host.get(),
      set: (_key, value) => host.set(value),
      // The runner ends with the run: nothing to clear there.
      remove: () => undefined,
    })),
  };
}
