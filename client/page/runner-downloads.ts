/**
 * The runner's copies of the tab's downloads, in the run's isolated world. The runner sees every
 * download the tab makes and saves it; what it saved reaches this world through the runner's own
 * channel (`useRunnerDownloads`: a call Node makes in the isolated world, which no page script
 * can reach), first when a download starts, then once saved. So there, a file the page could not
 * fetch (another site's URL, a redirect to one, a link that turned into a download) is read from
 * the runner's copy, under the same rules (`textOf`, MAX_TEXT_BYTES, masked on read). Only the
 * runner's entry loads this file: no visitor downloads it.
 */
import { nativeClearTimeout, nativeSetTimeout } from './settle/settle';
import { downloadName, KEEP, lendRunnerCopies, MAX_TEXT_BYTES, remember, textOf, type DownloadFile, type RunnerCopies } from './downloads';

/** How long after the page's download started a runner download that starts is taken for it (no URL match needed). */
const PAIR_MS = 10_000;

/** What the runner says about one download: when it starts, then once saved (or failed). */
interface RunnerNote {
  /** The runner's id for the download (one per file). */
  id: string;
  phase: 'start' | 'saved' | 'failed';
  /** The download's URL and the URLs that redirected to it. */
  urls: string[];
  /** The file name the browser gave it. */
  name: string;
  size?: number;
  type?: string;
  /** The file's bytes (base64), only when it is small enough to be text the agent reads. */
  data?: string;
}

interface RunnerEntry {
  id: string;
  urls: string[];
  name: string;
  /** When it arrived here (performance.now()). */
  at: number;
  /** The page's own record it stands for, once paired. */
  claimed?: DownloadFile;
  done: Promise<DownloadFile>;
  settle(f: DownloadFile): void;
}

/** The page's records the page could not read, each waiting for the runner's copy. */
interface Claim {
  file: DownloadFile;
  /** When the page's download started (performance.now()). */
  at: number;
  resolve(f: DownloadFile | undefined): void;
  result: Promise<DownloadFile | undefined>;
}

const entries: RunnerEntry[] = [];
const claims: Claim[] = [];
const claimOf = new WeakMap<DownloadFile, Claim>();
const startListeners = new Set<(e: RunnerEntry) => void>();

/** A URL as downloads are compared: absolute, without its fragment. */
function sameUrl(a: string, b: string): boolean {
  try {
    const x = new URL(a, location.href);
    const y = new URL(b, location.href);
    x.hash = '';
    y.hash = '';
    return x.href === y.href;
  } catch {
    return false;
  }
}

const matches = (e: RunnerEntry, url: string): boolean => e.urls.some((u) => sameUrl(u, url));

/**
 * The runner's entry calls this with the channel Node speaks through (client/entries/runner-env.ts);
 * no other bundle loads this file.
 */
export function useRunnerDownloads(listen: (take: (note: unknown) => void) => void): void {
  lendRunnerCopies({ claim, copyOf, downloadFor });
  listen(takeRunnerNote);
}

function str(v: unknown, max = 2048): string {
  return typeof v === 'string' ? v.slice(0, max) : '';
}

/** The bytes of base64 text, or undefined when it is not. */
function base64Bytes(data: string): Uint8Array | undefined {
  try {
    return Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

function entryFor(note: RunnerNote): RunnerEntry {
  const known = entries.find((e) => e.id === note.id);
  if (known) return known;
  let settle!: (f: DownloadFile) => void;
  const done = new Promise<DownloadFile>((r) => (settle = r));
  const e: RunnerEntry = { id: note.id, urls: note.urls, name: downloadName(note.name, note.urls[0] ?? ''), at: performance.now(), done, settle };
  entries.push(e);
  while (entries.length > KEEP * 2) entries.shift();
  // The page's own record it stands for: the same URL; else the newest record the page could
  // not read a moment ago (a redirect the page's fetch could not follow names another URL).
  const byUrl = claims.find((c) => e.urls.some((u) => sameUrl(u, c.file.url)));
  const byTime = [...claims].reverse().find((c) => c.at <= e.at && e.at - c.at <= PAIR_MS);
  const c = byUrl ?? byTime;
  if (c) {
    claims.splice(claims.indexOf(c), 1);
    e.claimed = c.file;
    void done.then((f) => c.resolve(f));
  }
  for (const l of [...startListeners]) l(e);
  return e;
}

function takeRunnerNote(raw: unknown): void {
  if (!raw || typeof raw !== 'object') return;
  const m = raw as Record<string, unknown>;
  const phase = m.phase === 'start' || m.phase === 'saved' || m.phase === 'failed' ? m.phase : undefined;
  const urls = Array.isArray(m.urls)
    ? m.urls
        .map((u) => str(u))
        .filter(Boolean)
        .slice(0, 20)
    : [];
  if (!phase || !str(m.id) || !urls.length) return;
  const note: RunnerNote = {
    id: str(m.id, 100),
    phase,
    urls,
    name: str(m.name, 500),
    size: typeof m.size === 'number' && m.size >= 0 ? m.size : undefined,
    type: str(m.type, 200).split(';')[0]!.trim(),
    data: typeof m.data === 'string' ? m.data : undefined,
  };
  const e = entryFor(note);
  if (phase === 'start') return;
  const base: DownloadFile = {
    name: e.name,
    url: urls[urls.length - 1]!,
    ...(note.size !== undefined ? { size: note.size } : {}),
    ...(note.type ? { type: note.type } : {}),
  };
  let file: DownloadFile;
  if (phase === 'failed') file = { ...base, unreadable: 'unavailable' };
  else if (note.size !== undefined && note.size > MAX_TEXT_BYTES) file = { ...base, unreadable: 'too big' };
  else {
    const bytes = note.data !== undefined ? base64Bytes(note.data) : undefined;
    file = bytes ? { ...base, size: bytes.length, ...textOf(e.name, note.type ?? '', bytes) } : { ...base, unreadable: 'unavailable' };
  }
  // The runner's copy takes the place of the page's record of the same file.
  e.settle(remember(file, e.claimed));
}

/** A record the page could not read: the runner's copy of the same file will replace it (see `copyOf`). */
function claim(f: DownloadFile, since: number): DownloadFile {
  let resolve!: (x: DownloadFile | undefined) => void;
  const result = new Promise<DownloadFile | undefined>((r) => (resolve = r));
  const c: Claim = { file: f, at: since, resolve, result };
  // The runner may have seen it start already, while the page was still trying (the same URL,
  // else the first it saw since the page's download started).
  const open = entries.filter((x) => !x.claimed);
  const e = open.find((x) => matches(x, f.url)) ?? open.find((x) => x.at >= since && x.at - since <= PAIR_MS);
  if (e) {
    e.claimed = f;
    void e.done.then(resolve);
  } else {
    claims.push(c);
    while (claims.length > KEEP) claims.shift()?.resolve(undefined);
  }
  claimOf.set(f, c);
  return f;
}

/** The runner's copy of a file the page could not read, once saved; undefined after `ms`. */
function copyOf(f: DownloadFile, ms: number): Promise<DownloadFile | undefined> {
  const c = claimOf.get(f);
  if (!c) return Promise.resolve(undefined);
  return Promise.race([c.result, new Promise<undefined>((r) => nativeSetTimeout(() => r(undefined), ms))]);
}

/** A navigation the runner says became a download (see `runnerDownloadFor` in downloads.ts). */
function downloadFor(url: string, ms: number): ReturnType<RunnerCopies['downloadFor']> {
  const found = (e: RunnerEntry) => ({ name: e.name, url: e.urls[e.urls.length - 1]!, file: e.done });
  const now = entries.find((e) => !e.claimed && matches(e, url));
  if (now) return Promise.resolve(found(now));
  return new Promise((resolve) => {
    const done = (v: ReturnType<typeof found> | undefined) => {
      startListeners.delete(listener);
      nativeClearTimeout(timer);
      resolve(v);
    };
    const listener = (e: RunnerEntry) => {
      if (matches(e, url)) done(found(e));
    };
    const timer = nativeSetTimeout(() => done(undefined), ms);
    startListeners.add(listener);
  });
}
