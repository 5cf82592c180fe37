/**
 * Serves generated pages from memory on 127.0.0.1 (a random free port). Unknown paths are 404;
 * nothing else is reachable, so the benchmark never touches the network.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PageServer {
  origin: string;
  close(): Promise<void>;
}

export async function servePages(pages: ReadonlyMap<string, string>): Promise<PageServer> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const body = pages.get(path);
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    // Scripts by their type: a module import refuses anything else.
    const type = path.endsWith('.js') ? 'text/javascript' : 'text/html';
    res.writeHead(200, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
