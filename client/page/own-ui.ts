/**
 * Marks that keep elements out of the map and out of reach of actions: the agent's own UI
 * (overlay, mask, Set-of-Marks boxes) carries UI_ATTR on its host; site owners put
 * `data-pagehand="off"` on subtrees the agent must not see or touch, or name them with
 * selectors (`setDenyZones`, from the embed's configuration).
 */
import { flatParent } from './flat-tree';

export const UI_ATTR = 'data-pagehand-ui';
export const OFF_ATTR = 'data-pagehand';

let denySelector = '';

/** Selectors of subtrees the agent must not see or touch; invalid selectors are reported, not applied. */
export function setDenyZones(selectors: readonly string[]): { ignored: string[] } {
  const ok: string[] = [];
  const ignored: string[] = [];
  for (const s of selectors) {
    try {
      document.createDocumentFragment().querySelector(s);
      ok.push(s);
    } catch {
      ignored.push(s);
    }
  }
  denySelector = ok.join(',');
  return { ignored };
}

/** A subtree the site keeps from the agent: `data-pagehand="off"` or a deny selector. */
export function isDenied(el: Element): boolean {
  return el.getAttribute(OFF_ATTR) === 'off' || (denySelector !== '' && el.matches(denySelector));
}

export function isExcluded(el: Element): boolean {
  return el.hasAttribute(UI_ATTR) || isDenied(el);
}

/** The element or any ancestor (across shadow roots and frames) is excluded. */
export function inExcludedZone(el: Element): boolean {
  for (let n: Node | null = el; n; n = flatParent(n) ?? ((n as Document).defaultView?.frameElement ?? null)) {
    if (n.nodeType === 1 && isExcluded(n as Element)) return true;
  }
  return false;
}
