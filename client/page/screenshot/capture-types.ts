/**
 * Screenshot types, shared by the small loader in the main bundle (`../screenshot.ts`) and the
 * lazily loaded capture module (`./module.ts`, built to dist/pagehand-screenshot.js).
 */
import type { MappedElement, Rect, Ref } from '../page-types';

export interface ScreenshotOptions {
  /** Draw Set-of-Marks: each ref's box and number over the image. Default false. */
  marks?: boolean;
  /** The map elements to mark (the latest `map().elements`); default: a fresh map's. */
  elements?: readonly MappedElement[];
  /** Hard time budget for the whole call, module load included. Default 3000 ms. */
  timeoutMs?: number;
  /** Longest side of the image in pixels; never above 1280 (the default). */
  maxSide?: number;
  /** JPEG quality, 0–1. Default 0.75. */
  quality?: number;
  /**
   * Where to load the capture module from when the bundle did not come from a URL (a userscript
   * that inlines it). Default: `pagehand-screenshot.js` next to the bundle's own script URL.
   */
  moduleUrl?: string;
}

/** One ref's box in image pixels (clipped to the image), as drawn. */
export interface Mark {
  ref: Ref;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ScreenshotImage {
  /** `data:image/jpeg;base64,…` of the current viewport. */
  dataUrl: string;
  width: number;
  height: number;
  /** Wall time of the call. */
  ms: number;
  /** The drawn marks (empty without `marks: true`). */
  marks: Mark[];
  /** Elements of the page drawn into the picture (what shows in the viewport, not the whole page). */
  cloned: number;
}

/** The text-only fallback: no image, and why — the loop reports the reason once. */
export interface ScreenshotFailure {
  dataUrl: null;
  reason: string;
  width: 0;
  height: 0;
  ms: number;
  marks: [];
}

export type Screenshot = ScreenshotImage | ScreenshotFailure;

/** What the loader hands the capture module: plain data, already validated. */
export interface CaptureRequest {
  maxSide: number;
  quality: number;
  /** Boxes to mark, in top-viewport CSS pixels; empty for no marks. */
  marks: ReadonlyArray<{ ref: Ref; rect: Rect }>;
  /** Checked between steps and per node: true once the time budget is spent. */
  cancelled(): boolean;
  /** performance.now() by which slow resources (images) must have arrived. */
  resourceDeadline: number;
  /**
   * A subtree the site keeps from the agent (`data-pagehand="off"` or a deny selector): its box
   * stays in the picture (blank), its content does not. The deny selectors live in the main bundle,
   * so the module asks it.
   */
  denied(el: Element): boolean;
  /**
   * The zones' boxes in top-viewport CSS pixels, painted over once the picture is drawn: what a
   * zone itself paints (its background, generated content, an image or canvas it is) never
   * shows either.
   */
  zones(): ReadonlyArray<Rect>;
}

export interface CaptureResult {
  dataUrl: string;
  width: number;
  height: number;
  marks: Mark[];
  cloned: number;
}

/** The lazily loaded module's exports. */
export interface CaptureModule {
  capture(request: CaptureRequest): Promise<CaptureResult>;
}

/** The capture module's file name, next to dist/pagehand.js (build.ts writes it). */
export const MODULE_FILE = 'pagehand-screenshot.js';
