/**
 * The headless runner's environment (dist/pagehand.runner.js): the run's state is kept by the
 * runner in Node instead of the page's sessionStorage, so a run survives a navigation to
 * another origin. The runner wraps this bundle in a scope that defines `PAGEHAND_RUNNER`
 * (cli/bridge.ts): a synchronous read (the page cannot wait at document start) and a save
 * sent to Node. Only the runner injects this build; pagehand.js never reads the name.
 */
import { setAgentEnv } from './agent/env';
import { createRunStore } from './agent/persist';

declare const PAGEHAND_RUNNER: { get(): string | null; set(json: string): void } | undefined;

if (typeof PAGEHAND_RUNNER === 'object' && PAGEHAND_RUNNER) {
  const host = PAGEHAND_RUNNER;
  setAgentEnv({
    store: createRunStore(() => ({
      get: () => host.get(),
      set: (_key, value) => host.set(value),
      // The runner ends with the run: nothing to clear there.
      remove: () => undefined,
    })),
  });
}
