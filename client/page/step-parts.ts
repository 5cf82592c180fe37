/**
 * Where a step's own time goes, for bench:loop: the loop reports each part of a step here
 * (`spent('risk', since)`). In the bundle this does nothing — no clock is read, no page global
 * is touched (a page's own code is never called back); bench/loop.ts builds the bundle with
 * bench/lib/step-parts.ts in this module's place, which records the parts for the bench to read.
 */

/** The start of a part (0 here: nothing is measured). */
export const clock = (): number => 0;

/** A part of the step took the time since `since`. */
export function spent(part: string, since: number): void {
  void part;
  void since;
}
