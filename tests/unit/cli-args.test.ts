import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pageUrl, parseArgs } from '../../cli/args';
import { splitCredentials } from '../../cli/url-credentials';

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

  it("takes a user and password out of the URL, for that origin's HTTP authentication only", () => {
    const r = parseArgs(['run', '--url', 'https://ann:s%40fe%3Aword@staging.example/app?x=1', 'task']);
    expect(r).toMatchObject({
      kind: 'run',
      args: { url: 'https://staging.example/app?x=1', credentials: { username: 'ann', password: 's@fe:word', origin: 'https://staging.example' } },
    });
    expect(JSON.stringify(r)).not.toContain('s%40fe');
    expect(parseArgs(['run', '--url', 'localhost:3000/x', 'task'])).not.toHaveProperty('args.credentials');
    expect(splitCredentials('http://only-user@127.0.0.1:8080/')).toEqual({
      url: 'http://127.0.0.1:8080/',
      credentials: { username: 'only-user', password: '', origin: 'http://127.0.0.1:8080' },
    });
    expect(splitCredentials('http://a:%E0%A4%A@h.example/')).toMatchObject({ url: 'http://h.example/', credentials: { username: 'a', password: '%E0%A4%A' } });
  });

  it('a --max-steps that took the task as its value says so, not only that the task is missing', () => {
    expect(parseArgs(['run', '--url', 'example.org', '--max-steps', 'summarise'])).toEqual({
      kind: 'error',
      message: '--max-steps must be a positive whole number, got "summarise"',
    });
    expect(parseArgs(['run', '--url', 'example.org', '--max-steps', '3'])).toEqual({
      kind: 'error',
      message: 'missing the task: pagehand run --url URL "what to do"',
    });
  });
});

describe('--help and --version', () => {
  it('--version and -v answer wherever they stand, as --help does', () => {
    for (const argv of [['--version'], ['-v'], ['run', '--version'], ['run', '--url', 'example.org', '-v', 'task']]) {
      expect(parseArgs(argv).kind, argv.join(' ')).toBe('version');
    }
    expect(parseArgs(['run', '--url', 'example.org', '--help']).kind).toBe('help');
  });

  it("the help lists every event --json prints, the runner's own notes included", async () => {
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

describe('--secret and --schema', () => {
  const run = (argv: string[], env: Record<string, string> = {}, cwd = '/') => parseArgs(['run', '--url', 'example.org', ...argv, 'task'], env, cwd);

  it('--secret NAME=VALUE (repeatable), or NAME alone from $PAGEHAND_SECRET_NAME', () => {
    expect(run(['--secret', 'card=4111 1111 1111 1111', '--secret=pass-word=a=b c'])).toMatchObject({
      kind: 'run',
      args: { secrets: { card: '4111 1111 1111 1111', 'pass-word': 'a=b c' } },
    });
    expect(run(['--secret', 'api-key'], { PAGEHAND_SECRET_API_KEY: 'sk-123456' })).toMatchObject({
      kind: 'run',
      args: { secrets: { 'api-key': 'sk-123456' } },
    });
    expect(run([])).toMatchObject({ kind: 'run', args: { files: [] } });
    expect((run([]) as { args: object }).args).not.toHaveProperty('secrets');
  });

  it.each([
    [['--secret', 'card'], '--secret card: $PAGEHAND_SECRET_CARD is not set (or give --secret card=VALUE)'],
    [['--secret', 'card='], '--secret card= needs a value'],
    [['--secret', 'pin=12'], '--secret: the secret "pin" must have at least 3 characters (a shorter value cannot be hidden in page text)'],
    [['--secret', 'my card=4111'], `--secret: a secret's name must be a letter then letters, digits, _ or - (got "my card")`],
    [['--secret', 'a=xyz1', '--secret', 'a=xyz2'], '--secret a is given twice'],
  ])('%j → %s (and never the value)', (argv, message) => {
    const p = run(argv as string[]);
    expect(p).toEqual({ kind: 'error', message });
  });

  it('--schema FILE: read, parsed and checked', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pagehand-schema-'));
    const schema = { type: 'object', properties: { price: { type: 'number' } }, required: ['price'] };
    await writeFile(join(dir, 'answer.json'), JSON.stringify(schema));
    await writeFile(join(dir, 'bad.json'), '{ "type": ');
    await writeFile(join(dir, 'anyof.json'), JSON.stringify({ anyOf: [{ type: 'string' }] }));
    expect(run(['--schema', 'answer.json'], {}, dir)).toMatchObject({ kind: 'run', args: { schema } });
    expect(run(['--schema', 'none.json'], {}, dir)).toEqual({ kind: 'error', message: '--schema must name a JSON file that exists, got "none.json"' });
    expect(run(['--schema', 'bad.json'], {}, dir)).toMatchObject({ kind: 'error', message: expect.stringMatching(/^--schema bad\.json is not valid JSON: /) });
    expect(run(['--schema', 'anyof.json'], {}, dir)).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/^--schema anyof\.json: schema uses "anyOf", which pagehand does not check/),
    });
  });
});

describe('flags, as run and test read them', () => {
  const run = (...argv: string[]) => parseArgs(['run', '--url', 'example.org', ...argv]);

  it('--flag=value is --flag value, for a value and a repeatable flag; the last of a value flag counts', () => {
    expect(parseArgs(['run', '--url=example.org', '--max-steps=7', '--model', 'a', '--model=b', 'task'])).toMatchObject({
      kind: 'run',
      args: { url: 'https://example.org/', maxSteps: 7, model: 'b' },
    });
    expect(run('--secret=card=4111 1111', '--secret', 'pin=1234', 'task')).toMatchObject({
      kind: 'run',
      args: { secrets: { card: '4111 1111', pin: '1234' } },
    });
    expect(run('--json', '--headed', '--yes', 'two', 'words')).toMatchObject({ kind: 'run', args: { task: 'two words', json: true, headed: true, yes: true } });
  });

  it('everything after -- is the task, flag-like words too', () => {
    expect(run('--', '--json', '-x')).toMatchObject({ kind: 'run', args: { task: '--json -x', json: false } });
  });

  it.each([
    [['--nope', 'task'], 'unknown option --nope (see --help)'],
    [['--nope=1', 'task'], 'unknown option --nope=1 (see --help)'],
    [['--mode', 'model', 'task'], 'unknown option --mode (see --help)'],
    [['-x', 'task'], 'unknown option -x (see --help); a word that starts with - goes after --'],
    [['--json=1', 'task'], '--json takes no value'],
    [['--no-repair=', 'task'], '--no-repair takes no value'],
    [['--model=', 'task'], '--model needs a value'],
    [['--model', '', 'task'], '--model needs a value'],
    [['task', '--model'], '--model needs a value'],
    [['--model', '--json', 'task'], '--model needs a value (to give one that starts with -, write --model=-…)'],
    [['--model=', '--json=1', 'task'], '--model needs a value'],
  ])('run %j → %s', (argv, message) => {
    expect(run(...(argv as string[]))).toEqual({ kind: 'error', message });
  });

  it('pagehand test: the same forms, and a flag it does not know is an error', () => {
    const test = (...argv: string[]) => parseArgs(['test', ...argv], {}, '/');
    expect(test('tasks.json', '--url', 'example.org')).toEqual({ kind: 'error', message: 'unknown option --url for pagehand test (see --help)' });
    expect(test('tasks.json', '--nope=1')).toEqual({ kind: 'error', message: 'unknown option --nope=1 for pagehand test (see --help)' });
    expect(test('tasks.json', '--headed=yes')).toEqual({ kind: 'error', message: '--headed takes no value' });
    expect(test('tasks.json', '--workers')).toEqual({ kind: 'error', message: '--workers needs a value' });
    expect(test('--mode=nope', 'tasks.json')).toEqual({ kind: 'error', message: '--mode must be replay, repair or model, got "nope"' });
    expect(test('--shard=3/2', 'tasks.json')).toEqual({ kind: 'error', message: '--shard must be I/N with 1 ≤ I ≤ N, got "3/2"' });
    expect(test('a.json', 'b.json')).toEqual({ kind: 'error', message: 'pagehand test takes one tasks file, got 2: a.json b.json' });
  });

  it('pagehand test reads its flags in both forms', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pagehand-test-args-'));
    await writeFile(join(dir, 'tasks.json'), JSON.stringify([{ name: 'one', url: 'https://example.org/', task: 'Say hi' }]));
    const p = parseArgs(
      ['test', 'tasks.json', '--mode=model', '--workers', '2', '--shard=1/1', '--junit=out.xml', '--output', 'shots', '--yes', '--headed', '--model=m'],
      {},
      dir,
    );
    expect(p).toMatchObject({
      kind: 'test',
      args: {
        file: join(dir, 'tasks.json'),
        mode: 'model',
        workers: 2,
        shard: { index: 1, total: 1 },
        junit: join(dir, 'out.xml'),
        outputDir: join(dir, 'shots'),
        yes: true,
        headed: true,
        model: 'm',
        total: 1,
      },
    });
  });
});

describe('budgets and the verifying turn', () => {
  it('--max-cost takes dollars (a $ allowed), --max-tokens a whole number, --verify a flag; each reaches the run', () => {
    expect(parseArgs(['run', '--url', 'example.org', '--max-cost', '$0.05', '--max-tokens', '20000', '--verify', 'task'])).toMatchObject({
      kind: 'run',
      args: { maxCost: 0.05, maxTokens: 20000, verify: true },
    });
    const plain = parseArgs(['run', '--url', 'example.org', 'task']);
    expect(plain.kind === 'run' && [plain.args.maxCost, plain.args.maxTokens, plain.args.verify]).toEqual([undefined, undefined, undefined]);
  });

  it.each([['0'], ['0.00'], ['lots'], ['Infinity']])('--max-cost %s is refused with what it takes', (v) => {
    expect(parseArgs(['run', '--url', 'example.org', '--max-cost', v, 'task'])).toEqual({
      kind: 'error',
      message: `--max-cost must be an amount in US dollars above 0, like 0.05, got "${v}"`,
    });
  });

  it('--max-tokens 1.5 is refused', () => {
    expect(parseArgs(['run', '--url', 'example.org', '--max-tokens', '1.5', 'task'])).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/^--max-tokens must be/),
    });
  });
});
