// @vitest-environment happy-dom
/**
 * Where the screenshot module is looked for: beside the bundle only when the running script is
 * one of pagehand's own files. Bundled by a site (the npm entry), the running script is the
 * site's app.js, and the module is not beside it — looking there was a 404 and text-only runs.
 */
import { describe, expect, it } from 'vitest';
import { isOurFile } from '../../client/page/screenshot';

describe('the screenshot module sits beside the bundle only for our own files', () => {
  it('knows pagehand.js, the embed agent chunk and the userscript, with a query or not', () => {
    for (const src of [
      'https://proxy.example/pagehand.js',
      'http://127.0.0.1:8787/pagehand-agent.3f9a1c2b.js',
      'https://cdn.example/x/pagehand.user.js?v=2',
      'https://proxy.example/pagehand.js#x',
    ]) {
      expect(isOurFile(src), src).toBe(true);
    }
  });

  it("a site's own bundle is not ours, whatever else it is called", () => {
    for (const src of [
      'https://shop.example/assets/app.js',
      'https://shop.example/assets/index-4f2a.js',
      'https://shop.example/pagehand/app.js',
      'https://shop.example/my-pagehand.js',
      '',
    ]) {
      expect(isOurFile(src), src).toBe(false);
    }
  });
});
