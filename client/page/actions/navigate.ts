/**
 * `navigate {url}` and `go_back {}`, the before-navigation hook, and detection of
 * navigations that other actions start (a link click, a form submission).
 *
 * Before a full (cross-document) navigation the settings' `beforeNavigate` hook is called so
 * the agent loop can save its run state; for `navigate`/`go_back` it is awaited (bounded),
 * for navigations a click starts it is called at once (the page may unload any moment).
 */
import { captureDownload, runnerDownloadFor, runnerDownloads, type DownloadFile } from '../downloads';
import { nativeSetTimeout } from '../settle/settle';
import type { ToolArgs } from './args';
import type { Handler } from './context';
import { ActionError } from './dom';
import type { BeforeNavigate } from './contract';
import { attrOf, hasAttrOf } from '../dom/proto';

/** How long `navigate` waits for the hook before navigating anyway. */
const HOOK_TIMEOUT = 2000;
/** In the runner: how long a navigation an action started may take to turn out a download. */
const BECOMES_DOWNLOAD_MS = 3000;

/** Calls the hook (if any); never throws, waits at most HOOK_TIMEOUT. */
export async function runBeforeNavigate(beforeNavigate: BeforeNavigate | undefined, info: Parameters<BeforeNavigate>[0]): Promise<void> {
  if (typeof beforeNavigate !== 'function') return;
  try {
    const r = beforeNavigate(info);
    if (r && typeof (r as Promise<void>).then === 'function') {
      await Promise.race([r.catch(() => undefined), new Promise((res) => nativeSetTimeout(res, HOOK_TIMEOUT))]);
    }
  } catch {
    /* a failing hook must not stop the navigation */
  }
}

interface NavigateEventLike extends Event {
  destination?: { url: string; sameDocument: boolean };
  /** The file name when the navigation is a download (`<a download>`), else null. */
  downloadRequest?: string | null;
  navigationType?: string;
}

interface NavigationLike extends EventTarget {
  transition?: unknown;
  currentEntry?: { index: number; url: string | null; sameDocument?: boolean } | null;
  entries?: () => Array<{ index: number; url: string | null; sameDocument: boolean }>;
  canGoBack?: boolean;
}

const navigationApi = (): NavigationLike | undefined => (window as unknown as { navigation?: NavigationLike }).navigation;

export interface NavigationWatch {
  /** The URL a cross-document navigation is going to, if one started ('' if unknown). */
  started(): string | undefined;
  /** A download the action started (not a navigation: the page stays). */
  download(): { url: string; filename: string } | undefined;
  /** Its file as the agent may know it (text when small and textual), once read. */
  file(): Promise<DownloadFile> | undefined;
  /**
   * Resolves once a navigation the action started is known to be one (the page is leaving)
   * or a download. Only the runner can tell (it sees the response): there it waits, bounded,
   * for the runner to say the URL became a download; elsewhere it resolves at once.
   */
  decided(): Promise<void>;
  stop(): void;
}

/**
 * Watches for a cross-document navigation of this window while an action runs. With the
 * Navigation API: a `navigate` event to another document that nobody cancelled or
 * intercepted. Elsewhere: `beforeunload`.
 */
export function watchNavigation(onStart: () => void, beforeNavigate: BeforeNavigate | undefined): NavigationWatch {
  const nav = navigationApi();
  let event: NavigateEventLike | undefined;
  let download: { url: string; filename: string } | undefined;
  let file: Promise<DownloadFile> | undefined;
  let unloading = false;
  let decision: Promise<void> | undefined;
  // In the runner: a link to a file (another site's, or served as an attachment) is a
  // navigation to the page, and a download once the response comes; the runner sees which.
  const decide = (ne: NavigateEventLike): Promise<void> =>
    new Promise<void>((resolve) => {
      const leaving = () => resolve();
      window.addEventListener('pagehide', leaving, { once: true });
      void runnerDownloadFor(ne.destination!.url, BECOMES_DOWNLOAD_MS).then((d) => {
        window.removeEventListener('pagehide', leaving);
        if (d && event === ne) {
          event = undefined;
          download ??= { url: d.url, filename: d.name };
          file ??= d.file;
        }
        resolve();
      });
    });
  const downloading = (url: string, filename: string): void => {
    if (download) return;
    download = { url, filename };
    // At once: the page may revoke a blob URL as soon as its click returns.
    file = captureDownload(url, filename);
    onStart();
  };
  let notified = false;
  const onNavigate = (e: Event): void => {
    const ne = e as NavigateEventLike;
    if (ne.destination && typeof ne.downloadRequest === 'string') {
      downloading(ne.destination.url, ne.downloadRequest);
    } else if (ne.destination && !ne.destination.sameDocument) {
      event = ne;
      if (runnerDownloads() && !decision) decision = decide(ne);
      // Listeners registered after ours may still cancel/intercept: decide after dispatch.
      queueMicrotask(() => {
        if (started() !== undefined && !notified) {
          notified = true;
          void runBeforeNavigate(beforeNavigate, { url: ne.destination!.url, kind: 'link' });
        }
        onStart();
      });
    }
  };
  const onUnload = (): void => {
    unloading = true;
    onStart();
  };
  // Without the Navigation API, a download is seen as a click on a link with `download` that
  // no handler cancelled (decided after the dispatch).
  const onClick = (e: Event): void => {
    const a = e
      .composedPath()
      .find(
        (n): n is HTMLAnchorElement =>
          n instanceof Element && (n.localName === 'a' || n.localName === 'area') && hasAttrOf(n, 'download') && hasAttrOf(n, 'href'),
      );
    if (!a) return;
    const url = a.href;
    const name = attrOf(a, 'download') ?? '';
    queueMicrotask(() => {
      if (!e.defaultPrevented) downloading(url, name);
    });
  };
  nav?.addEventListener('navigate', onNavigate);
  if (!nav) {
    window.addEventListener('beforeunload', onUnload);
    window.addEventListener('click', onClick, true);
  }
  const started = (): string | undefined => {
    if (event && !event.defaultPrevented && !nav?.transition) return event.destination!.url;
    return unloading ? '' : undefined;
  };
  return {
    started,
    download: () => download,
    file: () => file,
    decided: () => decision ?? Promise.resolve(),
    stop: () => {
      nav?.removeEventListener('navigate', onNavigate);
      window.removeEventListener('beforeunload', onUnload);
      window.removeEventListener('click', onClick, true);
    },
  };
}

/**
 * Starts a full navigation on the next task, so the action's result reaches its caller (the
 * loop in the page, or a driver over CDP) before the document starts unloading.
 */
function later(go: () => void): void {
  nativeSetTimeout(() => {
    try {
      go();
    } catch {
      /* a navigation blocked by the page's CSP or sandbox: nothing to report any more */
    }
  }, 0);
}

export const navigate: Handler<ToolArgs['navigate']> = async ({ url }, ctx) => {
  let target: URL;
  try {
    target = new URL(url, location.href);
  } catch {
    throw new ActionError(`"${url}" is not a valid URL.`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new ActionError(`Only http and https addresses can be opened; "${url}" is ${target.protocol.replace(/:$/, '')}.`);
  }
  const here = new URL(location.href);
  const sameDocument = target.href.split('#')[0] === here.href.split('#')[0] && target.hash !== '' && target.hash !== here.hash;
  if (sameDocument) {
    ctx.begin();
    location.assign(target.href);
    return { message: `Went to ${target.href} (same page, another section).` };
  }
  await runBeforeNavigate(ctx.settings.beforeNavigate, { url: target.href, kind: 'navigate' });
  later(() => location.assign(target.href));
  return { message: '', changes: { navigation: { url: target.href } }, settle: false };
};

export const goBack: Handler<ToolArgs['go_back']> = async (_args, ctx) => {
  const nav = navigationApi();
  const entries = nav?.entries?.();
  const cur = nav?.currentEntry;
  if (nav && entries && cur) {
    const prev = entries[cur.index - 1];
    if (!prev) throw new ActionError("There is no previous page in this tab's history.");
    if (!prev.sameDocument) {
      await runBeforeNavigate(ctx.settings.beforeNavigate, { url: prev.url ?? '', kind: 'back' });
      later(() => history.back());
      return { message: 'Going back.', changes: { navigation: { url: prev.url ?? '' } }, settle: false };
    }
    ctx.begin();
    history.back();
    return { message: 'Went back (within the same page).' };
  }
  if (history.length <= 1) throw new ActionError("There is no previous page in this tab's history.");
  // Without the Navigation API we cannot tell ahead whether "back" leaves the document.
  await runBeforeNavigate(ctx.settings.beforeNavigate, { url: '', kind: 'back' });
  ctx.begin();
  history.back();
  return { message: 'Went back.' };
};
