/**
 * Files the page hands out, made readable to the agent when they are small text: tasks often
 * say "download the note and use what it says".
 *
 * When an action starts a download (`<a download href>`, or a script clicking such a link),
 * the page layer fetches it itself if it can — a `blob:` or `data:` URL, or the page's own
 * origin — at once (a page revokes a blob URL right after the click). A text file (txt, csv,
 * json, md and the like) up to MAX_TEXT_BYTES is kept under its name for `read {download}`;
 * anything else (binary, bigger, from another site) is only named.
 *
 * The runner (client/entries/runner-env.ts) sees every download the tab makes and saves it; what it
 * saved reaches this world through the runner's own channel (`useRunnerDownloads`: a call Node
 * makes in the run's isolated world, which no page script can reach), first when a download
 * starts, then once saved. So there, a file the page could not fetch (another site's URL, a
 * redirect to one, a link that turned into a download) is read from the runner's copy, under
 * the same rules (`textOf`, MAX_TEXT_BYTES, masked on read).
 */
import { nativeFetch } from './settle/network';
import { nativeClearTimeout, nativeSetTimeout } from './settle/settle';
import type { Masks } from './settings';

/** The largest download whose text the agent reads. */
export const MAX_TEXT_BYTES = 64 * 1024;
/** Downloads remembered in this page (the oldest go first). */
const KEEP = 10;
/** How long the page waits for a download's bytes before naming it only. */
export const DOWNLOAD_WAIT_MS = 3000;

const TEXT_NAME = /\.(txt|text|csv|tsv|json|jsonl|ndjson|md|markdown|log|xml|ya?ml|ics|vcf|ini|toml)$/i;
const TEXT_TYPE = /^(text\/|application\/(json|ld\+json|xml|csv|x-ndjson|yaml|x-yaml|toml)\b)/i;

export interface DownloadFile {
  /** The file name the site gave (or the URL's last part). */
  name: string;
  url: string;
  size?: number;
  type?: string;
  /** Its text, when it is a small text file. */
  text?: string;
  /** Why there is no text: `binary`, `too big`, `from another site`, `unavailable`. */
  unreadable?: string;
}

const files: DownloadFile[] = [];

function remember(f: DownloadFile): DownloadFile {
  const i = files.findIndex((x) => x.name === f.name);
  if (i >= 0) files.splice(i, 1);
  files.push(f);
  while (files.length > KEEP) files.shift();
  return f;
}

/** The name a download goes by: the site's, else the URL's last part, never a path. */
export function downloadName(filename: string, url: string): string {
  let n = filename.trim();
  if (!n) {
    try {
      const u = new URL(url);
      n = u.protocol === 'blob:' || u.protocol === 'data:' ? '' : decodeURIComponent(u.pathname.split('/').pop() ?? '');
    } catch {
      n = '';
    }
  }
  n = (n.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return n.slice(0, 120) || 'download';
}

/**
 * The text of a file if it is text: its name or type says so and its bytes are UTF-8 without
 * NUL (a binary file named .txt stays binary). Pure.
 */
export function textOf(name: string, type: string, bytes: Uint8Array): { text?: string; unreadable?: string } {
  if (bytes.length > MAX_TEXT_BYTES) return { unreadable: 'too big' };
  if (!TEXT_NAME.test(name) && !TEXT_TYPE.test(type)) return { unreadable: 'binary' };
  if (bytes.includes(0)) return { unreadable: 'binary' };
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
    return { text };
  } catch {
    return { unreadable: 'binary' };
  }
}

/** The bytes of a data: URL. */
function dataBytes(url: string): { bytes: Uint8Array; type: string } {
  const comma = url.indexOf(',');
  const meta = url.slice(5, comma);
  const body = url.slice(comma + 1);
  const type = meta.split(';')[0] || 'text/plain';
  if (/;base64$/i.test(meta)) {
    const bin = atob(decodeURIComponent(body));
    return { bytes: Uint8Array.from(bin, (c) => c.charCodeAt(0)), type };
  }
  return { bytes: new TextEncoder().encode(decodeURIComponent(body)), type };
}

/** Whether the page layer may fetch the URL itself: blob:, data:, or this page's origin. */
function fetchable(url: URL): boolean {
  return url.protocol === 'blob:' || url.protocol === 'data:' || url.origin === location.origin;
}

/**
 * Starts reading a download the page just started (call it at once: a blob URL may be revoked
 * right after). Resolves with the file as the agent may know it; never rejects.
 */
export function captureDownload(url: string, filename: string): Promise<DownloadFile> {
  const since = performance.now();
  const name = downloadName(filename, url);
  const base: DownloadFile = { name, url };
  let parsed: URL;
  try {
    parsed = new URL(url, location.href);
  } catch {
    return Promise.resolve(remember({ ...base, unreadable: 'unavailable' }));
  }
  if (!fetchable(parsed)) return Promise.resolve(claim(remember({ ...base, unreadable: 'from another site' }), since));
  if (parsed.protocol === 'data:') {
    try {
      const { bytes, type } = dataBytes(url);
      return Promise.resolve(remember({ ...base, size: bytes.length, type, ...textOf(name, type, bytes) }));
    } catch {
      return Promise.resolve(remember({ ...base, unreadable: 'unavailable' }));
    }
  }
  const get = nativeFetch ?? fetch;
  // Started now, in this task: the page may revoke the blob URL as soon as its click returns.
  const request = get(parsed.href, { credentials: 'same-origin' });
  const read = (async (): Promise<DownloadFile> => {
    const res = await request;
    if (!res.ok) return { ...base, unreadable: 'unavailable' };
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
    const declared = Number(res.headers.get('content-length'));
    if (declared > MAX_TEXT_BYTES) {
      void res.body?.cancel().catch(() => undefined);
      return { ...base, size: declared, type, unreadable: 'too big' };
    }
    const bytes = new Uint8Array(await res.arrayBuffer());
    return { ...base, size: bytes.length, type, ...textOf(name, type, bytes) };
  })();
  // A fetch that failed (a redirect to another site, say) may still be the runner's to read.
  return read.then(remember, () => claim(remember({ ...base, unreadable: 'unavailable' }), since));
}

/** The remembered download with this name (exactly, else ignoring case), its text masked as page text is. */
export function downloadNamed(name: string, masks: Masks): DownloadFile | undefined {
  const base = name.trim().split(/[\\/]/).pop() ?? '';
  const f = [...files].reverse().find((x) => x.name === base) ?? [...files].reverse().find((x) => x.name.toLowerCase() === base.toLowerCase());
  return f && f.text !== undefined ? { ...f, text: masks.text(f.text) } : f;
}

/** The names of the downloads this page remembers, newest last. */
export function downloadNames(): string[] {
  return files.map((f) => f.name);
}

// --- The runner's copies -----------------------------------------------------------------

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

let runnerOn = false;
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

/** Whether the runner hands its downloads to this world. */
export function runnerDownloads(): boolean {
  return runnerOn;
}

/**
 * The runner's entry calls this with the channel Node speaks through (client/entries/runner-env.ts);
 * no other bundle does, so elsewhere another site's download stays named only.
 */
export function useRunnerDownloads(listen: (take: (note: unknown) => void) => void): void {
  runnerOn = true;
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
  const i = e.claimed ? files.indexOf(e.claimed) : -1;
  if (i >= 0) files.splice(i, 1);
  e.settle(remember(file));
}

/**
 * A record the page could not read: in the runner, the runner's copy of the same file will
 * replace it (see `runnerCopyOf`). Elsewhere it stays as it is.
 */
function claim(f: DownloadFile, since: number): DownloadFile {
  if (!runnerOn) return f;
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

/** The runner's copy of a file the page could not read, once saved; undefined after `ms` (or outside the runner). */
export function runnerCopyOf(f: DownloadFile, ms: number): Promise<DownloadFile | undefined> {
  const c = claimOf.get(f);
  if (!c) return Promise.resolve(undefined);
  return Promise.race([c.result, new Promise<undefined>((r) => nativeSetTimeout(() => r(undefined), ms))]);
}

/**
 * A navigation the page saw that the runner says became a download (the same URL, or one that
 * redirected to it), within `ms`; its file once saved. Undefined outside the runner, or when no
 * such download started in time (a page then, or nothing).
 */
export function runnerDownloadFor(url: string, ms: number): Promise<{ name: string; url: string; file: Promise<DownloadFile> } | undefined> {
  if (!runnerOn) return Promise.resolve(undefined);
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
