/** The workers project's output filter: exactly the known-harmless workerd messages go. */
import { describe, expect, it } from 'vitest';
import { installWorkerdLogFilter, workerdLogFilter } from './workerd-log-filter';

// As workerd 1.2026 writes them (one message per write, stack on the line below).
const BIN = '/repo/node_modules/@cloudflare/workerd-linux-64/bin/workerd';
const STACK = `stack: ${BIN}@51ccf21 ${BIN}@51cd135 ${BIN}@51bdf58`;
const CUT = `exception = kj/async-io.c++:60: disconnected: stream disconnected prematurely\n${STACK}\n`;
const REFUSED = `exception = kj/async-io-unix.c++:1538: disconnected: connect(): Connection refused\n${STACK}\n`;
const LOST_SOURCE = 'uncaught exception; source = Uncaught (in promise); stack = Error: Network connection lost.\n';
const LOST_EXCEPTION = `uncaught exception; exception = workerd/jsg/_virtual_includes/iterator/workerd/jsg/value.h:1480: disconnected: jsg.Error: Network connection lost.\n${STACK}\n`;

describe('workerdLogFilter', () => {
  it('drops a cut upstream stream with its stack', () => {
    const filter = workerdLogFilter();
    expect(filter(CUT)).toBe('');
    expect(filter(CUT)).toBe('');
  });

  it("drops a refused connect and workerd's one uncaught report of it", () => {
    const filter = workerdLogFilter();
    expect([REFUSED, LOST_SOURCE, LOST_EXCEPTION].map(filter)).toEqual(['', '', '']);
  });

  it('keeps a network-lost rejection that follows no refused connect: it may be our own', () => {
    const filter = workerdLogFilter();
    expect(filter(LOST_SOURCE)).toBe(LOST_SOURCE);
    expect(filter(LOST_EXCEPTION)).toBe(LOST_EXCEPTION);
  });

  it('drops one report per refused connect, and keeps a second one', () => {
    const filter = workerdLogFilter();
    const out = [REFUSED, LOST_SOURCE, LOST_EXCEPTION, LOST_SOURCE, LOST_EXCEPTION].map(filter);
    expect(out).toEqual(['', '', '', LOST_SOURCE, LOST_EXCEPTION]);
  });

  it('keeps a harmless-looking message whose stack comes from JavaScript', () => {
    const filter = workerdLogFilter();
    filter(REFUSED);
    const fromJs = `${LOST_SOURCE}    at async handler (file:///repo/server/app.ts:12:3)\n`;
    expect(filter(fromJs)).toBe(fromJs);
  });

  it('keeps real errors, other workerd exceptions and ordinary output, stack lines included', () => {
    const filter = workerdLogFilter();
    const kept = [
      'uncaught exception; source = Uncaught (in promise); stack = TypeError: reader.read is not a function\n    at pull (file:///repo/server/chat/openai-upstream.ts:130:40)\n',
      `exception = kj/async-io.c++:60: disconnected: operation timed out\n${STACK}\n`,
      `exception = workerd/io/worker.c++:2100: failed: jsg.TypeError: Cannot read properties of undefined\n${STACK}\n`,
      ' ✓  workers  tests/server/proxy.workers.test.ts (114 tests) 1824ms\n',
      '{"level":"error","msg":"unhandled error","detail":"Error: connect(): Connection refused"}\n',
    ];
    for (const text of kept) expect(filter(text)).toBe(text);
  });

  it('drops only the harmless message from a chunk that holds others', () => {
    const filter = workerdLogFilter();
    const before = 'stdout | a test\n';
    const after = 'exception = kj/async-io.c++:60: disconnected: something else\n';
    expect(filter(`${before}${CUT}${after}`)).toBe(`${before}${after}`);
  });
});

describe('installWorkerdLogFilter', () => {
  it('writes what is kept, honours the callback of what is dropped, and restores the stream', async () => {
    const written: unknown[] = [];
    const stream = {
      write(chunk: unknown, cb?: () => void): boolean {
        written.push(chunk);
        cb?.();
        return true;
      },
    } as unknown as NodeJS.WritableStream;
    const original = stream.write;
    const restore = installWorkerdLogFilter([stream]);

    stream.write('kept line\n');
    const bytes = new Uint8Array([1, 2]);
    stream.write(bytes);
    await new Promise<void>((resolve) => stream.write(CUT, () => resolve()));
    expect(written).toEqual(['kept line\n', bytes]);

    restore();
    expect(stream.write).toBe(original);
    stream.write(CUT);
    expect(written.at(-1)).toBe(CUT);
  });
});
