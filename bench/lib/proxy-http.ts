/**
 * One timed HTTP request over a keep-alive agent: time to response headers, to the first body
 * byte (TTFB) and to the end. node:http rather than fetch so the client adds as little as possible.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';

export interface Timed {
  status: number;
  ttfbMs: number;
  totalMs: number;
  body: string;
  error?: string;
}

export function timedRequest(agent: http.Agent, url: URL, body: Buffer, headers: Record<string, string>, keepBody = false): Promise<Timed> {
  return new Promise((resolve) => {
    const start = performance.now();
    let ttfb = -1;
    let text = '';
    const req = http.request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': String(body.length) } }, (res) => {
      res.on('data', (d: Buffer) => {
        if (ttfb < 0) ttfb = performance.now() - start;
        if (keepBody) text += d.toString();
      });
      res.on('end', () => {
        const end = performance.now() - start;
        resolve({ status: res.statusCode ?? 0, ttfbMs: ttfb < 0 ? end : ttfb, totalMs: end, body: text });
      });
      res.on('error', (e) => resolve({ status: res.statusCode ?? 0, ttfbMs: ttfb, totalMs: performance.now() - start, body: text, error: String(e) }));
    });
    req.on('error', (e) => resolve({ status: 0, ttfbMs: -1, totalMs: performance.now() - start, body: '', error: String(e) }));
    req.end(body);
  });
}
