/**
 * The injected bundle's entry. It defines exactly one global, `pagehand`, and nothing else.
 * Loading it twice keeps the first instance (a bookmarklet clicked again must not reset refs).
 */
import { createAgentApi, type ScriptDefaults } from './agent/run';
import { createPageApi } from './page/api';
import { installHooks } from './page/hooks';
import { installActivityHooks } from './page/settle';

declare global {
  interface Window {
    pagehand?: ReturnType<typeof createPageApi> & ReturnType<typeof createAgentApi>;
  }
}

/** Defaults from the script tag that loaded the bundle: its data attributes, else its origin. */
function scriptDefaults(): ScriptDefaults {
  const script = document.currentScript as HTMLScriptElement | null;
  if (!script) return {};
  const data = (k: string): string | undefined => script.getAttribute(`data-pagehand-${k}`)?.trim() || undefined;
  let origin: string | undefined;
  try {
    if (script.src) origin = new URL(script.src, location.href).origin;
  } catch {
    origin = undefined;
  }
  return { proxy: data('proxy') ?? origin, token: data('token'), model: data('model'), lang: script.getAttribute('data-lang')?.trim() || undefined };
}

if (!window.pagehand) {
  // At document start these reveal closed shadow roots and listener-only click targets.
  installHooks();
  // Counts the page's fetch/XHR (and short timers during actions) for settle detection.
  installActivityHooks();
  const agent = createAgentApi(scriptDefaults());
  Object.defineProperty(window, 'pagehand', {
    value: Object.freeze({ ...createPageApi(), run: agent.run, current: agent.current }),
    configurable: true,
    enumerable: false,
    writable: false,
  });
  // A run saved before a navigation goes on here.
  agent.resume();
}
