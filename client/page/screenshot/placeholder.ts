import { attrOf } from '../dom/proto';

/**
 * What an image that cannot be read (cross-origin without CORS, broken, too slow) shows in a
 * screenshot: a grey box with a diagonal cross, the usual "an image was here" sign, so the model
 * can tell a picture from empty space. An SVG data URL: it stretches to any box.
 */
export const IMAGE_PLACEHOLDER =
  'data:image/svg+xml;charset=utf-8,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" preserveAspectRatio="none">' +
      '<rect width="100" height="100" fill="#d9d9d9"/>' +
      '<path d="M0 0L100 100M100 0L0 100" stroke="#a6a6a6" stroke-width="2" vector-effect="non-scaling-stroke"/>' +
      '</svg>',
  );

/**
 * html-to-image's image error hook: swaps a clone that failed to load to the placeholder (the
 * clone, never the page's image), and resolves, so one bad image cannot fail the capture.
 */
export function usePlaceholder(event: Event | string): void {
  const img = typeof event === 'string' ? null : event.target;
  if (img instanceof HTMLImageElement && attrOf(img, 'src') !== IMAGE_PLACEHOLDER) {
    img.removeAttribute('srcset');
    img.setAttribute('src', IMAGE_PLACEHOLDER);
  }
}
