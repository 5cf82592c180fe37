/**
 * "Show me" for a ref an answer names: the element found through the ref table (re-validated as
 * for an action: gone, or no longer what the model saw, is no element) and never one in a deny
 * zone or our own UI; scrolled into view. What comes back gives the element's box in the top
 * viewport each time it is asked (undefined once it is gone), for the overlay's outline.
 */
import { visibleBox } from './actions/dom';
import { resolveRef } from './map/refs';
import { createDescriber } from './names/describe';
import type { Rect } from './page-types';
import type { PageSettings } from './settings';

export function revealRef(ref: string, settings: PageSettings): (() => Rect | undefined) | undefined {
  let el: Element;
  try {
    const d = createDescriber(settings);
    el = resolveRef(ref, (e) => d.describe(e));
  } catch {
    return undefined;
  }
  if (settings.zones.inside(el)) return undefined;
  const reduced = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
  el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: reduced ? 'auto' : 'smooth' });
  return () => {
    if (!el.isConnected || settings.zones.inside(el)) return undefined;
    const { box } = visibleBox(el);
    return box && { x: box.left, y: box.top, width: box.right - box.left, height: box.bottom - box.top };
  };
}
