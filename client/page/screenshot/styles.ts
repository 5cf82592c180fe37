/**
 * Which computed properties the clone copies onto every node. html-to-image copies all of them
 * (about 480 in Chromium) with one getPropertyValue/setProperty pair each, per node, and writes
 * them all into the SVG: most of a capture's time and size. A still picture needs none of the
 * behaviour (animation, scrolling, interaction, anchoring, timelines), and the logical
 * properties only repeat the physical ones — worse, a logical longhand copied after a physical
 * one overrides it, so the root's own offsets would not hold.
 */
const LOGICAL = /(^|-)(block|inline)(-|$)|^border-(start|end)-(start|end)-radius$|^corner-(start|end)-(start|end)-shape$/;
const BEHAVIOUR =
  /^(animation|transition|scroll|scrollbar|view-|timeline|trigger|interest|anchor|position-(anchor|area|try|visibility)|offset-|reading-|caret|cursor|pointer-events|touch-action|user-select|will-change|speak|app-region|window-drag|interactivity|resize|overscroll|overflow-anchor|field-sizing|orphans|widows|break-|print-color-adjust|forced-color-adjust|dynamic-range-limit|buffered-rendering|frame-sizing|container-|-webkit-(user-|tap-highlight|locale|font-smoothing|rtl-ordering))/;

let cached: string[] | undefined;

export function styleProperties(): string[] {
  if (!cached) {
    const all = Array.from(getComputedStyle(document.documentElement));
    cached = all.filter((name) => !LOGICAL.test(name) && !BEHAVIOUR.test(name));
  }
  return cached;
}
