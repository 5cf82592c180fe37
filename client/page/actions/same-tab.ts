/**
 * Links and forms that would open a new tab — `target="_blank"`, a window name, or a
 * `<base target>` — open in this tab while an action runs. The agent lives in this tab and
 * could not follow the new one; and a new tab from a synthetic click, long after the user's
 * last gesture, is usually blocked as a popup, so the click would seem to do nothing.
 *
 * Right before the default action (a capture listener for `click` and `submit`), the element's
 * target becomes `_self`; it is put back as soon as the dispatch is over (a microtask), and at
 * the latest when the action ends. A target naming a frame of this page is left alone.
 */
import { isElement, tag } from './dom';
import { ownerDocumentOf, attrOf, hasAttrOf } from '../dom/proto';

export interface SameTabGuard {
  /** Whether a link or form was kept in this tab during the action. */
  kept(): boolean;
  stop(): void;
}

/** Whether `target` (an attribute value) opens another browsing context than this page's. */
function opensNewTab(target: string | null, doc: Document): boolean {
  if (target === null) return false;
  const t = target.trim().toLowerCase();
  if (t === '' || t === '_self' || t === '_top' || t === '_parent') return false;
  if (t === '_blank') return true;
  // A named frame of this page is navigated in place.
  for (const f of doc.querySelectorAll('iframe[name], frame[name]')) if (attrOf(f, 'name')?.toLowerCase() === t) return false;
  return true;
}

/** The target an element's own attribute gives, else the document's `<base target>`. */
function targetOf(el: Element, attr: 'target' | 'formtarget'): string | null {
  if (hasAttrOf(el, attr)) return attrOf(el, attr);
  return ownerDocumentOf(el).querySelector('base[target]')?.getAttribute('target') ?? null;
}

/** Keeps new-tab links and forms in this tab, in these windows, until `stop()`. */
export function keepInThisTab(wins: readonly Window[]): SameTabGuard {
  const swapped: Array<[Element, string, string | null]> = [];
  let kept = false;
  const restore = (): void => {
    for (const [el, attr, old] of swapped.splice(0)) {
      if (old === null) el.removeAttribute(attr);
      else el.setAttribute(attr, old);
    }
  };
  const swap = (el: Element, attr: 'target' | 'formtarget'): void => {
    swapped.push([el, attr, attrOf(el, attr)]);
    el.setAttribute(attr, '_self');
    kept = true;
    queueMicrotask(restore);
  };
  const onClick = (e: Event): void => {
    const link = e.composedPath().find((n): n is Element => isElement(n) && (tag(n) === 'a' || tag(n) === 'area') && hasAttrOf(n, 'href'));
    if (link && opensNewTab(targetOf(link, 'target'), ownerDocumentOf(link))) swap(link, 'target');
  };
  const onSubmit = (e: Event): void => {
    const form = e.target;
    if (!isElement(form) || tag(form) !== 'form') return;
    // A submit button's formtarget wins over the form's target.
    const submitter = (e as SubmitEvent).submitter;
    if (submitter && hasAttrOf(submitter, 'formtarget')) {
      if (opensNewTab(attrOf(submitter, 'formtarget'), ownerDocumentOf(form))) swap(submitter, 'formtarget');
    } else if (opensNewTab(targetOf(form, 'target'), ownerDocumentOf(form))) swap(form, 'target');
  };
  for (const w of wins) {
    w.addEventListener('click', onClick, true);
    w.addEventListener('submit', onSubmit, true);
  }
  return {
    kept: () => kept,
    stop: () => {
      for (const w of wins) {
        w.removeEventListener('click', onClick, true);
        w.removeEventListener('submit', onSubmit, true);
      }
      restore();
    },
  };
}
