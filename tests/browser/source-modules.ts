/**
 * Page code built from the repository's source, for tests that reach modules the public bundle
 * does not expose: `contents` is a TypeScript entry whose imports are relative to the repository
 * root ('./client/page/map/map'); the result is an IIFE to put into a page.
 *
 * @example
 *   const js = await sourceModules("import { walk } from './client/page/map/walk';\n(window as any).__walk = walk;\n", 'walk-entry.ts');
 *   await page.addScriptTag({ content: js });
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export async function sourceModules(contents: string, name: string): Promise<string> {
  const out = await build({
    absWorkingDir: root,
    stdin: { contents, resolveDir: root, loader: 'ts', sourcefile: name },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: ['chrome120'],
    logLevel: 'warning',
  });
  return out.outputFiles[0]!.text;
}
