/**
 * The agent chunk's side of the handoff (./handoff.ts). Every bundle's entry asks
 * `loaderHandoff()`; only the agent chunk, whose entry imports ./take-handoff.ts first, has
 * one — so the bookmarklet's bundle, the userscript, the runner and the npm entry never adopt
 * anything a page put on `window.pagehand`.
 */
import { HANDOFF, type Handoff, type LoaderModules } from './handoff';

let taken: Handoff | undefined;

/** Takes the loader's handoff off its stub (once); throws when there is none. */
export function adoptHandoff(): Handoff {
  if (taken) return taken;
  const stub = (typeof window !== 'undefined' ? window.pagehand : undefined) as unknown as Record<symbol, Handoff | undefined> | undefined;
  const h = stub?.[HANDOFF];
  if (!h || typeof h.takeover !== 'function' || !h.modules) {
    throw new Error('pagehand: the agent chunk runs only when pagehand-loader.js loads it (window.pagehand is not its stub).');
  }
  taken = h;
  delete stub[HANDOFF];
  return h;
}

/** The loader's handoff, in the agent chunk; undefined in every other bundle. */
export const loaderHandoff = (): Handoff | undefined => taken;

/** The loader's hooks, network, settle and WebMCP modules (the agent chunk's stand-ins read these). */
export const loaderModules = (): LoaderModules => adoptHandoff().modules;
