/**
 * The bundle targets Chrome 100, Firefox 100 and Safari 15 (build.ts). esbuild lowers syntax
 * for them but not library methods, so the client's source must not call methods those
 * browsers lack (a TypeError on a visitor's browser, not in our tests' Chromium).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const NEWER: Array<[RegExp, string]> = [
  [/\.at\(-?\d/, 'Array/String.prototype.at (Safari 15.4)'],
  [/\bObject\.hasOwn\(/, 'Object.hasOwn (Safari 15.4)'],
  [/\.findLast(Index)?\(/, 'findLast/findLastIndex (Firefox 104, Safari 15.4)'],
  [/\bstructuredClone\(/, 'structuredClone (Safari 15.4)'],
  [/\.toSorted\(|\.toReversed\(|\.toSpliced\(|\.with\(\d/, 'change-array-by-copy (2023)'],
  [/\bArray\.fromAsync\(/, 'Array.fromAsync (2024)'],
  [/\bObject\.groupBy\(|\bMap\.groupBy\(/, 'groupBy (2024)'],
];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    return d.isDirectory() ? files(p) : /\.tsx?$/.test(d.name) ? [p] : [];
  });
}

describe('client source', () => {
  it('calls no method newer than the browsers the bundle targets', () => {
    const found: string[] = [];
    for (const f of files('client')) {
      readFileSync(f, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/^\s*(\/\/|\*)/.test(line)) return;
          for (const [re, what] of NEWER) if (re.test(line)) found.push(`${f}:${i + 1}: ${what}`);
        });
    }
    expect(found).toEqual([]);
  });
});
