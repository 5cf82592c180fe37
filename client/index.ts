/**
 * The injected bundle's entry. It defines exactly one global, `pagehand`, and nothing else.
 * Loading it twice keeps the first instance (a bookmarklet clicked again must not reset refs).
 */
import { createPageApi } from './page/api';
import { installHooks } from './page/hooks';
import { installActivityHooks } from './page/settle';

declare global {
  interface Window {
    pagehand?: ReturnType<typeof createPageApi>;
  }
}

if (!window.pagehand) {
  // At document start these reveal closed shadow roots and listener-only click targets.
  installHooks();
  // Counts the page's fetch/XHR (and short timers during actions) for settle detection.
  installActivityHooks();
  Object.defineProperty(window, 'pagehand', {
    value: createPageApi(),
    configurable: true,
    enumerable: false,
    writable: false,
  });
}
