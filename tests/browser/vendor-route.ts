/**
 * Serves icon libraries' own files (CSS, fonts, sprite images) under /vendor/<package>/<file>,
 * as a page links them, from the installed packages — so icon fixtures are drawn by the real
 * libraries. Only the packages listed here are served.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, normalize } from 'node:path';
import type { BrowserContext } from 'playwright-core';

const require = createRequire(import.meta.url);
const PACKAGES: Record<string, string> = {
  'jquery-ui': dirname(require.resolve('jquery-ui/package.json')),
  '@fortawesome/fontawesome-free': dirname(require.resolve('@fortawesome/fontawesome-free/package.json')),
  'bootstrap-icons': dirname(require.resolve('bootstrap-icons/package.json')),
  'material-symbols': dirname(require.resolve('material-symbols/package.json')),
};
const TYPES: Record<string, string> = { css: 'text/css', woff2: 'font/woff2', woff: 'font/woff', png: 'image/png' };

/** Routes `${origin}/vendor/**` in the context to the packages' files. */
export async function routeVendor(context: BrowserContext, origin: string): Promise<void> {
  await context.route(`${origin}/vendor/**`, async (route) => {
    const path = decodeURIComponent(new URL(route.request().url()).pathname.slice('/vendor/'.length));
    const pkg = Object.keys(PACKAGES).find((p) => path.startsWith(`${p}/`));
    const rest = pkg ? normalize(path.slice(pkg.length + 1)) : '';
    if (!pkg || rest.startsWith('..')) return route.fulfill({ status: 404, body: '' });
    try {
      const body = await readFile(join(PACKAGES[pkg]!, rest));
      await route.fulfill({ body, contentType: TYPES[rest.split('.').pop()!] ?? 'application/octet-stream' });
    } catch {
      await route.fulfill({ status: 404, body: '' });
    }
  });
}
