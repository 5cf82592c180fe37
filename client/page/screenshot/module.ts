/**
 * The capture module (dist/pagehand-screenshot.js, imported on first use by ../screenshot.ts).
 *
 * html-to-image clones the page into an SVG foreignObject with every computed style inlined and
 * draws it on a canvas; we keep the clone to the viewport (./prune.ts), shift it by the scroll
 * offset, render it straight at the output scale (long side ≤ maxSide), draw the marks and
 * encode a JPEG. The page itself is only read: the clone, its images and the canvas are ours.
 */
import { toCanvas } from 'html-to-image';
import { drawMarks } from './marks';
import { IMAGE_PLACEHOLDER, usePlaceholder } from './placeholder';
import { viewportFilter } from './prune';
import { styleProperties } from './styles';
import type { CaptureRequest, CaptureResult } from './types';

export async function capture(req: CaptureRequest): Promise<CaptureResult> {
  const view = { width: window.innerWidth, height: window.innerHeight };
  if (!view.width || !view.height) throw new Error('the viewport has no size');
  const scale = Math.min(1, req.maxSide / Math.max(view.width, view.height));
  const width = Math.max(1, Math.round(view.width * scale));
  const height = Math.max(1, Math.round(view.height * scale));

  // Slow images give way to the placeholder rather than sink the whole capture.
  const images = new AbortController();
  const stopImages = setTimeout(() => images.abort(), Math.max(0, req.resourceDeadline - performance.now()));
  const root = document.documentElement;
  const rootStyle = getComputedStyle(root);
  let canvas: HTMLCanvasElement;
  try {
    canvas = await toCanvas(root, {
      width: view.width,
      height: view.height,
      canvasWidth: width / scale,
      canvasHeight: height / scale,
      pixelRatio: scale,
      skipAutoScale: true,
      backgroundColor: pageBackground(),
      // The clone is laid out from the document's top left: move it up and left by the scroll
      // offset. Relative positioning makes the root the containing block of absolutely
      // positioned content, so that moves too (their offsets are resolved px from the same
      // origin); fixed content stays where the viewport has it. html-to-image sets the root's
      // size to the viewport's; the page's own (scrollbar excluded) keeps the layout as it is.
      style: { position: 'relative', top: `${-window.scrollY}px`, left: `${-window.scrollX}px`, width: rootStyle.width, height: rootStyle.height },
      filter: viewportFilter(view, req.cancelled),
      includeStyleProperties: styleProperties(),
      // Web fonts would be fetched and inlined on every capture (and html-to-image writes
      // into the page's style sheets to do it); the fallback fonts read just as well.
      skipFonts: true,
      imagePlaceholder: IMAGE_PLACEHOLDER,
      onImageErrorHandler: usePlaceholder,
      includeQueryParams: true,
      fetchRequestInit: { signal: images.signal, cache: 'force-cache', credentials: 'same-origin' },
    });
  } finally {
    clearTimeout(stopImages);
  }
  if (req.cancelled()) throw new Error('cancelled');

  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas context');
  const marks = req.marks.length ? drawMarks(ctx, req.marks, scale, { width: canvas.width, height: canvas.height }) : [];
  const dataUrl = canvas.toDataURL('image/jpeg', req.quality);
  if (!dataUrl.startsWith('data:image/jpeg')) throw new Error('this browser cannot encode JPEG');
  return { dataUrl, width: canvas.width, height: canvas.height, marks };
}

/** What shows behind the page: the root's background, else the body's, else white. */
function pageBackground(): string {
  for (const el of [document.documentElement, document.body]) {
    if (!el) continue;
    const c = getComputedStyle(el).backgroundColor;
    if (c && c !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(c)) return c;
  }
  return '#fff';
}
