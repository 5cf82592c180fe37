/**
 * What kind of target an element is, decided from what the walk has
 * already read (tag, role, computed cursor) plus, for the rarer cases, a few attributes.
 *
 * Strong cues list an element on their own: native controls, interactive ARIA roles, the root of
 * a contenteditable, opaque media, the outermost `cursor:pointer` element of a cluster. Weak
 * cues (tabindex, on* handlers) need a second one. Inside a clickable row, children fold into it
 * unless they are targets of their own: a handler, role or label, an icon-only control (tree
 * toggle, chip "×", kebab menu), or one item of a list of like items (a custom select's open list).
 */
import { hasClickListener } from '../../dom/hooks';
import { ownWorldJqueryHandler } from '../../dom/jquery-probe';
import { clippedAway } from './clip';
import { frameworkClickHandler, isFrameworkRoot } from './framework-handlers';
import { treeRow, type TreeRow } from './tree';
import type { Ctx, ElementItem, Reason } from './items';
import type { Zones } from '../../settings';
import { ownerDocumentOf, parentElementOf, attrOf, nodeTypeOf, nextSiblingOf, firstChildOf, hasAttrOf } from '../../dom/proto';

// ARIA widget roles that make an element a target for the model.
const INTERACTIVE_ROLES = new Set([
  'button',
  'link',
  'checkbox',
  'radio',
  'switch',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'combobox',
  'textbox',
  'searchbox',
  'slider',
  'spinbutton',
  'listbox',
  'treeitem',
  'gridcell',
  'scrollbar',
]);
// Roles that give an element a cue of its own (for tabindex/handler-only elements).
// A dialog is a window, not a control: jQuery UI's takes a mousedown to come to the front.
const NON_CUE_ROLES = new Set(['none', 'presentation', 'generic', 'dialog', 'alertdialog']);
const NATIVE_TAGS = new Set(['button', 'select', 'textarea']);
/** Native controls whose content is their label, never a tree. */
const NATIVE_HOLDERS = new Set(['a', 'button', 'summary', 'label', 'select', 'textarea']);

/** Words in a class or id that say "this small thing is a control"; the first found names it. */
export const CONTROL_WORDS = [
  'expand',
  'collapse',
  'close',
  'remove',
  'delete',
  'clear',
  'dismiss',
  'trash',
  'kebab',
  'more',
  'menu',
  'dots',
  'ellipsis',
  'edit',
  'cancel',
  'toggle',
  'hitarea',
];
const CONTROL_WORD = new RegExp(CONTROL_WORDS.join('|'), 'i');
/** Glyphs that are controls when they stand alone: close/remove, more (vertical/horizontal dots). */
const CONTROL_GLYPHS = /^[×✕✖✗⨯⋮⋯…︙⁝⠇]$/;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
/** An icon target is at most this big (CSS px, each side). */
export const ICON_MAX = 48;
/** An empty box drawn only by a background image is an icon up to this size; bigger ones are
 *  avatars and thumbnails (decoration of the row). */
export const BACKGROUND_ICON_MAX = 24;
/** Targets of their own: an element holding one is a container, not a list item or label. */
export const HOLDS_TARGET =
  'a[href],button,input,select,textarea,[role=button],[role=link],[role=option],[role=menuitem],[role=checkbox],[tabindex]:not([tabindex="-1"])';
/** Text of its own at most this long makes an element a list item or listener-only target. */
const SHORT_TEXT = 80;
/** A listener-only target is at most this tall: taller ones are containers (delegation). */
export const LISTENER_MAX_HEIGHT = 200;

export interface Target {
  reason: Reason;
  opaque?: ElementItem['opaque'];
  /** Icon-only, inside a clickable row: listed only when its box is icon-sized (this many px). */
  icon?: number;
  /** Its only cue is a click listener: listed only when its box is not a container's. */
  listenerOnly?: boolean;
  /** A <label> that is the only visible way to its control (a custom checkbox, radio or file picker). */
  standsFor?: HTMLInputElement;
  /** A row of a tree built without ARIA (walk/tree.ts). */
  tree?: TreeRow;
  /** One choice of a list of like items a dropdown shows (read as an option). */
  choice?: boolean;
}

/** `attrs`: the element has any attribute (contenteditable, tabindex, aria-label are read only then). */
export function classify(
  el: Element,
  tag: string,
  role: string,
  pointer: boolean,
  focused: boolean,
  cs: CSSStyleDeclaration,
  parent: Ctx,
  zones: Zones,
  attrs = true,
): Target | null {
  const native = nativeReason(el, tag);
  if (native) return { reason: native };
  if (role && INTERACTIVE_ROLES.has(role)) return { reason: 'role' };
  if (attrs && hasAttrOf(el, 'contenteditable') && !parent.parentEditable && (el as HTMLElement).isContentEditable) return { reason: 'editable' };
  if (tag === 'canvas' || tag === 'video' || tag === 'embed' || tag === 'object') {
    return { reason: 'opaque', opaque: tag === 'object' ? 'embed' : (tag as 'canvas' | 'video' | 'embed') };
  }
  // A label names its control and forwards clicks to it: it is no target of its own, unless the
  // control shows nothing (display:none, a 1px or clipped box) and the label is the way to it.
  const control = tag === 'label' ? (el as HTMLLabelElement).control : null;
  if (control) {
    const standsFor = standInControl(control, zones);
    if (standsFor) return { reason: 'pointer', standsFor };
  }
  if (tag !== 'html' && tag !== 'body' && !control) {
    // One of a dropdown's choices (the walk found its list: walk/choices.ts).
    if (parent.choices !== null && parent.choices === parentElementOf(el)) return { reason: 'pointer', choice: true };
    const inClickable = parent.clickable !== null;
    const tabbable = attrs && hasAttrOf(el, 'tabindex') && (el as HTMLElement).tabIndex >= 0;
    const roleCue = !!role && !NON_CUE_ROLES.has(role);
    // A listener the hooks saw or a handler a framework (or jQuery's store) keeps for the node; or an on* property.
    const listener = hasClickListener(el) || frameworkClickHandler(el) || ownWorldJqueryHandler(el);
    // An on* property alone decides nothing below for a plain element (no pointer, tab stop or
    // role, outside any clickable): its four reads are spared for most of a page's elements.
    const handler = listener || ((pointer || tabbable || roleCue || inClickable) && hasHandlerProp(el));
    const signals = (tabbable ? 1 : 0) + (handler ? 1 : 0);
    // A drag handle (a move/grab cursor: a dialog's title bar) holding controls is not one of
    // them: the controls are the targets, named by their own words.
    if (pointer && cs.cursor !== 'pointer' && !roleCue && el.querySelector(HOLDS_TARGET)) return focused ? { reason: 'focus' } : null;
    if (pointer && !parent.parentPointer && !(inClickable && !handler && !roleCue && !(attrs && hasAttrOf(el, 'aria-label')))) return { reason: 'pointer' };
    if (signals > 0 && (signals > 1 || pointer || roleCue) && !(inClickable && !handler && !roleCue)) return { reason: 'handler' };
    // Inside a button or link, an icon or a line is part of it (one control, one target).
    if (inClickable && pointer && !isControl(parent.clickable!)) {
      const icon = iconControl(el, tag, cs, parent.clickable!);
      if (icon) return { reason: 'pointer', icon };
      if (isListItem(el, tag)) return { reason: 'pointer' };
    }
    // Inside a clickable tree, each row at every depth (a folder's, a file's) is its own target
    // (a link or a button holds no tree: nothing to look for inside those).
    if (inClickable && !NATIVE_HOLDERS.has(parent.clickable!.localName)) {
      const tree = treeRow(el, rawText);
      if (tree) return { reason: 'pointer', tree };
    }
    // A listener added by the page (hooks at document start) on an element with a short text of
    // its own is a target; delegation on body, document or big containers is not.
    // So is one whose handler a framework keeps on the node (delegation: React, Vue, Svelte…).
    // A box with no text of its own may be named by its tooltip alone ("Right click me!").
    if (!inClickable && listener && (hasShortOwnText(el) || (attrs && titleOnly(el))) && !el.querySelector(HOLDS_TARGET) && !isFrameworkRoot(el))
      return { reason: 'handler', listenerOnly: true };
  }
  if (focused && tag !== 'body' && tag !== 'html') return { reason: 'focus' };
  return null;
}

/** A button or a link: what it holds is its label, never a target of its own. */
function isControl(el: Element): boolean {
  const tag = el.localName;
  if (tag === 'button' || (tag === 'a' && hasAttrOf(el, 'href'))) return true;
  const role = attrOf(el, 'role');
  return role === 'button' || role === 'link';
}

/** Checkable and file inputs that custom widgets hide behind their label. */
const STAND_IN_TYPES = new Set(['checkbox', 'radio', 'file']);

/**
 * The label's control when the label must stand in for it: a checkbox, radio or file input
 * that shows nothing itself — never one in a deny zone (its label stays a plain label). A
 * transparent control with a box is listed itself, at its label's place (walk.ts).
 */
export function standInControl(control: Element, zones: Zones): HTMLInputElement | null {
  if (control.localName !== 'input' || !STAND_IN_TYPES.has((control as HTMLInputElement).type) || zones.inside(control)) return null;
  const r = control.getBoundingClientRect();
  if (r.width > 1 && r.height > 1) {
    const cs = ownerDocumentOf(control).defaultView?.getComputedStyle(control);
    if (!cs || (cs.visibility === 'visible' && !clippedAway(cs, cs.position))) return null;
  }
  return control as HTMLInputElement;
}

function nativeReason(el: Element, tag: string): Reason | null {
  if (NATIVE_TAGS.has(tag)) return 'native';
  if (tag === 'a') return hasAttrOf(el, 'href') ? 'native' : null;
  if (tag === 'input') return (el as HTMLInputElement).type === 'hidden' ? null : 'native';
  if (tag === 'summary') {
    const details = parentElementOf(el);
    return details?.localName === 'details' && details.querySelector(':scope > summary') === el ? 'native' : null;
  }
  if (tag === 'audio') return hasAttrOf(el, 'controls') ? 'native' : null;
  return null;
}

/** An on* handler property (a weak cue: it needs a second one). React's no-op on its root is none. */
export function hasHandlerProp(el: Element): boolean {
  const h = el as HTMLElement;
  return (h.onclick != null && !isFrameworkRoot(el)) || h.onmousedown != null || h.onpointerdown != null || h.onmouseup != null;
}

/** A class that says a toggle's state, not what it does ("collapsed" is no "collapse" control). */
const STATE_CLASS = /(^|\s)(is-|state-)?(collapsed|expanded)(?=\s|$)/gi;

/** The class and id words of an element, as one string (SVG className is not a string), without state classes. */
export function classAndId(el: Element): string {
  return `${(attrOf(el, 'class') ?? '').replace(STATE_CLASS, ' ')} ${el.id}`;
}

/** expanded/collapsed as a state class of the element or of one of its children (a twisty), if any. */
export function stateClass(el: Element): boolean | undefined {
  const read = (e: Element): boolean | undefined => {
    const m = /(?:^|\s)(?:is-|state-)?(collapsed|expanded)(?=\s|$)/i.exec(attrOf(e, 'class') ?? '');
    return m ? m[1]!.toLowerCase() === 'expanded' : undefined;
  };
  const own = read(el);
  if (own !== undefined) return own;
  let n = 0;
  for (let c = el.firstElementChild; c && n < 4; c = c.nextElementSibling, n++) {
    const v = read(c);
    if (v !== undefined) return v;
  }
  return undefined;
}

/**
 * An icon-only control inside a clickable row: no letters of its own (empty, or one glyph), few
 * children, and a cue that it is a control rather than decoration — a tooltip, a control word
 * in its class or id, a close/more glyph, or a small empty box drawn by a background image.
 * Returns the largest box (px each side) such an icon may have, or 0 when it is not one.
 */
export function iconControl(el: Element, tag: string, cs: CSSStyleDeclaration, row: Element): number {
  if (el.childElementCount > 2) return 0;
  const text = visibleText(el, 3).trim();
  if (text.length > 2 || LETTER_OR_DIGIT.test(text)) return 0;
  if (attrOf(el, 'title') || (text && CONTROL_GLYPHS.test(text))) return ICON_MAX;
  // The arrow drawn inside a select-like trigger (combobox, popup button) is the trigger itself.
  const trigger = hasAttrOf(row, 'aria-haspopup') || SELECT_ROLES.has(attrOf(row, 'role') ?? '');
  if (trigger) return 0;
  if (CONTROL_WORD.test(classAndId(el))) return ICON_MAX;
  return !text && el.childElementCount === 0 && tag !== 'img' && cs.backgroundImage !== 'none' ? BACKGROUND_ICON_MAX : 0;
}
const SELECT_ROLES = new Set(['combobox', 'listbox', 'option']);

const rawText = (el: Element): string => el.textContent ?? '';

/** Text content without what SVG holds (an icon's <title> is its name, not its text). */
function visibleText(el: Element, depth: number): string {
  let t = '';
  for (let c = firstChildOf(el); c; c = nextSiblingOf(c)) {
    if (nodeTypeOf(c) === 3) t += (c as Text).data;
    else if (nodeTypeOf(c) === 1 && (c as Element).localName !== 'svg' && depth > 0) t += visibleText(c as Element, depth - 1);
  }
  return t;
}

/** Text of its own, short, with a letter or digit (a label, not a container of content). */
function hasShortOwnText(el: Element): boolean {
  if (el.childElementCount > 4) return false;
  const text = (el.textContent ?? '').trim();
  return text.length > 0 && text.length <= SHORT_TEXT && LETTER_OR_DIGIT.test(text);
}

/** No text, and a tooltip: the accessible name's last resort (accname step 2I) is all it says. */
function titleOnly(el: Element): boolean {
  return !!attrOf(el, 'title')?.trim() && !(el.textContent ?? '').trim();
}

/**
 * One item of a list of like items inside a pointer wrapper (custom select lists: `li`s, or
 * siblings sharing a class), with its own short text, in a list drawn as a popup (absolutely
 * positioned or scrolling) — so a clickable card's feature list still reads as one card.
 */
export function isListItem(el: Element, tag: string): boolean {
  if (!hasShortOwnText(el) || el.querySelector(HOLDS_TARGET)) return false;
  const cls = attrOf(el, 'class');
  const like = (s: Element | null): boolean => !!s && (tag === 'li' ? s.localName === 'li' : !!cls && attrOf(s, 'class') === cls);
  if (!like(el.previousElementSibling) && !like(el.nextElementSibling)) return false;
  if (tag !== 'li' && !cls) return false;
  let n = parentElementOf(el);
  for (let i = 0; n && i < 3; i++, n = parentElementOf(n)) {
    const cs = ownerDocumentOf(n).defaultView?.getComputedStyle(n);
    if (!cs) break;
    if (cs.position === 'absolute' || cs.position === 'fixed' || cs.overflowY === 'auto' || cs.overflowY === 'scroll') return true;
  }
  return false;
}
