/**
 * `wait {seconds?, text?}`: wait for text to appear on the page (checked whenever the DOM
 * changes, bounded by `seconds` or 10 s), or simply for a number of seconds (at most 30).
 */
import { nativeClearTimeout, nativeSetTimeout } from '../settle/settle';
import { MAX_WAIT_SECONDS, type ToolArgs } from './args';
import type { Handler } from './context';
import { readableText } from './text';
import type { PageSettings } from '../settings';

const DEFAULT_TEXT_WAIT_S = 10;
/** The deep (shadow/frame-aware) text check is costlier: at most this often. */
const DEEP_CHECK_MS = 250;

/**
 * The needle is in the page's readable text (through shadow roots and same-origin frames) —
 * never counting deny zones, so waiting for a zone's words behaves exactly as waiting for words
 * that are not on the page.
 */
function pageHasText(needle: string, settings: PageSettings): boolean {
  const body = document.body;
  return !!body && readableText(body, settings).toLowerCase().replace(/\s+/g, ' ').includes(needle);
}

/** innerText holds the needle: quick, but it reads deny zones too, so it is only a hint that
 *  the real check is worth making now rather than at its throttled time. */
function hintsText(needle: string): boolean {
  return (document.body?.innerText || '').toLowerCase().replace(/\s+/g, ' ').includes(needle);
}

const secs = (ms: number): string => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

export const wait: Handler<ToolArgs['wait']> = async ({ seconds, text }, ctx) => {
  const capped = seconds !== undefined && seconds > MAX_WAIT_SECONDS;
  const limitS = Math.min(seconds ?? DEFAULT_TEXT_WAIT_S, MAX_WAIT_SECONDS);
  ctx.begin();
  const start = performance.now();
  if (!text) {
    await new Promise((r) => nativeSetTimeout(r, limitS * 1000));
    return { message: `Waited ${limitS} s${capped ? ` (the most wait allows is ${MAX_WAIT_SECONDS} s)` : ''}.`, settle: false };
  }
  const needle = text.toLowerCase().replace(/\s+/g, ' ');
  // The text reader loads on first use (read.ts): once, before the first check.
  if (pageHasText(needle, ctx.settings)) return { message: `The text "${text}" is already on the page.`, settle: false };
  const found = await new Promise<boolean>((resolve) => {
    let lastDeep = performance.now();
    // A hint that led nowhere (the words are in a deny zone, or hidden) is not followed again:
    // the throttle alone decides, so a busy page is not read in full on every change.
    let hintMissed = false;
    let deferred: ReturnType<typeof setTimeout> | undefined;
    const finish = (v: boolean): void => {
      observer.disconnect();
      nativeClearTimeout(deadline);
      if (deferred !== undefined) nativeClearTimeout(deferred);
      resolve(v);
    };
    const check = (): void => {
      const now = performance.now();
      const due = now - lastDeep >= DEEP_CHECK_MS;
      const hinted = !due && !hintMissed && hintsText(needle);
      if (due || hinted) {
        lastDeep = now;
        if (pageHasText(needle, ctx.settings)) return finish(true);
        if (hinted) hintMissed = true;
      }
      // A change we could not check yet: look again once the throttle allows.
      if (!due && !hinted && deferred === undefined) {
        deferred = nativeSetTimeout(() => {
          deferred = undefined;
          check();
        }, DEEP_CHECK_MS);
      }
    };
    const observer = new MutationObserver(check);
    observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    const deadline = nativeSetTimeout(() => finish(pageHasText(needle, ctx.settings)), limitS * 1000);
  });
  const took = secs(performance.now() - start);
  if (!found) return { ok: false, message: `The text "${text}" did not appear within ${limitS} s.`, settle: false };
  return { message: `The text "${text}" appeared after ${took}.`, settle: false };
};
