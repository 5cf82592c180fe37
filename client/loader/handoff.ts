/**
 * The contract between the embed's two files: the loader (dist/pagehand-loader.js, a few KB on
 * every page view) and the agent chunk it loads on demand (dist/pagehand-agent.HASH.js). They
 * are two scripts in one page; what the loader saw before the chunk arrived reaches the chunk
 * through one symbol-keyed, non-enumerable property of the loader's `window.pagehand` stub —
 * no new global — which the chunk deletes as it takes it.
 */
import type { EmbedDefaults } from '../embed/script-tag';
import type { OpenOptions, UiConfig } from '../agent/public-types';
import type * as Hooks from '../page/dom/hooks';
import type * as Network from '../page/settle/network';
import type * as Settle from '../page/settle/settle';
import type * as Animations from '../page/settle/animations';
import type * as Polyfill from '../webmcp/polyfill';

/** The stub's property holding the handoff (Symbol.for: the chunk is a separate script). */
export const HANDOFF = Symbol.for('pagehand.handoff');

/**
 * The loader's instances of the modules that hold document-start state: the closed shadow
 * roots and listener-only targets the hooks saw, the page's requests and timers in flight,
 * the page's native timers. In the agent chunk these modules ARE the loader's (build swaps
 * them in), so nothing observed before the chunk loaded is lost and nothing is wrapped twice.
 */
export interface LoaderModules {
  hooks: typeof Hooks;
  network: typeof Network;
  settle: typeof Settle;
  /** What moves on its own, learnt from document start (settle ignores it). */
  animations: typeof Animations;
  /** WebMCP's document.modelContext: the registry the loader installed before the site's scripts ran. */
  webmcp: typeof Polyfill;
}

/**
 * Built-ins the agent keeps as it finds them when it loads (client/ui/index.tsx: attachShadow
 * for its closed root; client/ui/trusted.ts: the Event `type` getter that tells a real event).
 * The embed's agent loads late, after the page's scripts: it must find them as they were when
 * the loader ran, so the loader takes them first thing and the chunk puts them back while its
 * modules load (./take-handoff.ts, ./restore-natives.ts).
 */
export const NATIVES: ReadonlyArray<readonly [() => object, string]> = [
  [() => Element.prototype, 'attachShadow'],
  [() => Event.prototype, 'type'],
];

export type NativeSnapshot = Array<readonly [object, string, PropertyDescriptor]>;

/** The NATIVES' descriptors now (those that exist). */
export function snapshotNatives(): NativeSnapshot {
  const out: NativeSnapshot = [];
  for (const [owner, key] of NATIVES) {
    try {
      const o = owner();
      const d = Object.getOwnPropertyDescriptor(o, key);
      if (d) out.push([o, key, d]);
    } catch {
      /* not in this browser */
    }
  }
  return out;
}

/** Defines each snapshot entry; returns what was there before (to put back). Entries the page locked are left. */
export function applyNatives(natives: NativeSnapshot): NativeSnapshot {
  const before: NativeSnapshot = [];
  for (const [o, key, d] of natives) {
    try {
      const now = Object.getOwnPropertyDescriptor(o, key);
      Object.defineProperty(o, key, d);
      if (now) before.push([o, key, now]);
    } catch {
      /* made non-configurable by the page: the agent takes what is there */
    }
  }
  return before;
}

/** The overlay, before the engine: what the stub forwards to it once it shows (client/ui). */
export interface PanelHandle {
  open(options?: OpenOptions): void;
  close(): void;
  toggle(): void;
  configure(c: UiConfig): void;
}

/** The full API, as the agent's entry defines it on `window`. */
export type FullApi = NonNullable<Window['pagehand']>;

export interface Handoff {
  modules: LoaderModules;
  /** The NATIVES as the loader found them. */
  natives: NativeSnapshot;
  /** What the loader's script tag said (proxy, token, lang, position, model, embed). */
  defaults: EmbedDefaults;
  /** The agent entry's URL: a module script has no `document.currentScript`, and files built with it (the screenshot module) sit beside it. */
  agentUrl: string;
  /**
   * Called by the agent's entry once `window.pagehand` is the full API (after a saved run
   * resumed and the launcher was shown): replays the calls made to the stub, swaps the
   * loader's launcher for the real one and resolves `pagehand.ready`.
   */
  takeover(api: FullApi): void;
  /**
   * Called by the agent's entry as soon as its overlay exists, before the engine: the stub's
   * open, close and toggle (and init's overlay settings) go to the overlay from then on, which
   * replaces the loader's launcher (and opens the panel if the visitor asked for it).
   */
  showPanel(panel: PanelHandle): void;
  /** The engine could not be loaded: `pagehand.ready` rejects with it (for good: the panel says to reload). */
  engineFailed(e: unknown): void;
}
