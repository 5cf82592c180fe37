/**
 * Starts pagehand in this page with what its embedding supplies (`env`): the overlay first,
 * then the engine (./engine.ts), at once. Called by each single-file bundle's entry — pagehand.js
 * and the npm entry (./index.ts), the userscript (./userscript/index.ts), the runner
 * (./runner.ts), the bookmarklet's (./entries/bookmarklet.ts) — with its own environment. Defines exactly one global, `pagehand`; a second
 * call keeps the first instance (a bookmarklet clicked again must not reset refs).
 *
 * @example
 *   startPagehand({ installedBy: 'user', fetch: gmFetch, store: gmStore });
 *   startPagehand({ installedBy: 'user' }, { proxy: 'http://127.0.0.1:8787' }); // the bookmarklet's bundle
 */
import { pageEnv, untrustedPage, type AgentEnv } from './agent/env';
import { readScriptTag, type EmbedDefaults } from './embed/script-tag';
import { startEngine } from './engine';
import { createUi } from './ui/index';

export function startPagehand(env: AgentEnv = {}, fixed: EmbedDefaults = {}): void {
  // Not in a browser (a framework rendering on the server imports this too): nothing to install.
  if (typeof window === 'undefined' || window.pagehand) return;
  // The script tag that loaded the bundle: proxy, token, language, corner, model.
  const script = document.currentScript;
  // `fixed`: what the entry knows itself (the bookmarklet's proxy), over anything on the tag.
  const defaults = { ...readScriptTag(script, location.href), ...fixed };
  // On a stranger's page the panel speaks the user's language, not the page's.
  const ui = createUi({ lang: defaults.lang, position: defaults.position, stranger: untrustedPage(pageEnv(env, script, defaults.token)) });
  startEngine({ ui, defaults, script, env });
}
