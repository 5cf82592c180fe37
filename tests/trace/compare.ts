/**
 * Compares two step-log trace directories (written with PAGEHAND_TRACE_DIR, see README.md):
 *
 *   npx tsx tests/trace/compare.ts BEFORE_DIR AFTER_DIR [--lines N]
 *
 * Prints the tests traced in only one of them, the tests whose traces differ (each with the
 * start of a unified diff, N lines, default 40) and a summary. Exit code 0 when every trace is
 * in both and identical, 1 on any difference, 2 on bad arguments.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function main(argv: string[]): number {
  const args = [...argv];
  let maxLines = 40;
  const at = args.indexOf('--lines');
  if (at >= 0) {
    maxLines = Number(args[at + 1]);
    args.splice(at, 2);
  }
  if (args.length !== 2 || !Number.isFinite(maxLines) || args.some((d) => !existsSync(d) || !statSync(d).isDirectory())) {
    console.error('usage: npx tsx tests/trace/compare.ts BEFORE_DIR AFTER_DIR [--lines N]');
    return 2;
  }
  const [a, b] = args as [string, string];
  const list = (d: string) => new Set(readdirSync(d).filter((f) => f.endsWith('.json')));
  const inA = list(a);
  const inB = list(b);
  const onlyA = [...inA].filter((f) => !inB.has(f)).sort();
  const onlyB = [...inB].filter((f) => !inA.has(f)).sort();
  const both = [...inA].filter((f) => inB.has(f)).sort();

  if (onlyA.length) console.log(`Only in ${a} (${onlyA.length}):\n${onlyA.map((f) => `  ${f}`).join('\n')}\n`);
  if (onlyB.length) console.log(`Only in ${b} (${onlyB.length}):\n${onlyB.map((f) => `  ${f}`).join('\n')}\n`);

  const differ: string[] = [];
  for (const f of both) {
    if (readFileSync(join(a, f)).equals(readFileSync(join(b, f)))) continue;
    differ.push(f);
    console.log(`Differs: ${f}`);
    console.log(indent(firstLines(unifiedDiff(join(a, f), join(b, f)), maxLines)));
    console.log('');
  }

  console.log(
    `Summary: ${both.length - differ.length} identical, ${differ.length} differ, ${onlyA.length} only in ${a}, ${onlyB.length} only in ${b} ` +
      `(${inA.size} vs ${inB.size} traces).`,
  );
  return differ.length || onlyA.length || onlyB.length ? 1 : 0;
}

/** `git diff --no-index` (git is there wherever this repository is): a unified diff, 3 lines of context. */
function unifiedDiff(fa: string, fb: string): string {
  const r = spawnSync('git', ['diff', '--no-index', '--no-color', '--unified=3', '--', fa, fb], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.error) return `(no diff shown: ${r.error.message})`;
  // Drop git's own header lines (diff --git, index); keep ---/+++ and the hunks.
  return r.stdout
    .split('\n')
    .filter((l) => !/^(diff --git|index |similarity|old mode|new mode)/.test(l))
    .join('\n');
}

function firstLines(text: string, n: number): string {
  const lines = text.replace(/\n$/, '').split('\n');
  return lines.length <= n ? lines.join('\n') : `${lines.slice(0, n).join('\n')}\n… (${lines.length - n} more diff lines)`;
}

const indent = (text: string): string =>
  text
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');

process.exitCode = main(process.argv.slice(2));
