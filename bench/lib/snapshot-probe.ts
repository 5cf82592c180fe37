/**
 * In-page side of bench/snapshot.ts: runs one capture in a task of its own (as the agent loop
 * would; code evaluated straight from the driver is not a scheduler task, so the Long Tasks API
 * would not see it) and reports its time, JPEG size and the longest main-thread task meanwhile.
 * `unfiltered` is the reference: html-to-image's toJpeg of the viewport with no filter.
 */
import { toJpeg } from 'html-to-image';

export interface SnapRun {
  ms: number;
  bytes: number;
  width: number;
  height: number;
  /** Longest main-thread task overlapping the call (0: none ≥ 50 ms, the API's threshold). */
  longestTaskMs: number;
  reason?: string;
}

const tasks: Array<{ start: number; duration: number }> = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) tasks.push({ start: e.startTime, duration: e.duration });
}).observe({ type: 'longtask', buffered: true });

function inOwnTask<T>(fn: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => setTimeout(() => fn().then(resolve, reject), 0));
}

async function longestTask(t0: number, t1: number): Promise<number> {
  await new Promise((r) => setTimeout(r, 50));
  let max = 0;
  for (const t of tasks) if (t.start <= t1 && t.start + t.duration >= t0) max = Math.max(max, t.duration);
  return max;
}

const jpegBytes = (dataUrl: string): number => Math.floor(((dataUrl.length - dataUrl.indexOf(',') - 1) * 3) / 4);

async function measure(call: () => Promise<{ dataUrl: string | null; width: number; height: number; reason?: string }>): Promise<SnapRun> {
  const t0 = performance.now();
  const r = await inOwnTask(call);
  const t1 = performance.now();
  return {
    ms: t1 - t0,
    bytes: r.dataUrl ? jpegBytes(r.dataUrl) : 0,
    width: r.width,
    height: r.height,
    longestTaskMs: await longestTask(t0, t1),
    ...(r.reason ? { reason: r.reason } : {}),
  };
}

const probe = {
  pagehand(options: Record<string, unknown>): Promise<SnapRun> {
    const ph = (
      window as unknown as { pagehand: { screenshot(o: unknown): Promise<{ dataUrl: string | null; width: number; height: number; reason?: string }> } }
    ).pagehand;
    return measure(() => ph.screenshot(options));
  },
  unfiltered(): Promise<SnapRun> {
    const width = window.innerWidth;
    const height = window.innerHeight;
    return measure(async () => ({ dataUrl: await toJpeg(document.documentElement, { width, height, quality: 0.75 }), width, height }));
  },
};

(window as unknown as { __snap: typeof probe }).__snap = probe;
