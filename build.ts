/**
 * Builds the injected bundle.
 *
 * dist/pagehand.js — one minified IIFE; the only name it leaves on `window` is `pagehand`. It is
 *   the one file a bookmarklet, the embed or a userscript loads.
 * dist/pagehand-screenshot.js — the screenshot module (html-to-image and the Set-of-Marks
 *   drawing), an ES module that `pagehand.screenshot()` imports on first use from next to
 *   pagehand.js: the first load stays within its size budget without it.
 *
 * dist/cli.js — the `pagehand` command (package.json "bin"; `npx pagehand run --url URL "task"`):
 *   an ES module for Node with its packages left as imports (playwright-core drives Chromium).
 *
 * Run: `npm run build` (or `tsx build.ts --watch`).
 */
import { build, context, type BuildOptions } from 'esbuild';
import { chmod, mkdir, stat } from 'node:fs/promises';
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

/** The lazily imported screenshot module (client/page/screenshot.ts loads it by this name). */
export const screenshotModuleOptions: BuildOptions = {
  ...bundleOptions,
  entryPoints: ['client/page/screenshot/module.ts'],
  outfile: 'dist/pagehand-screenshot.js',
  format: 'esm',
};

/** The headless runner: `pagehand run …` (cli/pagehand.ts). */
export const cliOptions: BuildOptions = {
  absWorkingDir: root,
  entryPoints: ['cli/pagehand.ts'],
  outfile: 'dist/cli.js',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  banner: { js: '#!/usr/bin/env node' },
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
};

async function main(): Promise<void> {
  await mkdir(`${root}dist`, { recursive: true });
  if (process.argv.includes('--watch')) {
    for (const options of [bundleOptions, screenshotModuleOptions, cliOptions]) await (await context(options)).watch();
    console.log('watching client/ …');
    return;
  }
  await Promise.all([build(bundleOptions), build(screenshotModuleOptions), build(cliOptions)]);
  await chmod(`${root}dist/cli.js`, 0o755);
  for (const file of ['pagehand.js', 'pagehand-screenshot.js']) {
    const { size } = await stat(`${root}dist/${file}`);
    console.log(`dist/${file}  ${(size / 1024).toFixed(1)} KiB`);
  }
}

await main();
