/**
 * Which attached files an `upload` call names, and whether a file input's `accept` takes them
 * (pure). The model never makes a file: it names files the user (the panel's paperclip), the
 * site's code (`run(task, { files })`) or the runner (`--file`) attached, and anything else is
 * an error listing what is attached.
 */

/** What the model is told about an attached file: never its content. */
export interface FileFacts {
  name: string;
  type: string;
  size: number;
}

/** `cv.pdf (12 KB, application/pdf)` */
export function describeFile(f: FileFacts): string {
  return `${f.name} (${formatSize(f.size)}${f.type ? `, ${f.type}` : ''})`;
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 102.4) / 10} KB`;
  return `${Math.round(bytes / (1024 * 102.4)) / 10} MB`;
}

/**
 * The attached files the names pick, in the order named. A name matches exactly, else ignoring
 * case, else a path's last part ("C:\\docs\\cv.pdf" → cv.pdf). Throws an Error naming what is
 * attached when a name matches none.
 */
export function pickFiles<F extends FileFacts>(names: readonly string[], attached: readonly F[]): F[] {
  const list = attached.map((f) => f.name).join(', ');
  if (!attached.length) {
    throw new Error('No files are attached to this task, so there is nothing to upload. Ask the user to attach the file (pagehand cannot make or fetch one).');
  }
  return names.map((name) => {
    const base = name.split(/[\\/]/).pop() ?? name;
    const hit =
      attached.find((f) => f.name === name) ?? attached.find((f) => f.name === base) ?? attached.find((f) => f.name.toLowerCase() === base.toLowerCase());
    if (!hit) throw new Error(`"${name}" is not an attached file. Attached: ${list}. Only attached files can be uploaded.`);
    return hit;
  });
}

/**
 * Whether a file input's `accept` takes the file: a MIME type (`application/pdf`), a family
 * (`image/*`) or an extension (`.pdf`), any of the comma-separated entries. No accept: anything.
 */
export function accepts(accept: string, file: FileFacts): boolean {
  const entries = accept
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  if (!entries.length) return true;
  const type = file.type.toLowerCase();
  const name = file.name.toLowerCase();
  return entries.some((e) => {
    if (e.startsWith('.')) return name.endsWith(e);
    if (e.endsWith('/*')) return type.startsWith(e.slice(0, -1));
    return type === e;
  });
}
