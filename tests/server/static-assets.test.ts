/**
 * server/node/static-assets.ts on a real Hono app over real HTTP: what each built file is sent
 * with (encoding by Accept-Encoding, caching by kind, ETag and 304), that compressed bodies
 * decode with Node's zlib to the very bytes on disk, that a file is compressed once per version
 * (not per request) and a rebuilt one is served at once, and that it serves nothing else.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogEvent } from '../../server/config';
import { cacheControlFor, matchesEtag, pickEncoding, staticAssets } from '../../server/node/static-assets';

/** Script-like text (compresses as real bundles do) with random parts (no two runs alike). */
const script = (kb: number): Buffer => {
  const parts: string[] = [];
  for (let i = 0; parts.join('').length < kb * 1024; i++)
    parts.push(`function f${i}(a,b){return a.querySelector("[data-ref='${randomBytes(3).toString('hex')}']")??b}\n`);
  return Buffer.from(parts.join(''));
};

const CHUNK = 'pagehand-agent.0123abcd.js';
let dir: string;
let base: string;
let server: ReturnType<typeof serve>;
const logs: LogEvent[] = [];
const files: Record<string, Buffer> = {};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pagehand-static-'));
  for (const [name, kb] of [
    ['pagehand.js', 60],
    ['pagehand-loader.js', 8],
    [CHUNK, 60],
    ['pagehand-screenshot.js', 20],
    ['pagehand.user.js', 4],
    ['secret.txt', 1],
  ] as const) {
    files[name] = script(kb);
    await writeFile(join(dir, name), files[name]!);
  }
  const app = new Hono();
  app.get('*', staticAssets({ dir, log: (e) => logs.push(e) }));
  app.notFound((c) => c.json({ error: { code: 'not_found' } }, 404));
  server = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await rm(dir, { recursive: true, force: true });
});

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A raw HTTP GET (fetch would decode the body and hide Content-Encoding). */
function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('encodings', () => {
  it('br when offered (preferred over gzip), gzip when only that, the plain bytes otherwise: each decodes to the file', async () => {
    for (const name of ['pagehand.js', 'pagehand-loader.js', CHUNK, 'pagehand-screenshot.js']) {
      const file = files[name]!;
      const br = await get(`/${name}`, { 'Accept-Encoding': 'gzip, deflate, br' });
      expect(br.status, name).toBe(200);
      expect(br.headers['content-encoding'], name).toBe('br');
      expect(br.headers.vary).toBe('Accept-Encoding');
      expect(br.body.length).toBeLessThan(file.length / 2);
      expect(Number(br.headers['content-length'])).toBe(br.body.length);
      expect(brotliDecompressSync(br.body).equals(file), name).toBe(true);

      const gz = await get(`/${name}`, { 'Accept-Encoding': 'gzip' });
      expect(gz.headers['content-encoding'], name).toBe('gzip');
      expect(gunzipSync(gz.body).equals(file), name).toBe(true);

      const plain = await get(`/${name}`);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe('Accept-Encoding');
      expect(plain.body.equals(file), name).toBe(true);
      // Each representation has its own tag.
      expect(new Set([br.headers.etag, gz.headers.etag, plain.headers.etag]).size).toBe(3);
    }
  });

  it('reads q-values: a refused br means gzip, a refused both means the plain bytes', async () => {
    expect((await get('/pagehand.js', { 'Accept-Encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip');
    expect((await get('/pagehand.js', { 'Accept-Encoding': 'br;q=0, gzip;q=0' })).headers['content-encoding']).toBeUndefined();
    expect((await get('/pagehand.js', { 'Accept-Encoding': 'identity' })).headers['content-encoding']).toBeUndefined();
    expect(pickEncoding('gzip;q=1, br;q=0.5')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('*;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('')).toBe('identity');
    expect(pickEncoding('br;q=nonsense, gzip')).toBe('gzip');
  });
});

describe('caching', () => {
  it('the content-hashed agent chunk is immutable for a year; the loader lives five minutes; the fixed names are revalidated', async () => {
    expect((await get(`/${CHUNK}`)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/pagehand-loader.js')).headers['cache-control']).toBe('public, max-age=300');
    expect((await get('/pagehand.js')).headers['cache-control']).toBe('no-cache');
    expect((await get('/pagehand-screenshot.js')).headers['cache-control']).toBe('no-cache');
    expect(cacheControlFor('pagehand-agent.0123abcd.js.map')).toBeUndefined();
    expect(cacheControlFor('pagehand-agent.XYZ.js')).toBeUndefined();
  });

  it("the bookmarklet's content-hashed engine files are immutable; its first file is left to its own route (which writes the proxy's origin in)", () => {
    for (const f of ['pagehand-bookmarklet-engine.0123ABCD.js', 'pagehand-bookmarklet-on-demand.0123ABCD.js', 'pagehand-bookmarklet-chunk.0123ABCD.js'])
      expect(cacheControlFor(f), f).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('pagehand-bookmarklet.js')).toBeUndefined();
    expect(cacheControlFor('pagehand-bookmarklet.files.json')).toBeUndefined();
    expect(cacheControlFor('pagehand-bookmarklet-engine.js')).toBeUndefined();
  });

  it('answers If-None-Match with a 304 and no body, for its own tags (also weak, in a list, or *); another tag gets the file', async () => {
    const first = await get('/pagehand-loader.js', { 'Accept-Encoding': 'br' });
    const tag = first.headers.etag!;
    expect(tag).toMatch(/^"[A-Za-z0-9_-]+-br"$/);
    for (const inm of [tag, `W/${tag}`, `"other", ${tag}`, '*']) {
      const again = await get('/pagehand-loader.js', { 'Accept-Encoding': 'br', 'If-None-Match': inm });
      expect(again.status, inm).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBe(tag);
      expect(again.headers['cache-control']).toBe('public, max-age=300');
      expect(again.headers.vary).toBe('Accept-Encoding');
    }
    const stale = await get('/pagehand-loader.js', { 'Accept-Encoding': 'br', 'If-None-Match': '"not-this-one"' });
    expect(stale.status).toBe(200);
    expect(brotliDecompressSync(stale.body).equals(files['pagehand-loader.js']!)).toBe(true);
    expect(matchesEtag(undefined, ['"a"'])).toBe(false);
  });

  it('compresses a file once, not per request; a rebuilt file is served (and compressed) at once', async () => {
    const name = 'pagehand-screenshot.js';
    const compressed = () => logs.filter((e) => e.msg === 'static file compressed' && e.file === name).length;
    for (let i = 0; i < 5; i++) await get(`/${name}`, { 'Accept-Encoding': i % 2 ? 'gzip' : 'br' });
    // Once for this version of the file, whichever encodings were asked and how often.
    expect(compressed()).toBe(1);
    const oldTag = (await get(`/${name}`, { 'Accept-Encoding': 'br' })).headers.etag;

    const rebuilt = script(20);
    await writeFile(join(dir, name), rebuilt);
    const later = new Date(Date.now() + 5000);
    await utimes(join(dir, name), later, later);
    const fresh = await get(`/${name}`, { 'Accept-Encoding': 'br', 'If-None-Match': oldTag! });
    expect(fresh.status).toBe(200);
    expect(brotliDecompressSync(fresh.body).equals(rebuilt)).toBe(true);
    expect(fresh.headers.etag).not.toBe(oldTag);
    const event = logs.filter((e) => e.msg === 'static file compressed' && e.file === name).at(-1)!;
    expect(event).toMatchObject({ bytes: rebuilt.length, br: fresh.body.length });
  });
});

describe('what it serves', () => {
  it('HEAD gets the headers without the body', async () => {
    const head = await get('/pagehand-loader.js', { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers.etag).toMatch(/-br"$/);
    expect(head.body.length).toBe(0);
  });

  it('the script headers every file gets: type, CORS (a page on another origin imports the screenshot module), nosniff', async () => {
    const res = await get('/pagehand-screenshot.js');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('nothing else of the folder, whatever the path', async () => {
    for (const path of [
      '/secret.txt',
      '/pagehand.user.js',
      '/pagehand-agent.0123abcd.js/../secret.txt',
      '/..%2Fsecret.txt',
      '/pagehand-agent.0123abcd.jsx',
      '/dist/pagehand.js',
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.body.toString(), path).not.toContain('function f0');
    }
  });

  it('a file that is not built: a 404 that says what to do, cached by nobody', async () => {
    const missing = await get('/pagehand-agent.ffffffff.js');
    expect(missing.status).toBe(404);
    expect(missing.body.toString()).toContain('a newer build replaced it');
    expect(missing.headers['cache-control']).toBe('no-store');
    await rm(join(dir, 'pagehand.js'));
    const bundle = await get('/pagehand.js');
    expect(bundle.status).toBe(404);
    expect(bundle.body.toString()).toContain('npm run build');
  });
});
