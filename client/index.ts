/**
 * The injected bundle's entry. It defines exactly one global, `pagehand`, and nothing else.
 * Loading it twice keeps the first instance (a bookmarklet clicked again must not reset refs).
 */
import { createAgentApi, type ScriptDefaults } from './agent/run';
import type { RunOptions } from './agent/types';
import { createPageApi } from './page/api';
import { installHooks } from './page/hooks';
import { installActivityHooks } from './page/settle';
import { createUi } from './ui/index';

declare global {
  interface Window {
    pagehand?: ReturnType<typeof createPageApi> & Pick<ReturnType<typeof createAgentApi>, 'run' | 'current'> & Pick<ReturnType<typeof createUi>, 'open' | 'close'>;
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
  return {
    proxy: data('proxy') ?? origin,
    token: data('token'),
    model: data('model'),
    lang: script.getAttribute('data-lang')?.trim() || undefined,
    embed: script.hasAttribute('data-pagehand-token') && !script.hasAttribute('data-pagehand-loader'),
  };
}

if (!window.pagehand) {
  // At document start these reveal closed shadow roots and listener-only click targets.
  installHooks();
  // Counts the page's fetch/XHR (and short timers during actions) for settle detection.
  installActivityHooks();
  const defaults = scriptDefaults();
  const agent = createAgentApi(defaults);
  // Runs with `ui` (the default) are shown by the overlay, which also answers their confirmations.
  const run = (task: string, options: RunOptions = {}) => {
    const h = agent.run(task, options);
    if (options.ui !== false) ui.attach(h);
    return h;
  };
  const ui = createUi({ run, current: agent.current, lang: defaults.lang });
  Object.defineProperty(window, 'pagehand', {
    // init: the site owner's configuration for every run on this page (tools, deny zones, …).
    value: Object.freeze({ ...createPageApi(), run, current: agent.current, init: agent.configure, open: ui.open, close: ui.close, toggle: ui.toggle }),
    configurable: true,
    enumerable: false,
    writable: false,
  });
  // A run saved before a navigation goes on here (in the overlay, unless it was started with ui: false).
  const resumed = agent.resume();
  if (resumed?.ui) ui.attach(resumed, true);
  // A site embed (a script tag with a token, not the bookmarklet's loader) shows its launcher.
  else if (defaults.embed) ui.launcher();
}
