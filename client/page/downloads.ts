/**
 * Files the page hands out, made readable to the agent when they are small text: tasks often
 * say "download the note and use what it says".
 *
 * When an action starts a download (`<a download href>`, or a script clicking such a link),
 * the page layer fetches it itself if it can — a `blob:` or `data:` URL, or the page's own
 * origin — at once (a page revokes a blob URL right after the click). A text file (txt, csv,
 * json, md and the like) up to MAX_TEXT_BYTES is kept under its name for `read {download}`;
 * anything else (binary, bigger, from another site) is only named. The runner, which sees every
 * download, hands in the text of the ones the page could not fetch (`addDownload`).
 */
import { nativeFetch } from './network';
import { maskPageText } from './redact';

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
  const name = downloadName(filename, url);
  const base: DownloadFile = { name, url };
  let parsed: URL;
  try {
    parsed = new URL(url, location.href);
  } catch {
    return Promise.resolve(remember({ ...base, unreadable: 'unavailable' }));
  }
  if (!fetchable(parsed)) return Promise.resolve(remember({ ...base, unreadable: 'from another site' }));
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
  return read.then(remember, () => remember({ ...base, unreadable: 'unavailable' }));
}

/** A download the runner read (the page could not: another site's URL). */
export function addDownload(f: { name: string; url?: string; text?: string; size?: number; type?: string }): void {
  if (!f || typeof f.name !== 'string') return;
  const name = downloadName(f.name, f.url ?? '');
  const text = typeof f.text === 'string' && new TextEncoder().encode(f.text).length <= MAX_TEXT_BYTES ? f.text : undefined;
  remember({ name, url: String(f.url ?? ''), size: f.size, type: f.type, ...(text !== undefined ? { text } : { unreadable: 'binary' }) });
}

/** The remembered download with this name (exactly, else ignoring case), its text masked as page text is. */
export function downloadNamed(name: string): DownloadFile | undefined {
  const base = name.trim().split(/[\\/]/).pop() ?? '';
  const f = [...files].reverse().find((x) => x.name === base) ?? [...files].reverse().find((x) => x.name.toLowerCase() === base.toLowerCase());
  return f && f.text !== undefined ? { ...f, text: maskPageText(f.text) } : f;
}

/** The names of the downloads this page remembers, newest last. */
export function downloadNames(): string[] {
  return files.map((f) => f.name);
}
