/**
 * The built client files, served the way a CDN serves them:
 *  - each compressed once per version of the file (brotli and gzip, at its first request, off
 *    the main thread), never per request; the client's `Accept-Encoding` picks br, then gzip,
 *    else the plain bytes (`Vary: Accept-Encoding`);
 *  - every response with an `ETag`, and `If-None-Match` answered with a 304;
 *  - the embed's agent chunks and the bookmarklet's engine under content-hashed names, cached
 *    for a year as immutable; the embed's loader for five minutes; pagehand.js and the
 *    screenshot module (fixed names old embed tags and the engines load) revalidated on every use.
 * A request costs a `stat`: a rebuilt file is served at once, and read and compressed again.
 *
 * @example
 * app.get('*', staticAssets({ dir: 'dist', log: config.log }));
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../config';

export interface StaticAssetsOptions {
  /** The build's output directory (dist/). */
  dir: string;
  /** Told once per compressed file version (sizes and time). */
  log?: Logger;
}

/** A content-hashed file of the embed's agent (its entry or one of its chunks: build.ts names them by their content, so they never change). */
export const AGENT_CHUNK_NAME = /^pagehand-agent(?:-[\w-]+)?\.[0-9A-Za-z]{8}\.js$/;

/** A content-hashed file of the bookmarklet's engine (build-bookmarklet.ts); its first file, pagehand-bookmarklet.js, has its own route (server/node/pages.ts). */
export const BOOKMARKLET_CHUNK_NAME = /^pagehand-bookmarklet-[\w-]+\.[0-9A-Za-z]{8}\.js$/;

/** The `Cache-Control` each served file gets (also written to the Workers `_headers` by build.ts). */
export function cacheControlFor(name: string): string | undefined {
  if (AGENT_CHUNK_NAME.test(name) || BOOKMARKLET_CHUNK_NAME.test(name)) return 'public, max-age=31536000, immutable';
  if (name === 'pagehand-loader.js') return 'public, max-age=300';
  if (name === 'pagehand.js' || name === 'pagehand-screenshot.js') return 'no-cache';
  return undefined;
}

export type Encoding = 'br' | 'gzip' | 'identity';

/** The encoding to send for an `Accept-Encoding` header: the highest q of br and gzip (br on a tie), else identity. */
export function pickEncoding(header: string | undefined): Encoding {
  const weights = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=(.*)$/.exec(p);
      // A q that is not a number refuses the coding rather than accepting it fully.
      if (m) q = /^\s*[0-9.]+\s*$/.test(m[1]!) ? Number(m[1]) : 0;
    }
    weights.set(name.trim(), Number.isFinite(q) ? q : 0);
  }
  const weight = (e: string): number => weights.get(e) ?? weights.get('*') ?? 0;
  const br = weight('br');
  const gz = weight('gzip');
  if (br > 0 && br >= gz) return 'br';
  if (gz > 0) return 'gzip';
  return 'identity';
}

interface Prepared {
  bodies: Record<Encoding, Uint8Array>;
  etags: Record<Encoding, string>;
}

/** True when an `If-None-Match` list names one of the current file's tags (weak comparison), or is `*`. */
export function matchesEtag(header: string | undefined, etags: readonly string[]): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const tags = header.split(',').map((t) => t.trim().replace(/^W\//, ''));
  return tags.some((t) => etags.includes(t));
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

async function prepare(bytes: Uint8Array): Promise<Prepared> {
  const [br, gz] = await Promise.all([
    brotli(bytes, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
      },
    }),
    gzipAsync(bytes, { level: 9 }),
  ]);
  const hash = createHash('sha256').update(bytes).digest('base64url').slice(0, 22);
  // An encoding that does not make the file smaller (a tiny file) is not offered.
  const pick = (b: Buffer): Uint8Array => (b.byteLength < bytes.byteLength ? new Uint8Array(b) : bytes);
  return {
    bodies: { identity: bytes, br: pick(br), gzip: pick(gz) },
    etags: { identity: `"${hash}"`, br: `"${hash}-br"`, gzip: `"${hash}-gz"` },
  };
}

export function staticAssets(opts: StaticAssetsOptions): MiddlewareHandler {
  /** Per file: the version it was prepared for (mtime and size) and the prepared bodies. */
  const cache = new Map<string, { version: string; prepared: Promise<Prepared> }>();

  async function load(name: string): Promise<Prepared | null> {
    const path = join(opts.dir, name);
    let version: string;
    try {
      const s = await stat(path);
      if (!s.isFile()) return null;
      version = `${s.mtimeMs}:${s.size}`;
    } catch {
      return null;
    }
    const hit = cache.get(name);
    if (hit?.version === version) return hit.prepared;
    const started = performance.now();
    const prepared = readFile(path).then(async (buf) => {
      const p = await prepare(new Uint8Array(buf));
      opts.log?.({
        level: 'info',
        msg: 'static file compressed',
        file: name,
        bytes: p.bodies.identity.byteLength,
        br: p.bodies.br.byteLength,
        gzip: p.bodies.gzip.byteLength,
        ms: Math.round(performance.now() - started),
      });
      return p;
    });
    cache.set(name, { version, prepared });
    // A read that failed (the file went away mid-build) is forgotten: the next request tries again.
    prepared.catch(() => {
      if (cache.get(name)?.prepared === prepared) cache.delete(name);
    });
    return prepared;
  }

  return async (c, next) => {
    const name = c.req.path.slice(1);
    const cacheControl = cacheControlFor(name);
    if (!cacheControl || (c.req.method !== 'GET' && c.req.method !== 'HEAD')) return next();
    const file = await load(name).catch(() => null);
    if (!file) {
      const hint = cacheControl.includes('immutable')
        ? `pagehand: dist/${name} is not there: a newer build replaced it. Reload the page.\n`
        : `pagehand: dist/${name} is not built yet. Run \`npm run build\` (or \`npm start\`, which builds first).\n`;
      return c.text(hint, 404, { 'Cache-Control': 'no-store' });
    }
    const encoding = pickEncoding(c.req.header('accept-encoding'));
    const sent: Encoding = file.bodies[encoding] === file.bodies.identity ? 'identity' : encoding;
    const headers: Record<string, string> = {
      'Cache-Control': cacheControl,
      ETag: file.etags[sent],
      Vary: 'Accept-Encoding',
      'Access-Control-Allow-Origin': '*',
    };
    if (matchesEtag(c.req.header('if-none-match'), Object.values(file.etags))) return c.body(null, 304, headers);
    const body = file.bodies[sent];
    return c.body(body as Uint8Array<ArrayBuffer>, 200, {
      ...headers,
      'Content-Type': 'text/javascript; charset=utf-8',
      'Content-Length': String(body.byteLength),
      'X-Content-Type-Options': 'nosniff',
      ...(sent === 'identity' ? {} : { 'Content-Encoding': sent }),
    });
  };
}
