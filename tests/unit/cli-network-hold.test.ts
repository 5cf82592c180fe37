import { describe, expect, it } from 'vitest';
import { RUN_STATE_URL } from '../../cli/bridge';
import { described, effectOf, type SeenRequest } from '../../cli/network-hold';

const PROXY = 'http://127.0.0.1:8787';
const req = (r: Partial<SeenRequest>): SeenRequest => ({ method: 'GET', url: 'https://shop.test/x', type: 'fetch', navigation: false, from: 'other', ...r });
const judged = (r: Partial<SeenRequest>) => effectOf(req(r), { proxy: PROXY });

describe('effectOf: what the runner holds at the network layer during an action', () => {
  it('holds every request that changes something, from anywhere (a worker has no frame)', () => {
    for (const method of ['POST', 'put', 'DELETE', 'PATCH'])
      expect(judged({ method, url: 'https://shop.test/account/delete' })).toEqual({
        kind: 'request',
        url: 'https://shop.test/account/delete',
        method: method.toUpperCase(),
      });
    expect(judged({ method: 'POST', type: 'xhr', from: 'frame' })).toMatchObject({ kind: 'request' });
    // A form posted into a frame: the top page stays, so it is a request, not leaving the site.
    expect(judged({ method: 'POST', type: 'document', navigation: true, from: 'frame' })).toMatchObject({ kind: 'request', method: 'POST' });
  });

  it('a beacon (ping) is judged as one', () => {
    expect(judged({ method: 'POST', type: 'ping' })).toMatchObject({ kind: 'beacon', method: 'POST' });
  });

  it('lets reading go, but not the first page of a window the page opened', () => {
    for (const method of ['GET', 'HEAD']) expect(judged({ method, url: 'https://shop.test/account/delete' })).toBeUndefined();
    expect(judged({ type: 'document', navigation: true, from: 'frame' })).toBeUndefined();
    expect(judged({ type: 'document', navigation: true, from: 'window', url: 'https://shop.test/account/delete' })).toEqual({
      kind: 'window',
      url: 'https://shop.test/account/delete',
      method: 'GET',
    });
  });

  it("leaves the top frame's own navigations to the run's world (Chromium holds DevTools back from a frame while its navigation waits)", () => {
    for (const method of ['GET', 'POST'])
      expect(judged({ type: 'document', navigation: true, from: 'top', method, url: 'https://elsewhere.test/pay' })).toBeUndefined();
  });

  it("never holds pagehand's own proxy or the run-state request", () => {
    expect(judged({ method: 'POST', url: `${PROXY}/v1/chat/completions` })).toBeUndefined();
    expect(effectOf(req({ method: 'POST', url: `${PROXY}/v1/chat/completions` }), { proxy: `${PROXY}/` })).toBeUndefined();
    expect(judged({ method: 'POST', url: RUN_STATE_URL })).toBeUndefined();
    // Only the proxy itself: another port of the same host, or a longer host name, is the page's.
    expect(judged({ method: 'POST', url: 'http://127.0.0.1:87870/account/delete' })).toMatchObject({ kind: 'request' });
  });
});

describe('described: the log line of a stopped effect', () => {
  it('names the method and the address, without the fragment', () => {
    expect(described({ kind: 'request', method: 'POST', url: 'https://shop.test/account/delete#x' })).toBe('POST request to https://shop.test/account/delete');
    expect(described({ kind: 'beacon', method: 'POST', url: 'https://shop.test/b' })).toBe('beacon to https://shop.test/b');
    expect(described({ kind: 'navigation', method: 'POST', url: 'https://shop.test/f' })).toBe('form submission to https://shop.test/f');
    expect(described({ kind: 'navigation', method: 'GET', url: 'https://x.test/' })).toBe('navigation to https://x.test/');
    expect(described({ kind: 'window', method: 'GET', url: 'https://x.test/' })).toBe('new window on https://x.test/');
  });
});
