/**
 * The bookmarklet's first file (pagehand-bookmarklet.js, the classic script the bookmarklet adds
 * with the session token on its tag): the panel (client/ui, Preact) and a stand-in `pagehand`
 * (./bookmarklet-stub.ts) — the user types at once — and, first thing, the import of the engine
 * (./bookmarklet-engine.ts: map, actions, loop, safety), which arrives while the user types; Send
 * waits for it, shown.
 *
 * Its mode is in its code, not in anything the page can edit: it is always the user's pagehand
 * on a stranger's page, and its proxy is the one that served it — the proxy writes its own origin
 * over the placeholder when it serves this file (server/node/pages.ts). The engine's URL is built
 * from that origin and the engine's content-hashed name (put in by the build), and loaded with
 * `import()`, which no page script can wrap or redirect (unlike a script element or fetch); the
 * engine takes its mode from its own code and its proxy from its own URL. So a page that
 * rewrites the script tag's attributes before this runs can neither make it the site's embed nor
 * send the user's task, or the engine's request, to a server of its own.
 */
import { readScriptTag } from '../embed/script-tag';
import { createUi } from '../ui/index';
import type { startBookmarklet } from './bookmarklet-engine';
import { bookmarkletStub } from './bookmarklet-stub';

/** The engine's content-hashed files, its entry first, and the package version (the build puts them in). */
declare const __PAGEHAND_BOOKMARKLET_ENGINE__: readonly string[];
declare const __PAGEHAND_VERSION__: string;

// Replaced by the serving proxy with its origin (a file served as built has none: it says so).
const PROXY = '__PAGEHAND_PROXY__';

function start(): void {
  // Already here (a second copy of this file, or pagehand loaded otherwise): the bookmarklet toggles it.
  if (window.pagehand) return;
  const [url, ...imports] = __PAGEHAND_BOOKMARKLET_ENGINE__.map((f) => new URL(f, `${PROXY}/`).href);
  // Asked for before the panel paints, the files the entry imports with it (not after it): the
  // engine is on its way while the user types. The browser runs each module once, whoever asks.
  const engine = import(url!) as Promise<{ startBookmarklet: typeof startBookmarklet }>;
  for (const u of imports) import(u).catch(() => {});
  // The tag's session token, language, corner and model (read now: currentScript is this file only while it first runs).
  const tag = readScriptTag(document.currentScript, location.href);
  const ui = createUi({ lang: tag.lang, position: tag.position, stranger: true });
  const stub = bookmarkletStub(ui, __PAGEHAND_VERSION__);
  // The bookmarklet opens the panel through it once this file has run; the engine's API replaces it.
  Object.defineProperty(window, 'pagehand', { value: stub.api, configurable: true, enumerable: false, writable: false });
  const failed = (e: unknown): void => {
    console.error(String((e as Error)?.message ?? e));
    ui.agentFailed(e);
    stub.fail(e);
  };
  engine.then(
    (m) => {
      try {
        stub.takeover(m.startBookmarklet(ui, tag));
      } catch (e) {
        failed(e);
      }
    },
    () => failed(new Error(`pagehand: could not load the engine from ${url} (the request failed or the page's security policy blocked it).`)),
  );
}

if (PROXY.startsWith('__')) console.error('pagehand: load pagehand-bookmarklet.js from the pagehand proxy, which fills in its address.');
else if (typeof window !== 'undefined') start();
