/**
 * Starts, once per run: a static server on 127.0.0.1 for fixtures and dist/, and one headless
 * Debian Chromium (through playwright-core) that every browser test file connects to.
 */
import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { startStaticServer, type StaticServer } from './static-server';
import { buildFixtureApps } from './build-fixtures';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let browser: BrowserServer | undefined;
let server: StaticServer | undefined;

export async function setup(project: TestProject): Promise<void> {
  await buildFixtureApps(); // React/Vue fixture apps for the action tests
  server = await startStaticServer();
  browser = await chromium.launchServer({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    host: '127.0.0.1',
  });
  project.provide('wsEndpoint', browser.wsEndpoint());
  project.provide('origin', server.origin);
  project.provide('crossOrigin', server.crossOrigin);
}

export async function teardown(): Promise<void> {
  await browser?.close();
  await server?.close();
}

declare module 'vitest' {
  export interface ProvidedContext {
    wsEndpoint: string;
    origin: string;
    crossOrigin: string;
  }
}
