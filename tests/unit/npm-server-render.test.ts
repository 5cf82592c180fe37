/**
 * The npm entry imported where there is no browser — a framework rendering the site on the
 * server imports the same module graph — must load quietly and say so only when called.
 * Reads the built entry (`npm test` builds first), as a site's server would.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ENTRY = fileURLToPath(new URL('../../dist/esm/index.js', import.meta.url));

describe('the npm entry on a server', () => {
  it('imports without a window, defines nothing, and init/run/replay say they are for the browser', async () => {
    expect(existsSync(ENTRY), 'dist/esm/index.js is built by `npm run build`').toBe(true);
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined');
    const m = await import(ENTRY);
    expect(Object.keys(m).sort()).toEqual(['init', 'replay', 'run']);
    expect('pagehand' in globalThis).toBe(false);
    const browserOnly = /^pagehand runs in the browser: call run\(\) and init\(\) from code that runs there/;
    expect(() => m.init()).toThrow(browserOnly);
    expect(() => m.run('Find the contact email')).toThrow(browserOnly);
    expect(() => m.replay({ pagehand: 'recording', v: 1, task: 'x', steps: [] })).toThrow(browserOnly);
  });
});
