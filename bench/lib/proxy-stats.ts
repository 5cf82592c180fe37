/** Percentiles and a plain-text table for the proxy bench. */

/** Nearest-rank percentile (p in 0..100). */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const rank = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[rank]!;
}

/** Least-squares slope of y over x. */
export function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

export function table(headers: string[], rows: Array<Array<string | number>>): string {
  const text = rows.map((r) => r.map(String));
  const widths = headers.map((h, i) => Math.max(h.length, ...text.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  return [line(headers), widths.map((w) => '─'.repeat(w)).join('  '), ...text.map(line)].join('\n');
}

export const ms = (v: number): string => (Number.isFinite(v) ? v.toFixed(2) : '–');
