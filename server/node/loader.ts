/**
 * How a page loads pagehand from this proxy. Both forms add one <script> whose data attributes
 * carry the configuration the bundle reads at start:
 *   data-pagehand-proxy  the proxy origin (where /v1/… lives)
 *   data-pagehand-token  the token the bundle sends: a site token (embed), or a session token
 *                        bound to the page's origin (bookmarklet)
 */

/**
 * A `javascript:` bookmarklet for `origin` with the personal (or a site) `token`. The first
 * click trades the token, in one POST /v1/session, for a session token bound to the page's
 * origin and expiring, then loads /pagehand.js (which resumes a run saved before a navigation)
 * with that session token and opens the panel. The token given here stays in the
 * bookmarklet's own closure: never in a global, the DOM or the script tag. A later click on the
 * same page toggles the panel instead of loading the bundle again. When the exchange or the
 * script fails (a stopped proxy, the page's CSP or Trusted Types, a refused token) it says so.
 *
 * Not a secret from a hostile page: a page that replaced `fetch` before the click sees the
 * request, token included. Use it on pages you trust; the userscript runs apart from the page.
 */
export function bookmarklet(origin: string, token: string): string {
  const o = JSON.stringify(origin);
  const t = JSON.stringify(token);
  const code =
    `(()=>{var w=window,d=document,o=${o};` +
    `if(w.pagehand){w.pagehand.toggle?w.pagehand.toggle():w.pagehand.open();return}` +
    `if(d.querySelector('script[data-pagehand-loader]'))return;` +
    `var s=d.createElement('script'),u=o+'/pagehand.js',tt=w.trustedTypes,` +
    `bad=' the proxy may be stopped (npm start), the browser may not have been allowed to reach your local network, or the security policy of this page blocks it. On such pages use the pagehand userscript instead.';` +
    `function no(){s.remove();alert('pagehand could not load '+o+'/pagehand.js:'+bad)}` +
    `function say(m){alert('pagehand: '+m)}` +
    // Pages that enforce Trusted Types refuse a plain string as a script URL: a policy of our
    // own passes this one URL, where the page's policy allows one; else the assignment throws.
    `try{if(tt&&tt.createPolicy)u=tt.createPolicy('pagehand-loader',{createScriptURL:function(x){return x}}).createScriptURL(u)}catch(e){}` +
    `try{s.src=u}catch(e){no();return}` +
    // {"for":"user"}: the session token says it is the user's pagehand, so the bundle treats the
    // page as a stranger's even if the page strips the loader's mark off the script tag.
    `fetch(o+'/v1/session',{method:'POST',mode:'cors',credentials:'omit',cache:'no-store',headers:{Authorization:'Bearer '+${t},'Content-Type':'application/json'},body:'{"for":"user"}'}).then(function(r){` +
    `return r.json().catch(function(){return{}}).then(function(j){var m=j&&j.error&&j.error.message||'HTTP '+r.status;` +
    `if(r.ok&&j&&j.token)return go(j.token);` +
    `if(r.status==401)return say('the proxy at '+o+' did not accept this bookmarklet ('+m+'). Open '+o+'/ and drag the bookmarklet again.');` +
    `if(r.status==403)return say('the proxy at '+o+' refused this page ('+m+').');` +
    `say('the proxy at '+o+' could not start a session: '+m)})` +
    `},function(){say('could not reach '+o+':'+bad)});` +
    `function go(k){if(w.pagehand||d.querySelector('script[data-pagehand-loader]'))return;` +
    `s.dataset.pagehandProxy=o;s.dataset.pagehandToken=k;s.dataset.pagehandLoader='';` +
    `s.onload=function(){w.pagehand&&w.pagehand.open()};s.onerror=no;` +
    `(d.head||d.documentElement).appendChild(s)}})()`;
  return `javascript:${encodeURI(code)}`;
}

/**
 * The `<script>` tag a site owner adds to their pages: the embed's loader (a few KB; the agent
 * follows when a visitor opens the launcher). Tags that load /pagehand.js keep working.
 */
export function embedSnippet(origin: string, token: string): string {
  return `<script src="${origin}/pagehand-loader.js" data-pagehand-proxy="${origin}" data-pagehand-token="${token}" defer></script>`;
}
