import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { bundleOptions } from './build';
import { bookmarkletFirstOptions } from './build-bookmarklet';
const langs = { fr: 'x.js', de: 'y.js' } as Record<string, string>;
const r = await build({ ...bookmarkletFirstOptions(bundleOptions, ['e.js'], '0', langs), metafile: true, write: false, outfile: '/tmp/first.js' });
const out = Object.values(r.metafile!.outputs)[0]!;
console.log('total', out.bytes, 'gzip', gzipSync(r.outputFiles![0]!.contents, { level: 9 }).length);
for (const [k, v] of Object.entries(out.inputs).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput).slice(0, 32)) console.log(v.bytesInOutput, k);
