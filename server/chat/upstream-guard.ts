/**
 * One upstream call's lifetime: a single AbortSignal that fires when the page disconnects or when
 * the upstream stays silent too long (no headers, or no chunk, within the timeout). It remembers
 * why it fired so errors map to the right answer (504 for a timeout).
 */
export type AbortCause = 'timeout' | 'client';

export class UpstreamGuard {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly onClientAbort = () => this.abort('client');
  cause: AbortCause | undefined;

  constructor(
    private readonly clientSignal: AbortSignal | undefined,
    private readonly timeoutMs: number,
  ) {
    if (clientSignal?.aborted) this.abort('client');
    else clientSignal?.addEventListener('abort', this.onClientAbort, { once: true });
    this.arm();
  }

  /** Pass to the SDK call. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.cause !== undefined;
  }

  /** (Re)starts the silence timer: call when waiting begins and after every chunk. */
  arm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.cause) return;
    this.timer = setTimeout(() => this.abort('timeout'), this.timeoutMs);
  }

  abort(cause: AbortCause): void {
    if (this.cause) return;
    this.cause = cause;
    this.controller.abort(new Error(cause === 'timeout' ? 'upstream timeout' : 'client disconnected'));
    this.dispose();
  }

  /** Releases the timer and the listener; call once the call is over. */
  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.clientSignal?.removeEventListener('abort', this.onClientAbort);
  }

  /** Resolves `p`, or rejects as soon as the guard fires (a stalled read never hangs us). */
  race<T>(p: Promise<T>): Promise<T> {
    if (this.controller.signal.aborted) return Promise.reject(this.controller.signal.reason);
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(this.controller.signal.reason);
      this.controller.signal.addEventListener('abort', onAbort, { once: true });
      p.then(
        (v) => {
          this.controller.signal.removeEventListener('abort', onAbort);
          resolve(v);
        },
        (e) => {
          this.controller.signal.removeEventListener('abort', onAbort);
          reject(e);
        },
      );
    });
  }
}
