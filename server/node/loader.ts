/**
 * How a page loads pagehand from this proxy. Both forms add one <script> whose data attributes
 * carry the configuration the bundle reads at start:
 *   data-pagehand-proxy  the proxy origin (where /v1/… lives)
 *   data-pagehand-token  the site or personal token
 */

/** A `javascript:` bookmarklet that injects /pagehand.js from `origin` with `token`. */
export function bookmarklet(origin: string, token: string): string {
  const o = JSON.stringify(origin);
  const t = JSON.stringify(token);
  const code =
    `(()=>{var d=document,s=d.createElement('script'),o=${o};` +
    `s.src=o+'/pagehand.js';s.dataset.pagehandProxy=o;s.dataset.pagehandToken=${t};` +
    `s.onerror=function(){alert('pagehand: could not load '+o+'/pagehand.js (is the proxy running? does this page block scripts by CSP? then use the userscript)')};` +
    `(d.head||d.documentElement).appendChild(s)})()`;
  return `javascript:${encodeURI(code)}`;
}

/** The `<script>` tag a site owner adds to their pages. */
export function embedSnippet(origin: string, token: string): string {
  return `<script src="${origin}/pagehand.js" data-pagehand-proxy="${origin}" data-pagehand-token="${token}" defer></script>`;
}
