/**
 * How a page loads pagehand from this proxy. Both forms add one <script> whose data attributes
 * carry the configuration the bundle reads at start:
 *   data-pagehand-proxy  the proxy origin (where /v1/… lives)
 *   data-pagehand-token  the site or personal token
 */

/**
 * A `javascript:` bookmarklet for `origin` with `token`: the first click loads /pagehand.js
 * (which resumes a run saved before a navigation) and opens the panel; a later click on the
 * same page toggles the panel instead of loading the bundle again. When the page's CSP (or its
 * Trusted Types, or a stopped proxy) keeps the script out, it says so and points to the
 * userscript.
 */
export function bookmarklet(origin: string, token: string): string {
  const o = JSON.stringify(origin);
  const t = JSON.stringify(token);
  const code =
    `(()=>{var w=window,d=document,o=${o};` +
    `if(w.pagehand){w.pagehand.toggle?w.pagehand.toggle():w.pagehand.open();return}` +
    `if(d.querySelector('script[data-pagehand-loader]'))return;` +
    `var s=d.createElement('script'),u=o+'/pagehand.js',tt=w.trustedTypes;` +
    `function no(){s.remove();alert('pagehand could not load '+o+'/pagehand.js: the proxy may be stopped (npm start), the browser may not have been allowed to reach your local network, or the security policy of this page blocks it. On such pages use the pagehand userscript instead.')}` +
    // Pages that enforce Trusted Types refuse a plain string as a script URL: a policy of our
    // own passes this one URL, where the page's policy allows one; else the assignment throws.
    `try{if(tt&&tt.createPolicy)u=tt.createPolicy('pagehand-loader',{createScriptURL:function(x){return x}}).createScriptURL(u)}catch(e){}` +
    `try{s.src=u}catch(e){no();return}` +
    `s.dataset.pagehandProxy=o;s.dataset.pagehandToken=${t};s.dataset.pagehandLoader='';` +
    `s.onload=function(){w.pagehand&&w.pagehand.open()};s.onerror=no;` +
    `(d.head||d.documentElement).appendChild(s)})()`;
  return `javascript:${encodeURI(code)}`;
}

/** The `<script>` tag a site owner adds to their pages. */
export function embedSnippet(origin: string, token: string): string {
  return `<script src="${origin}/pagehand.js" data-pagehand-proxy="${origin}" data-pagehand-token="${token}" defer></script>`;
}
