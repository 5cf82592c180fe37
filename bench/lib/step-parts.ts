/**
 * The bench's stand-in for client/page/step-parts.ts (bench/loop.ts swaps it in when it builds
 * the bundle): each part of a step is recorded with its time, for the bench to read from the page.
 */
interface Part {
  part: string;
  ms: number;
  /** performance.now() at the part's end. */
  at: number;
}

const parts: Part[] = ((globalThis as { __pagehandParts?: Part[] }).__pagehandParts ??= []);

export const clock = (): number => performance.now();

export function spent(part: string, since: number): void {
  const at = performance.now();
  parts.push({ part, ms: at - since, at });
}
