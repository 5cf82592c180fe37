/**
 * Whether this panel can be a site's own (the embed, npm, pagehand.js, the userscript's page
 * API): the bookmarklet's first file is always a stranger's panel, and its build says so
 * (`__PAGEHAND_STRANGER_PANEL__`), so the parts only a site shows — its starters, its
 * recordings as one-click tasks, the thumbs of its feedback event, the list of earlier tasks
 * and the run's log for the next page (kept in the tab's sessionStorage, which a stranger's page
 * reads) — are left out of the bytes
 * every bookmarklet click loads. Elsewhere they show only where the site gave them.
 */
declare const __PAGEHAND_STRANGER_PANEL__: boolean | undefined;

export const SITE_UI: boolean = typeof __PAGEHAND_STRANGER_PANEL__ === 'undefined';
