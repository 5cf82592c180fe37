/**
 * Marks that keep elements out of the map: the agent's own UI (overlay, mask, Set-of-Marks
 * boxes) carries UI_ATTR on its host; site owners put `data-pagehand="off"` on subtrees the
 * agent must not see or touch.
 */
export const UI_ATTR = 'data-pagehand-ui';
export const OFF_ATTR = 'data-pagehand';

export function isExcluded(el: Element): boolean {
  return el.hasAttribute(UI_ATTR) || el.getAttribute(OFF_ATTR) === 'off';
}
