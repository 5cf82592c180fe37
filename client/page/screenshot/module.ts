/**
 * The capture module (dist/pagehand-screenshot.js, imported on first use by ../screenshot.ts).
 *
 * html-to-image clones the page into an SVG foreignObject with computed styles inlined and
 * draws it on a canvas. We run its steps ourselves (what its toCanvas does, minus web fonts):
 * the clone is kept to the viewport (./prune.ts) and made in slices that let the page breathe,
 * with scrolled containers at their scroll (./clone.ts); the root is moved by the page's
 * scroll, and the picture is drawn straight at the output scale (long side ≤ maxSide); then the
 * marks and a JPEG. The page itself is only read: the clone, its images and the canvas are ours.
 *
 * The html-to-image modules are imported by path (its public toCanvas hides the clone); the
 * version is pinned by package-lock.json.
 */
import { applyStyle } from 'html-to-image/es/apply-style';
import { embedImages } from 'html-to-image/es/embed-images';
import type { Options } from 'html-to-image/es/types';
import { createImage, nodeToDataURL } from 'html-to-image/es/util';
import { drawMarks } from './marks';
import { IMAGE_PLACEHOLDER, usePlaceholder } from './placeholder';
import { cloneSliced } from './clone';
import { viewportFilter } from './prune';
import { styleProperties } from './styles';
import type { CaptureRequest, CaptureResult } from './capture-types';

export async function capture(req: CaptureRequest): Promise<CaptureResult> {
  const view = { width: window.innerWidth, height: window.innerHeight };
  if (!view.width || !view.height) throw new Error('the viewport has no size');
  const scale = Math.min(1, req.maxSide / Math.max(view.width, view.height));
  const width = Math.max(1, Math.round(view.width * scale));
  const height = Math.max(1, Math.round(view.height * scale));
  const check = (): void => {
    if (req.cancelled()) throw new Error('cancelled');
  };

  // Slow images give way to the placeholder rather than sink the whole capture.
  const images = new AbortController();
  const stopImages = setTimeout(() => images.abort(), Math.max(0, req.resourceDeadline - performance.now()));
  const root = document.documentElement;
  const rootStyle = getComputedStyle(root);
  const background = pageBackground();
  const keep = viewportFilter(view, req.cancelled, req.denied);
  const options: Options = {
    width: view.width,
    height: view.height,
    backgroundColor: background,
    // The clone is laid out from the document's top left: move it up and left by the scroll
    // offset. Relative positioning makes the root the containing block of absolutely
    // positioned content, so that moves too (their offsets are resolved px from the same
    // origin); fixed content stays where the viewport has it. The page's own root size
    // (scrollbar excluded) replaces the viewport size html-to-image would give it.
    style: { position: 'relative', top: `${-window.scrollY}px`, left: `${-window.scrollX}px`, width: rootStyle.width, height: rootStyle.height },
    filter: keep,
    includeStyleProperties: styleProperties(),
    imagePlaceholder: IMAGE_PLACEHOLDER,
    onImageErrorHandler: usePlaceholder,
    includeQueryParams: true,
    fetchRequestInit: { signal: images.signal, cache: 'force-cache', credentials: 'same-origin' },
  };
  // Deny zones are painted over where they are when the capture starts and where they are
  // once it is drawn (the page may move meanwhile).
  const zones = [...req.zones()];
  let picture: HTMLImageElement;
  let cloned: number;
  try {
    const { root: clone, elements } = await cloneSliced(root, options, keep, req.cancelled, req.denied);
    cloned = elements;
    check();
    // Web fonts are not embedded: they would be fetched and inlined on every capture (and
    // html-to-image writes into the page's style sheets to do it); fallback fonts read as well.
    await embedImages(clone, options);
    check();
    applyStyle(clone, options);
    await nextTask();
    const svg = await nodeToDataURL(clone, view.width, view.height);
    await nextTask();
    picture = await createImage(svg);
  } finally {
    clearTimeout(stopImages);
  }
  check();

  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas context');
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, width, height);
  ctx.drawImage(picture, 0, 0, width, height);
  coverZones(ctx, [...zones, ...req.zones()], scale, { width, height }, background);
  const marks = req.marks.length ? drawMarks(ctx, req.marks, scale, { width, height }) : [];
  const dataUrl = await jpeg(canvas, req.quality);
  check();
  if (!dataUrl.startsWith('data:image/jpeg')) throw new Error('this browser cannot encode JPEG');
  return { dataUrl, width, height, marks, cloned };
}

/** Each deny zone's box blanked with the page's own background, as if nothing were there
 *  (rounded outwards, so no edge of it shows). */
function coverZones(
  ctx: CanvasRenderingContext2D,
  zones: ReadonlyArray<{ x: number; y: number; width: number; height: number }>,
  scale: number,
  image: { width: number; height: number },
  background: string,
): void {
  ctx.fillStyle = background;
  for (const z of zones) {
    const x0 = Math.max(0, Math.floor(z.x * scale) - 1);
    const y0 = Math.max(0, Math.floor(z.y * scale) - 1);
    const x1 = Math.min(image.width, Math.ceil((z.x + z.width) * scale) + 1);
    const y1 = Math.min(image.height, Math.ceil((z.y + z.height) * scale) + 1);
    if (x1 > x0 && y1 > y0) ctx.fillRect(x0, y0, x1 - x0, y1 - y0);
  }
}

/** Each heavy step in a task of its own, so none adds to another's length. */
const nextTask = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

/** toBlob encodes off the main thread (toDataURL would block it); read back as a data URL. */
function jpeg(canvas: HTMLCanvasElement, quality: number): Promise<string> {
  return new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => {
        if (!blob) return reject(new Error('the canvas could not be encoded'));
        const reader = new FileReader();
        reader.onload = () => resolve(String(reader.result));
        reader.onerror = () => reject(reader.error ?? new Error('the image could not be read'));
        reader.readAsDataURL(blob);
      },
      'image/jpeg',
      quality,
    );
  });
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
