/**
 * Which computed properties the clone copies onto every node. html-to-image copies all of them
 * (about 480 in Chromium) with one getPropertyValue/setProperty pair each, per node, and writes
 * them all into the SVG: most of a capture's time and size. A still picture needs only what
 * places and paints boxes and text; behaviour (animation, scrolling, interaction, anchoring,
 * timelines) never shows, and the logical properties only repeat the physical ones — worse, a
 * logical longhand copied after a physical one overrides it, so the root's own offsets would
 * not hold. A property left out takes the UA default in the clone.
 */
const SIDES = ['top', 'right', 'bottom', 'left'];
const CORNERS = ['top-left', 'top-right', 'bottom-right', 'bottom-left'];

const PAINTED = [
  // box and placement
  'display', 'position', ...SIDES, 'z-index', 'float', 'clear', 'box-sizing',
  'width', 'height', 'min-width', 'min-height', 'max-width', 'max-height', 'aspect-ratio',
  ...SIDES.map((s) => `margin-${s}`), ...SIDES.map((s) => `padding-${s}`),
  ...SIDES.flatMap((s) => [`border-${s}-width`, `border-${s}-style`, `border-${s}-color`]),
  ...CORNERS.map((c) => `border-${c}-radius`),
  'border-image-source', 'border-image-slice', 'border-image-width', 'border-image-outset', 'border-image-repeat',
  'overflow-x', 'overflow-y', 'overflow-clip-margin', 'visibility', 'opacity', 'contain', 'content-visibility', 'zoom',
  'transform', 'transform-origin', 'transform-style', 'translate', 'rotate', 'scale', 'perspective', 'perspective-origin', 'backface-visibility',
  'clip', 'clip-path', 'filter', 'backdrop-filter', 'mix-blend-mode', 'isolation', 'box-shadow',
  'outline-color', 'outline-style', 'outline-width', 'outline-offset',
  'mask-image', 'mask-size', 'mask-position', 'mask-repeat', 'mask-clip', 'mask-origin', 'mask-mode', 'mask-composite',
  '-webkit-mask-box-image', '-webkit-mask-position-x', '-webkit-mask-position-y',
  // backgrounds
  'background-color', 'background-image', 'background-position', 'background-size', 'background-repeat',
  'background-clip', 'background-origin', 'background-attachment', 'background-blend-mode',
  // text
  'color', 'font-family', 'font-size', 'font-weight', 'font-style', 'font-stretch', 'font-variant-caps',
  'font-variant-numeric', 'font-variant-ligatures', 'font-feature-settings', 'font-variation-settings', 'font-kerning',
  'line-height', 'letter-spacing', 'word-spacing', 'text-align', 'text-align-last', 'text-indent', 'text-transform',
  'text-decoration-line', 'text-decoration-color', 'text-decoration-style', 'text-decoration-thickness',
  'text-underline-offset', 'text-underline-position', 'text-shadow', 'text-overflow', 'text-rendering',
  'text-emphasis-style', 'text-emphasis-color', 'text-emphasis-position', 'text-combine-upright', 'text-orientation',
  'white-space-collapse', 'text-wrap-mode', 'text-wrap-style', 'word-break', 'overflow-wrap', 'line-break', 'hyphens', 'tab-size',
  'direction', 'unicode-bidi', 'writing-mode', 'vertical-align',
  '-webkit-line-clamp', '-webkit-box-orient', '-webkit-box-direction', '-webkit-box-align', '-webkit-box-pack', '-webkit-box-flex',
  '-webkit-text-fill-color', '-webkit-text-stroke-color', '-webkit-text-stroke-width', '-webkit-text-security',
  '-webkit-border-horizontal-spacing', '-webkit-border-vertical-spacing',
  // flex, grid, columns, tables, lists
  'flex-direction', 'flex-wrap', 'flex-grow', 'flex-shrink', 'flex-basis', 'order',
  'justify-content', 'justify-items', 'justify-self', 'align-content', 'align-items', 'align-self', 'row-gap', 'column-gap',
  'grid-template-columns', 'grid-template-rows', 'grid-template-areas', 'grid-auto-columns', 'grid-auto-rows', 'grid-auto-flow',
  'grid-row-start', 'grid-row-end', 'grid-column-start', 'grid-column-end',
  'column-count', 'column-width', 'column-fill', 'column-span', 'column-rule-color', 'column-rule-style', 'column-rule-width',
  'table-layout', 'border-collapse', 'caption-side', 'empty-cells',
  'list-style-type', 'list-style-position', 'list-style-image', 'counter-reset', 'counter-increment', 'counter-set', 'content', 'quotes',
  // replaced content, form controls, SVG roots
  'object-fit', 'object-position', 'image-rendering', 'appearance', 'accent-color', 'color-scheme',
  'fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-opacity',
];

let cached: string[] | undefined;

/** The painted properties this browser knows (an unknown name would just be skipped anyway). */
export function styleProperties(): string[] {
  if (!cached) {
    const known = new Set(Array.from(getComputedStyle(document.documentElement)));
    cached = PAINTED.filter((p) => known.has(p));
  }
  return cached;
}
