/**
 * Dropdowns built from plain elements: a clickable box or a `▾` trigger whose options are
 * like elements (same tag, same first class, or classless `div`s) shown after the click —
 * inside the box, right after the trigger, or in a list of their own with one listener on it.
 * Each choice is a target of its own (read as an option), instead of folding into the
 * trigger's name ("▾ 5ft 9in 5ft 10in …") or into one listener target for the whole list.
 *
 * A list is taken for choices when its items are alike and short, none holds a target of its
 * own, and something says it is to be picked from: a click cue on the list itself (one
 * delegated listener, a framework's handler, an on* property), or its items are handled by
 * jQuery, or it is a popup (absolutely
 * positioned) inside a clickable, or it comes right after a clickable trigger.
 */
import { hasClickListener } from '../../dom/hooks';
import { hasJqueryHandler, ownWorldJqueryHandler } from '../../dom/jquery-probe';
import { frameworkClickHandler } from './framework-handlers';
import { firstClass } from './first-class';
import { hasHandlerProp, HOLDS_TARGET } from './target';
import { attrOf, ownerDocumentOf, hasAttrOf } from '../../dom/proto';

/** Text longer than this makes an item content, not a choice. */
const CHOICE_TEXT_MAX = 80;
const MAX_CHOICES = 500;

/**
 * The element is a list of choices (see the module comment). `popupInClickable`: it is
 * absolutely positioned or fixed inside a clickable (the dropdown's box); `lastClickable`: the
 * clickable listed last before it (its trigger, if that is its previous sibling).
 */
export function isChoiceList(list: Element, popupInClickable: boolean, lastClickable: Element | null): boolean {
  const n = list.childElementCount;
  if (n < 2 || n > MAX_CHOICES) return false;
  // Most containers hold unlike children: told apart by the first and last before any cue is read.
  const first = list.firstElementChild!;
  const last = list.lastElementChild!;
  if (first.localName !== last.localName) return false;
  const a = attrOf(first, 'class');
  // `li`s each handled by jQuery (bound on each, or delegated to the list: Selectric, menus) are
  // choices whatever their state classes (`selected`, `last`).
  const jqItems = first.localName === 'li' && hasJqueryHandler(first);
  if (!jqItems && a !== attrOf(last, 'class') && firstClass(first) !== firstClass(last)) return false;
  const cue =
    jqItems ||
    popupInClickable ||
    hasClickListener(list) ||
    hasHandlerProp(list) ||
    frameworkClickHandler(list) ||
    ownWorldJqueryHandler(list) ||
    (lastClickable !== null && list.previousElementSibling === lastClickable && looksLikeTrigger(lastClickable));
  return cue && likeItems(list, jqItems);
}

/** All children alike (tag and first class, unless `anyClass`; classless ones only as three or more) with short text and no target inside. */
export function likeItems(list: Element, anyClass = false): boolean {
  const first = list.firstElementChild;
  if (!first || list.childElementCount < 2 || list.childElementCount > MAX_CHOICES) return false;
  const tag = first.localName;
  const cls = firstClass(first);
  if (!cls && tag !== 'li' && list.childElementCount < 3) return false;
  for (let c: Element | null = first; c; c = c.nextElementSibling) {
    if (c.localName !== tag || (!anyClass && firstClass(c) !== cls)) return false;
    const text = (c.textContent ?? '').trim();
    if (!text || text.length > CHOICE_TEXT_MAX) return false;
    if (c.matches(HOLDS_TARGET) || c.querySelector(HOLDS_TARGET)) return false;
  }
  return true;
}

/** Carets a dropdown's trigger draws (in its text or as ::before/::after content). */
const CARET = /[▾▼⌄⏷▿⯆⮟🞃]/u;
const CARET_CLASS = /caret|chevron|arrow|dropdown|select/i;

/**
 * A clickable that says it opens a list: aria-haspopup or aria-expanded, a caret in its text,
 * its ::before/::after content or a child's class.
 */
export function looksLikeTrigger(el: Element): boolean {
  if (hasAttrOf(el, 'aria-haspopup') || hasAttrOf(el, 'aria-expanded')) return true;
  if (CARET.test(el.textContent ?? '')) return true;
  const win = ownerDocumentOf(el).defaultView;
  if (win) for (const pseudo of ['::after', '::before']) if (CARET.test(win.getComputedStyle(el, pseudo).content)) return true;
  if (CARET_CLASS.test(attrOf(el, 'class') ?? '')) return true;
  for (let c = el.firstElementChild, i = 0; c && i < 4; c = c.nextElementSibling, i++) if (CARET_CLASS.test(attrOf(c, 'class') ?? '')) return true;
  return false;
}
