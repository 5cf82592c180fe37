/**
 * `read {ref?, page?}`: the text of a region (ref) or of the whole page, beyond what the map's
 * budget shows, in chunks of about 3,000 characters ("page N of M"). `read {download}`: the
 * text of a small text file the page handed out (see ../downloads.ts). `read {url}`: another
 * page of this site, fetched and read apart (read-url.ts).
 */
import type { ToolArgs } from './args';
import { CHUNK_CHARS, chunkText } from './chunks';
import type { Handler } from './context';
import { ActionError } from './dom';
import { readDownload } from './download-report';
import { readUrl } from './read-url';
import { textForRead } from './read-text';

export const read: Handler<ToolArgs['read']> = async ({ ref, page, download, url }, ctx) => {
  if (download !== undefined) return { message: readDownload(download, page, ctx.settings.masks) };
  if (url !== undefined) return readUrl(url, page, ctx.settings);
  const root = ref ? ctx.resolve(ref) : (document.body ?? document.documentElement);
  const what = ref ? ctx.label(root) : 'the page';
  // The text reader (tables and grids as lines) loads on first use: most runs read through the map.
  const chunks = chunkText(textForRead(root, ctx.settings), CHUNK_CHARS);
  if (!chunks.length) return { message: `${what[0]!.toUpperCase()}${what.slice(1)} has no readable text.`, changes: { chunk: { page: 1, pages: 0 } } };
  if (page > chunks.length) {
    throw new ActionError(`There is no page ${page}: the text of ${what} has ${chunks.length} page${chunks.length === 1 ? '' : 's'}.`);
  }
  const more =
    page < chunks.length
      ? `\n[Page ${page} of ${chunks.length}. For more, read with page ${page + 1}.]`
      : chunks.length > 1
        ? `\n[End of text: page ${page} of ${chunks.length}.]`
        : '';
  return {
    message: `Text of ${what}${chunks.length > 1 ? ` (page ${page} of ${chunks.length})` : ''}:\n${chunks[page - 1]}${more}`,
    changes: { chunk: { page, pages: chunks.length } },
  };
};
