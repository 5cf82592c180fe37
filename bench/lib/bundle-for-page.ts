/**
 * Bundles browser code into one IIFE script for `page.addScriptTag`, at bench time. The output is
 * cached under node_modules/.cache/pagehand-bench/ (never committed) and rebuilt every run, so a
 * stale copy cannot be measured.
 */
import { build } from 'esbuild';
import { mkdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const cacheDir = `${root}node_modules/.cache/pagehand-bench`;

export interface PageBundle {
  /** Name of the cached file (and of the bundle in messages). */
  name: string;
  /** An entry file, relative to the repo root… */
  entry?: string;
  /** …or entry source, resolved from the repo root (so node_modules packages are found). */
  contents?: string;
}

/** Returns the script source. */
export async function bundleForPage(b: PageBundle): Promise<string> {
  await mkdir(cacheDir, { recursive: true });
  const outfile = `${cacheDir}/${b.name}.js`;
  await build({
    absWorkingDir: root,
    ...(b.entry ? { entryPoints: [b.entry] } : { stdin: { contents: b.contents ?? '', resolveDir: root, loader: 'ts', sourcefile: `${b.name}.ts` } }),
    outfile,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome120'],
    minify: false,
    legalComments: 'none',
    logLevel: 'warning',
  });
  return readFile(outfile, 'utf8');
}
