/** Small statistics over run timings. */

export function median(xs: readonly number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function max(xs: readonly number[]): number {
  return xs.length ? Math.max(...xs) : NaN;
}
