/**
 * A run's attached files across full navigations of the same origin: kept in this tab's
 * sessionStorage beside the run (same origin only, as uploads are), under the run's id, and
 * dropped when the run ends. Files over MAX_KEPT_BYTES in all are not carried (their names
 * are: the model is told to have them attached again). The page's own scripts can read this
 * storage; they can read a file the user attached on their page anyway (see docs).
 */
import type { FileFacts } from '../page/actions/upload-files';

export const FILES_KEY = 'pagehand:files';
/** The most bytes of files carried from page to page (sessionStorage holds about 5 MB). */
export const MAX_KEPT_BYTES = 2 * 1024 * 1024;

interface Kept {
  run: string;
  origin: string;
  files: Array<FileFacts & { lastModified: number; data: string }>;
}

function storage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** The facts the model reads about files: name, type, size. */
export const factsOf = (files: readonly File[]): FileFacts[] => files.map((f) => ({ name: f.name, type: f.type, size: f.size }));

/** Keeps the run's files for the next pages of this origin. False when they are too big or storage fails. */
export async function keepFiles(run: string, origin: string, files: readonly File[]): Promise<boolean> {
  const s = storage();
  if (!s || !files.length) return false;
  if (files.reduce((n, f) => n + f.size, 0) > MAX_KEPT_BYTES) return false;
  try {
    const kept: Kept = { run, origin, files: [] };
    for (const f of files)
      kept.files.push({ name: f.name, type: f.type, size: f.size, lastModified: f.lastModified, data: toBase64(new Uint8Array(await f.arrayBuffer())) });
    s.setItem(FILES_KEY, JSON.stringify(kept));
    return true;
  } catch {
    return false;
  }
}

/** The files kept for this run on this origin, as File objects again; none for another run or origin. */
export function loadFiles(run: string, origin: string): File[] {
  try {
    const raw = storage()?.getItem(FILES_KEY);
    if (!raw) return [];
    const kept = JSON.parse(raw) as Kept;
    if (kept.run !== run || kept.origin !== origin || !Array.isArray(kept.files)) return [];
    return kept.files.map((f) => new File([Uint8Array.from(atob(f.data), (c) => c.charCodeAt(0))], f.name, { type: f.type, lastModified: f.lastModified }));
  } catch {
    return [];
  }
}

/** Forgets the kept files (the run ended). */
export function dropFiles(run?: string): void {
  try {
    const s = storage();
    const raw = s?.getItem(FILES_KEY);
    if (!raw) return;
    if (run === undefined || (JSON.parse(raw) as Kept).run === run) s!.removeItem(FILES_KEY);
  } catch {
    /* nothing kept */
  }
}
