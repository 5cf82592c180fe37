import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../cli/args';
import { endpointError } from '../../cli/browser-endpoint';
import { endpointForDisplay, endpointKind } from '../../cli/endpoint-url';

describe('--browser-endpoint', () => {
  it('reads the protocol from the URL: ws:// a Playwright server, http:// and ws://…/devtools/browser/ the DevTools protocol', () => {
    expect(endpointKind('ws://grid:3000/pw')).toBe('playwright');
    expect(endpointKind('wss://grid/playwright?token=x')).toBe('playwright');
    expect(endpointKind('http://127.0.0.1:9222')).toBe('cdp');
    expect(endpointKind('ws://127.0.0.1:9222/devtools/browser/4f1c')).toBe('cdp');
    expect(endpointKind('ftp://x')).toBe('--browser-endpoint must be a ws(s):// or http(s):// URL, got "ftp://x"');
  });

  it('is a flag of run and test; --chromium and --profile do not go with it', () => {
    expect(parseArgs(['run', '--url', 'example.org', '--browser-endpoint', 'ws://h:3000/x', 'task'])).toMatchObject({
      kind: 'run',
      args: { browserEndpoint: 'ws://h:3000/x' },
    });
    expect(parseArgs(['run', '--url', 'example.org', '--browser-endpoint', 'ws://h/x', '--profile', 'p', 'task'])).toEqual({
      kind: 'error',
      message: '--profile goes with a browser the runner launches, not with --browser-endpoint',
    });
    expect(parseArgs(['run', '--url', 'example.org', '--browser-endpoint', 'http://h:9222', '--chromium', '/c', 'task'])).toEqual({
      kind: 'error',
      message: '--chromium names a browser to launch; with --browser-endpoint none is launched',
    });
    expect(parseArgs(['test', 'x.json', '--browser-endpoint', 'nope'])).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/^--browser-endpoint must be a URL/),
    });
  });

  it('a token in the URL is not shown', () => {
    expect(endpointForDisplay('wss://user:pw@grid.invalid/pw?token=SECRET')).toBe('wss://grid.invalid/pw');
    const said = endpointError(
      'playwright',
      'wss://grid.invalid/pw?token=SECRET',
      'browserType.connect: WebSocket error: wss://grid.invalid/pw?token=SECRET 401 Unauthorized',
    );
    expect(said).not.toContain('SECRET');
    expect(said).toBe(
      'wss://grid.invalid/pw does not answer as a Playwright browser server (WebSocket error: wss://grid.invalid/pw 401 Unauthorized). A Playwright browser server is reached with the ws:// address it prints; a Chromium with a remote debugging port with http://host:PORT.',
    );
  });

  it("another Playwright version on the server is said with both versions (Playwright's 428 answer)", () => {
    const message = [
      'browserType.connect: WebSocket error: ws://127.0.0.1:4000/abc 428 Precondition Required',
      '╔════════════════════════════════════════════════════╗',
      '║ Playwright version mismatch:                       ║',
      '║   - server version: v1.52                          ║',
      '║   - client version: v1.65                          ║',
    ].join('\n');
    expect(endpointError('playwright', 'ws://127.0.0.1:4000/abc', message)).toBe(
      "the browser server at ws://127.0.0.1:4000/abc runs Playwright 1.52, and pagehand's playwright-core is 1.65: a Playwright browser server must run the same minor version (start it with playwright-core 1.65).",
    );
  });
});
