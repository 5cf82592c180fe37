/**
 * The npm entry's published types (client/entries/npm-types.ts, declarations only) and the bundle's
 * page API must agree, both ways: a site that codes against the types gets what the
 * implementation returns. (They disagreed: `find()` was typed `{ text, more }` while it returns
 * elements and text lines, `act()` took no options, and `resolve("12")`, as the docs write it, did
 * not compile.) Checked by the TypeScript compiler.
 */
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const CONFORMANCE = `
import type { PagehandApi, PagehandLoaderApi } from '${ROOT}client/entries/npm-types';
import type { createPageApi } from '${ROOT}client/page/api';
type Impl = ReturnType<typeof createPageApi>;
type Published = Pick<PagehandApi, 'find' | 'act' | 'map' | 'mapAsync' | 'describe' | 'resolve' | 'screenshot' | 'version'>;
// What the bundle has is what the types promise…
export const toPublished = (api: Impl): Published => api;
// …and what the types promise for find() and act() is all the bundle gives.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const findSame: Same<ReturnType<Impl['find']>, ReturnType<PagehandApi['find']>> = true;
export const actArgs: Same<Parameters<Impl['act']>, Parameters<PagehandApi['act']>> = true;
// Refs as the docs and the map write them: strings and numbers both.
export const resolveArgs: Same<Parameters<Impl['resolve']>, Parameters<PagehandApi['resolve']>> = true;
export const loaderResolveArgs: Same<Parameters<PagehandLoaderApi['resolve']>, Parameters<PagehandApi['resolve']>> = true;
declare const api: PagehandApi;
export const docsRefs: Element[] = [api.resolve('12'), api.resolve(12), api.resolve('f2:7')];
// The panel's rating event, typed on window as the docs' recipe reads it.
addEventListener('pagehand:feedback', (e) => {
  const rating: 'up' | 'down' = e.detail.rating;
  const said: string[] = [e.detail.id, e.detail.task, e.detail.answer, rating];
  return said;
});
`;

describe('the npm types and the page API', () => {
  it('agree for find(), act() and the rest of the page API', { timeout: 60_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pagehand-types-'));
    try {
      const file = join(dir, 'conformance.ts');
      await writeFile(file, CONFORMANCE);
      const program = ts.createProgram([file], {
        noEmit: true,
        strict: true,
        skipLibCheck: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
        jsx: ts.JsxEmit.ReactJSX,
        jsxImportSource: 'preact',
        types: [],
      });
      const errors = ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(errors).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
