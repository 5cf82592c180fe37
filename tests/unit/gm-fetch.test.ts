/**
 * gmFetch: fetch over a scripted GM_xmlhttpRequest — streaming from progress text and from a
 * manager's ReadableStream, headers and status, and failures shaped as fetch's (TypeError for
 * the network, AbortError for the signal, before and while the body streams).
 */
import { readFileSync } from 'node:fs';
import { runInThisContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createGmFetch, parseHeaders, type GmRequestDetails, type GmXmlHttpRequest } from '../../client/userscript/fetch';
import { gmKeyValue } from '../../client/userscript/store';

/** A fake manager: records the request and lets the test drive its callbacks. */
function fakeGm() {
  const calls: GmRequestDetails[] = [];
  let aborted = 0;
  const gm = (d: GmRequestDetails) => {
    calls.push(d);
    return { abort: () => void aborted++ };
  };
  return { gm, calls, aborted: () => aborted };
}

const base = {
  status: 200,
  statusText: 'OK',
  responseHeaders: 'Content-Type: text/event-stream\r\nX-Request-Id: abc',
  finalUrl: 'http://127.0.0.1:8787/v1/chat/completions',
};

async function readAll(res: Response): Promise<string[]> {
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  const out: string[] = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return out;
    out.push(dec.decode(value));
  }
}

describe('gmFetch', () => {
  it('sends method, headers and body, resolves at the headers and streams the progress text', async () => {
    const f = fakeGm();
    const p = createGmFetch(f.gm, { stream: false })('http://127.0.0.1:8787/v1/chat/completions', {
      method: 'POST',
      headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json' },
      body: '{"a":1}',
    });
    const d = f.calls[0]!;
    expect(d).toMatchObject({ method: 'POST', url: 'http://127.0.0.1:8787/v1/chat/completions', data: '{"a":1}' });
    // No responseType: with 'text' Violentmonkey hands out slices, not a growing text.
    expect(d.responseType).toBeUndefined();
    expect(d.headers).toEqual({ authorization: 'Bearer t', 'content-type': 'application/json' });
    d.onreadystatechange!({ ...base, readyState: 2 });
    const res = await p;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('x-request-id')).toBe('abc');
    const chunks = readAll(res);
    d.onprogress!({ ...base, readyState: 3, responseText: 'data: 1\n\n' });
    d.onprogress!({ ...base, readyState: 3, responseText: 'data: 1\n\ndata: 2\n\n' });
    d.onload!({ ...base, readyState: 4, responseText: 'data: 1\n\ndata: 2\n\ndata: [DONE]\n\n' });
    expect(await chunks).toEqual(['data: 1\n\n', 'data: 2\n\n', 'data: [DONE]\n\n']);
  });

  it("hands out the manager's ReadableStream with responseType 'stream'", async () => {
    const f = fakeGm();
    const p = createGmFetch(f.gm, { stream: true })('http://127.0.0.1:8787/v1/config');
    const d = f.calls[0]!;
    expect(d.responseType).toBe('stream');
    d.onreadystatechange!({ ...base, readyState: 2 }); // no stream yet: keep waiting
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('{"models":[]}'));
        c.close();
      },
    });
    d.onloadstart!({ ...base, readyState: 2, response: body });
    expect(await (await p).text()).toBe('{"models":[]}');
  });

  it('answers error statuses as responses, not rejections', async () => {
    const f = fakeGm();
    const p = createGmFetch(f.gm, { stream: false })('http://127.0.0.1:8787/v1/config');
    f.calls[0]!.onload!({
      status: 401,
      statusText: 'Unauthorized',
      responseHeaders: 'content-type: application/json',
      responseText: '{"error":{"code":"invalid_token"}}',
      readyState: 4,
    });
    const res = await p;
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: 'invalid_token' } });
  });

  it('rejects with a TypeError on a network error or timeout', async () => {
    const f = fakeGm();
    const fetchGm = createGmFetch(f.gm, { stream: false });
    const a = fetchGm('http://127.0.0.1:1/v1/config');
    f.calls[0]!.onerror!({ status: 0, error: 'connection refused' });
    await expect(a).rejects.toThrow(TypeError);
    const b = fetchGm('http://127.0.0.1:1/v1/config');
    f.calls[1]!.ontimeout!({});
    await expect(b).rejects.toThrow(/timed out/);
  });

  it('honours the signal: before the request, while waiting for headers, and while the body streams', async () => {
    const f = fakeGm();
    const fetchGm = createGmFetch(f.gm, { stream: false });
    const pre = new AbortController();
    pre.abort();
    await expect(fetchGm('http://127.0.0.1:8787/x', { signal: pre.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(f.calls).toHaveLength(0);

    const waiting = new AbortController();
    const p = fetchGm('http://127.0.0.1:8787/x', { signal: waiting.signal });
    waiting.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(f.aborted()).toBe(1);

    const streaming = new AbortController();
    const q = fetchGm('http://127.0.0.1:8787/x', { signal: streaming.signal });
    const d = f.calls[1]!;
    d.onprogress!({ ...base, readyState: 3, responseText: 'data: 1\n\n' });
    const reader = (await q).body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: 1\n\n');
    const next = reader.read();
    streaming.abort();
    await expect(next).rejects.toMatchObject({ name: 'AbortError' });
    expect(f.aborted()).toBe(2);
  });

  it('passes on only progress that extends what it passed on; after a reset the rest comes whole at load, and later requests wait for load', async () => {
    const f = fakeGm();
    const fetchGm = createGmFetch(f.gm, { stream: false });
    const p = fetchGm('http://127.0.0.1:8787/v1/chat/completions');
    const d = f.calls[0]!;
    d.onprogress!({ ...base, readyState: 3, responseText: 'data: 1\n\n' });
    const chunks = readAll(await p);
    d.onprogress!({ ...base, readyState: 3, responseText: 'data: 2\n\n' }); // a slice, not the whole: ignored
    d.onprogress!({ ...base, readyState: 3, responseText: 'data: 1\n\ndata: 2\n\n' }); // no longer trusted
    d.onload!({ ...base, readyState: 4, responseText: 'data: 1\n\ndata: 2\n\ndata: [DONE]\n\n' });
    expect((await chunks).join('')).toBe('data: 1\n\ndata: 2\n\ndata: [DONE]\n\n');

    // The next request of this transport: progress is not passed on at all, the body comes at load.
    const q = fetchGm('http://127.0.0.1:8787/v1/chat/completions');
    const e = f.calls[1]!;
    e.onreadystatechange!({ ...base, readyState: 2 });
    const later = readAll(await q);
    e.onprogress!({ ...base, readyState: 3, responseText: 'data: 1\n\n' });
    e.onload!({ ...base, readyState: 4, responseText: 'data: 1\n\ndata: [DONE]\n\n' });
    expect(await later).toEqual(['data: 1\n\ndata: [DONE]\n\n']);
  });

  it('fails the body with a TypeError when the text at load does not continue what progress passed on', async () => {
    const f = fakeGm();
    const p = createGmFetch(f.gm, { stream: false })('http://127.0.0.1:8787/v1/chat/completions');
    const d = f.calls[0]!;
    d.onprogress!({ ...base, readyState: 3, responseText: 'data: 1\n\n' });
    const reader = (await p).body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: 1\n\n');
    const next = reader.read();
    d.onload!({ ...base, readyState: 4, responseText: '' });
    await expect(next).rejects.toThrow(/did not match its progress reports/);
  });

  it('parses raw response headers', () => {
    expect([...parseHeaders('A: 1\r\nb:2\r\n\r\nbad line\r\nC: x: y')]).toEqual([
      ['a', '1'],
      ['b', '2'],
      ['c', 'x: y'],
    ]);
  });
});

describe('GM run storage', () => {
  it('resumes only a fresh run: one left by a closed tab long ago is ignored', () => {
    const values = new Map<string, string>();
    let now = 1_000_000;
    const kv = gmKeyValue(
      { getValue: (k, d) => values.get(k) ?? d, setValue: (k, v) => void values.set(k, v), deleteValue: (k) => void values.delete(k) },
      () => now,
    );
    kv.set('pagehand:run', '{"v":1}');
    now += 5_000;
    expect(kv.get('pagehand:run')).toBe('{"v":1}');
    now += 120_000;
    expect(kv.get('pagehand:run')).toBeNull();
    kv.remove('pagehand:run');
    expect(values.size).toBe(0);
  });
});

/** The managers as the browser tests play them (tests/fixtures/delivery/gm-managers.js). */
runInThisContext(readFileSync(new URL('../fixtures/delivery/gm-managers.js', import.meta.url), 'utf8'));
const managers = (globalThis as unknown as { __gmManagers: { modes: string[]; makeXhr(mode: string, transport: unknown): GmXmlHttpRequest } }).__gmManagers;

/** A network that answers with `pieces`, one per read, each after a turn of the event loop. */
function transport(pieces: string[]) {
  let left = [...pieces];
  return {
    start: async () => (
      (left = [...pieces]),
      { id: 1, status: 200, statusText: 'OK', responseHeaders: 'content-type: text/event-stream', finalUrl: 'http://127.0.0.1:8787/v1/chat/completions' }
    ),
    read: async () => {
      await new Promise((r) => setTimeout(r, 1));
      return { chunk: left.length ? left.shift()! : null };
    },
    abort: () => undefined,
  };
}

describe('gmFetch under each manager', () => {
  // 6 000 characters in six writes, as measured; and multi-byte text cut anywhere.
  const sixPieces = ['0', '1', '2', '3', '4', '5'].map((c) => `data: ${c.repeat(994)}\n\n`);
  const utf8 = ['data: {"t":"héllo wö', 'rld 😀', ' ✓ 日本語"}\n\n', 'data: [DONE]\n\n'];

  it.each(managers.modes)('%s: a body streamed in many writes arrives whole, no byte lost or repeated, twice over', async (mode) => {
    const stream = mode === 'Tampermonkey' || mode === 'ScriptCat';
    for (const pieces of [sixPieces, utf8]) {
      const fetchGm = createGmFetch(managers.makeXhr(mode, transport(pieces)), { stream });
      for (let i = 0; i < 2; i++) {
        const res = await fetchGm('http://127.0.0.1:8787/v1/chat/completions', { method: 'POST', body: '{}' });
        expect(res.status).toBe(200);
        expect(await res.text()).toBe(pieces.join(''));
      }
    }
  });

  it('Violentmonkey with responseType "text" hands out slices and nothing at load — what the transport no longer asks for', async () => {
    const seen: Array<string | undefined> = [];
    let loaded: string | undefined;
    await new Promise<void>((done) =>
      managers.makeXhr(
        'Violentmonkey',
        transport(['0', '1', '2', '3', '4', '5']),
      )({
        method: 'GET',
        url: 'http://127.0.0.1:8787/x',
        headers: {},
        responseType: 'text' as 'stream',
        onprogress: (r) => void seen.push(r.responseText),
        onload: (r) => {
          loaded = r.responseText;
          done();
        },
      }),
    );
    expect(seen).toEqual(['0', '01', '2', '23', '4', '45']);
    expect(loaded).toBe('');
  });
});
