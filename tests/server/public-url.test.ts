/**
 * Behind an HTTPS reverse proxy the request arrives as http://127.0.0.1:…, yet every snippet,
 * the demo pages and the served userscript must name the address browsers use: PUBLIC_URL, or
 * X-Forwarded-Proto/-Host — but those only with TRUST_PROXY, since anyone can send them.
 * Reached that way, the server is reached from beyond this machine: the personal any-origin
 * token (no PAGEHAND_SITES) must then neither be made nor shown.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../server/config';
import { startNodeServer, type NodeServer } from '../../server/node';
import { parsePublicUrl } from '../../server/node/public-origin';

let tmp: string;
const servers: NodeServer[] = [];
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'pagehand-public-'));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await rm(tmp, { recursive: true, force: true });
});

const USERSCRIPT =
  '// ==UserScript==\n// @connect __PAGEHAND_PROXY_HOST__\n// ==/UserScript==\nconst PAGEHAND_USERSCRIPT = { proxy: "__PAGEHAND_PROXY__", token: "__PAGEHAND_TOKEN__" };\n';

async function start(env: Record<string, string>): Promise<NodeServer> {
  const name = `s${servers.length}`;
  const distDir = join(tmp, name, 'dist');
  const demoDir = join(tmp, name, 'demo');
  await mkdir(distDir, { recursive: true });
  await mkdir(demoDir, { recursive: true });
  await writeFile(join(distDir, 'pagehand.js'), '/* bundle */');
  await writeFile(join(distDir, 'pagehand.user.js'), USERSCRIPT);
  await writeFile(join(demoDir, 'shop.html'), '<!doctype html><title>Shop</title><!--pagehand-embed-->');
  const server = await startNodeServer({ env: { PORT: '0', ...env }, distDir, demoDir, tokenFile: join(tmp, name, 'token'), log: () => {} });
  servers.push(server);
  return server;
}

/** Sites bound to origins: what a server behind a reverse proxy runs with. */
const SITES = { PAGEHAND_SITES: JSON.stringify([{ token: 'tok-site-0123456789abcdef', origins: ['https://shop.example.test'] }]) };
const NAV = { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };

/** Everything that names the server: install page, userscript, a demo page. */
async function pages(server: NodeServer, headers: Record<string, string> = {}): Promise<string> {
  const h = { ...NAV, ...headers };
  const bodies = await Promise.all(
    ['/', '/pagehand.user.js', '/demo/shop.html'].map(async (p) => {
      const res = await fetch(`${server.url}${p}`, { headers: h });
      expect(res.status, p).toBe(200);
      return res.text();
    }),
  );
  return bodies.join('\n');
}

describe('the address pages and snippets give', () => {
  it("is the request's own without PUBLIC_URL or TRUST_PROXY; forwarded headers are ignored then", async () => {
    const server = await start(SITES);
    const text = await pages(server, { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' });
    expect(text).toContain(server.url);
    expect(text).not.toContain(server.url.replace('http:', 'https:'));
    expect(text).not.toContain('evil.example');
  });

  it("is PUBLIC_URL wherever set: every snippet, the userscript's @connect and proxy, the demo page — https, never http", async () => {
    const server = await start({ ...SITES, PUBLIC_URL: 'https://agent.example.test/' });
    expect(server.publicUrl).toBe('https://agent.example.test');
    const text = await pages(server);
    expect(text).toContain('@connect agent.example.test');
    expect(text).toContain('proxy: "https://agent.example.test"');
    expect(text).toContain('https://agent.example.test/pagehand-loader.js');
    expect(text).not.toContain(server.url);
    expect(text).not.toMatch(/http:\/\/agent\.example\.test/);
  });

  it('follows X-Forwarded-Proto/-Host with TRUST_PROXY', async () => {
    const server = await start({ ...SITES, TRUST_PROXY: '1' });
    const text = await pages(server, { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'copilot.example.test' });
    expect(text).toContain('@connect copilot.example.test');
    expect(text).toContain('proxy: "https://copilot.example.test"');
    expect(text).not.toContain(server.url);
  });

  it('a PUBLIC_URL that is not an origin stops the start with a sentence saying what to set', async () => {
    await expect(start({ PUBLIC_URL: 'agent.example.test' })).rejects.toThrow(ConfigError);
    await expect(start({ PUBLIC_URL: 'https://agent.example.test/pagehand' })).rejects.toThrow(/without a path/);
    expect(parsePublicUrl('ftp://x.test').error).toMatch(/http\(s\)/);
    expect(parsePublicUrl(' ').origin).toBeUndefined();
  });
});

describe('the personal token behind a reverse proxy', () => {
  it('is never made for a server whose PUBLIC_URL or TRUST_PROXY says it is reached from elsewhere', async () => {
    await expect(start({ PUBLIC_URL: 'https://agent.example.test' })).rejects.toThrow(/PUBLIC_URL=https:\/\/agent\.example\.test says .*set PAGEHAND_SITES/);
    await expect(start({ TRUST_PROXY: '1' })).rejects.toThrow(/TRUST_PROXY=1 says .*set PAGEHAND_SITES/);
    await expect(start({ TRUST_PROXY: 'many' })).rejects.toThrow(/TRUST_PROXY must be the number/);
    // An HTTPS front on this machine itself is still this machine.
    const local = await start({ PUBLIC_URL: 'https://localhost:8443' });
    expect(local.personalToken).toBeTruthy();
    expect(await pages(local)).toContain('https://localhost:8443');
  });

  it('a page that shows it refuses a request a proxy forwarded, even with a loopback Host (what a proxy_pass to 127.0.0.1 sends)', async () => {
    const server = await start({});
    const token = server.personalToken!;
    const forwarded: Array<Record<string, string>> = [
      { 'x-forwarded-for': '203.0.113.9' },
      { forwarded: 'for=203.0.113.9;proto=https' },
      { 'x-real-ip': '203.0.113.9' },
      { via: '1.1 edge' },
      { 'x-forwarded-host': 'agent.example.test' },
      { 'x-forwarded-proto': 'https' },
    ];
    for (const headers of forwarded) {
      for (const path of ['/', '/pagehand.user.js', '/demo/', '/demo/shop.html']) {
        const res = await fetch(`${server.url}${path}`, { headers: { ...NAV, ...headers } });
        const body = await res.text();
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(body).toMatch(/came through a proxy/);
        expect(body).not.toContain(token);
        expect(body).not.toMatch(/ph_sess|data-pagehand-token/);
      }
    }
    // Straight from this machine it is still served.
    expect(await pages(server)).toContain(token);
  });
});
