/** Percentiles and a plain-text table for the proxy bench. */

/** Nearest-rank percentile (p in 0..100). */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const rank = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[rank]!;
}

/**
 * Theil–Sen slope of y over x: the median of the slopes between every pair of samples. One
 * odd sample (a GC landing mid-read, the OS reclaiming pages) cannot tilt it, as it can a
 * least-squares fit over a dozen points.
 */
export function slope(xs: readonly number[], ys: readonly number[]): number {
  const slopes: number[] = [];
  for (let i = 0; i < xs.length; i++) {
    for (let j = i + 1; j < xs.length; j++) if (xs[j] !== xs[i]) slopes.push((ys[j]! - ys[i]!) / (xs[j]! - xs[i]!));
  }
  if (!slopes.length) return 0;
  slopes.sort((a, b) => a - b);
  const m = slopes.length >> 1;
  return slopes.length % 2 ? slopes[m]! : (slopes[m - 1]! + slopes[m]!) / 2;
}

export function table(headers: string[], rows: Array<Array<string | number>>): string {
  const text = rows.map((r) => r.map(String));
  const widths = headers.map((h, i) => Math.max(h.length, ...text.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((w) => '─'.repeat(w)).join('  '), ...text.map(line)].join('\n');
}

export const ms = (v: number): string => (Number.isFinite(v) ? v.toFixed(2) : '–');
