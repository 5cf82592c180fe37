/**
 * `run(task, { files })`: files the user attached (the panel's paperclip), the site's code
 * passes (`File` objects) or the runner read from `--file`. The model sees only their names,
 * types and sizes; `upload` puts them into the page by name, on the origin where the run
 * started only (the user attached them for that site: a page the run moves on to cannot ask for
 * them). Nothing else reads them. Pure.
 */

/** What the run keeps: the files and the origin they may be uploaded on. */
export interface RunFiles {
  files: File[];
  /** `location.origin` when the run started. */
  origin: string;
}

/** At most this many files per run (one upload call takes up to 20). */
export const MAX_RUN_FILES = 20;

const isFile = (f: unknown): f is File => typeof File === 'function' && f instanceof File;

/** Why `files` cannot be used, or undefined. */
export function filesProblem(files: unknown): string | undefined {
  if (files === undefined) return undefined;
  if (!Array.isArray(files)) return 'files must be an array of File objects';
  if (files.length > MAX_RUN_FILES) return `files: at most ${MAX_RUN_FILES} files per run, got ${files.length}`;
  for (const f of files) if (!isFile(f)) return 'files must be File objects (from an <input type="file">, a drop, or new File([...], name))';
  const names = files.map((f: File) => f.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) return `files: two files are named "${twice}"; upload picks files by name`;
  return undefined;
}

/** The files `upload` may use on `origin`: all of them where the run started, none elsewhere. */
export function filesFor(run: RunFiles | undefined, origin: string): File[] {
  return run && run.origin === origin ? run.files : [];
}
