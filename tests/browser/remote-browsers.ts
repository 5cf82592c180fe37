/**
 * Browsers the runner connects to instead of launching (`--browser-endpoint`): a Playwright
 * browser server (playwright-core's launchServer, as a grid runs it) and a Chromium started with
 * a DevTools port (`--remote-debugging-port=0` on 127.0.0.1, the port read from the
 * DevToolsActivePort file it writes). Both with the runner's own Chromium flags, as
 * docs/runner.md tells a grid to start them.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumArgs } from '../../cli/run';
import { CHROMIUM } from './runner-cli';

export interface RemoteBrowser {
  /** What --browser-endpoint is given. */
  endpoint: string;
  /** Whether the browser still answers (the runner must never close it). */
  alive(): Promise<boolean>;
  close(): Promise<void>;
}

export async function startBrowserServer(): Promise<RemoteBrowser> {
  const server = await chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: chromiumArgs() });
  const endpoint = server.wsEndpoint();
  return {
    endpoint,
    alive: async () => {
      const b = await chromium.connect(endpoint, { timeout: 10_000 }).catch(() => undefined);
      await b?.close();
      return !!b;
    },
    close: () => server.close(),
  };
}

/** `flags`: the Chromium flags besides the DevTools port and the profile (default the runner's). */
export async function startCdpChromium(flags: string[] = chromiumArgs()): Promise<RemoteBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'pagehand-cdp-'));
  const child = spawn(
    CHROMIUM,
    ['--headless=new', '--remote-debugging-port=0', '--remote-debugging-address=127.0.0.1', `--user-data-dir=${profile}`, ...flags, 'about:blank'],
    { stdio: 'ignore' },
  );
  let port: string | undefined;
  for (let i = 0; i < 300 && !port; i++) {
    port = (await readFile(join(profile, 'DevToolsActivePort'), 'utf8').catch(() => '')).split('\n')[0] || undefined;
    if (!port) await new Promise((r) => setTimeout(r, 100));
  }
  if (!port) {
    child.kill('SIGKILL');
    throw new Error('Chromium wrote no DevToolsActivePort');
  }
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    alive: async () => (await fetch(`${endpoint}/json/version`).catch(() => undefined))?.ok === true,
    close: async () => {
      child.kill('SIGKILL');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
      await rm(profile, { recursive: true, force: true });
    },
  };
}
