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
 * The runner sees every download the tab makes and saves it; its copies reach this world through
 * runner-downloads.ts, which only the runner's entry loads and lends here (`lendRunnerCopies`):
 * there, a file the page could not fetch is read from the runner's copy, under the same rules.
 */
import { nativeFetch } from './settle/network';
import type { Masks } from './settings';

/** The largest download whose text the agent reads. */
export const MAX_TEXT_BYTES = 64 * 1024;
/** Downloads remembered in this page (the oldest go first). */
export const KEEP = 10;
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

/** Keeps `f` (the oldest go first), in place of a record of the same name, and of `replaced` if given. */
export function remember(f: DownloadFile, replaced?: DownloadFile): DownloadFile {
  const old = replaced ? files.indexOf(replaced) : -1;
  if (old >= 0) files.splice(old, 1);
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

/** What the runner's copies offer the page layer (runner-downloads.ts). */
export interface RunnerCopies {
  /** A record the page could not read: the runner's copy of the same file will replace it. */
  claim(f: DownloadFile, since: number): DownloadFile;
  copyOf(f: DownloadFile, ms: number): Promise<DownloadFile | undefined>;
  downloadFor(url: string, ms: number): Promise<{ name: string; url: string; file: Promise<DownloadFile> } | undefined>;
}

let runner: RunnerCopies | undefined;

/** Called by the runner's entry only: elsewhere another site's download stays named only. */
export function lendRunnerCopies(r: RunnerCopies): void {
  runner = r;
}

const claim = (f: DownloadFile, since: number): DownloadFile => (runner ? runner.claim(f, since) : f);

/** Whether the runner hands its downloads to this world. */
export const runnerDownloads = (): boolean => runner !== undefined;

/** The runner's copy of a file the page could not read, once saved; undefined after `ms` (or outside the runner). */
export function runnerCopyOf(f: DownloadFile, ms: number): Promise<DownloadFile | undefined> {
  return runner ? runner.copyOf(f, ms) : Promise.resolve(undefined);
}

/**
 * A navigation the page saw that the runner says became a download (the same URL, or one that
 * redirected to it), within `ms`; its file once saved. Undefined outside the runner, or when no
 * such download started in time (a page then, or nothing).
 */
export function runnerDownloadFor(url: string, ms: number): ReturnType<RunnerCopies['downloadFor']> {
  return runner ? runner.downloadFor(url, ms) : Promise.resolve(undefined);
}
