/**
 * Keeps the `workers` project's output readable: drops the workerd log messages that its
 * deliberate network failures cause, and nothing else.
 *
 * vitest-pool-workers 0.15 runs workerd verbosely and writes each workerd log message to this
 * (the main vitest) process's stdout or stderr with one `write` call; its log handler cannot be
 * replaced from the config, so the filter sits on those two streams.
 *
 * Dropped, each only with `stack:` lines of native frames (a JavaScript stack keeps the message):
 * - `stream disconnected prematurely`: a fake upstream cut mid-stream on purpose;
 * - `connect(): Connection refused`: the deliberately unreachable upstream;
 * - one "Uncaught (in promise) … Network connection lost" report per refused connect: workerd
 *   logs it for a refused fetch even when JavaScript handles the rejection. Without a refused
 *   connect just before, the same report is kept: it may be a real unhandled rejection.
 */

const CUT = /^exception = kj\/async-io\.c\+\+:\d+: disconnected: stream disconnected prematurely$/;
const REFUSED = /^exception = kj\/async-io-unix\.c\+\+:\d+: disconnected: connect\(\): Connection refused$/;
const LOST_SOURCE = /^uncaught exception; source = Uncaught \(in promise\); stack = Error: Network connection lost\.$/;
const LOST_EXCEPTION = /^uncaught exception; exception = workerd\/jsg\/\S+: disconnected: jsg\.Error: Network connection lost\.$/;

/** workerd's unsymbolized frames: `binary@hex` (or bare hex) addresses, nothing from JavaScript. */
const NATIVE_STACK = /^stack:( (\S+@)?[0-9a-f]+)+$/;
/** A line that continues the message above it (a stack trace). */
const CONTINUATION = /^(stack: |\s)/;

/** Returns a function mapping each written chunk to what should still be written ('' = nothing). */
export function workerdLogFilter(): (chunk: string) => string {
  let refusedUnreported = 0; // refused connects whose "uncaught" report has not come yet
  let lostExceptionDue = false; // a dropped report's second half is next

  const drops = (head: string, rest: string[]): boolean => {
    if (!rest.every((l) => NATIVE_STACK.test(l.replace(/\r?\n$/, '')))) return false;
    if (CUT.test(head)) return true;
    if (REFUSED.test(head)) {
      refusedUnreported++;
      return true;
    }
    if (LOST_SOURCE.test(head) && refusedUnreported > 0) {
      refusedUnreported--;
      lostExceptionDue = true;
      return true;
    }
    if (LOST_EXCEPTION.test(head) && lostExceptionDue) {
      lostExceptionDue = false;
      return true;
    }
    return false;
  };

  return (chunk) => {
    const lines = chunk.match(/[^\n]*\n|[^\n]+$/g) ?? [];
    let out = '';
    for (let i = 0; i < lines.length;) {
      // One message: a head line and the continuation lines under it.
      let end = i + 1;
      while (end < lines.length && CONTINUATION.test(lines[end]!)) end++;
      const message = lines.slice(i, end);
      if (!drops(message[0]!.replace(/\r?\n$/, ''), message.slice(1))) out += message.join('');
      i = end;
    }
    return out;
  };
}

type Writable = Pick<NodeJS.WritableStream, 'write'>;

/**
 * Filters what is written to the given streams; returns the function that restores them.
 *
 * @example
 * const restore = installWorkerdLogFilter([process.stdout, process.stderr]);
 * // … run the workers project …
 * restore();
 */
export function installWorkerdLogFilter(streams: Writable[]): () => void {
  const filter = workerdLogFilter();
  const restores = streams.map((stream) => {
    const write = stream.write;
    stream.write = function (this: unknown, chunk: unknown, ...rest: unknown[]): boolean {
      if (typeof chunk !== 'string') return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
      const kept = filter(chunk);
      if (kept) return (write as (...a: unknown[]) => boolean).call(this, kept, ...rest);
      // Nothing left to write: still honour a write callback, as the stream would.
      const done = rest.find((a): a is () => void => typeof a === 'function');
      if (done) process.nextTick(done);
      return true;
    } as Writable['write'];
    return () => {
      stream.write = write;
    };
  });
  return () => restores.forEach((restore) => restore());
}
