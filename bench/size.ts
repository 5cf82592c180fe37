/**
 * bench:size — what a page downloads for pagehand: the bundle (dist/pagehand.js) and every
 * chunk it loads lazily (dist/pagehand-screenshot.js), each minified as built and gzipped
 * (level 9), next to page-agent's shipped IIFE measured the same way in the same run. The bar
 * (issue 9): the whole first load ≤ 55 KB gzip, the overlay, the loop and the screenshots
 * included. When over, the biggest contributors come from esbuild's metafile: bytes each
 * module adds to the minified output, with their share of the gzip size (pro rata).
 *
 * Run: `npm run bench:size` (builds first). Writes bench/results/size.json.
 */
import { build, type Metafile } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { bundleOptions, screenshotModuleOptions } from '../build';
import { renderTable } from './lib/table';

const root = fileURLToPath(new URL('..', import.meta.url));
const BAR_GZIP_BYTES = 55_000;

interface Measured {
  file: string;
  role: string;
  minBytes: number;
  gzipBytes: number;
}

function measure(file: string, role: string): Measured | undefined {
  const path = `${root}${file}`;
  if (!existsSync(path)) return undefined;
  const buf = readFileSync(path);
  return { file, role, minBytes: buf.length, gzipBytes: gzipSync(buf, { level: 9 }).length };
}

const kb = (n: number): string => `${(n / 1000).toFixed(1)} KB`;
const kib = (n: number): string => `${(n / 1024).toFixed(1)} KiB`;

/** Where a module's bytes are counted: the package (node_modules) or the client folder. */
function group(input: string): string {
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (nm) return nm[1]!;
  const m = /^client\/([^/]+)(?:\/([^/]+))?(?:\/([^/]+))?/.exec(input);
  if (!m) return input;
  // client/page is large: one row per file or subfolder, and per file of its actions.
  if (m[1] === 'page' && m[2] === 'actions' && m[3]) return `client/page/actions/${m[3].replace(/\.tsx?$/, '')}`;
  if (m[1] === 'page' && m[2]) return `client/page/${m[2].replace(/\.tsx?$/, '')}`;
  return `client/${m[1]!.replace(/\.tsx?$/, '')}`;
}

async function contributors(entry: typeof bundleOptions): Promise<Array<{ module: string; minBytes: number }>> {
  const result = await build({ ...entry, write: false, metafile: true, logLevel: 'silent' });
  const meta: Metafile = result.metafile!;
  const bytes = new Map<string, number>();
  for (const out of Object.values(meta.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(out.inputs)) {
      const g = group(input);
      bytes.set(g, (bytes.get(g) ?? 0) + bytesInOutput);
    }
  }
  return [...bytes].map(([module, minBytes]) => ({ module, minBytes })).sort((a, b) => b.minBytes - a.minBytes);
}

async function main(): Promise<void> {
  const ours = [
    measure('dist/pagehand.js', 'bundle (first load)'),
    measure('dist/pagehand-screenshot.js', 'lazy chunk: screenshots'),
  ].filter((m): m is Measured => !!m);
  if (!ours.length) throw new Error('dist/pagehand.js is missing: run `npm run build` first (npm run bench:size does).');
  const total = { minBytes: ours.reduce((s, m) => s + m.minBytes, 0), gzipBytes: ours.reduce((s, m) => s + m.gzipBytes, 0) };
  const userscript = measure('dist/pagehand.user.js', 'userscript (bundle + GM transport)');
  const peer = measure('node_modules/page-agent/dist/iife/page-agent.demo.js', "page-agent's shipped IIFE");
  const peerVersion = (() => {
    try {
      return JSON.parse(readFileSync(`${root}node_modules/page-agent/package.json`, 'utf8')).version as string;
    } catch {
      return undefined;
    }
  })();

  const rows = [
    ...ours.map((m) => [`pagehand ${m.file}`, m.role, kib(m.minBytes), kb(m.gzipBytes)]),
    ['pagehand, whole first load', 'bundle + lazy chunks', kib(total.minBytes), kb(total.gzipBytes)],
    ...(userscript ? [[`pagehand ${userscript.file}`, userscript.role, kib(userscript.minBytes), kb(userscript.gzipBytes)]] : []),
    ...(peer ? [[`page-agent ${peerVersion ?? ''} ${peer.file.replace('node_modules/page-agent/', '')}`, peer.role, kib(peer.minBytes), kb(peer.gzipBytes)]] : []),
  ];
  console.log(renderTable([{ header: 'file' }, { header: 'what' }, { header: 'min', align: 'right' }, { header: 'gzip -9', align: 'right' }], rows));
  const within = total.gzipBytes <= BAR_GZIP_BYTES;
  console.log(`\nBar: whole first load ≤ ${kb(BAR_GZIP_BYTES)} gzip → ${kb(total.gzipBytes)}: ${within ? 'within' : `OVER by ${kb(total.gzipBytes - BAR_GZIP_BYTES)}`}.`);
  if (peer) console.log(`vs page-agent: ${(total.gzipBytes / peer.gzipBytes * 100).toFixed(0)}% of its gzip size, ${(total.minBytes / peer.minBytes * 100).toFixed(0)}% of its minified size.`);

  // Who the bytes are: the bundle and the lazy chunk, by module group, with a pro-rata gzip share.
  const parts: Array<{ output: string; modules: Array<{ module: string; minBytes: number; gzipShare: number }> }> = [];
  for (const [output, options, measured] of [
    ['dist/pagehand.js', bundleOptions, ours[0]],
    ['dist/pagehand-screenshot.js', screenshotModuleOptions, ours[1]],
  ] as const) {
    if (!measured) continue;
    const mods = await contributors(options);
    const sum = mods.reduce((s, m) => s + m.minBytes, 0) || 1;
    parts.push({ output, modules: mods.map((m) => ({ ...m, gzipShare: Math.round((m.minBytes / sum) * measured.gzipBytes) })) });
  }
  for (const p of parts) {
    console.log(`\n${p.output}: biggest contributors (bytes in the minified output; gzip share pro rata)`);
    console.log(
      renderTable(
        [{ header: 'module' }, { header: 'min', align: 'right' }, { header: '≈ gzip', align: 'right' }],
        p.modules.slice(0, 20).map((m) => [m.module, kib(m.minBytes), kb(m.gzipShare)]),
      ),
    );
  }

  await mkdir(`${root}bench/results`, { recursive: true });
  const out = {
    date: new Date().toISOString(),
    gzipLevel: 9,
    units: 'bytes',
    pagehand: { files: ours, firstLoad: total, userscript },
    pageAgent: peer ? { version: peerVersion, ...peer } : undefined,
    bar: { gzipBytes: BAR_GZIP_BYTES, within },
    contributors: parts.map((p) => ({ output: p.output, modules: p.modules })),
  };
  await writeFile(`${root}bench/results/size.json`, `${JSON.stringify(out, null, 2)}\n`);
  console.log('\nwrote bench/results/size.json');
}

await main();
