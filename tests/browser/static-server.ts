/**
 * A tiny static file server on 127.0.0.1 for fixture pages and the built bundle.
 * `origin` is http://127.0.0.1:PORT; `crossOrigin` is http://localhost:PORT — the same server
 * seen from another origin, for cross-origin iframe fixtures.
 */
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const roots: Record<string, string> = {
  '/fixtures/': join(root, 'tests/fixtures'),
  '/dist/': join(root, 'dist'),
};
const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

export interface StaticServer {
  origin: string;
  crossOrigin: string;
  close(): Promise<void>;
}

export async function startStaticServer(): Promise<StaticServer> {
  const gmStore = new Map<string, string>();
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    // /slow?ms=N&body=… answers after a delay: for settle and XHR fixtures.
    if (url.pathname === '/slow') {
      const ms = Math.min(Number(url.searchParams.get('ms') ?? 0), 10_000);
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
        res.end(url.searchParams.get('body') ?? '{}');
      }, ms);
      return;
    }
    // /__redirect?to=URL: a 302 there (a same-origin address that leads to another origin).
    if (url.pathname === '/__redirect') {
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/' });
      return void res.end();
    }
    // /__gm-store?key=K: GET / PUT / DELETE one value in memory, the same for both origins —
    // the userscript test's GM storage shim (same-origin requests, so a strict CSP allows them).
    if (url.pathname === '/__gm-store') {
      const key = url.searchParams.get('key') ?? '';
      // ?list=PREFIX: the keys that start with it (GM_listValues).
      const list = url.searchParams.get('list');
      if (list !== null) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify([...gmStore.keys()].filter((k) => k.startsWith(list))));
      }
      if (req.method === 'PUT') {
        let body = '';
        req.setEncoding('utf8');
        req.on('data', (d) => (body += d));
        req.on('end', () => {
          gmStore.set(key, body);
          res.writeHead(204).end();
        });
        return;
      }
      if (req.method === 'DELETE') {
        gmStore.delete(key);
        return void res.writeHead(204).end();
      }
      const value = gmStore.get(key);
      if (value === undefined) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      return void res.end(value);
    }
    const prefix = Object.keys(roots).find((p) => url.pathname.startsWith(p));
    if (!prefix) return void res.writeHead(404).end('not found');
    const file = normalize(join(roots[prefix]!, url.pathname.slice(prefix.length)));
    if (!file.startsWith(roots[prefix]!)) return void res.writeHead(403).end('forbidden');
    try {
      const body = await readFile(file);
      const headers: Record<string, string> = { 'content-type': types[extname(file)] ?? 'application/octet-stream' };
      // Fixtures of a page with a strict CSP: no inline or foreign script, no foreign connection.
      if (url.pathname.startsWith('/fixtures/delivery/csp/')) headers['content-security-policy'] = "script-src 'self'; connect-src 'self'";
      // Any page under a policy of the test's choosing: ?csp=POLICY.
      const csp = url.searchParams.get('csp');
      if (csp) headers['content-security-policy'] = csp;
      res.writeHead(200, headers);
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    crossOrigin: `http://localhost:${port}`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
