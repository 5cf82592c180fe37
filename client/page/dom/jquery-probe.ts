/**
 * Handlers jQuery keeps in its data store (map/walk/jquery-handlers.ts) as click cues, in the
 * world the bundle runs in. In the main world the store is read directly. The runner's isolated
 * world cannot read it (a node's own properties are per world): there the page-world part
 * answers, through the DOM, the listener probe (hooks.ts) and a probe of its own that asks for
 * jQuery's handlers only (a list whose items jQuery handles is a list of choices). Apart from
 * hooks.ts so that the embed loader, which ships the hooks, does not carry it.
 */
import { CLICK_LISTENER_PROBE, cuesFromPageWorld } from './hooks';
import { jqueryClickHandler } from '../map/walk/jquery-handlers';

/** Dispatched (cancelable, composed) by the isolated world on an element: cancelled when jQuery keeps a click-like handler for it. */
const JQUERY_HANDLER_PROBE = 'pagehand-runner-jquery-handler';

/** The runner's page-world part: answers both probes for jQuery's handlers. */
export function answerJqueryProbes(win: Window & typeof globalThis = window): void {
  const path = win.Event.prototype.composedPath;
  const answer = (e: Event) => {
    const el = path.call(e)[0];
    if (el instanceof win.Element && jqueryClickHandler(el)) e.preventDefault();
  };
  win.addEventListener(CLICK_LISTENER_PROBE, answer, true);
  win.addEventListener(JQUERY_HANDLER_PROBE, answer, true);
}

/** jQuery keeps a click-like handler for the element (bound on it, or delegated to an ancestor). */
export function hasJqueryHandler(el: Element): boolean {
  if (cuesFromPageWorld()) return !el.dispatchEvent(new Event(JQUERY_HANDLER_PROBE, { cancelable: true, composed: true }));
  return jqueryClickHandler(el);
}

/** The same, in the main world only (in the isolated world the listener probe already answers for it). */
export function ownWorldJqueryHandler(el: Element): boolean {
  return !cuesFromPageWorld() && jqueryClickHandler(el);
}
