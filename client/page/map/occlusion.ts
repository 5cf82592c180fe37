/**
 * Occlusion: is an in-view element actually reachable by the pointer, or does another layer
 * (cookie banner, sticky header, modal) cover it? A few hit-tests per element, only for
 * candidates in view. Layers with `pointer-events:none` are skipped by the hit-test itself.
 */
import { deepHit, flatContains, flatParent } from '../dom/flat-tree';
import type { Rect } from '../page-types';
import { nodeTypeOf, attrOf, ownerDocumentOf } from '../dom/proto';

/**
 * Returns the element covering `el` at every sampled point of its visible box, or null when at
 * least one point reaches it. `rect` and `viewport` are the top-level viewport's.
 */
export function coverOf(el: Element, rect: Rect, viewport: { width: number; height: number }): Element | null {
  const x0 = Math.max(rect.x, 0);
  const y0 = Math.max(rect.y, 0);
  const x1 = Math.min(rect.x + rect.width, viewport.width);
  const y1 = Math.min(rect.y + rect.height, viewport.height);
  if (x1 <= x0 || y1 <= y0) return null;
  const points: Array<[number, number]> = [
    [(x0 + x1) / 2, (y0 + y1) / 2],
    [x0 + (x1 - x0) * 0.2, y0 + (y1 - y0) * 0.3],
    [x0 + (x1 - x0) * 0.8, y0 + (y1 - y0) * 0.7],
  ];
  let cover: Element | null = null;
  for (const [x, y] of points) {
    const hit = deepHit(x, y)?.el;
    if (!hit) continue;
    if (reaches(el, hit)) return null;
    cover ??= hit;
  }
  return cover;
}

function reaches(el: Element, hit: Element): boolean {
  if (flatContains(el, hit) || flatContains(hit, el)) return true;
  // A transparent control is reached through its label.
  const label = hit.closest('label') as HTMLLabelElement | null;
  return !!label && label.control === el;
}

/** The layer a covering element belongs to: its outermost fixed/sticky or dialog ancestor. */
export function layerOf(hit: Element): Element {
  let layer = hit;
  for (let n: Element | null = hit; n;) {
    const win = ownerDocumentOf(n).defaultView;
    const pos = win?.getComputedStyle(n).position;
    const role = attrOf(n, 'role');
    if (pos === 'fixed' || pos === 'sticky' || n.localName === 'dialog' || role === 'dialog' || role === 'alertdialog') layer = n;
    const parent = flatParent(n);
    n = parent && nodeTypeOf(parent) === 1 ? (parent as Element) : null;
  }
  return layer;
}
