/**
 * Helpers for the screenshot tests: pages loaded with the bundle by URL (as a bookmarklet does,
 * so the screenshot module is found next to it), captures, pixel reads and image artifacts.
 */
import type { Page } from 'playwright-core';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { origin, type Session } from './harness';

export const SHOTS_DIR = fileURLToPath(new URL('../../.tmp/shots/', import.meta.url));

let count = 0;

/** Raw HTML served from the fixture origin, with dist/pagehand.js added by its URL. */
export async function openByUrl(session: Session, html: string): Promise<Page> {
  const page = await session.context.newPage();
  page.on('pageerror', (e) => console.error('[page error]', e.message));
  const url = `${origin()}/fixtures/__shot-${++count}.html`;
  await page.route(url, (r) => r.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
  await page.goto(url);
  await page.addScriptTag({ url: `${origin()}/dist/pagehand.js` });
  return page;
}

export interface Shot {
  dataUrl: string | null;
  reason?: string;
  width: number;
  height: number;
  ms: number;
  marks: Array<{ ref: string; x: number; y: number; width: number; height: number }>;
}

export function shoot(page: Page, options: Record<string, unknown> = {}): Promise<Shot> {
  return page.evaluate((o) => (window as any).pagehand.screenshot(o), options);
}

export type RGB = [number, number, number];

/** Decodes the image in the page and reads the pixels at the given image coordinates. */
export function pixels(page: Page, dataUrl: string, points: ReadonlyArray<[number, number]>): Promise<RGB[]> {
  return page.evaluate(
    async ([src, pts]) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.naturalWidth;
      c.height = img.naturalHeight;
      const ctx = c.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      return pts.map(([x, y]) => Array.from(ctx.getImageData(Math.round(x), Math.round(y), 1, 1).data.slice(0, 3)) as [number, number, number]);
    },
    [dataUrl, points] as const,
  );
}

export function hex(color: string): RGB {
  const n = parseInt(color.replace('#', ''), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** Largest channel difference (JPEG moves colours a little). */
export function distance(a: RGB, b: RGB): number {
  return Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]), Math.abs(a[2] - b[2]));
}

/** Writes a capture to .tmp/shots/NAME.jpg, and NAME.png (decoded in the page) for viewers that read only PNG. */
export async function saveShot(page: Page, name: string, dataUrl: string): Promise<string> {
  mkdirSync(SHOTS_DIR, { recursive: true });
  const file = `${SHOTS_DIR}${name}.jpg`;
  writeFileSync(file, Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'));
  const png = await page.evaluate(async (src) => {
    const img = new Image();
    img.src = src;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.naturalWidth;
    c.height = img.naturalHeight;
    c.getContext('2d')!.drawImage(img, 0, 0);
    return c.toDataURL('image/png');
  }, dataUrl);
  writeFileSync(`${SHOTS_DIR}${name}.png`, Buffer.from(png.slice(png.indexOf(',') + 1), 'base64'));
  return file;
}
