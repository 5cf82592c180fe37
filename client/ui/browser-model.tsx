/**
 * The task box's choice of the browser's own model (Chrome's Prompt API): offered where the
 * browser has one (`LanguageModel`), for runs with no proxy and no key. Turned on, the panel
 * asks the browser whether the model is here and, when it must be downloaded, downloads it at
 * once (the user's click allows it) with the progress shown here, so the first task does not wait
 * unexplained; "unavailable" is said in words. The asking is the engine's (llm/browser-model.ts,
 * loaded on first use); this is only its view.
 */
import type { Strings } from './i18n';

/** What the browser said, or the download's progress (0–1); undefined while it is asked. */
export type BrowserModelState = 'unavailable' | 'downloadable' | 'downloading' | 'available' | number | undefined;

/** `toggle`: the panel's handler of a click on the box (only the user's own click changes it). */
export function BrowserModel({ t, on, state, toggle }: { t: Strings; on: boolean; state: BrowserModelState; toggle(e: Event): void }) {
  const words =
    state === undefined ? '' : typeof state === 'number' || state === 'downloading' ? t.browserModelProgress(+state || 0) : t.browserModelState[state];
  return (
    <div>
      <label>
        <input type="checkbox" checked={on} onClick={toggle} data-use-browser-model />
        {t.browserModel}
      </label>
      {on && words && (
        <p class="hint" role="status" data-browser-model>
          {words}
        </p>
      )}
    </div>
  );
}
