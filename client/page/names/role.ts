/**
 * The ARIA role of an element, as the model should read it.
 *
 * Explicit role: the first token of `role` that names a concrete ARIA 1.2/1.3 role (DPUB and
 * Graphics modules included); unknown and abstract tokens are skipped, as WAI-ARIA §7.1 asks.
 * Otherwise the implicit role from html-aam's element mapping tables. Never returns ''.
 *
 * Where html-aam says "no corresponding role" for something the agent must operate, we pick
 * the role a user would name it by (each marked "choice:" below): date/time inputs are
 * textboxes (the agent types into them), color/file inputs are buttons (they open a picker),
 * and `<summary>` is a button (it toggles its `<details>`; Chromium exposes it as a
 * disclosure triangle, which is a button to everyone who clicks it).
 */
import { parentElementOf, attrOf, hasAttrOf } from '../dom/proto';

const CONCRETE_ROLES =
  'alert alertdialog application article banner blockquote button caption cell checkbox code ' +
  'columnheader combobox comment complementary contentinfo definition deletion dialog directory ' +
  'document emphasis feed figure form generic grid gridcell group heading image img insertion ' +
  'link list listbox listitem log main mark marquee math menu menubar menuitem menuitemcheckbox ' +
  'menuitemradio meter navigation none note option paragraph presentation progressbar radio ' +
  'radiogroup region row rowgroup rowheader scrollbar search searchbox sectionfooter ' +
  'sectionheader separator slider spinbutton status strong subscript suggestion superscript ' +
  'switch tab table tablist tabpanel term textbox time timer toolbar tooltip tree treegrid ' +
  'treeitem graphics-document graphics-object graphics-symbol';

const DPUB_ROLES =
  'abstract acknowledgments afterword appendix backlink biblioentry bibliography biblioref ' +
  'chapter colophon conclusion cover credit credits dedication endnote endnotes epigraph ' +
  'epilogue errata example footnote foreword glossary glossref index introduction noteref ' +
  'notice pagebreak pagefooter pageheader pagelist part preface prologue pullquote qna ' +
  'subtitle tip toc';

/** Every role token we accept in a `role` attribute (abstract roles are deliberately absent). */
export const VALID_ROLES: ReadonlySet<string> = new Set([...CONCRETE_ROLES.split(' '), ...DPUB_ROLES.split(' ').map((r) => `doc-${r}`)]);

/**
 * The first valid role token of a `role` attribute value, lower-cased, or null.
 * `image` is ARIA 1.3's synonym of `img` and is reported as `img` so callers test one name.
 */
export function firstValidRole(value: string | null | undefined): string | null {
  if (!value) return null;
  for (const raw of value.split(/[ \t\n\f\r]+/)) {
    const token = raw.toLowerCase();
    if (VALID_ROLES.has(token)) return token === 'image' ? 'img' : token;
  }
  return null;
}

export const isPresentational = (role: string): boolean => role === 'none' || role === 'presentation';

/**
 * ARIA 1.2 global states and properties. An element carrying one of them (or focusable) keeps
 * its implicit role even when the author wrote role="none" (ARIA §9.2 presentational conflict).
 */
const GLOBAL_ARIA = [
  'aria-atomic',
  'aria-busy',
  'aria-controls',
  'aria-current',
  'aria-describedby',
  'aria-description',
  'aria-details',
  'aria-dropeffect',
  'aria-flowto',
  'aria-grabbed',
  'aria-keyshortcuts',
  'aria-label',
  'aria-labelledby',
  'aria-live',
  'aria-owns',
  'aria-relevant',
  'aria-roledescription',
];

function hasGlobalAria(el: Element): boolean {
  for (const a of GLOBAL_ARIA) if (hasAttrOf(el, a)) return true;
  return false;
}

const HTML_NS = 'http://www.w3.org/1999/xhtml';
const SVG_NS = 'http://www.w3.org/2000/svg';

export const isHtml = (el: Element): el is HTMLElement => el.namespaceURI === HTML_NS;
export const isSvg = (el: Element): el is SVGElement => el.namespaceURI === SVG_NS;

/** Focusable by the user agent's rules, or by tabindex. Reads attributes and properties only. */
export function isFocusable(el: Element): boolean {
  const tabindex = attrOf(el, 'tabindex');
  if (tabindex !== null && /^\s*-?\d+\s*$/.test(tabindex)) return true;
  if (!isHtml(el)) return false;
  switch (el.localName) {
    case 'a':
    case 'area':
      return hasAttrOf(el, 'href');
    case 'button':
    case 'select':
    case 'textarea':
      return !(el as HTMLButtonElement).disabled;
    case 'input':
      return (el as HTMLInputElement).type !== 'hidden' && !(el as HTMLInputElement).disabled;
    case 'iframe':
    case 'summary':
      return true;
    case 'audio':
    case 'video':
      return hasAttrOf(el, 'controls');
  }
  return hasAttrOf(el, 'contenteditable') && el.isContentEditable;
}

/** The root of a contenteditable region (its parent is not editable). */
export function isEditingHost(el: Element): boolean {
  if (!isHtml(el) || !hasAttrOf(el, 'contenteditable') || !el.isContentEditable) return false;
  const parent = parentElementOf(el);
  return !parent || !parent.isContentEditable;
}

/** html-aam: header/footer are landmarks only when not scoped to sectioning content or main. */
const SECTIONING_SCOPE = 'article,aside,main,nav,section,[role=article],[role=complementary],[role=main],[role=navigation],[role=region]';

/** html-aam maps form and section to landmarks only when they have an author-given name
 *  (blank means ASCII whitespace only, as accname says: a no-break space is a name). */
function hasAuthorName(el: Element): boolean {
  return ['aria-label', 'aria-labelledby', 'title'].some((a) => /[^ \t\n\r\f]/.test(attrOf(el, a) ?? ''));
}

/** The explicit role of `el`, ignoring role="none|presentation" when ARIA says to (§9.2). */
function explicitRole(el: Element): string | null {
  const role = firstValidRole(attrOf(el, 'role'));
  if (role && isPresentational(role) && (isFocusable(el) || hasGlobalAria(el))) return null;
  return role;
}

/** Table parts and list items inherit role="none" from their table or list (ARIA §9.2). */
function inheritsPresentation(owner: Element | null): boolean {
  if (!owner) return false;
  const r = explicitRole(owner);
  return r !== null && isPresentational(r);
}

function tableOf(el: Element): Element | null {
  return el.closest('table');
}

function cellRole(el: Element): string {
  const table = tableOf(el);
  if (inheritsPresentation(table)) return 'none';
  const tableRole = table ? explicitRole(table) : null;
  if (el.localName === 'td') return tableRole === 'grid' || tableRole === 'treegrid' ? 'gridcell' : 'cell';
  // th: scope decides; otherwise a header inside <thead> or in a row without data cells heads a
  // column, and a header sharing its row with data cells heads that row.
  const scope = (attrOf(el, 'scope') ?? '').toLowerCase();
  if (scope === 'col' || scope === 'colgroup') return 'columnheader';
  if (scope === 'row' || scope === 'rowgroup') return 'rowheader';
  if (el.closest('thead')) return 'columnheader';
  const row = parentElementOf(el);
  if (row && row.localName === 'tr') {
    for (const sib of row.children) if (sib.localName === 'td') return 'rowheader';
  }
  return 'columnheader';
}

function inputRole(el: HTMLInputElement): string {
  const hasList = hasAttrOf(el, 'list');
  switch (el.type) {
    case 'button':
    case 'image':
    case 'reset':
    case 'submit':
      return 'button';
    case 'checkbox':
      return hasAttrOf(el, 'switch') ? 'switch' : 'checkbox';
    case 'radio':
      return 'radio';
    case 'range':
      return 'slider';
    case 'number':
      return 'spinbutton';
    case 'search':
      return hasList ? 'combobox' : 'searchbox';
    case 'hidden':
      return 'none';
    case 'color': // choice: opens a picker
    case 'file': // choice: opens a file chooser; Chromium renders a "Choose file" button
      return 'button';
    case 'password': // html-aam: no role; every engine exposes a (secure) text field
    case 'date': // choice (dates and times): the agent types these as text, in `format`
    case 'datetime-local':
    case 'month':
    case 'time':
    case 'week':
      return 'textbox';
    default: // text, email, tel, url, and unknown types (which the browser treats as text)
      return hasList ? 'combobox' : 'textbox';
  }
}

/**
 * html-aam's elements whose role does not depend on anything: the tag names that are their own
 * role, and tag → role for the rest. Elements that need a look at attributes or context are in
 * implicitRole's switch.
 */
const SAME_NAME_ROLES = new Set('article blockquote button code dialog figure main mark math meter option search strong table time'.split(' '));
const FIXED_ROLES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    address: 'group',
    details: 'group',
    fieldset: 'group',
    hgroup: 'group',
    optgroup: 'group',
    aside: 'complementary',
    datalist: 'listbox',
    dd: 'definition',
    del: 'deletion',
    s: 'deletion',
    dfn: 'term',
    dt: 'term',
    em: 'emphasis',
    h1: 'heading',
    h2: 'heading',
    h3: 'heading',
    h4: 'heading',
    h5: 'heading',
    h6: 'heading',
    hr: 'separator',
    html: 'document',
    ins: 'insertion',
    menu: 'list',
    ol: 'list',
    ul: 'list',
    nav: 'navigation',
    output: 'status',
    p: 'paragraph',
    progress: 'progressbar',
    sub: 'subscript',
    sup: 'superscript',
    textarea: 'textbox',
  }),
);

/** The implicit (native) role of an element, per html-aam. */
export function implicitRole(el: Element): string {
  if (isSvg(el)) {
    if (el.localName === 'svg') return 'img'; // svg-aam: graphics-document; "img" is what it is to a reader
    if (el.localName === 'a' && (hasAttrOf(el, 'href') || hasAttrOf(el, 'xlink:href'))) return 'link';
    return 'generic';
  }
  if (!isHtml(el)) return 'generic';
  if (isEditingHost(el)) return 'textbox';
  const tag = el.localName;
  if (SAME_NAME_ROLES.has(tag)) return tag;
  const fixed = FIXED_ROLES.get(tag);
  if (fixed) return fixed;
  switch (tag) {
    case 'a':
    case 'area':
      return hasAttrOf(el, 'href') ? 'link' : 'generic';
    case 'caption':
      return inheritsPresentation(tableOf(el)) ? 'none' : 'caption';
    case 'footer':
      return parentElementOf(el)?.closest(SECTIONING_SCOPE) ? 'generic' : 'contentinfo';
    case 'header':
      return parentElementOf(el)?.closest(SECTIONING_SCOPE) ? 'generic' : 'banner';
    case 'form':
      return hasAuthorName(el) ? 'form' : 'generic';
    case 'img':
      // html-aam: alt="" marks a decorative image: presentation (unless §9.2 keeps it an img).
      return attrOf(el, 'alt') === '' && !isFocusable(el) && !hasGlobalAria(el) ? 'presentation' : 'img';
    case 'input':
      return inputRole(el as HTMLInputElement);
    case 'li': {
      const list = parentElementOf(el);
      return list && /^(ul|ol|menu)$/.test(list.localName) && inheritsPresentation(list) ? 'none' : 'listitem';
    }
    case 'section':
      return hasAuthorName(el) ? 'region' : 'generic';
    case 'select': {
      const s = el as HTMLSelectElement;
      return s.multiple || s.size > 1 ? 'listbox' : 'combobox';
    }
    case 'summary':
      // choice: a details' summary toggles it; see the file comment.
      return parentElementOf(el)?.localName === 'details' ? 'button' : 'generic';
    case 'tbody':
    case 'tfoot':
    case 'thead':
      return inheritsPresentation(tableOf(el)) ? 'none' : 'rowgroup';
    case 'td':
    case 'th':
      return cellRole(el);
    case 'tr':
      return inheritsPresentation(tableOf(el)) ? 'none' : 'row';
  }
  return 'generic';
}

/** The role of `el`: explicit (first valid token, §9.2 conflicts resolved) or implicit. */
export function getRole(el: Element): string {
  return explicitRole(el) ?? implicitRole(el);
}
