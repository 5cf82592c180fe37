/**
 * Starts pagehand in this page with what its embedding supplies (`env`): the overlay first,
 * then the engine (./engine.ts), at once. Called by each single-file bundle's entry — pagehand.js
 * and the npm entry (./entries/index.ts), the userscript (./userscript/index.ts), the runner
 * (./entries/runner.ts) — with its own environment. (The embed's agent and the bookmarklet load
 * the two halves apart, the panel first: ./loader/panel-first.ts, ./entries/bookmarklet.ts.)
 * Defines exactly one global, `pagehand`; a second call keeps the first instance.
 *
 * @example
 *   startPagehand({ installedBy: 'user', fetch: gmFetch, store: gmStore });
 */
import { pageEnv, untrustedPage, type AgentEnv } from './agent/env';
import { readScriptTag } from './embed/script-tag';
import { startEngine } from './engine';
import { createUi } from './ui/index';
import { sessionThreadStore, type KeptStore, type ThreadStore } from './ui/storage';

/**
 * `threads`: where the panel's conversation survives a page load, when the embedding has a store
 * out of the page's reach; `kept`: its list of tasks and run log, likewise.
 */
export function startPagehand(env: AgentEnv = {}, threads?: ThreadStore, kept?: KeptStore): void {
  // Not in a browser (a framework rendering on the server imports this too): nothing to install.
  if (typeof window === 'undefined' || window.pagehand) return;
  // The script tag that loaded the bundle: proxy, token, language, corner, model.
  const script = document.currentScript;
  const defaults = readScriptTag(script, location.href);
  // On a stranger's page the panel speaks the user's language, not the page's.
  const stranger = untrustedPage(pageEnv(env, script, defaults.token));
  // The site's own page keeps the conversation in the tab, as it keeps a run; a stranger's page
  // only in a store the embedding has out of the page's reach.
  const thread = threads ?? (stranger ? undefined : sessionThreadStore());
  const ui = createUi({
    lang: defaults.lang,
    position: defaults.position,
    siteInstalled: env.installedBy !== 'user',
    stranger,
    ...(thread ? { threads: thread } : {}),
    ...(kept ? { kept } : {}),
  });
  startEngine({ ui, defaults, script, env });
}
