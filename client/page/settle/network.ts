/**
 * Counts the page's in-flight fetch/XHR requests so settle detection can wait for them.
 *
 * Installed once at bundle load. Transparent by construction: `window.fetch` is replaced by a
 * function that calls the original with the same `this` and arguments and returns a promise
 * that settles with the same value or error; XHR is observed by wrapping
 * `XMLHttpRequest.prototype.send` (the constructor, `instanceof` and every other member stay
 * native). No global names are added. The bundle's own requests (model calls) should use
 * `nativeFetch` so they are never counted as page activity.
 */

type Listener = () => void;

interface InFlight {
  start: number;
}

/**
 * The engine's hold on the page's fetches (./effects.ts): given the arguments and how to send
 * them, the promise the page gets — sent now, or once judged. A seam in the wrapper every
 * request already goes through, set when the engine loads (the embed's loader stays small).
 */
type Hold = (args: unknown[], go: () => Promise<Response>) => Promise<Response>;
let holder: Hold = (_, go) => go();
/** Sets the hold (once, by the engine). */
export function hold(fn: Hold): void {
  holder = fn;
}

const inFlight = new Set<InFlight>();
const listeners = new Set<Listener>();
let installed = false;

/** The page's fetch as it was before instrumentation (for the bundle's own requests). */
export let nativeFetch: typeof fetch | undefined;

function notify(): void {
  for (const l of listeners) {
    try {
      l();
    } catch {
      /* a listener must never break the page's request */
    }
  }
}

function begin(): InFlight {
  const r = { start: performance.now() };
  inFlight.add(r);
  notify();
  return r;
}

function end(r: InFlight): void {
  if (inFlight.delete(r)) notify();
}

/** Requests still in flight that started at or after `since` (performance.now() time). */
export function pendingRequests(since = 0): number {
  let n = 0;
  for (const r of inFlight) if (r.start >= since) n++;
  return n;
}

/** Calls `fn` whenever a request starts or finishes. Returns the unsubscribe function. */
export function onNetworkActivity(fn: Listener): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Instruments `win.fetch` and `XMLHttpRequest.prototype.send` once. Safe to call again. */
export function instrumentNetwork(win: Window & typeof globalThis = window): void {
  if (installed) return;
  installed = true;
  try {
    instrumentFetch(win);
  } catch {
    /* a locked-down page (frozen fetch): settle falls back to DOM quiet only */
  }
  try {
    instrumentXhr(win);
  } catch {
    /* same */
  }
}

/** Gives a wrapper the original's `name` and `length` (minifiers rename function expressions). */
export function mimic(wrapper: object, original: { readonly name: string; readonly length: number }): void {
  try {
    for (const key of ['name', 'length'] as const) Object.defineProperty(wrapper, key, { value: original[key], configurable: true });
  } catch {
    /* cosmetic only */
  }
}

function instrumentFetch(win: Window & typeof globalThis): void {
  const original = win.fetch;
  if (typeof original !== 'function') return;
  nativeFetch = original.bind(win);
  const wrapped = function fetch(this: unknown): Promise<Response> {
    // eslint-disable-next-line prefer-rest-params
    const args = arguments as unknown as unknown[];
    const r = begin();
    let p: Promise<Response>;
    try {
      p = holder(args, () => (original as (...a: unknown[]) => Promise<Response>).apply(this, args));
    } catch (e) {
      end(r);
      throw e;
    }
    // Same value, same rejection; an unhandled rejection stays unhandled for the page to see.
    return p.then(
      (v) => {
        end(r);
        return v;
      },
      (e) => {
        end(r);
        throw e;
      },
    );
  };
  mimic(wrapped, original);
  win.fetch = wrapped as typeof fetch;
}

function instrumentXhr(win: Window & typeof globalThis): void {
  const proto = win.XMLHttpRequest?.prototype;
  if (!proto) return;
  const nativeSend = proto.send;
  const tracked = new WeakMap<XMLHttpRequest, InFlight>();
  const done = function (this: XMLHttpRequest): void {
    const r = tracked.get(this);
    if (r) {
      tracked.delete(this);
      end(r);
    }
  };
  const wrapped = function send(this: XMLHttpRequest): void {
    // eslint-disable-next-line prefer-rest-params
    const args = arguments as unknown as unknown[];
    let r: InFlight | undefined;
    if (this && typeof this.addEventListener === 'function' && !tracked.has(this)) {
      r = begin();
      tracked.set(this, r);
      // loadend fires after load/error/abort/timeout handlers: the page has used the response.
      this.addEventListener('loadend', done, { once: true });
    }
    try {
      return (nativeSend as (...a: unknown[]) => void).apply(this, args);
    } catch (e) {
      if (r) {
        this.removeEventListener('loadend', done);
        tracked.delete(this);
        end(r);
      }
      throw e;
    }
  };
  mimic(wrapped, nativeSend);
  Object.defineProperty(proto, 'send', { value: wrapped, writable: true, configurable: true, enumerable: true });
}
