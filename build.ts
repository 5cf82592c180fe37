/**
 * Builds the injected bundle.
 *
 * dist/pagehand.js — one minified IIFE; the only name it leaves on `window` is `pagehand`: the
 *   whole agent in one file, which embed tags from before the loader load.
 * dist/pagehand-bookmarklet.js + dist/pagehand-bookmarklet-engine.HASH.js (+ pagehand-bookmarklet-NAME.HASH.js)
 *   — what the bookmarklet loads: a first file with the panel (a classic script, its mode — the
 *   user's pagehand on a stranger's page — in its code and the proxy's origin a placeholder,
 *   __PAGEHAND_PROXY__, the Node server fills in when it serves the file), which imports the
 *   engine from that origin at once, so nothing on the page decides either
 *   (client/entries/bookmarklet.ts, build-bookmarklet.ts).
 * dist/pagehand-screenshot.js — the screenshot module (html-to-image and the Set-of-Marks
 *   drawing), an ES module that `pagehand.screenshot()` imports on first use from next to
 *   pagehand.js: the first load stays within its size budget without it.
 *
 * dist/pagehand.user.js — the userscript: the same entry behind client/userscript/env.ts (model
 *   calls through GM_xmlhttpRequest, the run in GM storage) and a metadata block. The proxy URL,
 *   its host and the token are placeholders (__PAGEHAND_PROXY__, __PAGEHAND_PROXY_HOST__,
 *   __PAGEHAND_TOKEN__) the Node server fills in when it serves /pagehand.user.js.
 * dist/esm/index.js (+ index.d.ts) — the npm entry for site owners who bundle
 *   (`import { run, init } from 'pagehand'`, package.json "exports"); its declarations come from
 *   client/entries/npm-types.ts alone, so they never depend on the implementation.
 * dist/pagehand.runner.js, dist/pagehand.runner-page.js — what the headless runner injects: the
 *   bundle for its isolated world, and a small page-world part (hooks that see the page's calls).
 * dist/cli.js — the `pagehand` command (package.json "bin"; `npx pagehand run --url URL "task"`):
 *   an ES module for Node with its packages left as imports (playwright-core drives Chromium).
 * dist/pagehand-loader.js + dist/pagehand-agent.HASH.js (+ pagehand-agent-NAME.HASH.js) — the site
 *   embed: a loader of a few KB every page view pays for (hooks, `pagehand` stub, launcher) and
 *   the agent it loads on demand as ES modules, split so that what not every run needs loads on
 *   first use, named by content hash (build-embed.ts).
 * dist/worker-assets/ — what a Worker serves as static assets (wrangler.toml `[assets]`): copies
 *   of pagehand.js, pagehand-screenshot.js, the loader and its agent chunk(s) and nothing else of
 *   dist/, plus a `_headers` file giving them the caching the Node server gives them
 *   (server/node/static-assets.ts). Not refreshed by --watch.
 *
 * Run: `npm run build` (or `tsx build.ts --watch`).
 */
import { build, context, type BuildOptions } from 'esbuild';
import { readFileSync } from 'node:fs';
import { chmod, copyFile, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBookmarklet, watchBookmarklet } from './build-bookmarklet';
import { buildEmbed, watchEmbed, type EmbedFiles } from './build-embed';
import { cacheControlFor } from './server/node/static-assets';

const root = fileURLToPath(new URL('.', import.meta.url));

export const bundleOptions: BuildOptions = {
  absWorkingDir: root,
  entryPoints: ['client/entries/index.ts'],
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
  // One-file builds know their URL from their script tag; only the embed's agent, an ES module,
  // reads import.meta.url (agentChunkOptions keeps it).
  define: { 'import.meta.url': 'undefined' },
};

/** The lazily imported screenshot module (client/page/screenshot.ts loads it by this name). */
export const screenshotModuleOptions: BuildOptions = {
  ...bundleOptions,
  entryPoints: ['client/page/screenshot/module.ts'],
  outfile: 'dist/pagehand-screenshot.js',
  format: 'esm',
};

const { version } = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string };

/** The userscript's metadata block; the server substitutes the placeholders (server/node/pages.ts). */
export const USERSCRIPT_HEADER = `// ==UserScript==
// @name         pagehand
// @namespace    __PAGEHAND_PROXY__
// @version      ${version}
// @description  An AI agent in every page: reads the page, acts on it step by step, with the model behind your pagehand proxy.
// @match        *://*/*
// @grant        GM_xmlhttpRequest
// @grant        GM_getValue
// @grant        GM_setValue
// @grant        GM_deleteValue
// @grant        GM_listValues
// @grant        GM_getTab
// @grant        GM_saveTab
// @grant        GM.getTab
// @grant        GM.saveTab
// @grant        GM.xmlHttpRequest
// @connect      __PAGEHAND_PROXY_HOST__
// @run-at       document-start
// @downloadURL  __PAGEHAND_PROXY__/pagehand.user.js
// @updateURL    __PAGEHAND_PROXY__/pagehand.user.js
// ==/UserScript==
`;

export const userscriptOptions: BuildOptions = {
  ...bundleOptions,
  entryPoints: ['client/userscript/index.ts'],
  outfile: 'dist/pagehand.user.js',
  // The configuration sits in the script's own scope, where the user can also edit it.
  banner: { js: `${USERSCRIPT_HEADER}(() => {\n"use strict";\nconst PAGEHAND_USERSCRIPT = { proxy: "__PAGEHAND_PROXY__", token: "__PAGEHAND_TOKEN__" };` },
  footer: { js: '})();' },
};

/**
 * What the headless runner injects in its isolated world: pagehand.js with the run's state kept
 * by the runner and the page-world hints handed over (client/entries/runner-env.ts).
 */
export const runnerBundleOptions: BuildOptions = {
  ...bundleOptions,
  entryPoints: ['client/entries/runner.ts'],
  outfile: 'dist/pagehand.runner.js',
};

/** The runner's small page-world part (client/entries/runner-page.ts): hooks, no run. */
export const runnerPageOptions: BuildOptions = {
  ...bundleOptions,
  entryPoints: ['client/entries/runner-page.ts'],
  outfile: 'dist/pagehand.runner-page.js',
};

/** The npm entry: an ES module the site's bundler takes in (it minifies; dependencies are inside). */
export const esmOptions: BuildOptions = {
  ...bundleOptions,
  entryPoints: ['client/entries/npm.ts'],
  outfile: 'dist/esm/index.js',
  format: 'esm',
  minify: false,
};

/** Declarations for the npm entry: tsc on client/entries/npm-types.ts (and the type modules it reads). */
async function buildDeclarations(): Promise<void> {
  let ts: typeof import('typescript');
  try {
    ts = (await import('typescript')).default;
  } catch {
    console.warn('typescript is not installed: dist/esm/index.d.ts not written');
    return;
  }
  const program = ts.createProgram([`${root}client/entries/npm-types.ts`], {
    declaration: true,
    emitDeclarationOnly: true,
    outDir: `${root}dist/esm/types`,
    // client/ and common/ (the types the bundle shares with the CLI).
    rootDir: root,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    strict: true,
    skipLibCheck: true,
    types: [],
  });
  const { diagnostics } = program.emit();
  const errors = [...ts.getPreEmitDiagnostics(program), ...diagnostics].filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length) throw new Error(ts.formatDiagnostics(errors, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' }));
  await writeFile(`${root}dist/esm/index.d.ts`, "export * from './types/client/entries/npm-types';\n");
}

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

/** The files a Worker serves (copied from dist/): the bundle, the screenshot module, the embed's loader and chunk(s). */
const workerAssets = (embed: EmbedFiles): string[] => ['pagehand.js', 'pagehand-screenshot.js', embed.loader, ...embed.files, ...embed.previous];

/** Each file's headers, with the Node server's caching (the asset server adds ETag, 304 and compression). */
const workerAssetsHeaders = (names: readonly string[]): string =>
  names
    .map(
      (name) =>
        // Content-Type too: the asset server's own guess may lack the charset. The CORS header is
        // what lets a page on another origin import the screenshot module.
        `/${name}\n  Content-Type: text/javascript; charset=utf-8\n  Cache-Control: ${cacheControlFor(name)}\n  Access-Control-Allow-Origin: *\n  X-Content-Type-Options: nosniff\n`,
    )
    .join('');

/** dist/worker-assets/: emptied first, so only these files are ever uploaded. */
async function writeWorkerAssets(embed: EmbedFiles): Promise<void> {
  const dir = `${root}dist/worker-assets`;
  const names = workerAssets(embed);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const name of names) await copyFile(`${root}dist/${name}`, `${dir}/${name}`);
  await writeFile(`${dir}/_headers`, workerAssetsHeaders(names));
}

async function main(): Promise<void> {
  await mkdir(`${root}dist`, { recursive: true });
  if (process.argv.includes('--watch')) {
    for (const options of [bundleOptions, screenshotModuleOptions, userscriptOptions, runnerBundleOptions, runnerPageOptions, esmOptions, cliOptions])
      await (await context(options)).watch();
    await watchEmbed(bundleOptions, root, version);
    await watchBookmarklet(bundleOptions, root, version);
    console.log('watching client/ …');
    return;
  }
  const [embed, bookmarklet] = await Promise.all([
    buildEmbed(bundleOptions, root, version),
    buildBookmarklet(bundleOptions, root, version),
    build(bundleOptions),
    build(screenshotModuleOptions),
    build(userscriptOptions),
    build(runnerBundleOptions),
    build(runnerPageOptions),
    build(esmOptions),
    build(cliOptions),
    buildDeclarations(),
  ]);
  await chmod(`${root}dist/cli.js`, 0o755);
  await writeWorkerAssets(embed);
  for (const file of [
    'pagehand.js',
    'pagehand-screenshot.js',
    embed.loader,
    embed.agent,
    ...embed.files.filter((f) => f !== embed.agent),
    bookmarklet.first,
    ...bookmarklet.engine,
    'pagehand.user.js',
    'pagehand.runner.js',
  ]) {
    const { size } = await stat(`${root}dist/${file}`);
    console.log(`dist/${file}  ${(size / 1024).toFixed(1)} KiB`);
  }
}

// Builds when run (`tsx build.ts`); importing it (bench/size.ts) only reads the options.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
