/**
 * Node entry (`npm start`): the proxy plus the install page, the bundle and the demo pages, on
 * 127.0.0.1:8787 by default (HOST / PORT to change).
 *
 * Without PAGEHAND_SITES it makes a personal token usable from any origin — safe only because
 * the server listens on loopback, so it refuses to start that way on any other interface.
 */
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';
import { createApp, type AppEnv } from './app';
import { ConfigError, DEFAULT_LIMITS, DEFAULT_OPENAI_MODELS, configFromEnv, trustProxyHops, type EnvVars, type Logger, type ProxyConfig } from './config';
import { consoleLogger } from './log';
import { loadPersonalToken } from './node/personal-token';
import { legacyTokenFile, personalTokenFile } from './node/token-file';
import { mountNodePages } from './node/pages';
import { parsePublicUrl } from './node/public-origin';
import { memoryRateLimiter } from './rate-limit/memory';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface NodeServerOptions {
  env?: NodeJS.ProcessEnv;
  distDir?: string;
  demoDir?: string;
  tokenFile?: string;
  log?: Logger;
  /** The app's clock in milliseconds (session expiry); default Date.now. For tests. */
  now?: () => number;
  /**
   * Chat requests a minute for the personal token (default 60, as a site without `rpm`). A
   * scripted model answers at once, so a test playing many runs would otherwise wait out 429s.
   */
  personalRpm?: number;
}

export interface NodeServer {
  url: string;
  /** PUBLIC_URL's origin, when set: what pages and snippets call this server. */
  publicUrl?: string;
  app: Hono<AppEnv>;
  config: ProxyConfig;
  personalToken?: string;
  close(): Promise<void>;
}

export function isLoopbackHost(host: string): boolean {
  return /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|::1|\[::1\])$/i.test(host);
}

/** The setting that puts the server behind a reverse proxy reached from elsewhere, if any. */
function beyondThisMachine(publicOrigin: string | undefined, trustProxyHops: number): string | undefined {
  if (publicOrigin && !isLoopbackHost(new URL(publicOrigin).hostname)) return `PUBLIC_URL=${publicOrigin}`;
  if (trustProxyHops > 0) return `TRUST_PROXY=${trustProxyHops}`;
  return undefined;
}

/**
 * Builds and starts the Node server. Throws ConfigError for settings a human must fix.
 *
 * @example
 * const server = await startNodeServer({ env: { ...process.env, PORT: '0' } });
 * console.log(server.url, server.personalToken);
 */
export async function startNodeServer(options: NodeServerOptions = {}): Promise<NodeServer> {
  const env = options.env ?? process.env;
  const host = env.HOST?.trim() || '127.0.0.1';
  const portText = env.PORT?.trim() || '8787';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT must be a port number, got "${portText}"`);

  const publicUrl = parsePublicUrl(env.PUBLIC_URL);
  if (publicUrl.error) throw new ConfigError(publicUrl.error);

  let personalToken: string | undefined;
  if (!env.PAGEHAND_SITES?.trim()) {
    if (!isLoopbackHost(host)) {
      throw new ConfigError(
        `HOST=${host} exposes the proxy beyond this machine: set PAGEHAND_SITES (tokens bound to origins) first; ` +
          'the personal any-origin token is only made for a loopback HOST.',
      );
    }
    // Behind a reverse proxy the server listens on loopback, yet its pages (the install page with
    // the personal token, demo pages minting session tokens from it) would reach whoever the
    // proxy serves: the operator's PUBLIC_URL or TRUST_PROXY says so.
    const exposedBy = beyondThisMachine(publicUrl.origin, trustProxyHops(env as EnvVars));
    if (exposedBy) {
      throw new ConfigError(
        `${exposedBy} says browsers reach this proxy from beyond this machine: set PAGEHAND_SITES (tokens bound to origins) first; ` +
          'the personal any-origin token is only made for a proxy reached on this machine.',
      );
    }
    personalToken = await loadPersonalToken(options.tokenFile ?? personalTokenFile(env), options.tokenFile ? undefined : legacyTokenFile(ROOT));
  }

  const config = configFromEnv(env as EnvVars, {
    rateLimiter: memoryRateLimiter(),
    now: options.now,
    log: options.log ?? consoleLogger,
    // Every client of a loopback personal token is this machine: a per-client limit below the
    // token's own would only slow the one user down.
    fallbackSites: personalToken
      ? [{ token: personalToken, origins: ['*'], rpm: options.personalRpm, clientRpm: options.personalRpm ?? DEFAULT_LIMITS.defaultRpm }]
      : undefined,
  });
  const app = createApp(config);
  mountNodePages(app, {
    config,
    publicUrl: publicUrl.origin,
    distDir: options.distDir ?? `${ROOT}dist`,
    demoDir: options.demoDir ?? `${ROOT}server/demo`,
    personalToken,
  });

  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: host, port }, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    publicUrl: publicUrl.origin,
    app,
    config,
    personalToken,
    close: () =>
      new Promise<void>((resolve) => {
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** What `npm start` prints: where, which providers, the token — never a key. */
export function banner(s: NodeServer): string {
  const p = s.config.providers;
  const lines = [
    `pagehand proxy on ${s.url}`,
    `  install page:  ${s.url}/`,
    ...(s.publicUrl ? [`  public URL:    ${s.publicUrl} (PUBLIC_URL: what snippets and the userscript name)`] : []),
    `  providers:     OpenAI-compatible ${p.openai ? 'configured' : 'not configured'}, Gemini ${p.gemini ? 'configured' : 'not configured'}`,
  ];
  if (!p.openai && !p.gemini) {
    lines.push('  no provider:   set OPENAI_API_KEY, or OPENAI_BASE_URL (+ PAGEHAND_MODEL) for a local server, or GEMINI_API_KEY');
  } else {
    lines.push(`  default model: ${s.config.defaultModel ?? '(none)'}`);
    // A local server (a base URL, no key) serves its own names: OpenAI's default would fail at the first task.
    const model = s.config.defaultModel;
    if (p.openai?.baseURL && p.openai.apiKey === 'no-key' && model && DEFAULT_OPENAI_MODELS.includes(model)) {
      lines.push(
        `  check:         a server at OPENAI_BASE_URL may not serve "${model}": set PAGEHAND_MODEL to a model it serves (PAGEHAND_MODEL=llama3.1 npm start)`,
      );
    }
  }
  lines.push(
    s.personalToken ? `  personal token (any origin, loopback only): ${s.personalToken}` : `  sites:         ${s.config.sites.length} from PAGEHAND_SITES`,
  );
  return lines.join('\n');
}

/** A listen failure a user can fix, said in one sentence (else undefined). */
function listenProblem(e: unknown, env: NodeJS.ProcessEnv): string | undefined {
  const err = e as NodeJS.ErrnoException & { address?: string; port?: number };
  const where = `${err.address ?? env.HOST ?? '127.0.0.1'}:${err.port ?? env.PORT ?? 8787}`;
  if (err?.code === 'EADDRINUSE') {
    return `${where} is already in use — is pagehand already running (open http://${where}/)? Stop it, or start on another port: PORT=8788 npm start`;
  }
  if (err?.code === 'EACCES') return `no permission to listen on ${where}: choose a port above 1023 (PORT=8788 npm start)`;
  if (err?.code === 'EADDRNOTAVAIL') return `HOST=${env.HOST ?? ''} is not an address of this machine`;
  return undefined;
}

async function main(): Promise<void> {
  try {
    const server = await startNodeServer();
    console.log(banner(server));
    const stop = () => void server.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } catch (e) {
    const why = e instanceof ConfigError ? e.message : listenProblem(e, process.env);
    if (why) {
      console.error(`pagehand: ${why}`);
      process.exit(1);
    }
    throw e;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) void main();
