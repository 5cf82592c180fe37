/** Splits long text into pages for `read` (pure): whole lines when possible, words otherwise. */

export const CHUNK_CHARS = 3000;

export function chunkText(text: string, size = CHUNK_CHARS): string[] {
  const chunks: string[] = [];
  let cur = '';
  const flush = (): void => {
    if (cur.trim()) chunks.push(cur.replace(/\n+$/, ''));
    cur = '';
  };
  for (const line of text.split('\n')) {
    if (cur.length + line.length + 1 <= size) {
      cur += `${line}\n`;
      continue;
    }
    flush();
    if (line.length + 1 <= size) {
      cur = `${line}\n`;
      continue;
    }
    // One line longer than a chunk: cut at the last space before the limit.
    let rest = line;
    while (rest.length > size) {
      let cut = rest.lastIndexOf(' ', size);
      if (cut < size / 2) cut = size;
      chunks.push(rest.slice(0, cut).trimEnd());
      rest = rest.slice(cut).trimStart();
    }
    cur = rest ? `${rest}\n` : '';
  }
  flush();
  return chunks;
}
