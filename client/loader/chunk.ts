/**
 * Fetching the agent: warmed on intent (a modulepreload: fetched and parsed, not run), loaded on
 * demand (a module script element next to the loader's own, with its nonce, which the modules it
 * imports inherit). Its imports — the panel's and the engine's files — are requested with it, not
 * after it: the engine arrives while the panel renders. A module script from another origin needs CORS: the proxy sends
 * `Access-Control-Allow-Origin: *` for these files. A failed load is forgotten, so the next
 * click tries again.
 */

export interface ChunkLoader {
  readonly url: string;
  /** Intent (pointer over, focus on the launcher): fetch it into the cache, do not run it. */
  warm(): void;
  /** Runs it; resolves when the script has run, rejects when it could not be loaded. */
  load(): Promise<void>;
}

/** `file` beside the loader's own URL (the proxy, or the site's host), else beside the proxy. */
export function chunkUrl(file: string, loaderSrc: string | undefined, proxy: string | undefined, base: string): string {
  try {
    if (loaderSrc && /^https?:/.test(new URL(loaderSrc, base).protocol)) return new URL(file, new URL(loaderSrc, base)).href;
  } catch {
    /* fall through to the proxy */
  }
  return new URL(file, `${(proxy ?? base).replace(/\/+$/, '')}/`).href;
}

type Policy = { createScriptURL(u: string): unknown };
let policy: Policy | undefined;

/**
 * Sets a script's src on a page that enforces Trusted Types too: a plain string first; when
 * the page refuses it, through a policy of ours (where the page's policy list allows one).
 */
function setSrc(s: HTMLScriptElement, url: string): void {
  try {
    s.src = url;
  } catch (e) {
    const tt = (window as unknown as { trustedTypes?: { createPolicy(n: string, p: object): Policy } }).trustedTypes;
    if (!tt?.createPolicy) throw e;
    policy ??= tt.createPolicy('pagehand-embed', { createScriptURL: (u: string) => u });
    (s as unknown as { src: unknown }).src = policy.createScriptURL(url);
  }
}

/** `imports`: the URLs of the modules the agent's entry imports (the engine's among them), preloaded with it on intent or load. */
export function chunkLoader(url: string, nonce: string | undefined, imports: readonly string[] = []): ChunkLoader {
  let warmed = false;
  let loading: Promise<void> | undefined;
  const parent = (): Element => document.head ?? document.documentElement;
  const preload = (): void => {
    if (warmed) return;
    warmed = true;
    for (const href of [url, ...imports]) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = href;
      if (nonce) link.nonce = nonce;
      parent().appendChild(link);
    }
  };
  return {
    url,
    warm() {
      if (!loading) preload();
    },
    load() {
      preload();
      loading ??= new Promise<void>((resolve, reject) => {
        const s = document.createElement('script');
        const fail = (why: string): void => {
          s.remove();
          loading = undefined;
          reject(new Error(`pagehand: could not load the agent from ${url} (${why}).`));
        };
        s.type = 'module';
        if (nonce) s.nonce = nonce;
        s.onload = () => resolve();
        s.onerror = () => fail("the request failed or the page's security policy blocked it");
        try {
          setSrc(s, url);
        } catch (e) {
          return fail(String((e as Error)?.message ?? e));
        }
        parent().appendChild(s);
      });
      return loading;
    },
  };
}
