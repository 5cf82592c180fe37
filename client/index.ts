/**
 * The injected bundle's entry. It defines exactly one global, `pagehand`, and nothing else.
 * Loading it twice keeps the first instance (a bookmarklet clicked again must not reset refs).
 */
import { createPageApi } from './page/api';
import { installHooks } from './page/hooks';

declare global {
  interface Window {
    pagehand?: ReturnType<typeof createPageApi>;
  }
}

if (!window.pagehand) {
  // At document start these reveal closed shadow roots and listener-only click targets.
  installHooks();
  Object.defineProperty(window, 'pagehand', {
    value: createPageApi(),
    configurable: true,
    enumerable: false,
    writable: false,
  });
}
