/**
 * How build.ts makes the bookmarklet's two parts (build-time code for Node, in no bundle):
 *
 * dist/pagehand-bookmarklet-engine.HASH.js (+ pagehand-bookmarklet-NAME.HASH.js) — the engine, as
 *   ES modules: client/entries/bookmarklet-engine.ts (map, actions, loop, safety; its mode in its
 *   code, its proxy its own origin), what it imports, and one chunk per feature it `import()`s on
 *   first use. Named by esbuild's content hash, so they are cached as immutable.
 * dist/pagehand-bookmarklet-lang-XX.HASH.js — each panel language but English, an ES module of its
 *   own the first file imports by address when it is the one shown (inlined, the twelve would
 *   weigh more than the rest of the first file).
 * dist/pagehand-bookmarklet.js — the first file, a classic script (the bookmarklet, old ones
 *   too, adds it with a plain script tag): client/entries/bookmarklet.ts, the panel and the
 *   stand-in `pagehand`, given the engine's file name. The proxy writes its origin over its
 *   placeholder when it serves it (server/node/pages.ts).
 *
 * The files of the build before the current one are kept (a first file served a moment before a
 * rebuild still asks for them; dist/pagehand-bookmarklet.files.json lists both); older ones are
 * removed.
 */
import { build, context, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { existsSync, readdirSync } from 'node:fs';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { BOOKMARKLET_CHUNK_NAME } from './server/node/static-assets';

export const BOOKMARKLET_FILE = 'pagehand-bookmarklet.js';
const ENGINE_ENTRY = 'client/entries/bookmarklet-engine.ts';
const MANIFEST = 'pagehand-bookmarklet.files.json';
const LANG_DIR = 'client/ui/lang';
const LANG_FILE = /^client\/ui\/lang\/([a-z]{2})\.ts$/;

/** The panel's languages other than English (client/ui/lang/XX.ts). */
const langCodes = (): string[] =>
  readdirSync(LANG_DIR)
    .map((n) => /^([a-z]{2})\.ts$/.exec(n)?.[1])
    .filter((c): c is string => !!c);

/**
 * In the first file, a language's `import('./lang/XX')` becomes an import of its built module at
 * the serving proxy's address (the proxy writes its origin over the placeholder, as for the engine).
 */
function langsByAddress(files: Readonly<Record<string, string>>): Plugin {
  return {
    name: 'pagehand-bookmarklet-langs',
    setup(b) {
      b.onResolve({ filter: /^\.\/lang\/[a-z]{2}$/ }, (a) => {
        const code = a.path.slice('./lang/'.length);
        const file = files[code];
        return file ? { path: `__PAGEHAND_PROXY__/${file}`, external: true } : undefined;
      });
    },
  };
}

/** The bookmarklet's files, as dist/pagehand-bookmarklet.files.json lists them. */
export interface BookmarkletFiles {
  /** The first file (fixed name, served with the proxy's origin written in). */
  first: string;
  /** The engine's entry first, then the files it imports (all load when the first file runs). */
  engine: string[];
  /** Loaded on a feature's first use. */
  lazy: string[];
  /** The previous build's engine files, still in dist/. */
  previous: string[];
  /** Each panel language's file (not English: built into the first file), by its code. */
  langs: Record<string, string>;
}

/** The engine as ES modules with code splitting (nothing written: writeBookmarklet does). */
export function bookmarkletEngineOptions(base: BuildOptions): BuildOptions {
  return {
    ...base,
    entryPoints: [ENGINE_ENTRY],
    outfile: undefined,
    outdir: 'dist',
    format: 'esm',
    splitting: true,
    entryNames: 'pagehand-bookmarklet-engine.[hash]',
    chunkNames: 'pagehand-bookmarklet-[name].[hash]',
    // An ES module: its proxy is its own URL's origin, and the screenshot module sits beside it.
    define: Object.fromEntries(Object.entries(base.define ?? {}).filter(([k]) => k !== 'import.meta.url')),
    write: false,
    metafile: true,
  };
}

/** Each language as a module that stands alone (no chunk shared with the engine: it can show before the engine is here). */
export function bookmarkletLangOptions(base: BuildOptions): BuildOptions {
  return {
    ...base,
    entryPoints: Object.fromEntries(langCodes().map((c) => [`pagehand-bookmarklet-lang-${c}`, `${LANG_DIR}/${c}.ts`])),
    outfile: undefined,
    outdir: 'dist',
    format: 'esm',
    splitting: false,
    entryNames: '[name].[hash]',
    define: Object.fromEntries(Object.entries(base.define ?? {}).filter(([k]) => k !== 'import.meta.url')),
    write: false,
    metafile: true,
  };
}

/** The first file, given the engine's files (its entry first) and each language's file. */
export function bookmarkletFirstOptions(
  base: BuildOptions,
  engineFiles: readonly string[],
  version: string,
  langs: Readonly<Record<string, string>>,
): BuildOptions {
  return {
    ...base,
    plugins: [...(base.plugins ?? []), langsByAddress(langs)],
    entryPoints: ['client/entries/bookmarklet.ts'],
    outfile: `dist/${BOOKMARKLET_FILE}`,
    define: {
      ...base.define,
      __PAGEHAND_BOOKMARKLET_ENGINE__: JSON.stringify(engineFiles),
      __PAGEHAND_VERSION__: JSON.stringify(version),
      // Always a stranger's panel: the site-only parts drop out (client/ui/site-ui.ts).
      __PAGEHAND_STRANGER_PANEL__: 'true',
    },
  };
}

const nameOf = (path: string): string => path.replace(/^.*\//, '');

/** The engine's entry and its static imports (transitively), and the rest: what loads on first use. */
export function engineFilesOf(meta: Metafile): { engine: string[]; lazy: string[] } {
  const outputs = meta.outputs;
  const entry = Object.keys(outputs).find((p) => outputs[p]!.entryPoint === ENGINE_ENTRY);
  if (!entry) throw new Error(`bookmarklet build: no output for ${ENGINE_ENTRY}`);
  const eager = new Set<string>();
  const visit = (path: string): void => {
    if (eager.has(path)) return;
    eager.add(path);
    for (const i of outputs[path]?.imports ?? []) {
      if (i.external || i.kind === 'dynamic-import') continue;
      const target = Object.keys(outputs).find((p) => p === i.path || nameOf(p) === nameOf(i.path));
      if (target) visit(target);
    }
  };
  visit(entry);
  const js = Object.keys(outputs).filter((p) => p.endsWith('.js'));
  return { engine: [...eager].map(nameOf), lazy: js.filter((p) => !eager.has(p)).map(nameOf) };
}

/** Each language's built file, by its code. */
export function langFilesOf(meta: Metafile): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [path, o] of Object.entries(meta.outputs)) {
    const code = o.entryPoint && LANG_FILE.exec(o.entryPoint)?.[1];
    if (code) files[code] = nameOf(path);
  }
  return files;
}

/** Keeps this build's engine files and the previous build's in `dir`; removes older ones. Returns the previous build's. */
async function prune(dir: string, current: readonly string[]): Promise<string[]> {
  let previous: string[] = [];
  try {
    const m = JSON.parse(await readFile(`${dir}/${MANIFEST}`, 'utf8')) as { current?: unknown };
    if (Array.isArray(m.current))
      previous = m.current.filter((n): n is string => typeof n === 'string' && BOOKMARKLET_CHUNK_NAME.test(n) && !current.includes(n));
  } catch {
    /* first build: nothing kept from before */
  }
  const keep = new Set([...current, ...previous]);
  for (const n of await readdir(dir)) if (BOOKMARKLET_CHUNK_NAME.test(n) && !keep.has(n)) await rm(`${dir}/${n}`, { force: true });
  return previous.filter((n) => existsSync(`${dir}/${n}`));
}

/** Writes the engine's files, then builds the first file that names its entry. */
async function writeBookmarklet(
  outputFiles: ReadonlyArray<{ path: string; contents: Uint8Array }>,
  meta: Metafile,
  base: BuildOptions,
  root: string,
  version: string,
): Promise<BookmarkletFiles> {
  const { engine, lazy } = engineFilesOf(meta);
  const langs = await build(bookmarkletLangOptions(base));
  const current: string[] = [];
  for (const f of [...outputFiles, ...langs.outputFiles!]) {
    const n = nameOf(f.path);
    if (!BOOKMARKLET_CHUNK_NAME.test(n)) continue;
    await writeFile(`${root}dist/${n}`, f.contents);
    current.push(n);
  }
  const first = await build({ ...bookmarkletFirstOptions(base, engine, version, langFilesOf(langs.metafile!)), metafile: true });
  // The first file is the panel: the engine must come only through its import().
  const held = Object.values(first.metafile!.outputs).flatMap((o) => Object.keys(o.inputs));
  if (held.includes('client/engine.ts') || held.includes('client/agent/api.ts'))
    throw new Error(`bookmarklet build: dist/${BOOKMARKLET_FILE} holds the engine: something the panel or the stub imports pulled it in.`);
  const previous = await prune(`${root}dist`, current);
  await writeFile(
    `${root}dist/${MANIFEST}`,
    `${JSON.stringify({ first: BOOKMARKLET_FILE, engine, lazy, langs: langFilesOf(langs.metafile!), current, previous }, null, 2)}\n`,
  );
  return { first: BOOKMARKLET_FILE, engine, lazy, previous, langs: langFilesOf(langs.metafile!) };
}

/** Builds the engine's files and the first file. */
export async function buildBookmarklet(base: BuildOptions, root: string, version: string): Promise<BookmarkletFiles> {
  const r = await build(bookmarkletEngineOptions(base));
  return writeBookmarklet(r.outputFiles!, r.metafile!, base, root, version);
}

/** `--watch`: the engine and the first file again when the engine's sources change, the first file when its own do. */
export async function watchBookmarklet(base: BuildOptions, root: string, version: string): Promise<void> {
  let engineFiles: string[] | undefined;
  let langFiles: Record<string, string> = {};
  const engine = bookmarkletEngineOptions(base);
  const onEngine: Plugin = {
    name: 'pagehand-write-bookmarklet',
    setup(b) {
      b.onEnd(async (r) => {
        if (!r.errors.length && r.outputFiles?.length) {
          const files = await writeBookmarklet(r.outputFiles, r.metafile!, base, root, version);
          engineFiles = files.engine;
          langFiles = files.langs;
        }
      });
    },
  };
  await (await context({ ...engine, plugins: [...(engine.plugins ?? []), onEngine] })).watch();
  const first = bookmarkletFirstOptions(base, ['pagehand-bookmarklet-engine.00000000.js'], version, {});
  const onFirst: Plugin = {
    name: 'pagehand-write-bookmarklet-first',
    setup(b) {
      b.onEnd(async (r) => {
        if (!r.errors.length && engineFiles) await build(bookmarkletFirstOptions(base, engineFiles, version, langFiles));
      });
    },
  };
  await (await context({ ...first, write: false, plugins: [...(first.plugins ?? []), onFirst] })).watch();
}
