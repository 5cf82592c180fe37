/**
 * The cross-origin frame bridge, as the entry installs it: this page answers its parent (when
 * it is a frame and the site listed the parent's origin), with its map's content lines, its
 * listed elements and their risk facts, and runs the parent's calls here. The parent half needs
 * no installing: the map and `act` use it when the site listed a frame's origin (parent.ts), or
 * when the userscript runs here (its frames answer only a proof of its key: sealed-parent.ts
 * asks, sealed-child.ts answers).
 */
import { answerParent } from './child';
import { childDeps } from './child-deps';

import type { PageSettings } from '../settings';
import type { FactsOf } from './child-deps';

/** `settings`: the page's own (its `init`), read at each request; `facts`: the risk check's reading of a call (the safety layer's). */
export function installFrameBridge(settings: () => PageSettings, facts: FactsOf): void {
  answerParent(childDeps(settings, facts), () => settings().frames);
}
