/**
 * The entry of pagehand-bookmarklet.js, the bundle the bookmarklet loads. Its mode is in its
 * code, not in anything the page can edit: it is always the user's pagehand on a stranger's page
 * (the page's marks, `init` and callbacks may only add caution), and its proxy is the one that
 * served it — the proxy writes its own origin over the placeholder when it serves this file
 * (server/node/pages.ts) — so a page that rewrites the script tag's attributes before this runs
 * can neither make it the site's embed nor send the user's task to a proxy of its own.
 */
import { startPagehand } from '../start';

// Replaced by the serving proxy with its origin (a file served as built has none: it says so).
const PROXY = '__PAGEHAND_PROXY__';

if (PROXY.startsWith('__')) console.error('pagehand: load pagehand-bookmarklet.js from the pagehand proxy, which fills in its address.');
else startPagehand({ installedBy: 'user' }, { proxy: PROXY, embed: false });
