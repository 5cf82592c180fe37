/**
 * The Node entry: personal token, install page, bundle and userscript serving, demo pages, the
 * loopback rules — through startNodeServer, and once as the real `server/node.ts` process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http, { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, type LogEvent } from '../../server/config';
import { banner, startNodeServer, type NodeServer } from '../../server/node';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/fake-upstreams';
import { script } from './fakes/script';
import { KEYS, containsSecret } from './suite/fixtures';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let fake: FakeUpstreams;
let tmp: string;
const servers: NodeServer[] = [];

beforeAll(async () => {
  fake = await startFakeUpstreams();
  tmp = await mkdtemp(join(tmpdir(), 'pagehand-node-'));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await fake.close();
  await rm(tmp, { recursive: true, force: true });
});

const providerEnv = () => ({
  OPENAI_API_KEY: KEYS.openai,
  OPENAI_BASE_URL: fake.openaiBaseURL,
  GEMINI_API_KEY: KEYS.gemini,
  GEMINI_BASE_URL: fake.geminiBaseUrl,
  PAGEHAND_MODEL: 'gpt-test',
});

async function start(env: Record<string, string>, dist: { bundle?: string; userscript?: string } = {}, name = `s${servers.length}`) {
  const distDir = join(tmp, name, 'dist');
  await mkdir(distDir, { recursive: true });
  if (dist.bundle !== undefined) await writeFile(join(distDir, 'pagehand.js'), dist.bundle);
  if (dist.userscript !== undefined) await writeFile(join(distDir, 'pagehand.user.js'), dist.userscript);
  const logs: LogEvent[] = [];
  const server = await startNodeServer({
    env: { PORT: '0', ...env },
    distDir,
    tokenFile: join(tmp, name, 'token'),
    log: (e) => logs.push(e),
  });
  servers.push(server);
  return { server, logs, distDir };
}

/** GET with an explicit Host header (fetch does not let a caller choose it). */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

describe('npm start without PAGEHAND_SITES (personal token)', () => {
  let s: NodeServer;
  let page: string;

  beforeAll(async () => {
    ({ server: s } = await start(providerEnv(), { bundle: 'window.__bundle = 1;' }, 'personal'));
    page = await (await fetch(`${s.url}/`)).text();
  });

  it('listens on 127.0.0.1 and makes a personal token usable from any origin', async () => {
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(s.personalToken).toMatch(/^ph_[A-Za-z0-9_-]{32}$/);
    const client = new OpenAI({
      apiKey: s.personalToken!,
      baseURL: `${s.url}/v1`,
      maxRetries: 0,
      defaultHeaders: { Origin: 'https://any-site.test' },
    });
    const reply = await client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: script({ text: 'from npm start' }) }] });
    expect(reply.choices[0]!.message.content).toBe('from npm start');
  });

  it('keeps the same personal token across restarts', async () => {
    const again = await startNodeServer({
      env: { PORT: '0', ...providerEnv() },
      tokenFile: join(tmp, 'personal', 'token'),
      distDir: join(tmp, 'personal', 'dist'),
      log: () => {},
    });
    servers.push(again);
    expect(again.personalToken).toBe(s.personalToken);
  });

  it('shows the token, a bookmarklet without it that opens the broker window, the embed snippet and the providers', () => {
    expect(page).toContain(s.personalToken!);
    const href = /id="bookmarklet" href="([^"]+)"/.exec(page)?.[1];
    expect(href).toBeDefined();
    const code = decodeURI(
      href!
        .replace(/&#39;/g, "'")
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&'),
    );
    expect(code.startsWith('javascript:(()=>{')).toBe(true);
    expect(code).toContain(`o="${s.url}"`);
    // It holds no token: the broker window on the proxy's origin gives it a session token.
    expect(code).not.toContain(s.personalToken!);
    expect(code).not.toContain('/v1/session');
    expect(code).toContain("w.open(o+'/bookmarklet'");
    expect(code).toContain("u=o+'/pagehand-bookmarklet.js'");
    expect(code).toContain('s.dataset.pagehandToken=k');
    expect(code).not.toContain('pagehandProxy');
    expect(page).toMatch(/id="bookmarklet-help">The bookmarklet holds no token/);
    expect(page).toContain(`data-pagehand-token=&quot;${s.personalToken}&quot;`);
    // Beside that snippet: it is for this machine only, and how to make a site token instead.
    expect(page).toMatch(/id="embed-personal">[^<]*<strong>personal token<\/strong>[^]*only to try pagehand on pages on this machine/);
    const example = /<pre id="sites-example">([^<]*)<\/pre>/.exec(page)?.[1] ?? '';
    const json = JSON.parse(/PAGEHAND_SITES='(.*)'/.exec(example.replace(/&quot;/g, '"'))![1]!) as Array<{ token: string; origins: string[] }>;
    expect(json).toEqual([{ token: expect.stringMatching(/^ph_site_[A-Za-z0-9_-]{24}$/), origins: ['https://your-site.example'] }]);
    expect(json[0]!.token).not.toBe(s.personalToken);
    expect(page).toMatch(/OpenAI-compatible: <span class="ok">configured<\/span> \(custom base URL\)/);
    expect(page).toMatch(/Gemini: <span class="ok">configured<\/span>/);
    expect(page).toContain('<code>gpt-test</code>');
    expect(page).toContain('id="userscript-missing"');
    expect(page).not.toContain('id="no-bundle"');
  });

  it('never shows a key or an upstream URL on the page', () => {
    expect(containsSecret(page)).toBe(false);
    expect(page).not.toContain(fake.origin);
  });

  it('serves the built bundle at /pagehand.js', async () => {
    const res = await fetch(`${s.url}/pagehand.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(await res.text()).toBe('window.__bundle = 1;');
  });

  it('lists and serves the demo pages with the embed snippet filled in', async () => {
    const index = await (await fetch(`${s.url}/demo/`)).text();
    expect(index).toContain('/demo/contact-form.html');
    expect(index).toContain('/demo/todo-list.html');
    const demo = await (await fetch(`${s.url}/demo/contact-form.html`)).text();
    expect(demo).toContain('<form id="contact">');
    // A session token bound to this server's own origin, never the personal token.
    expect(demo).not.toContain(s.personalToken!);
    const session = new RegExp(
      `<script src="${s.url}/pagehand(?:-loader)?\\.js" data-pagehand-proxy="${s.url}" data-pagehand-token="(phs_[^"]+)" defer></script>`,
    ).exec(demo)?.[1];
    expect(session).toBeDefined();
    const config = (origin: string) => fetch(`${s.url}/v1/config`, { headers: { Authorization: `Bearer ${session}`, Origin: origin } });
    expect((await config(s.url)).status).toBe(200);
    expect((await config('https://any-site.test')).status).toBe(403);
    expect(demo).not.toContain('<!--pagehand-embed-->');
    const missing = await fetch(`${s.url}/demo/nope.html`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe('not_found');
    const sneaky = await fetch(`${s.url}/demo/..%2F..%2Fpackage.json`);
    expect(sneaky.status).toBe(404);
  });

  it('serves the bookmarklet bundle with its own origin written in, and 404 with a message when it is not built', async () => {
    expect((await fetch(`${s.url}/pagehand-bookmarklet.js`)).status).toBe(404);
    await writeFile(join(tmp, 'personal', 'dist', 'pagehand-bookmarklet.js'), 'const PROXY = "__PAGEHAND_PROXY__";');
    const res = await fetch(`${s.url}/pagehand-bookmarklet.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(await res.text()).toBe(`const PROXY = "${s.url}";`);
  });

  it('serves the broker window: no token in it, never framed', async () => {
    const res = await fetch(`${s.url}/bookmarklet`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("fetch('/bookmarklet/session'");
    expect(html).not.toContain(s.personalToken!);
    expect(res.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
    const framed = await fetch(`${s.url}/bookmarklet`, {
      headers: { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'iframe' },
    });
    expect(framed.status).toBe(403);
  });

  describe('POST /bookmarklet/session', () => {
    const mint = (body: string, headers: Record<string, string> = { 'Sec-Fetch-Site': 'same-origin', Origin: s.url }) =>
      fetch(`${s.url}/bookmarklet/session`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });

    it("mints, for the broker's same-origin request, a user session bound to the origin it names", async () => {
      const res = await mint('{"origin":"https://page.test"}');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const raw = await res.text();
      expect(raw).not.toContain(s.personalToken!);
      const j = JSON.parse(raw) as { token: string; origin: string; expiresAt: string };
      expect(j.origin).toBe('https://page.test');
      expect(JSON.parse(Buffer.from(j.token.slice(4).split('.')[0]!, 'base64url').toString())).toMatchObject({ o: 'https://page.test', u: 1 });
      const use = (origin: string) => fetch(`${s.url}/v1/config`, { headers: { Authorization: `Bearer ${j.token}`, Origin: origin } });
      expect((await use('https://page.test')).status).toBe(200);
      expect((await use('https://other.test')).status).toBe(403);
    });

    it("refuses every request but the broker window's own (403), with a message and no token", async () => {
      for (const headers of [
        { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://page.test' },
        { 'Sec-Fetch-Site': 'same-site', Origin: 'http://localhost:1' },
        { 'Sec-Fetch-Site': 'same-origin', Origin: 'https://page.test' },
        { 'Sec-Fetch-Site': 'same-origin' },
        { Origin: s.url },
        {} as Record<string, string>,
      ]) {
        const res = await mint('{"origin":"https://page.test"}', headers);
        expect(res.status, JSON.stringify(headers)).toBe(403);
        const raw = await res.text();
        expect(raw).not.toMatch(/phs_/);
        expect(raw).not.toContain(s.personalToken!);
        expect((JSON.parse(raw) as { error: { message: string } }).error.message).toBeTruthy();
      }
      const port = new URL(s.url).port;
      const rebound = await new Promise<number>((resolve, reject) => {
        const req = http.request(
          `${s.url}/bookmarklet/session`,
          {
            method: 'POST',
            headers: {
              host: `attacker.test:${port}`,
              'sec-fetch-site': 'same-origin',
              origin: `http://attacker.test:${port}`,
              'content-type': 'application/json',
            },
          },
          (r) => {
            r.resume();
            resolve(r.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end('{"origin":"https://page.test"}');
      });
      expect(rebound).toBe(403);
    });

    it('answers a malformed body with a 400 and a message, never a 500 or a token', async () => {
      for (const body of [
        '',
        'not json',
        '[]',
        'null',
        '{}',
        '{"origin":1}',
        '{"origin":"https://page.test","for":"user"}',
        '{"origin":"null"}',
        '{"origin":"file:///etc"}',
        '{"origin":"https://page.test/path"}',
        '{"origin":"javascript:alert(1)"}',
        `{"origin":"https://${'a'.repeat(3000)}.test"}`,
      ]) {
        const res = await mint(body);
        expect(res.status, body.slice(0, 60)).toBe(400);
        const raw = await res.text();
        expect(raw).not.toMatch(/phs_/);
        const e = JSON.parse(raw) as { error: { code: string; message: string } };
        expect(e.error.code).toBe('invalid_body');
        expect(e.error.message).toMatch(/\{"origin":"https:\/\/…"\}/);
      }
    });
  });

  it('shows the token only to a loopback Host (no DNS rebinding)', async () => {
    const port = new URL(s.url).port;
    const local = await getWithHost(`${s.url}/`, `localhost:${port}`);
    expect(local.status).toBe(200);
    for (const path of ['/', '/demo/contact-form.html']) {
      const rebound = await getWithHost(`${s.url}${path}`, `attacker.test:${port}`);
      expect(rebound.status).toBe(403);
      expect(rebound.body).not.toContain(s.personalToken!);
    }
  });
});

describe('what the Node entry says when things are missing', () => {
  it('serves /pagehand.js with a clear message when dist/ was not built, and says so on the page', async () => {
    const { server } = await start(providerEnv(), {}, 'nobundle');
    const res = await fetch(`${server.url}/pagehand.js`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('npm run build');
    expect(await (await fetch(`${server.url}/`)).text()).toContain('id="no-bundle"');
  });

  it('links the userscript once dist/pagehand.user.js exists', async () => {
    const { server } = await start(providerEnv(), { bundle: '', userscript: '// ==UserScript==' }, 'userscript');
    const page = await (await fetch(`${server.url}/`)).text();
    expect(page).toContain('href="/pagehand.user.js"');
    expect(await (await fetch(`${server.url}/pagehand.user.js`)).text()).toBe('// ==UserScript==');
  });

  it('answers 404 with a message for the userscript when it is not built', async () => {
    const { server } = await start(providerEnv(), { bundle: '' }, 'nouserscript');
    const res = await fetch(`${server.url}/pagehand.user.js`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('not built yet');
  });

  it('runs with no provider and says exactly what to set', async () => {
    const { server } = await start({}, { bundle: '' }, 'noprovider');
    const page = await (await fetch(`${server.url}/`)).text();
    const box = /<div class="warn" id="no-provider">([\s\S]*?)<\/div>/.exec(page)?.[1] ?? '';
    for (const name of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'PAGEHAND_MODEL', 'GEMINI_API_KEY']) expect(box).toContain(name);
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.personalToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(503);
    expect((await res.json()).error.code).toBe('provider_not_configured');
  });

  it('with a local server (a base URL, no key) and no PAGEHAND_MODEL, says to name a model it serves', async () => {
    const { server } = await start({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' }, { bundle: '' }, 'local-nomodel');
    expect(banner(server)).toMatch(/may not serve "gpt-4\.1-mini": set PAGEHAND_MODEL to a model it serves/);
    // Named, or with a key (OpenAI itself, OpenRouter): nothing to check.
    const { server: named } = await start({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', PAGEHAND_MODEL: 'llama3.1' }, { bundle: '' }, 'local-model');
    expect(banner(named)).toContain('default model: llama3.1');
    expect(banner(named)).not.toContain('PAGEHAND_MODEL');
    const { server: keyed } = await start({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', OPENAI_API_KEY: 'sk-test' }, { bundle: '' }, 'keyed');
    expect(banner(keyed)).not.toContain('PAGEHAND_MODEL');
  });

  it('with PAGEHAND_SITES, makes no personal token and shows none', async () => {
    const sites = JSON.stringify([{ token: 'tok-site-0123456789abcdef', origins: ['https://shop.test'] }]);
    const { server } = await start({ ...providerEnv(), PAGEHAND_SITES: sites }, { bundle: '' }, 'sites');
    expect(server.personalToken).toBeUndefined();
    const page = await (await fetch(`${server.url}/`)).text();
    expect(page).toContain('1 site token(s)');
    expect(page).not.toContain('tok-site-0123456789abcdef');
    expect(page).not.toContain('id="bookmarklet"');
    // No personal token, so no bookmarklet session: said, not a 500.
    const res = await fetch(`${server.url}/bookmarklet/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-origin', Origin: server.url },
      body: '{"origin":"https://shop.test"}',
    });
    expect(res.status).toBe(404);
    expect((await res.json()).error.message).toMatch(/no personal token/);
  });

  it('refuses to expose a personal token beyond loopback', async () => {
    await expect(startNodeServer({ env: { HOST: '0.0.0.0', PORT: '0' }, log: () => {} })).rejects.toThrow(ConfigError);
    await expect(startNodeServer({ env: { HOST: '0.0.0.0', PORT: '0' }, log: () => {} })).rejects.toThrow(/PAGEHAND_SITES/);
  });

  it('refuses a broken PAGEHAND_SITES or PORT with a message naming it', async () => {
    await expect(startNodeServer({ env: { PORT: '0', PAGEHAND_SITES: '{nope' }, log: () => {} })).rejects.toThrow(/PAGEHAND_SITES is not valid JSON/);
    await expect(startNodeServer({ env: { PORT: 'eighty' }, log: () => {} })).rejects.toThrow(/PORT/);
  });
});

describe('server/node.ts as a process', () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  });

  function run(env: Record<string, string>) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/node.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const out = { stdout: '', stderr: '' };
    child.stdout!.on('data', (d) => (out.stdout += d));
    child.stderr!.on('data', (d) => (out.stderr += d));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    return { child, out, exited };
  }

  async function waitFor(pred: () => boolean, what: string, exited: Promise<unknown>) {
    let done = false;
    void exited.then(() => (done = true));
    for (let i = 0; i < 300 && !pred(); i++) {
      if (done) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    if (!pred()) throw new Error(`timed out waiting for ${what}`);
  }

  it('prints where it runs and the personal token, never a key, also while serving', async () => {
    const { child, out, exited } = run({
      ...providerEnv(),
      // A token file of its own, so this test does not touch the developer's.
      PAGEHAND_TOKEN_FILE: join(tmp, 'process', 'token'),
    });
    await waitFor(() => /personal token/.test(out.stdout), 'the banner', exited);
    const url = /pagehand proxy on (http:\/\/127\.0\.0\.1:\d+)/.exec(out.stdout)?.[1];
    const token = /personal token \(any origin, loopback only\): (ph_\S+)/.exec(out.stdout)?.[1];
    expect(url).toBeDefined();
    expect(token).toBeDefined();
    for (const status of [undefined, 400, 401]) {
      const res = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ messages: [{ role: 'user', content: script({ status, echoKey: true }) }] }),
      });
      await res.text();
    }
    const all = () => out.stdout + out.stderr;
    await waitFor(() => (all().match(/"msg":"chat/g) ?? []).length >= 3, 'three log lines', exited);
    expect(containsSecret(all())).toBe(false);
    // The upstream echoed our key in its error; the log shows it redacted.
    expect(out.stderr).toContain('[redacted]');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('exits with a clear message when the port is taken (npm start run twice)', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const { port } = taken.address() as AddressInfo;
    try {
      const { out, exited } = run({ PORT: String(port), PAGEHAND_TOKEN_FILE: join(tmp, 'taken', 'token') });
      expect(await exited).toBe(1);
      expect(out.stderr.trim()).toBe(
        `pagehand: 127.0.0.1:${port} is already in use — is pagehand already running (open http://127.0.0.1:${port}/)? Stop it, or start on another port: PORT=8788 npm start`,
      );
    } finally {
      await new Promise<void>((r) => taken.close(() => r()));
    }
  });

  it('exits with a clear message instead of exposing a personal token on 0.0.0.0', async () => {
    const { out, exited } = run({ HOST: '0.0.0.0' });
    expect(await exited).toBe(1);
    expect(out.stderr).toMatch(/pagehand: HOST=0\.0\.0\.0 .*PAGEHAND_SITES/);
  });
});
