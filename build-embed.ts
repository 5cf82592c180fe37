/**
 * How build.ts makes the embed's two files (build-time code for Node, in no bundle):
 *
 * dist/pagehand-agent.HASH.js (+ pagehand-agent-NAME.HASH.js) — the agent, as ES modules: the
 *   entry is client/loader/agent.ts — the panel (client/ui, Preact), which imports the engine
 *   (client/engine.ts: map, actions, loop, safety; pagehand-agent-engine.HASH.js) at once —
 *   with client/page/{hooks,network,settle}.ts replaced by stand-ins that re-export the loader's
 *   instances of them (what the loader's document-start hooks saw is what the agent reads;
 *   nothing is wrapped twice). Split by esbuild: the entry and what it imports (the panel) and
 *   the engine and what it imports load when the agent is needed, requested together; each
 *   feature the code `import()`s loads on its first use. Names carry esbuild's content hash, so
 *   they can be cached as immutable.
 * dist/pagehand-loader.js — the loader: client/loader/index.ts, given the entry's name, the
 *   panel's and the engine's other files, the launcher's share of the overlay's stylesheet and
 *   the version.
 *
 * The files of the build before the current one are kept in dist/ (a loader cached up to five
 * minutes may still ask for them; dist/pagehand-agent.files.json lists both); older ones are
 * removed.
 */
import { build, context, type BuildOptions, type BuildResult, type Metafile, type Plugin } from 'esbuild';
import { existsSync } from 'node:fs';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { AGENT_CHUNK_NAME } from './server/node/static-assets';
import { TOOL_LIST } from './client/agent/tools';
import { CSS } from './client/ui/styles';
import { launcherCss } from './client/loader/launcher-css';

export const LOADER_FILE = 'pagehand-loader.js';
/** The modules whose state the loader installs at document start and hands to the chunk. */
const SHARED = {
  hooks: 'client/page/dom/hooks.ts',
  network: 'client/page/settle/network.ts',
  settle: 'client/page/settle/settle.ts',
  animations: 'client/page/settle/animations.ts',
  webmcp: 'client/webmcp/polyfill.ts',
} as const;
const SHARED_FILES: readonly string[] = Object.values(SHARED);
const NAMESPACE = 'pagehand-loader-module';

export interface EmbedFiles {
  loader: string;
  /** The agent's entry file (the one the loader names). */
  agent: string;
  /** The files the entry imports (loaded with it). */
  eager: string[];
  /** The engine's files, fetched with the entry and imported by it at once. */
  engine: string[];
  /** Every file of the current agent build, the entry among them. */
  files: string[];
  /** The previous build's files, still in dist/ (a loader cached up to five minutes may still ask for them). */
  previous: string[];
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
      if (!SHARED_FILES.some((f) => resolve(file, '..', `${path}.ts`).endsWith(f))) {
        throw new Error(`${file} imports ${path}: the loader and the agent chunk would each have their own copy of it. Add it to SHARED in build-embed.ts.`);
      }
    }
  }
  return Object.values(r.metafile!.outputs)[0]!.exports;
}

/** In the chunk, the SHARED modules become re-exports of the loader's instances. */
function loaderModulesPlugin(root: string): Plugin {
  const targets = new Map<string, string>(Object.entries(SHARED).map(([n, f]) => [resolve(root, f), n]));
  const adopt = resolve(root, 'client/loader/adopt.ts');
  return {
    name: 'pagehand-loader-modules',
    setup(b) {
      b.onResolve({ filter: /(^|\/)(hooks|network|settle|animations|polyfill)$/ }, (args) => {
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

/**
 * The agent as ES modules with code splitting: its entry (the panel), the engine it imports at
 * once (map, actions, loop, safety), what each imports, plus one chunk per feature not every
 * run needs, which the agent `import()`s on first use (replay, WebMCP, uploads, drag, schema answers, …). The other bundles build the same
 * sources without splitting: there esbuild inlines those imports, one request, no waterfall.
 * Names carry esbuild's content hash, so each file can be cached as immutable.
 */
export function agentChunkOptions(base: BuildOptions, root: string): BuildOptions {
  return {
    ...base,
    entryPoints: ['client/loader/agent.ts'],
    outfile: undefined,
    outdir: 'dist',
    format: 'esm',
    splitting: true,
    entryNames: 'pagehand-agent.[hash]',
    chunkNames: 'pagehand-agent-[name].[hash]',
    // ES modules: the screenshot module is found beside the module that asks for it.
    define: Object.fromEntries(Object.entries(base.define ?? {}).filter(([k]) => k !== 'import.meta.url')),
    write: false,
    metafile: true,
    plugins: [...(base.plugins ?? []), loaderModulesPlugin(root)],
  };
}

/**
 * `preload`: the files the entry imports; `engine`: the engine's files. All are fetched ahead with
 * the entry when the launcher is pointed at, and requested with it when it is opened.
 */
export function loaderOptions(
  base: BuildOptions,
  agentFile: string,
  version: string,
  preload: readonly string[] = [],
  engine: readonly string[] = [],
): BuildOptions {
  return {
    ...base,
    entryPoints: ['client/loader/index.ts'],
    outfile: `dist/${LOADER_FILE}`,
    define: {
      ...base.define,
      __PAGEHAND_AGENT_FILE__: JSON.stringify(agentFile),
      __PAGEHAND_AGENT_IMPORTS__: JSON.stringify([...preload, ...engine]),
      __PAGEHAND_LAUNCHER_CSS__: JSON.stringify(launcherCss(CSS)),
      __PAGEHAND_VERSION__: JSON.stringify(version),
      __PAGEHAND_BUILTIN_TOOLS__: JSON.stringify(TOOL_LIST),
    },
  };
}

/** The files of one agent build: its entry first, then what the entry imports, then the on-demand chunks. */
export interface AgentBuild {
  entry: string;
  /** Loaded with the entry (its static imports, transitively): with it, the panel. */
  eager: string[];
  /** The engine (client/engine.ts, first, and what it imports that the panel does not): imported by the entry at once. */
  engine: string[];
  /** Loaded on first use of a feature (dynamic imports). */
  lazy: string[];
  /** Per file, the source files in it (for the bench and the build's checks). */
  inputs: Record<string, string[]>;
}

/**
 * Modules that must run in the entry, after ./take-handoff.ts: they keep built-ins as they find
 * them when they run (see ./handoff.ts NATIVES), so they must find the loader's. Code a shared
 * chunk holds runs before the entry's own, so they must not end up in one.
 */
const IN_ENTRY = ['client/loader/take-handoff.ts', 'client/ui/index.tsx', 'client/ui/trusted.ts'];

/** The engine's module (map, actions, loop, safety): the entry imports it at once, beside the panel. */
const ENGINE = 'client/engine.ts';

/** Which output is the entry (the panel), which load with it, which make the engine and which load on demand; checks IN_ENTRY. */
export function agentBuildOf(meta: Metafile): AgentBuild {
  const outputs = meta.outputs;
  const name = (path: string): string => path.replace(/^.*\//, '');
  const outputOf = (entryPoint: string): string => {
    const path = Object.keys(outputs).find((p) => outputs[p]!.entryPoint === entryPoint);
    if (!path) throw new Error(`agent build: no output for ${entryPoint}`);
    return path;
  };
  /** `path` and the outputs it imports statically, transitively. */
  const closure = (path: string, set = new Set<string>()): Set<string> => {
    set.add(path);
    for (const i of outputs[path]?.imports ?? []) {
      if (i.external || i.kind === 'dynamic-import') continue;
      const target = Object.keys(outputs).find((p) => p === i.path || p.endsWith(`/${name(i.path)}`));
      if (target && !set.has(target)) closure(target, set);
    }
    return set;
  };
  const entryPath = outputOf('client/loader/agent.ts');
  const panel = closure(entryPath);
  const engine = [...closure(outputOf(ENGINE))].filter((p) => !panel.has(p));
  const lazy = Object.keys(outputs).filter((p) => p.endsWith('.js') && !panel.has(p) && !engine.includes(p));
  const inputs: Record<string, string[]> = {};
  for (const [p, o] of Object.entries(outputs)) if (p.endsWith('.js')) inputs[name(p)] = Object.keys(o.inputs);
  const entry = name(entryPath);
  for (const m of IN_ENTRY) {
    if (!inputs[entry]!.includes(m))
      throw new Error(
        `agent build: ${m} must be in the entry chunk (it keeps built-ins as it finds them): something a lazy chunk imports pulled it into a shared chunk.`,
      );
  }
  // The panel loads first and alone: the engine's own modules must not be among its files.
  for (const p of panel) {
    if (inputs[name(p)]?.includes(ENGINE) || inputs[name(p)]?.includes('client/agent/api.ts'))
      throw new Error(`agent build: ${name(p)}, loaded with the panel, holds the engine: the panel (client/ui) imported something of it.`);
  }
  return { entry, eager: [...panel].filter((p) => p !== entryPath).map(name), engine: engine.map(name), lazy: lazy.map(name), inputs };
}

/** The current build's agent files (entry, what it imports, what loads on demand) and the build before's, for pruning, the Worker's assets and the bench. */
const MANIFEST = 'pagehand-agent.files.json';

/** Keeps the current build's files and the build before it in `dir`; removes older agent files. Returns the previous build's files. */
async function pruneChunks(dir: string, current: readonly string[], agent: AgentBuild): Promise<string[]> {
  let previous: string[] = [];
  try {
    const m = JSON.parse(await readFile(`${dir}/${MANIFEST}`, 'utf8')) as { current?: unknown };
    if (Array.isArray(m.current)) previous = m.current.filter((n): n is string => typeof n === 'string' && AGENT_CHUNK_NAME.test(n) && !current.includes(n));
  } catch {
    /* first build, or an older layout: nothing kept from before */
  }
  const keep = new Set([...current, ...previous]);
  for (const n of await readdir(dir)) if (AGENT_CHUNK_NAME.test(n) && !keep.has(n)) await rm(`${dir}/${n}`, { force: true });
  previous = previous.filter((n) => existsSync(`${dir}/${n}`));
  const { entry, eager, engine, lazy } = agent;
  await writeFile(`${dir}/${MANIFEST}`, `${JSON.stringify({ entry, eager, engine, lazy, current, previous }, null, 2)}\n`);
  return previous;
}

async function writeEmbed(result: BuildResult, base: BuildOptions, root: string, version: string): Promise<EmbedFiles> {
  const agent = agentBuildOf(result.metafile!);
  const files: string[] = [];
  for (const f of result.outputFiles!) {
    const n = f.path.replace(/^.*\//, '');
    if (!AGENT_CHUNK_NAME.test(n)) continue;
    await writeFile(`${root}dist/${n}`, f.contents);
    files.push(n);
  }
  await build(loaderOptions(base, agent.entry, version, agent.eager, agent.engine));
  return { loader: LOADER_FILE, agent: agent.entry, eager: agent.eager, engine: agent.engine, files, previous: await pruneChunks(`${root}dist`, files, agent) };
}

/** Builds the agent's files and the loader that names its entry. */
export async function buildEmbed(base: BuildOptions, root: string, version: string): Promise<EmbedFiles> {
  return writeEmbed(await build(agentChunkOptions(base, root)), base, root, version);
}

/** `--watch`: rebuilds both when the chunk's sources change, and the loader when its own do. */
export async function watchEmbed(base: BuildOptions, root: string, version: string): Promise<void> {
  let agent: EmbedFiles | undefined;
  const chunk = agentChunkOptions(base, root);
  const onChunk: Plugin = {
    name: 'pagehand-write-embed',
    setup(b) {
      b.onEnd(async (r) => {
        if (!r.errors.length && r.outputFiles?.length) agent = await writeEmbed(r, base, root, version);
      });
    },
  };
  await (await context({ ...chunk, plugins: [...(chunk.plugins ?? []), onChunk] })).watch();
  const loader = loaderOptions(base, 'pagehand-agent.00000000.js', version);
  const onLoader: Plugin = {
    name: 'pagehand-write-loader',
    setup(b) {
      b.onEnd(async (r) => {
        if (!r.errors.length && agent) await build(loaderOptions(base, agent.agent, version, agent.eager, agent.engine));
      });
    },
  };
  await (await context({ ...loader, write: false, plugins: [...(loader.plugins ?? []), onLoader] })).watch();
}
