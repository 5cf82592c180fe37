/**
 * How build.ts makes the embed's two files (build-time code for Node, in no bundle):
 *
 * dist/pagehand-agent.HASH.js — the agent chunk: client/loader/agent.ts, i.e. the entry of
 *   pagehand.js, with client/page/{hooks,network,settle}.ts replaced by stand-ins that re-export
 *   the loader's instances of them (what the loader's document-start hooks saw is what the
 *   agent reads; nothing is wrapped twice). Named by the first 8 hex digits of the SHA-256 of
 *   its content, so it can be cached as immutable.
 * dist/pagehand-loader.js — the loader: client/loader/index.ts, given the chunk's name, the
 *   launcher's share of the overlay's stylesheet and the version.
 *
 * The chunk before the current one is kept in dist/ (a loader cached up to five minutes may
 * still ask for it); older ones are removed.
 */
import { build, context, type BuildOptions, type Plugin } from 'esbuild';
import { createHash } from 'node:crypto';
import { readdir, rm, stat, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { AGENT_CHUNK_NAME } from '../../server/node/static-assets';
import { TOOL_LIST } from '../agent/tools';
import { CSS } from '../ui/styles';
import { launcherCss } from './launcher-css';

export const LOADER_FILE = 'pagehand-loader.js';
/** The modules whose state the loader installs at document start and hands to the chunk. */
const SHARED = ['hooks', 'network', 'settle'] as const;
const NAMESPACE = 'pagehand-loader-module';

export interface EmbedFiles {
  loader: string;
  /** The current agent chunk's file name. */
  agent: string;
  /** The chunk before it, still in dist/ (if any). */
  previous?: string;
}

/**
 * The names a shared module exports (values only: types are gone from esbuild's output). It may
 * import only the other shared modules: state in any other module would be split between the
 * loader's copy and the chunk's.
 */
async function exportNames(file: string): Promise<string[]> {
  const r = await build({ entryPoints: [file], bundle: false, write: false, metafile: true, format: 'esm', logLevel: 'silent' });
  for (const input of Object.values(r.metafile!.inputs)) {
    for (const { path } of input.imports) {
      if (!(SHARED as readonly string[]).includes(path.replace(/^\.\//, ''))) {
        throw new Error(`${file} imports ${path}: the loader and the agent chunk would each have their own copy of it. Add it to SHARED in client/loader/build-options.ts.`);
      }
    }
  }
  return Object.values(r.metafile!.outputs)[0]!.exports;
}

/** In the chunk, `client/page/{hooks,network,settle}.ts` become re-exports of the loader's instances. */
function loaderModulesPlugin(root: string): Plugin {
  const targets = new Map<string, string>(SHARED.map((n) => [resolve(root, `client/page/${n}.ts`), n]));
  const adopt = resolve(root, 'client/loader/adopt.ts');
  return {
    name: 'pagehand-loader-modules',
    setup(b) {
      b.onResolve({ filter: /(^|\/)(hooks|network|settle)$/ }, (args) => {
        const file = resolve(args.resolveDir, `${args.path}.ts`);
        const name = targets.get(file);
        return name ? { path: file, namespace: NAMESPACE, pluginData: name } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: NAMESPACE }, async (args) => {
        const names = await exportNames(args.path);
        const contents = [
          `import { loaderModules } from ${JSON.stringify(adopt)};`,
          `const m = loaderModules().${args.pluginData as string};`,
          ...names.map((n) => `export const ${n} = m.${n};`),
        ].join('\n');
        return { contents, loader: 'js', resolveDir: root, watchFiles: [args.path] };
      });
    },
  };
}

export function agentChunkOptions(base: BuildOptions, root: string): BuildOptions {
  return {
    ...base,
    entryPoints: ['client/loader/agent.ts'],
    outfile: 'dist/pagehand-agent.js',
    write: false,
    plugins: [...(base.plugins ?? []), loaderModulesPlugin(root)],
  };
}

export function loaderOptions(base: BuildOptions, agentFile: string, version: string): BuildOptions {
  return {
    ...base,
    entryPoints: ['client/loader/index.ts'],
    outfile: `dist/${LOADER_FILE}`,
    define: {
      ...base.define,
      __PAGEHAND_AGENT_FILE__: JSON.stringify(agentFile),
      __PAGEHAND_LAUNCHER_CSS__: JSON.stringify(launcherCss(CSS)),
      __PAGEHAND_VERSION__: JSON.stringify(version),
      __PAGEHAND_BUILTIN_TOOLS__: JSON.stringify(TOOL_LIST),
    },
  };
}

export const agentFileName = (bytes: Uint8Array): string => `pagehand-agent.${createHash('sha256').update(bytes).digest('hex').slice(0, 8)}.js`;

/** Keeps `current` and the newest other chunk in `dir`; removes the rest. Returns the one kept beside it. */
async function pruneChunks(dir: string, current: string): Promise<string | undefined> {
  const others = await Promise.all(
    (await readdir(dir)).filter((n) => AGENT_CHUNK_NAME.test(n) && n !== current).map(async (n) => ({ n, t: (await stat(`${dir}/${n}`)).mtimeMs })),
  );
  others.sort((a, b) => b.t - a.t);
  for (const { n } of others.slice(1)) await rm(`${dir}/${n}`, { force: true });
  return others[0]?.n;
}

async function writeEmbed(bytes: Uint8Array, base: BuildOptions, root: string, version: string): Promise<EmbedFiles> {
  const agent = agentFileName(bytes);
  await writeFile(`${root}dist/${agent}`, bytes);
  await build(loaderOptions(base, agent, version));
  return { loader: LOADER_FILE, agent, previous: await pruneChunks(`${root}dist`, agent) };
}

/** Builds the chunk and the loader that names it. */
export async function buildEmbed(base: BuildOptions, root: string, version: string): Promise<EmbedFiles> {
  const out = await build(agentChunkOptions(base, root));
  return writeEmbed(out.outputFiles![0]!.contents, base, root, version);
}

/** `--watch`: rebuilds both when the chunk's sources change, and the loader when its own do. */
export async function watchEmbed(base: BuildOptions, root: string, version: string): Promise<void> {
  let agent: string | undefined;
  const chunk = agentChunkOptions(base, root);
  const onChunk: Plugin = {
    name: 'pagehand-write-embed',
    setup(b) {
      b.onEnd(async (r) => {
        if (!r.errors.length && r.outputFiles?.[0]) agent = (await writeEmbed(r.outputFiles[0].contents, base, root, version)).agent;
      });
    },
  };
  await (await context({ ...chunk, plugins: [...(chunk.plugins ?? []), onChunk] })).watch();
  const loader = loaderOptions(base, 'pagehand-agent.00000000.js', version);
  const onLoader: Plugin = {
    name: 'pagehand-write-loader',
    setup(b) {
      b.onEnd(async (r) => {
        if (!r.errors.length && agent) await build(loaderOptions(base, agent, version));
      });
    },
  };
  await (await context({ ...loader, write: false, plugins: [...(loader.plugins ?? []), onLoader] })).watch();
}
