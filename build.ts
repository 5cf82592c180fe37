/**
 * Builds the injected bundle.
 *
 * dist/pagehand.js — one minified IIFE; the only name it leaves on `window` is `pagehand`.
 *
 * Run: `npm run build` (or `tsx build.ts --watch`).
 */
import { build, context, type BuildOptions } from 'esbuild';
import { mkdir, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

export const bundleOptions: BuildOptions = {
  absWorkingDir: root,
  entryPoints: ['client/index.ts'],
  outfile: 'dist/pagehand.js',
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: ['chrome100', 'firefox100', 'safari15'],
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  logLevel: 'warning',
};

async function main(): Promise<void> {
  await mkdir(`${root}dist`, { recursive: true });
  if (process.argv.includes('--watch')) {
    const ctx = await context(bundleOptions);
    await ctx.watch();
    console.log('watching client/ …');
    return;
  }
  await build(bundleOptions);
  const { size } = await stat(`${root}dist/pagehand.js`);
  console.log(`dist/pagehand.js  ${(size / 1024).toFixed(1)} KiB`);
}

await main();
