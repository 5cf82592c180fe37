/**
 * The runner's `--file`s, read for the run: each file's name, type (by its extension) and bytes
 * (base64, for the trip into the page's isolated world, where they become `File` objects the
 * run's `upload` may use). Nothing else reads them.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { CliError } from './preflight';

/** The largest file the runner hands to a run. */
export const MAX_FILE_BYTES = 25 * 1024 * 1024;

export interface RunFile {
  name: string;
  type: string;
  /** Base64. */
  data: string;
}

const TYPES: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.tsv': 'text/tab-separated-values',
  '.json': 'application/json',
  '.md': 'text/markdown',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.xml': 'application/xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.zip': 'application/zip',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xls': 'application/vnd.ms-excel',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.odt': 'application/vnd.oasis.opendocument.text',
  '.mp3': 'audio/mpeg',
  '.mp4': 'video/mp4',
  '.ics': 'text/calendar',
  '.vcf': 'text/vcard',
};

/** The MIME type a browser's picker would give the file, by its extension ('' when unknown). */
export const typeOf = (path: string): string => TYPES[extname(path).toLowerCase()] ?? '';

/** Reads the run's files. Throws a CliError naming a file that is too big or cannot be read. */
export async function readRunFiles(paths: readonly string[]): Promise<RunFile[]> {
  const out: RunFile[] = [];
  for (const path of paths) {
    try {
      const { size } = await stat(path);
      if (size > MAX_FILE_BYTES)
        throw new CliError(`--file ${basename(path)} is ${Math.round(size / 1024 / 1024)} MB; at most ${MAX_FILE_BYTES / 1024 / 1024} MB per file`);
      out.push({ name: basename(path), type: typeOf(path), data: (await readFile(path)).toString('base64') });
    } catch (e) {
      if (e instanceof CliError) throw e;
      throw new CliError(`--file ${basename(path)} could not be read: ${String((e as Error)?.message ?? e).split('\n')[0]}`);
    }
  }
  return out;
}
