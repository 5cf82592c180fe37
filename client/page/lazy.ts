/**
 * The page layer's code that loads on first use (a custom select, drag, upload, press and hold,
 * scrolling, `read` and `wait` with the page's readable text they take, a download's text,
 * another page of the site read apart, the userscript's sealed frame sessions). The entry lends the loader
 * (client/on-demand.ts, one file in the embed's split build): the page layer never imports what
 * sits above it. Code, not configuration: every run and every page call shares it.
 */
import type { holdAt } from './actions/gesture';
import type { drag } from './actions/drag';
import type { read } from './actions/read';
import type { scroll, scrollTo } from './actions/scroll';
import type { wait } from './actions/wait';
import type { reportDownload } from './actions/download-report';
import type { selectOption } from './actions/select';
import type { upload } from './actions/upload';
import type { openUserscriptSessions } from './frames/sealed-parent';
import type { fetchSameOrigin } from './same-origin';

export interface PageLazy {
  selectOption: typeof selectOption;
  drag: typeof drag;
  scroll: typeof scroll;
  scrollTo: typeof scrollTo;
  read: typeof read;
  wait: typeof wait;
  upload: typeof upload;
  holdAt: typeof holdAt;
  reportDownload: typeof reportDownload;
  openUserscriptSessions: typeof openUserscriptSessions;
  fetchSameOrigin: typeof fetchSameOrigin;
}

let loader: (() => Promise<PageLazy>) | undefined;

/** Called once by each entry, before anything runs. */
export function lendPageLazy(load: () => Promise<PageLazy>): void {
  loader = load;
}

export function pageLazy(): Promise<PageLazy> {
  return loader ? loader() : Promise.reject(new Error('pagehand: this build has no on-demand code (the entry lends it).'));
}
