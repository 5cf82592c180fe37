/**
 * `--browser-endpoint URL`: a browser that runs elsewhere (a grid, a container, a hosted
 * service) instead of a Chromium the runner launches. A Playwright browser server is reached
 * over its WebSocket (`ws://…`, chromium.connect); any other Chromium over the DevTools protocol
 * (`http://host:9222`, or its `ws://…/devtools/browser/…` address; chromium.connectOverCDP).
 * The runner only ever opens and closes its own contexts there: closing the connection leaves
 * the remote browser running. Failures are told in one sentence: not reachable, not the
 * protocol the URL says, another Playwright version.
 */
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { endpointForDisplay, endpointKind, type EndpointKind } from './endpoint-url';
import { CliError } from './preflight';
import { safeForTerminal } from './terminal-text';

/**
 * Why the connection failed, in the runner's words, from Playwright's error message (the
 * endpoint's address, which may carry a token, replaced by `shown`). Pure.
 */
export function endpointError(kind: EndpointKind, url: string, message: string): string {
  const shown = endpointForDisplay(url);
  const server = /server version:\s*v?([\d.]+)/i.exec(message)?.[1];
  const client = /client version:\s*v?([\d.]+)/i.exec(message)?.[1];
  if (/version mismatch/i.test(message) || (server && client))
    return `the browser server at ${shown} runs Playwright ${server ?? '(another version)'}, and pagehand's playwright-core is ${client ?? 'another'}: a Playwright browser server must run the same minor version (start it with playwright-core ${client ?? 'as pagehand has it'}).`;
  const first = safeForTerminal(
    message
      .split('\n')[0]!
      .replace(/^[\w.]+: /, '')
      .split(url)
      .join(shown),
  );
  if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ETIMEDOUT|ECONNRESET|socket hang up|Timeout \d+ms exceeded/i.test(first))
    return `could not reach the browser at ${shown} (${first}). Is it running, and reachable from this machine?`;
  if (kind === 'cdp')
    return `${shown} does not answer as Chromium's DevTools protocol (${first}). A Chromium started with --remote-debugging-port answers at http://host:PORT; a Playwright browser server is reached with the ws:// address it prints.`;
  return `${shown} does not answer as a Playwright browser server (${first}). A Playwright browser server is reached with the ws:// address it prints; a Chromium with a remote debugging port with http://host:PORT.`;
}

/** How long connecting may take (a grid may start a browser first). */
const CONNECT_MS = 60_000;

/** The remote browser, connected; the caller opens its own contexts there and closes them. */
export async function connectEndpoint(url: string): Promise<Browser> {
  const kind = endpointKind(url);
  if (kind !== 'playwright' && kind !== 'cdp') throw new CliError(kind);
  const shown = endpointForDisplay(url);
  let browser: Browser;
  try {
    browser = kind === 'cdp' ? await chromium.connectOverCDP(url, { timeout: CONNECT_MS }) : await chromium.connect(url, { timeout: CONNECT_MS });
  } catch (e) {
    throw new CliError(endpointError(kind, url, String((e as Error)?.message ?? e)));
  }
  if (browser.browserType().name() !== 'chromium') {
    await browser.close().catch(() => {});
    throw new CliError(`the browser at ${shown} is ${browser.browserType().name()}, not Chromium: pagehand runs in Chromium only.`);
  }
  return browser;
}

/**
 * What the runner asks of the remote Chromium that it cannot pass as a launch flag there: no
 * shared workers (one outlives the tab's reach, and what it sends no route of the tab sees:
 * cli/network-hold.ts). Checked in the run's own context before any page is opened.
 */
export async function checkRemoteContext(context: BrowserContext, url: string): Promise<void> {
  const page = context.pages()[0] ?? (await context.newPage());
  const shared = await page.evaluate('typeof SharedWorker').catch(() => 'unknown');
  if (shared !== 'undefined')
    throw new CliError(
      `the browser at ${endpointForDisplay(url)} allows shared workers, which would send what the run holds back around a risky step: start its Chromium with --disable-blink-features=SharedWorker (docs/runner.md).`,
    );
}
