/**
 * A `fetch` over a userscript manager's GM_xmlhttpRequest (or Greasemonkey 4's
 * GM.xmlHttpRequest): the request leaves from the extension, so the page's CSP
 * (`connect-src`) cannot block the model calls.
 *
 * Like fetch it resolves when the headers arrive and streams the body. Managers differ in how
 * they hand the body out, and the transport must lose and repeat no byte under any of them:
 * - `responseType: 'stream'` (Tampermonkey, ScriptCat): a ReadableStream, passed on as it is.
 * - Otherwise no `responseType` at all: Violentmonkey then reports a `responseText` that grows
 *   and is whole at `load` (with `'text'` it hands out only what came since the last read, and
 *   nothing at `load`). Progress text is passed on only while each report extends what was
 *   passed on before; a report that does not (a reset, a slice) means the manager's progress
 *   cannot be trusted: the rest of the body comes from the whole text at `load`, and this
 *   transport asks for no progress any more. Progress without text (Greasemonkey 4) is
 *   simply waited out.
 * The signal aborts the request (before or while the body streams); network errors reject
 * with a TypeError, an abort with an AbortError — as fetch does.
 */

/** The subset of a GM_xmlhttpRequest response the transport reads. */
export interface GmResponse {
  status?: number;
  statusText?: string;
  responseHeaders?: string;
  finalUrl?: string;
  readyState?: number;
  responseText?: string;
  response?: unknown;
  error?: string;
}

export interface GmRequestDetails {
  method: string;
  url: string;
  headers: Record<string, string>;
  data?: string;
  /** Set only to ask for a stream: without it the managers report the text as it grows. */
  responseType?: 'stream';
  onloadstart?: (r: GmResponse) => void;
  onreadystatechange?: (r: GmResponse) => void;
  onprogress?: (r: GmResponse) => void;
  onload?: (r: GmResponse) => void;
  onerror?: (r: GmResponse) => void;
  ontimeout?: (r: GmResponse) => void;
  onabort?: (r: GmResponse) => void;
}

export type GmXmlHttpRequest = (details: GmRequestDetails) => { abort(): void } | void;

export interface GmFetchOptions {
  /** Ask for `responseType: 'stream'` (the manager supports it). */
  stream: boolean;
}

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

const abortError = (): DOMException => new DOMException('The operation was aborted.', 'AbortError');

/** "a: 1\r\nb: 2" → Headers. */
export function parseHeaders(raw: string | undefined): Headers {
  const h = new Headers();
  for (const line of (raw ?? '').split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at <= 0) continue;
    try {
      h.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
    } catch {
      // a header name fetch would not accept: skip it
    }
  }
  return h;
}

function headersObject(init: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(init ?? {}).forEach((v, k) => (out[k] = v));
  return out;
}

const isStream = (v: unknown): v is ReadableStream<Uint8Array> => !!v && typeof (v as ReadableStream).getReader === 'function';

/** The text a report carries: `responseText`, or a text `response`; undefined when it carries none. */
const textOf = (r: GmResponse): string | undefined =>
  typeof r.responseText === 'string' ? r.responseText : typeof r.response === 'string' ? r.response : undefined;

export function createGmFetch(gm: GmXmlHttpRequest, options: GmFetchOptions): typeof fetch {
  /** False once a progress report did not extend the one before: from then on the body comes whole at `load`. */
  let progressGrows = true;
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const request = input instanceof Request ? input : undefined;
      const url = request ? request.url : String(input instanceof URL ? input.href : input);
      const method = (init.method ?? request?.method ?? 'GET').toUpperCase();
      const signal = init.signal ?? request?.signal ?? undefined;
      const body = init.body;
      if (body !== undefined && body !== null && typeof body !== 'string') {
        reject(new TypeError('gmFetch: only string bodies are supported'));
        return;
      }
      if (signal?.aborted) {
        reject(abortError());
        return;
      }

      let settled = false; // the promise resolved or rejected
      let finished = false; // the body ended (or failed)
      let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
      let sent = ''; // the body text already enqueued
      let trustProgress = progressGrows; // this request's progress reports extend each other so far
      const encoder = new TextEncoder();
      let handle: { abort(): void } | void;

      const fail = (e: Error): void => {
        if (finished) return;
        finished = true;
        signal?.removeEventListener('abort', onAbort);
        if (!settled) {
          settled = true;
          reject(e);
        } else {
          try {
            controller?.error(e);
          } catch {
            // the reader already went away
          }
        }
      };
      const onAbort = (): void => {
        try {
          handle?.abort();
        } catch {
          // already over
        }
        fail(abortError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });

      /** Resolves with the response once its status and headers are known. */
      const respond = (r: GmResponse, stream: ReadableStream<Uint8Array> | null): void => {
        if (settled) return;
        const status = r.status ?? 0;
        if (!status) return fail(new TypeError(`Failed to fetch ${url}: ${r.error || 'network error'}`));
        settled = true;
        const res = new Response(NULL_BODY.has(status) || method === 'HEAD' ? null : stream, {
          status,
          statusText: r.statusText ?? '',
          headers: parseHeaders(r.responseHeaders),
        });
        try {
          Object.defineProperty(res, 'url', { value: r.finalUrl || url });
        } catch {
          // url stays empty: nothing reads it
        }
        resolve(res);
      };

      const textStream = (): ReadableStream<Uint8Array> =>
        new ReadableStream<Uint8Array>({
          start(c) {
            controller = c;
          },
          cancel() {
            finished = true;
            signal?.removeEventListener('abort', onAbort);
            try {
              handle?.abort();
            } catch {
              // already over
            }
          },
        });
      let body$: ReadableStream<Uint8Array> | undefined;
      /** Text mode: enqueue what the text gained on what was enqueued, if it only grew. */
      const pump = (r: GmResponse): void => {
        if (finished || !controller || !trustProgress) return;
        const text = textOf(r);
        if (!text) return; // no text in this report (Greasemonkey 4): the whole body comes at load
        if (!text.startsWith(sent)) {
          // Reset or sliced: what was passed on stands, the rest comes whole at load.
          trustProgress = progressGrows = false;
          return;
        }
        if (text.length > sent.length) {
          controller.enqueue(encoder.encode(text.slice(sent.length)));
          sent = text;
        }
      };
      /** Text mode, at load: the rest of the whole body; an error if it does not continue what was passed on. */
      const finish = (r: GmResponse): void => {
        const text = textOf(r) ?? '';
        if (!text.startsWith(sent)) {
          progressGrows = false;
          return fail(new TypeError(`Failed to fetch ${url}: the userscript manager's reply did not match its progress reports`));
        }
        if (text.length > sent.length) controller!.enqueue(encoder.encode(text.slice(sent.length)));
        sent = text;
        finished = true;
        signal?.removeEventListener('abort', onAbort);
        try {
          controller!.close();
        } catch {
          // cancelled by the reader
        }
      };
      const headersIn = (r: GmResponse): void => {
        if (settled || finished) return;
        if (options.stream && isStream(r.response)) return respond(r, r.response);
        // Asked for a stream: it comes with a later callback (else onload answers with the text).
        if (options.stream) return;
        if ((r.readyState ?? 0) < 2 && !r.status) return;
        body$ ??= textStream();
        respond(r, body$);
      };

      try {
        handle = gm({
          method,
          url,
          headers: { ...headersObject(request?.headers), ...headersObject(init.headers) },
          ...(typeof body === 'string' ? { data: body } : {}),
          ...(options.stream ? { responseType: 'stream' as const } : {}),
          onloadstart: headersIn,
          onreadystatechange: (r) => {
            headersIn(r);
            if ((r.readyState ?? 0) >= 3) pump(r);
          },
          onprogress: (r) => {
            headersIn(r);
            pump(r);
          },
          onload: (r) => {
            if (finished) return;
            if (!settled) {
              // Whole body at once (no progress events, or a stream the manager did not hand out early).
              if (options.stream && isStream(r.response)) return respond(r, r.response);
              body$ ??= textStream();
              respond(r, body$);
            }
            if (controller) {
              finish(r);
            } else {
              // The manager streamed the body itself: it ends the stream.
              finished = true;
              signal?.removeEventListener('abort', onAbort);
            }
          },
          onerror: (r) => fail(new TypeError(`Failed to fetch ${url}: ${r?.error || 'network error'}`)),
          ontimeout: () => fail(new TypeError(`Failed to fetch ${url}: timed out`)),
          onabort: () => fail(abortError()),
        });
      } catch (e) {
        fail(new TypeError(`Failed to fetch ${url}: ${String((e as Error)?.message ?? e)}`));
      }
    });
}
