/**
 * Browser-test helpers: a fresh context per test file on the shared Chromium, fixture pages
 * from the static server, and the built bundle injected either after load (bookmarklet) or at
 * document start (userscript / embed in <head>).
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundlePath = fileURLToPath(new URL('../../dist/pagehand.js', import.meta.url));
let bundle: string | undefined;
export function bundleSource(): string {
  return (bundle ??= readFileSync(bundlePath, 'utf8'));
}

export const origin = (): string => inject('origin');
export const crossOrigin = (): string => inject('crossOrigin');

export interface Session {
  browser: Browser;
  context: BrowserContext;
  close(): Promise<void>;
}

export async function connect(viewport = { width: 1280, height: 800 }): Promise<Session> {
  const browser = await chromium.connect(inject('wsEndpoint'));
  const context = await browser.newContext({ viewport });
  return {
    browser,
    context,
    close: async () => {
      await context.close();
      await browser.close();
    },
  };
}

export interface OpenOptions {
  /** Inject the bundle at document start (before page scripts), as a userscript would. */
  early?: boolean;
}

let inlineCount = 0;

/** Opens a fixture (path under tests/fixtures, or raw HTML) with the bundle injected. */
export async function open(session: Session, fixture: string, opts: OpenOptions = {}): Promise<Page> {
  const page = await session.context.newPage();
  page.on('pageerror', (e) => console.error('[page error]', e.message));
  if (opts.early) await page.addInitScript({ content: bundleSource() });
  if (fixture.trimStart().startsWith('<')) {
    // Served from a real URL (not setContent) so init scripts and same-origin rules apply.
    const url = `${origin()}/fixtures/__inline-${++inlineCount}.html`;
    await page.route(url, (r) => r.fulfill({ contentType: 'text/html; charset=utf-8', body: fixture }));
    await page.goto(url);
  } else {
    await page.goto(`${origin()}/fixtures/${fixture}`);
  }
  if (!opts.early) await page.addScriptTag({ content: bundleSource() });
  return page;
}

/** The map's text, from inside the page. */
export async function mapText(page: Page, options: Record<string, unknown> = {}): Promise<string> {
  return page.evaluate((o) => (window as any).pagehand.map(o).text, options);
}

/** The map's text split into: header, the page-content lines, and our count lines after them. */
export function splitMap(text: string): { header: string; body: string[]; notes: string[] } {
  const lines = text.split('\n');
  const start = lines.indexOf('⟪page content⟫');
  const end = lines.indexOf('⟪/page content⟫');
  return { header: lines[0]!, body: lines.slice(start + 1, end), notes: lines.slice(end + 1) };
}

/** The page-content lines of a fresh map. */
export async function mapBody(page: Page, options: Record<string, unknown> = {}): Promise<string[]> {
  return splitMap(await mapText(page, options)).body;
}

/**
 * One browser context for the whole test file: connects before the first test, closes after
 * the last. The returned object is filled in by `beforeAll`, so use it inside tests only.
 */
export function useSession(viewport?: { width: number; height: number }): Session {
  const session = {} as Session;
  beforeAll(async () => {
    Object.assign(session, await connect(viewport));
  });
  afterAll(async () => {
    await session.close?.();
  });
  return session;
}
