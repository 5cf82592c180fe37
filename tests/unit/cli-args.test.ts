import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pageUrl, parseArgs } from '../../cli/args';

describe('--url as an address bar reads it', () => {
  it('keeps http(s) and file URLs, and refuses other schemes', () => {
    expect(pageUrl('https://example.org/a?b=1', '/')).toBe('https://example.org/a?b=1');
    expect(pageUrl('HTTP://Example.org', '/')).toBe('http://example.org/');
    expect(pageUrl('file:///tmp/x.html', '/')).toBe('file:///tmp/x.html');
    expect(pageUrl('ftp://example.org/', '/')).toBeUndefined();
    expect(pageUrl('javascript:alert(1)', '/')).toBeUndefined();
  });

  it('opens a bare address over https, and this machine over http', () => {
    expect(pageUrl('example.org', '/')).toBe('https://example.org/');
    expect(pageUrl('shop.example.org/cart?x=1', '/')).toBe('https://shop.example.org/cart?x=1');
    expect(pageUrl('localhost:3000/admin', '/')).toBe('http://localhost:3000/admin');
    expect(pageUrl('127.0.0.1:8787/demo/', '/')).toBe('http://127.0.0.1:8787/demo/');
  });

  it('opens a local file that exists, relative to the working directory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pagehand-args-'));
    await writeFile(join(dir, 'page.html'), '<p>hi</p>');
    expect(pageUrl('page.html', dir)).toBe(pathToFileURL(join(dir, 'page.html')).href);
    expect(pageUrl(join(dir, 'page.html'), '/')).toBe(pathToFileURL(join(dir, 'page.html')).href);
    for (const missing of ['missing.html', './missing', '/nowhere/page.htm']) expect(pageUrl(missing, dir), missing).toBeUndefined();
    expect(pageUrl('notes', dir)).toBeUndefined();
    expect(pageUrl('two words.org', dir)).toBeUndefined();
  });

  it('parseArgs says what it accepts when --url is none of these', () => {
    expect(parseArgs(['run', '--url', 'example.org', 'task'])).toMatchObject({ kind: 'run', args: { url: 'https://example.org/' } });
    const bad = parseArgs(['run', '--url', 'nowhere', 'task'], {}, '/');
    expect(bad).toEqual({ kind: 'error', message: '--url must be an http(s) or file URL, an address like example.org, or a file that exists; got "nowhere"' });
  });
});

describe('--help and --version', () => {
  it('--version and -v answer wherever they stand, as --help does', () => {
    for (const argv of [['--version'], ['-v'], ['run', '--version'], ['run', '--url', 'example.org', '-v', 'task']]) {
      expect(parseArgs(argv).kind, argv.join(' ')).toBe('version');
    }
    expect(parseArgs(['run', '--url', 'example.org', '--help']).kind).toBe('help');
  });

  it('the help lists every event --json prints, the runner\'s own notes included', async () => {
    const { HELP } = await import('../../cli/args');
    const { jsonReporter } = await import('../../cli/report');
    const names: string[] = ['step', 'action', 'message', 'confirm', 'ask', 'error', 'pause', 'done', 'note', 'result'];
    const json = HELP.slice(HELP.indexOf('--json'), HELP.indexOf('--screenshot-dir'));
    for (const n of names) expect(json, n).toContain(n);
    // …and the reporter does print a note as such.
    const out: string[] = [];
    jsonReporter({ write: (s: string) => (out.push(s), true) } as never, { write: () => true } as never).note('dialog answered');
    expect(JSON.parse(out.join(''))).toMatchObject({ event: 'note', text: 'dialog answered' });
  });
});
