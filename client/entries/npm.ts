/**
 * The npm entry for site owners who bundle (package.json "exports" → dist/esm/index.js):
 *
 *   import { run, init } from 'pagehand';
 *   const handle = run('Add the blue mug to the cart', { proxy: 'https://proxy.example', token });
 *
 * Importing it installs pagehand in the page as the script tag does (the one global `pagehand`,
 * the document-start hooks, a run saved before a navigation resumed), with the whole agent at
 * once — the site's bundle is the one request, so there is no loader and no second file:
 * import it early in the page's bundle. On a server (a framework rendering the page) the import does
 * nothing, so it is safe there; `run` and `init` are for the browser.
 */
import './index';
import type * as Api from './npm-types';

function api(): Api.PagehandApi {
  if (typeof window === 'undefined') {
    throw new Error(
      'pagehand runs in the browser: call run() and init() from code that runs there (an effect, an event handler), not while rendering on the server.',
    );
  }
  const p = window.pagehand;
  if (!p) throw new Error('pagehand is not installed in this page.');
  // The page loads the embed's loader too, and it came first: its agent is not here yet.
  if (Symbol.for('pagehand.handoff') in p) {
    throw new Error(
      'pagehand: this page also loads the embed (pagehand-loader.js), which installed pagehand first. Use one of the two; with the embed, call window.pagehand after `await window.pagehand.ready`.',
    );
  }
  return p;
}

export const run: typeof Api.run = (task, options) => api().run(task, options);

export const replay: typeof Api.replay = (recording, options) => api().replay(recording, options);

export const init: typeof Api.init = (config) => {
  const p = api();
  if (config) {
    const { ignoredDeny } = p.init(config);
    if (ignoredDeny.length) console.warn(`pagehand: deny selectors that do not parse were ignored: ${ignoredDeny.join(', ')}`);
  }
  return p;
};
