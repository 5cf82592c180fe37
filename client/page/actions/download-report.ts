/**
 * What an action's result says about a download it started, and `read {download}`: a small
 * text file's text (its first page; the rest by page), or why only its name is known.
 */
import { downloadNamed, downloadNames, DOWNLOAD_WAIT_MS, MAX_TEXT_BYTES, runnerCopyOf, type DownloadFile } from '../downloads';
import { nativeSetTimeout } from '../settle/settle';
import { chunkText, CHUNK_CHARS } from './chunks';
import { ActionError } from './dom';
import { formatSize } from './upload-files';
import type { Masks } from '../settings';

const WHY: Record<string, string> = {
  binary: 'not a text file',
  'too big': `over ${MAX_TEXT_BYTES / 1024} KB`,
  'from another site': 'from another site',
  unavailable: 'it could not be read',
};

function facts(f: DownloadFile): string {
  return [f.size !== undefined ? formatSize(f.size) : '', f.type ?? ''].filter(Boolean).join(', ');
}

/** One page of a download's text, with the line that says where the rest is. */
export function downloadPage(f: DownloadFile & { text: string }, page: number): string {
  const chunks = chunkText(f.text, CHUNK_CHARS);
  if (!chunks.length) return `${f.name} is empty.`;
  if (page > chunks.length) throw new ActionError(`There is no page ${page}: ${f.name} has ${chunks.length} page${chunks.length === 1 ? '' : 's'}.`);
  const more = page < chunks.length ? `\n[Page ${page} of ${chunks.length}. For more, read with download "${f.name}" and page ${page + 1}.]` : '';
  return `${chunks[page - 1]}${more}`;
}

/** How much longer the runner's copy of a file the page could not read is waited for. */
const RUNNER_COPY_WAIT_MS = 5000;

/**
 * The sentence (and text) a download adds to the action's result; waits a little for its
 * bytes — in the runner, for its copy too when the page could not read the file itself.
 */
export async function reportDownload(file: Promise<DownloadFile>, masks: Masks): Promise<string> {
  let f = await Promise.race([file, new Promise<undefined>((r) => nativeSetTimeout(() => r(undefined), DOWNLOAD_WAIT_MS))]);
  if (!f) return 'It started a download; its content is not known yet.';
  if (f.text === undefined) f = (await runnerCopyOf(f, RUNNER_COPY_WAIT_MS)) ?? f;
  const known = downloadNamed(f.name, masks) ?? f;
  const about = facts(known);
  if (known.text === undefined)
    return `It downloaded ${known.name}${about ? ` (${about})` : ''}; only its name is known (${WHY[known.unreadable ?? 'unavailable'] ?? known.unreadable}).`;
  return `It downloaded ${known.name}${about ? ` (${about})` : ''}. Its text:\n${downloadPage(known as DownloadFile & { text: string }, 1)}`;
}

/** `read {download, page}`: a remembered download's text. */
export function readDownload(name: string, page: number, masks: Masks): string {
  const f = downloadNamed(name, masks);
  if (!f) {
    const names = downloadNames();
    throw new ActionError(
      names.length
        ? `No download named "${name}". Downloads on this page: ${names.join(', ')}.`
        : `No download named "${name}": nothing was downloaded on this page yet.`,
    );
  }
  if (f.text === undefined) throw new ActionError(`${f.name} cannot be read: ${WHY[f.unreadable ?? 'unavailable'] ?? f.unreadable}; only its name is known.`);
  const pages = chunkText(f.text, CHUNK_CHARS).length;
  return `Text of the download ${f.name}${pages > 1 ? ` (page ${page} of ${pages})` : ''}:\n${downloadPage(f as DownloadFile & { text: string }, page)}`;
}
