/**
 * The single-file bundles' entry (pagehand.js, the userscript, the runner, the npm entry): the
 * overlay and the engine (./engine.ts) together, at once. It defines exactly one global,
 * `pagehand`, and nothing else. Loading it twice keeps the first instance (a bookmarklet clicked
 * again must not reset refs). The embed's agent loads the same two halves apart, the panel
 * first (client/loader/agent.ts).
 */
import { readScriptTag } from './embed/script-tag';
import { startEngine } from './engine';
import { createUi } from './ui/index';

// Not in a browser (a framework rendering on the server imports this too): nothing to install.
if (typeof window !== 'undefined' && !window.pagehand) {
  // The script tag that loaded the bundle: proxy, token, language, corner, model.
  const script = document.currentScript;
  const defaults = readScriptTag(script, location.href);
  const ui = createUi({ lang: defaults.lang, position: defaults.position });
  startEngine({ ui, defaults, script });
}
