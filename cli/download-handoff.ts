/**
 * Hands the run the downloads the runner saves (cli/downloads.ts), so a file the page could not
 * read itself — another site's, or a link that turned into a download — is read from the
 * runner's copy: a note when it starts (its URL and the URLs that redirected to it, so the run
 * can tell which click it was), then one once saved (name, size, type and, when small enough to
 * be text the agent reads, its bytes). The run decides what is text (client/page/downloads.ts).
 *
 * The notes go only through `Runtime.evaluate` in the run's isolated world (`WorldContext`),
 * which the page's scripts cannot reach: a page cannot plant a file the runner did not save.
 */
import { readFile, stat } from 'node:fs/promises';
import type { Download, Page, Request } from 'playwright-core';
import { WORLD_API } from './bridge';
import type { WorldContext } from './isolated-world';

/** The largest file whose bytes go to the run (the run's own limit: bigger ones are named with their size). */
const MAX_TEXT_BYTES = 64 * 1024;
/** Recent navigation requests of the main frame kept to find a download's redirects. */
const KEEP_REQUESTS = 30;

export interface DownloadHandoffOptions {
  /** The run's world of the newest document, once there (bounded wait). */
  world(): Promise<WorldContext | undefined>;
}

export interface DownloadHandoff {
  /** A download started: its id for `saved`/`failed`. */
  started(d: Download): string;
  saved(id: string, path: string): Promise<void>;
  failed(id: string): Promise<void>;
}

const withoutHash = (url: string): string => url.split('#')[0]!;

/**
 * @example
 * const handoff = downloadHandoff(page, { world: () => world.ready(5000) });
 * const saver = downloadSaver(process.cwd(), report, handoff);
 */
export function downloadHandoff(page: Page, o: DownloadHandoffOptions): DownloadHandoff {
  const navigations: Request[] = [];
  page.on('request', (r) => {
    try {
      if (!r.isNavigationRequest() || r.frame() !== page.mainFrame()) return;
    } catch {
      return; // a request of no frame (a worker's)
    }
    navigations.push(r);
    if (navigations.length > KEEP_REQUESTS) navigations.shift();
  });
  const known = new Map<string, { urls: string[]; name: string; type: Promise<string> }>();
  let count = 0;

  const send = async (note: Record<string, unknown>): Promise<void> => {
    const ctx = await o.world();
    await ctx?.evaluate(`${WORLD_API}.download(${JSON.stringify(note)})`);
  };

  return {
    started(d) {
      const id = `d${++count}`;
      const url = d.url();
      // The navigation that fetched it, and the URLs that redirected there.
      const request = [...navigations].reverse().find((r) => withoutHash(r.url()) === withoutHash(url));
      const urls: string[] = [];
      for (let r: Request | null | undefined = request; r; r = r.redirectedFrom()) urls.unshift(r.url());
      if (!urls.includes(url)) urls.push(url);
      const type = request
        ? request
            .response()
            .then((res) => (res?.headers()['content-type'] ?? '').split(';')[0]!.trim())
            .catch(() => '')
        : Promise.resolve('');
      const entry = { urls, name: d.suggestedFilename(), type };
      known.set(id, entry);
      void send({ id, phase: 'start', urls, name: entry.name });
      return id;
    },
    async saved(id, path) {
      const entry = known.get(id);
      known.delete(id);
      if (!entry) return;
      const type = await entry.type;
      const size = (await stat(path).catch(() => undefined))?.size;
      const data = size !== undefined && size <= MAX_TEXT_BYTES ? (await readFile(path).catch(() => undefined))?.toString('base64') : undefined;
      await send({
        id,
        phase: data === undefined && size === undefined ? 'failed' : 'saved',
        urls: entry.urls,
        name: entry.name,
        ...(size !== undefined ? { size } : {}),
        ...(type ? { type } : {}),
        ...(data !== undefined ? { data } : {}),
      });
    },
    async failed(id) {
      const entry = known.get(id);
      known.delete(id);
      if (entry) await send({ id, phase: 'failed', urls: entry.urls, name: entry.name });
    },
  };
}
