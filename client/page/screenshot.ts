/**
 * `pagehand.screenshot(options?)`: a JPEG of the current viewport, optionally with Set-of-Marks.
 *
 * This part lives in the main bundle and stays small: html-to-image and the drawing code are a
 * second file (dist/pagehand-screenshot.js) imported on first use from next to the bundle's own
 * URL, so the first load does not pay for a feature only vision models use. It enforces the
 * time budget and turns every failure into `{ dataUrl: null, reason }`: it never rejects and
 * never throws into the page, so the loop can go text-only and say why once.
 */
import { buildMap } from './map/map';
import type { PageSettings } from './settings';
import { MODULE_FILE, type CaptureModule, type Screenshot, type ScreenshotFailure, type ScreenshotOptions } from './screenshot/capture-types';

export type { Screenshot, ScreenshotOptions } from './screenshot/capture-types';

const DEFAULT_TIMEOUT_MS = 3_000;
const MAX_SIDE = 1_280;
const DEFAULT_QUALITY = 0.75;
/** Share of the budget image fetches may take; later ones get the placeholder. */
const RESOURCE_SHARE = 0.5;

/**
 * The bundle's own URL, known only while it first runs (document.currentScript) — when that
 * script is one of ours. Bundled into a site's own script (the npm entry), currentScript is the
 * site's `app.js`, and the module is not beside it: the caller names the proxy instead.
 */
const bundleUrl: string | undefined = (() => {
  try {
    const s = document.currentScript;
    return s instanceof HTMLScriptElement && isOurFile(s.src) ? s.src : undefined;
  } catch {
    return undefined;
  }
})();

/**
 * This module's own URL where it runs as one of our ES modules: the embed's agent, a module
 * script, has no currentScript. The one-file builds define it away (their script tag says).
 */
function moduleSelfUrl(): string | undefined {
  try {
    const u: unknown = import.meta.url;
    return typeof u === 'string' && isOurFile(u) ? u : undefined;
  } catch {
    return undefined;
  }
}

/** `…/pagehand.js`, `…/pagehand-agent.3f9a1c2b.js`, `…/pagehand.user.js`: files this project builds. */
export function isOurFile(src: string): boolean {
  return /\/pagehand[\w.-]*\.js(?:[?#]|$)/.test(src);
}

let loading: { url: string; module: Promise<CaptureModule> } | undefined;

function moduleUrl(explicit: string | undefined): string | null {
  try {
    if (explicit) return new URL(explicit, location.href).href;
    return besideBundle();
  } catch {
    return null;
  }
}

/**
 * The capture module next to the bundle's own URL, where it is deployed with it (the proxy,
 * or a site's own host); null when the bundle was not loaded over http(s) (a userscript, the
 * runner, an npm build): the caller then names a place, such as the proxy.
 */
export function besideBundle(): string | null {
  try {
    const base = bundleUrl ?? moduleSelfUrl();
    return base && /^https?:$/.test(new URL(base).protocol) ? new URL(MODULE_FILE, base).href : null;
  } catch {
    return null;
  }
}

/** One import per URL; a failed import is forgotten so a later call can try again. */
function loadModule(url: string): Promise<CaptureModule> {
  if (loading?.url !== url) {
    const module = import(/* webpackIgnore: true */ url) as Promise<CaptureModule>;
    loading = { url, module };
    module.catch(() => {
      if (loading?.module === module) loading = undefined;
    });
  }
  return loading.module;
}

const fail = (reason: string, t0: number): ScreenshotFailure => ({
  dataUrl: null,
  reason,
  width: 0,
  height: 0,
  ms: Math.round(performance.now() - t0),
  marks: [],
});

const message = (e: unknown): string => (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).slice(0, 200);

/** A JPEG of the viewport; `settings`' deny zones are painted over. */
export function screenshot(options: ScreenshotOptions | undefined, settings: PageSettings): Promise<Screenshot> {
  const t0 = performance.now();
  try {
    const o = options ?? {};
    const timeoutMs = o.timeoutMs! > 0 ? Number(o.timeoutMs) : DEFAULT_TIMEOUT_MS;
    const maxSide = Math.min(MAX_SIDE, o.maxSide! > 0 ? Math.round(Number(o.maxSide)) : MAX_SIDE);
    const quality = o.quality! > 0 && o.quality! <= 1 ? Number(o.quality) : DEFAULT_QUALITY;
    const url = moduleUrl(o.moduleUrl);
    if (!url)
      return Promise.resolve(
        fail('screenshots unavailable: the bundle was not loaded from a URL, so the screenshot module cannot be found (pass moduleUrl)', t0),
      );
    const elements = o.marks ? (o.elements ?? buildMap({}, settings).elements) : [];
    const marks = elements.map((e) => ({ ref: e.ref, rect: { ...e.rect } }));

    let cancelled = false;
    // html-to-image clones in one run of microtasks, during which no timer fires: the clone
    // itself checks the clock, so the budget holds even while the main thread is busy.
    const deadline = t0 + timeoutMs;
    const isCancelled = (): boolean => cancelled || (cancelled = performance.now() > deadline);
    const work = loadModule(url).then(
      (m) => {
        if (isCancelled()) throw new Error('cancelled');
        return m.capture({
          maxSide,
          quality,
          marks,
          cancelled: isCancelled,
          resourceDeadline: t0 + timeoutMs * RESOURCE_SHARE,
          denied: (el: Element) => settings.zones.denied(el),
          zones: () => settings.zones.boxes(),
        });
      },
      (e: unknown) => {
        throw new Error(`the screenshot module could not be loaded from ${url} (${message(e)})`);
      },
    );
    return new Promise<Screenshot>((resolve) => {
      const timer = setTimeout(() => {
        cancelled = true;
        resolve(fail(`screenshot took longer than its ${timeoutMs} ms budget`, t0));
      }, timeoutMs);
      work.then(
        (r) => {
          clearTimeout(timer);
          if (isCancelled()) return resolve(fail(`screenshot took longer than its ${timeoutMs} ms budget`, t0));
          resolve({ ...r, ms: Math.round(performance.now() - t0) });
        },
        (e: unknown) => {
          clearTimeout(timer);
          // After the deadline the promise is already settled; the late error goes nowhere.
          resolve(fail(cancelled ? `screenshot took longer than its ${timeoutMs} ms budget` : `screenshot failed: ${message(e)}`, t0));
        },
      );
    });
  } catch (e) {
    return Promise.resolve(fail(`screenshot failed: ${message(e)}`, t0));
  }
}
