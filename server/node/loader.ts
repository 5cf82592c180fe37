/**
 * How a page loads pagehand from this proxy. Both forms add one <script> whose data attributes
 * carry the configuration the bundle reads at start:
 *   data-pagehand-proxy  the proxy origin (where /v1/… lives); the bookmarklet's bundle ignores
 *                        it (its proxy is written into its code when served)
 *   data-pagehand-token  the token the bundle sends: a site token (embed), or a session token
 *                        bound to the page's origin (bookmarklet)
 */

/**
 * A `javascript:` bookmarklet for the proxy at `origin`. It holds no token. Its click opens the
 * proxy's broker window (`/bookmarklet`, bookmarklet-broker.ts), which asks the user, mints a
 * session token bound to this page's origin and posts it here; then it loads
 * /pagehand-bookmarklet.js (whose mode and proxy are in its code, not read from the page) with
 * that session token and opens the panel; that file is the panel and imports the engine itself
 * (client/entries/bookmarklet.ts), so this code stays the same for bookmarklets dragged before. A later click on the same page toggles the panel
 * instead of loading the bundle again. When the window is blocked, the proxy cannot be reached,
 * or the script is refused (the page's CSP or Trusted Types), it says so.
 *
 * What a hostile page can still take from it: the session token, which works from this page's
 * origin only and expires (see docs/security.md, Bookmarklet).
 */
export function bookmarklet(origin: string): string {
  const o = JSON.stringify(origin);
  const code =
    `(()=>{var w=window,d=document,o=${o},p;` +
    `if(w.pagehand){w.pagehand.toggle?w.pagehand.toggle():w.pagehand.open();return}` +
    `if(d.querySelector('script[data-pagehand-loader]'))return;` +
    `var bad=' the proxy may be stopped (npm start), the browser may not have been allowed to reach your local network, or the security policy of this page blocks it. On such pages use the pagehand userscript instead.';` +
    `function say(m){alert('pagehand: '+m)}` +
    // The click is the user's gesture, so the browser lets this window open.
    `try{p=w.open(o+'/bookmarklet','pagehand-broker','popup,width=480,height=260')}catch(e){}` +
    `if(!p)return say('the browser blocked the window in which pagehand asks you to allow this page. Allow pop-ups from this page and click again, or use the pagehand userscript.');` +
    `var t=setTimeout(function(){say('the window at '+o+'/bookmarklet did not answer:'+bad)},10000);` +
    `function on(e){var m=e.data;if(e.source!==p||e.origin!==o||!m||m.pagehand!=='broker')return;` +
    `if(m.ready){clearTimeout(t);p.postMessage({pagehand:'session'},o);return}` +
    `w.removeEventListener('message',on);if(m.token)go(m.token);else say(m.error||'no session.')}` +
    `w.addEventListener('message',on);` +
    `function go(k){if(w.pagehand||d.querySelector('script[data-pagehand-loader]'))return;` +
    `var s=d.createElement('script'),u=o+'/pagehand-bookmarklet.js',tt=w.trustedTypes;` +
    `function no(){s.remove();say('could not load '+o+'/pagehand-bookmarklet.js:'+bad)}` +
    // Pages that enforce Trusted Types refuse a plain string as a script URL: a policy of our
    // own passes this one URL, where the page's policy allows one; else the assignment throws.
    `try{if(tt&&tt.createPolicy)u=tt.createPolicy('pagehand-loader',{createScriptURL:function(x){return x}}).createScriptURL(u)}catch(e){}` +
    `try{s.src=u}catch(e){no();return}` +
    `s.dataset.pagehandToken=k;s.dataset.pagehandLoader='';` +
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
