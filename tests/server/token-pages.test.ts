/**
 * The routes that carry a token (install page, userscript, demo pages) on a real `npm start`
 * server with a personal token: each request is sent with exactly the headers a browser sends
 * for it. Another site's <script>, <iframe>, <object>, worker or fetch is refused with no token
 * in the answer; a top-level navigation, a same-origin request, a typed URL and curl are served.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenRequestVerdict } from '../../server/middleware/token-pages';
import { startNodeServer, type NodeServer } from '../../server/node';

let tmp: string;
let server: NodeServer;
let token: string;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'pagehand-token-pages-'));
  const distDir = join(tmp, 'dist');
  await mkdir(distDir, { recursive: true });
  await writeFile(join(distDir, 'pagehand.js'), 'window.__bundle = 1;');
  await writeFile(join(distDir, 'pagehand.user.js'), 'const PAGEHAND_USERSCRIPT = { proxy: "__PAGEHAND_PROXY__", token: "__PAGEHAND_TOKEN__" };');
  server = await startNodeServer({ env: { PORT: '0' }, distDir, tokenFile: join(tmp, 'token'), log: () => {} });
  token = server.personalToken!;
});
afterAll(async () => {
  await server?.close();
  await rm(tmp, { recursive: true, force: true });
});

/**
 * GET with exactly these headers: Node's fetch adds `Sec-Fetch-Mode: cors` to every request,
 * which would hide what a browser's navigation sends.
 */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
  });
}

const TOKEN_ROUTES = ['/', '/pagehand.user.js', '/demo/', '/demo/contact-form.html'];

/** The fetch-metadata headers Chromium sends, by what asked. */
const EVIL = 'https://evil.test/';
const REFUSED: Array<[string, Record<string, string>]> = [
  ['a cross-site <script src>', { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors', 'Sec-Fetch-Dest': 'script', Referer: EVIL }],
  // localhost:3000 and 127.0.0.1:8787 are different sites, but localhost:3000 and localhost:8787 are one.
  [
    'a same-site <script src> (another port of localhost)',
    { 'Sec-Fetch-Site': 'same-site', 'Sec-Fetch-Mode': 'no-cors', 'Sec-Fetch-Dest': 'script', Referer: 'http://localhost:3000/' },
  ],
  ['a cross-site <iframe>', { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'iframe', Referer: EVIL }],
  ['a same-site <iframe>', { 'Sec-Fetch-Site': 'same-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'iframe', Referer: 'http://localhost:3000/' }],
  ['a cross-site <frame>', { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'frame' }],
  ['a cross-site <object>', { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'object' }],
  ['a cross-site <embed>', { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'embed' }],
  ['a cross-site worker', { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'same-origin', 'Sec-Fetch-Dest': 'worker' }],
  ['a cross-site importScripts', { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors', 'Sec-Fetch-Dest': 'script' }],
  ['a cross-site fetch', { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'cors', 'Sec-Fetch-Dest': 'empty', Referer: EVIL, Origin: 'https://evil.test' }],
  ['a cross-site no-cors fetch', { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors', 'Sec-Fetch-Dest': 'empty' }],
  ['a document dest without navigate mode', { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors', 'Sec-Fetch-Dest': 'document' }],
  ['an old browser with a foreign Referer', { Referer: EVIL }],
  ['an old browser with a Referer of another port', { Referer: 'http://127.0.0.1:1/page.html' }],
];
const SERVED: Array<[string, Record<string, string>]> = [
  ['a cross-site top-level navigation (a link)', { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document', Referer: EVIL }],
  ['a same-site top-level navigation', { 'Sec-Fetch-Site': 'same-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document' }],
  ['a typed URL or bookmark', { 'Sec-Fetch-Site': 'none', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document' }],
  ["a userscript manager's own fetch", { 'Sec-Fetch-Site': 'none', 'Sec-Fetch-Mode': 'cors', 'Sec-Fetch-Dest': 'empty' }],
  ['a same-origin fetch', { 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'cors', 'Sec-Fetch-Dest': 'empty' }],
  ['a same-origin <iframe>', { 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'iframe' }],
  ['curl (no fetch metadata, no Referer)', {}],
];

describe('routes that carry the personal token', () => {
  for (const path of TOKEN_ROUTES) {
    for (const [what, headers] of REFUSED) {
      it(`${path}: refuses ${what} with 403 and no token`, async () => {
        const res = await get(`${server.url}${path}`, headers);
        const text = res.text;
        expect(res.status).toBe(403);
        expect(text).not.toContain(token);
        expect(text).not.toMatch(/phs_/);
        const body = JSON.parse(text) as { error: { code: string; message: string } };
        expect(body.error.code).toBe('cross_origin_refused');
        expect(body.error.message).toMatch(/served only to a page of this server, or when opened directly/);
        expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
      });
    }
    for (const [what, headers] of SERVED) {
      it(`${path}: serves ${what}`, async () => {
        const res = await get(`${server.url}${path}`, headers);
        expect(res.status).toBe(200);
        if (path !== '/demo/') expect(res.text).toMatch(path.startsWith('/demo/') ? /phs_/ : new RegExp(token));
        expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
      });
    }
  }

  it('forbids framing of the HTML pages; the userscript is JavaScript, not a page', async () => {
    for (const path of ['/', '/demo/', '/demo/contact-form.html']) {
      const res = await get(`${server.url}${path}`);
      expect(res.headers['content-security-policy'], path).toBe("frame-ancestors 'none'");
      expect(res.headers['x-frame-options'], path).toBe('DENY');
    }
    const us = await get(`${server.url}/pagehand.user.js`);
    expect(us.headers['content-type']).toMatch(/javascript/);
    expect(us.headers['content-security-policy']).toBeUndefined();
  });

  it('says which request was refused and why', async () => {
    const res = await get(`${server.url}/pagehand.user.js`, REFUSED[0]![1]);
    const { error } = JSON.parse(res.text) as { error: { message: string } };
    expect(error.message).toContain('the personal token');
    expect(error.message).toContain('cross-site, as a script');
  });

  it('still serves the bundle to any site (it carries no token), with nosniff', async () => {
    const res = await get(`${server.url}/pagehand.js`, REFUSED[0]![1]);
    expect(res.status).toBe(200);
    expect(res.text).toBe('window.__bundle = 1;');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('guards the pages of a server with PAGEHAND_SITES too', async () => {
    const sites = await startNodeServer({
      env: { PORT: '0', PAGEHAND_SITES: JSON.stringify([{ token: 'tok-site-0123456789abcdef', origins: ['https://shop.test'] }]) },
      distDir: join(tmp, 'dist'),
      log: () => {},
    });
    try {
      const res = await get(`${sites.url}/`, REFUSED[2]![1]);
      expect(res.status).toBe(403);
    } finally {
      await sites.close();
    }
  });
});

describe('tokenRequestVerdict (the rule itself)', () => {
  const own = 'http://127.0.0.1:8787';
  it('decides on fetch metadata when present, whatever the Referer says', () => {
    expect(tokenRequestVerdict({ site: 'same-origin', referer: EVIL }, own).ok).toBe(true);
    expect(tokenRequestVerdict({ site: 'none' }, own).ok).toBe(true);
    expect(tokenRequestVerdict({ site: 'cross-site', mode: 'navigate', dest: 'document' }, own).ok).toBe(true);
    expect(tokenRequestVerdict({ site: 'CROSS-SITE', mode: 'NAVIGATE', dest: 'DOCUMENT' }, own).ok).toBe(true);
    expect(tokenRequestVerdict({ site: 'cross-site', mode: 'navigate', dest: 'iframe', referer: `${own}/` }, own).ok).toBe(false);
    expect(tokenRequestVerdict({ site: 'same-site', mode: 'no-cors', dest: 'script' }, own).ok).toBe(false);
    expect(tokenRequestVerdict({ site: 'something-new' }, own).ok).toBe(false);
  });
  it('falls back to the Referer without fetch metadata', () => {
    expect(tokenRequestVerdict({}, own).ok).toBe(true);
    expect(tokenRequestVerdict({ referer: `${own}/demo/` }, own).ok).toBe(true);
    expect(tokenRequestVerdict({ referer: 'http://localhost:8787/' }, own).ok).toBe(false);
    expect(tokenRequestVerdict({ referer: 'not a url' }, own).ok).toBe(false);
  });
});
