/**
 * The bookmarklet's engine (dist/pagehand-bookmarklet-engine.HASH.js): an ES module the
 * bookmarklet's first file (./bookmarklet.ts) imports from the proxy written into it, while its
 * panel already takes the user's typing. Its mode is in its own code, as the first file's is:
 * nothing it is given decides it. It is always the user's pagehand on a stranger's page, and its
 * proxy is the origin the browser loaded this module from (`import.meta.url`, which no page
 * script can set) — so a page that imports this file itself and calls it gets exactly what
 * loading the first file itself would: the user's proxy, the stranger's API.
 */
import { startEngine } from '../engine';
import type { EmbedDefaults } from '../embed/script-tag';
import type { Ui } from '../ui/index';

/** What the page's script tag may say: the session token, the panel's language and corner, the model. */
export type BookmarkletTag = Pick<EmbedDefaults, 'token' | 'lang' | 'position' | 'model'>;

let started = false;

/** Starts the engine under the first file's panel; returns the full API (now `window.pagehand`). Once per page. */
export function startBookmarklet(ui: Ui, tag: BookmarkletTag): NonNullable<Window['pagehand']> {
  if (started) throw new Error('pagehand: the bookmarklet engine has already started on this page.');
  started = true;
  const { token, lang, position, model } = tag;
  return startEngine({
    ui,
    defaults: { token, lang, position, model, proxy: new URL(import.meta.url).origin, embed: false },
    script: null,
    env: { installedBy: 'user' },
  });
}
