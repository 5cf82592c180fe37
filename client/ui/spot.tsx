/**
 * The outline a "Show me" draws around an element: a box in the overlay (our shadow root, over
 * the page, taking no pointer), kept on the element while the page scrolls to it, and gone after
 * a moment. The page itself is not touched: no style, no class, no layout change.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { CallTarget } from '../agent/public-types';

/** A box in the top viewport's CSS pixels. */
export type Box = CallTarget['rect'];

/** How long the outline stays. */
export const SPOT_MS = 2500;

export function Spot({ box, onEnd }: { box: () => Box | undefined; onEnd(): void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let frame = 0;
    // Follows the element each frame: a smooth scroll moves it after the first.
    const follow = (): void => {
      const r = box();
      const s = ref.current?.style;
      if (s) {
        s.display = r ? '' : 'none';
        if (r) Object.assign(s, { left: `${r.x - 4}px`, top: `${r.y - 4}px`, width: `${r.width + 8}px`, height: `${r.height + 8}px` });
      }
      frame = requestAnimationFrame(follow);
    };
    follow();
    const end = setTimeout(onEnd, SPOT_MS);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(end);
    };
  }, [box]);
  return <div class="spot" data-spot ref={ref} aria-hidden="true" />;
}
