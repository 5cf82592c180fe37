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

/** HTML's case-insensitive compare folds ASCII letters only. */
const asciiLower = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** The whitespace HTML strips around each of accept's tokens (ASCII whitespace only). */
const ASCII_SPACE = /^[\t\n\f\r ]+|[\t\n\f\r ]+$/g;
/** A MIME type's essence without parameters: type "/" subtype, both HTTP tokens. */
const MIME = /^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+$/;

/**
 * Whether a file input's `accept` takes the file, by the HTML rules: comma-separated tokens,
 * stripped of ASCII whitespace and compared ASCII case-insensitively; the any-type token (star
 * slash star) takes anything, a
 * family (`image/*`, `audio/*`, `video/*`; other families the same way, as browsers read them)
 * a file of that type, a valid MIME type without parameters exactly that type, a token from
 * "." on a file name ending so. Anything else is no valid token and is ignored; with no valid
 * token (or no accept) the picker offers every file, so any is taken.
 */
export function accepts(accept: string, file: FileFacts): boolean {
  const tokens = accept
    .split(',')
    .map((t) => asciiLower(t.replace(ASCII_SPACE, '')))
    .filter((t) => (t.startsWith('.') && t.length > 1) || MIME.test(t));
  if (!tokens.length) return true;
  // A file's own type may carry parameters ("text/plain;charset=utf-8"): its essence counts.
  const type = asciiLower((file.type.split(';')[0] ?? '').trim());
  const name = asciiLower(file.name);
  return tokens.some((t) => {
    if (t.startsWith('.')) return name.endsWith(t);
    if (t === '*/*') return true;
    if (t.endsWith('/*')) return type.startsWith(t.slice(0, -1));
    return type === t;
  });
}
