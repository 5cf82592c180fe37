import type { Zones } from '../settings';
/**
 * How long until the page's running animations end: settle (./settle-watch.ts) waits for
 * motion that ends within its bound. Animations in a deny zone or our own UI do not count.
 */

/**
 * The time (ms) until the page's finite running animations and transitions end, counting only
 * those that end within `within` ms; 0 when there are none.
 */
export function animationsEndIn(docs: readonly Document[], within: number, zones: Zones): number {
  let longest = 0;
  for (const doc of docs) {
    let list: Animation[];
    try {
      list = typeof doc.getAnimations === 'function' ? doc.getAnimations() : [];
    } catch {
      continue;
    }
    for (const a of list) {
      try {
        if (a.playState !== 'running' || !a.effect) continue;
        const t = a.effect.getComputedTiming();
        const end = Number(t.endTime);
        if (!Number.isFinite(end)) continue;
        const local = Number(t.localTime ?? 0) || 0;
        const rate = a.playbackRate || 1;
        const left = rate > 0 ? (end - local) / rate : local / -rate;
        if (!(left > 0) || left > within) continue;
        const target = (a.effect as KeyframeEffect).target;
        if (target && zones.inside(target)) continue;
        longest = Math.max(longest, left);
      } catch {
        /* an animation that went away meanwhile */
      }
    }
  }
  return longest;
}
