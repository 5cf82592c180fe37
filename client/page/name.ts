/**
 * Accessible names: W3C "Accessible Name and Description Computation 1.2" (accname), with the
 * HTML specifics of html-aam §"Accessible Name Computations By HTML Element".
 *
 * Each step of accname §4.3.2 is marked `// step 2X.` where it is implemented, with the step
 * letters of the current editor's draft: 2A hidden not referenced, 2B aria-labelledby,
 * 2C embedded control, 2D aria-label, 2E host language label, 2F name from content (2G text
 * node and 2H recursive name from content folded into it), 2I tooltip (title).
 *
 * Deliberate choices, each for the agent's benefit and each tested:
 * - The element whose name is asked is never dropped as hidden (accname step 2A would): a
 *   control that is hidden now keeps the name it will have when shown, so a ref keeps its
 *   fingerprint across a collapse/expand. If that element is hidden, its hidden content
 *   counts, as for a hidden node referenced by aria-labelledby.
 * - Characters from the Unicode private use area (icon fonts drawn through ::before/::after)
 *   are dropped from generated content: they are glyph codes, not text.
 * - An embedded password field contributes nothing (its value is a secret).
 * - Content is collected up to CONTENT_CHAR_CAP characters and CONTENT_NODE_CAP elements per
 *   name, so a link wrapping a whole product card or a huge list costs little. Names under the
 *   cap are exact; longer ones are their first ~CONTENT_CHAR_CAP characters. The map shows
 *   ~80 characters anyway.
 * - Replaced elements and children named by aria-label/labelledby are set apart by spaces
 *   in content (see setApart); accname leaves inline spacing open (#225).
 * - aria-owns is not followed (content is walked in DOM/flat-tree order only).
 */
import { isHtml, isPresentational, isSvg } from './role';

/** Text collected from content stops growing after this many characters (see file comment). */
export const CONTENT_CHAR_CAP = 500;
/** …or after visiting this many elements inside one name computation. */
export const CONTENT_NODE_CAP = 2000;

/** Roles whose name may come from their content (WAI-ARIA 1.2/1.3 "name from: contents"). */
export const NAME_FROM_CONTENT_ROLES: ReadonlySet<string> = new Set([
  'button', 'cell', 'checkbox', 'columnheader', 'comment', 'gridcell', 'heading', 'link', 'menuitem',
  'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'row', 'rowheader', 'sectionheader',
  'sectionfooter', 'switch', 'tab', 'tooltip', 'treeitem',
  'doc-backlink', 'doc-biblioref', 'doc-glossref', 'doc-noteref',
]);

/** Roles that cannot be named (WAI-ARIA "name from: prohibited"); accname step 1 returns ''. */
export const NAME_PROHIBITED_ROLES: ReadonlySet<string> = new Set([
  'caption', 'code', 'deletion', 'emphasis', 'generic', 'insertion', 'mark', 'none', 'paragraph',
  'presentation', 'strong', 'subscript', 'suggestion', 'superscript',
]);

/** Controls whose value (not their label) is what they add to another widget's label. */
const EMBEDDED_CONTROL_ROLES: ReadonlySet<string> = new Set([
  'textbox', 'searchbox', 'combobox', 'listbox', 'slider', 'spinbutton', 'scrollbar',
]);

/** What the name computation needs from the page, cached by the describer. */
export interface NameEnv {
  role(el: Element): string;
  /** Labels associated with a labelable element, in tree order. */
  labels(el: Element): readonly Element[];
  style(el: Element): CSSStyleDeclaration | null;
  /** Text of the ::before or ::after pseudo-element, '' when none. */
  pseudoText(el: Element, which: '::before' | '::after'): string;
  /** Hidden by any rule, counting ancestors (display, visibility, content-visibility, aria-hidden). */
  hiddenDeep(el: Element): boolean;
  /** The (open or hooked closed) shadow root of a host. */
  shadowRoot(el: Element): ShadowRoot | null;
}

/** One whole name computation (accname's "root node" and its bookkeeping). */
interface Run {
  env: NameEnv;
  root: Element;
  /** Each node is consulted once (accname 2F "Important"), which also breaks reference loops. */
  visited: Set<Node>;
  chars: number;
  nodes: number;
}

/** Where the current node was reached from. */
interface Via {
  /** Part of an aria-labelledby traversal (2B is not followed again). */
  labelledBy: boolean;
  /** Inside a native label element (<label>, <legend>, <caption>, <figcaption>). */
  label: boolean;
  /** Reached through name-from-content recursion. */
  descendant: boolean;
  /** The node that started this traversal: the root, a referenced node, or a label. Hidden
   *  descendants count only when it is hidden itself (step 2A). */
  start: Element;
  /** Directly referenced by aria-labelledby: never dropped as hidden (step 2A.i). */
  direct: boolean;
  /** The parent element is visibility:hidden, so this text node is not rendered. */
  invisibleParent: boolean;
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/** accname "flat string": whitespace runs become one space; zero-width and soft hyphens go. */
export function flatten(s: string): string {
  return s.replace(/[\u200b\u00ad]/g, '').replace(/\s+/g, ' ').trim();
}

/**
 * The text of a computed CSS `content` value: quoted strings and attr() joined; url(),
 * counters and quotes dropped; a "/ alt" part, when present, wins (CSS alt text for
 * generated content). Private-use-area characters (icon fonts) are removed.
 */
export function cssContentText(value: string, attr: (name: string) => string | null): string {
  if (!value || value === 'none' || value === 'normal') return '';
  const parts: string[] = [];
  let alt: string[] | null = null;
  const re = /"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|attr\(\s*([^\s)]+)[^)]*\)|(\/)|url\([^)]*\)|[a-z-]+\([^)]*\)|\S+/gi;
  for (let m = re.exec(value); m; m = re.exec(value)) {
    const target = alt ?? parts;
    if (m[1] !== undefined || m[2] !== undefined) target.push(unescapeCss(m[1] ?? m[2] ?? ''));
    else if (m[3] !== undefined) target.push(attr(m[3]) ?? '');
    else if (m[4] !== undefined) alt = [];
  }
  const text = (alt ?? parts).join('');
  return text.replace(/[\ue000-\uf8ff]|[\udb80-\udbff][\udc00-\udfff]/g, '');
}

function unescapeCss(s: string): string {
  return s.replace(/\\([0-9a-f]{1,6})\s?|\\(.)/gi, (_, hex: string | undefined, ch: string | undefined) =>
    hex ? safeFromCodePoint(parseInt(hex, 16)) : (ch ?? ''),
  );
}

function safeFromCodePoint(cp: number): string {
  return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
}

/** Elements the HTML spec calls labelable (they can have <label>s). */
export function isLabelable(el: Element): boolean {
  if (!isHtml(el)) return false;
  switch (el.localName) {
    case 'button':
    case 'meter':
    case 'output':
    case 'progress':
    case 'select':
    case 'textarea':
      return true;
    case 'input':
      return (el as HTMLInputElement).type !== 'hidden';
  }
  return el.localName.includes('-') && !!(el.constructor as { formAssociated?: boolean }).formAssociated;
}

/** Input types whose name falls back to title, then placeholder (html-aam text input rule). */
const TEXT_INPUT_TYPES = new Set(['text', 'password', 'number', 'search', 'tel', 'email', 'url', 'date', 'datetime-local', 'month', 'time', 'week']);

const SKIPPED_TAGS = new Set(['script', 'style', 'template', 'noscript']);

/** Elements whose content is never rendered as text (no pseudo-elements, no children). */
const NO_CONTENT_TAGS = new Set(['input', 'img', 'select', 'textarea', 'iframe', 'video', 'audio', 'canvas', 'object', 'embed', 'br', 'hr', 'wbr', 'area', 'meter', 'progress']);

/**
 * The accessible name of `el` (not flattened-capped beyond the content cap; whitespace
 * collapsed). `asRole` computes it as if `el` had that role (for the map's clickable elements
 * whose own role is generic, e.g. a <div> with a click handler that the map lists as a button).
 */
export function accessibleName(env: NameEnv, el: Element, asRole?: string): string {
  const role = asRole ?? env.role(el);
  // step 1. Roles that prohibit naming have no name.
  if (NAME_PROHIBITED_ROLES.has(role)) return '';
  const run: Run = { env, root: el, visited: new Set(), chars: 0, nodes: 0 };
  const via: Via = { labelledBy: false, label: false, descendant: false, start: el, direct: false, invisibleParent: false };
  return flatten(textAlternative(run, el, via, role));
}

/** accname step 2: the text alternative of the current node. `rootRole` only for the root. */
function textAlternative(run: Run, node: Node, via: Via, rootRole?: string): string {
  // step 2G. A text node gives its text (unless its parent is visibility:hidden).
  if (node.nodeType === TEXT_NODE) {
    if (via.invisibleParent) return '';
    let data = (node as Text).data;
    if (!/\S/.test(data)) return data;
    const room = CONTENT_CHAR_CAP - run.chars;
    if (room <= 0) return '';
    if (data.length > room) data = data.slice(0, room);
    run.chars += data.length;
    return data;
  }
  if (node.nodeType !== ELEMENT_NODE) return '';
  const el = node as Element;
  const isRoot = el === run.root;
  if (SKIPPED_TAGS.has(el.localName)) return '';
  if (run.visited.has(el) && !(isRoot && via.direct)) return '';
  run.visited.add(el);
  run.nodes++;
  const env = run.env;

  // step 2A. Hidden, not referenced: a hidden descendant adds nothing, unless the traversal
  // started at a hidden node (a hidden labelledby target or label, or a hidden root).
  let selfInvisible = false;
  if (!isRoot && !via.direct) {
    const hidden = ownHidden(env, el);
    if (hidden && !env.hiddenDeep(via.start)) {
      if (hidden === 'all') return '';
      selfInvisible = true; // visibility:hidden: children may be visible again
    }
  }

  const role = isRoot ? (rootRole ?? env.role(el)) : roleIfRelevant(env, el);

  // step 2C. Embedded control: a control inside the label of another widget adds its value.
  // Checked before 2B, as Chromium and Firefox do (accname issue #125): an input embedded in a
  // label contributes its value even when it has its own aria-labelledby.
  if (!isRoot && (via.label || via.labelledBy || via.descendant) && role && EMBEDDED_CONTROL_ROLES.has(role)) {
    return embeddedValue(run, el, role);
  }

  // step 2B. aria-labelledby, unless already inside a labelledby traversal.
  if (!via.labelledBy && el.hasAttribute('aria-labelledby')) {
    const refs = labelledByTargets(el);
    if (refs.length) {
      // step 2B.i. Reset the accumulated text.
      let acc = '';
      for (const ref of refs) {
        // step 2B.ii.a-b. Compute the referenced node from the top of step 2.
        const result = textAlternative(run, ref, { labelledBy: true, label: false, descendant: false, start: ref, direct: true, invisibleParent: false });
        // step 2B.ii.c. Append a space and the result.
        acc += ' ' + result;
      }
      // step 2B.iii. Return it when not empty.
      if (acc.trim()) return acc;
    }
  }

  // step 2D. aria-label (not on slots), when not blank.
  const ariaLabel = el.localName === 'slot' ? null : el.getAttribute('aria-label');
  if (ariaLabel && ariaLabel.trim()) return ariaLabel;

  // step 2E. Host language label (html-aam), unless the node is presentational.
  if (isHtml(el) && el.localName === 'img' && el.getAttribute('alt') === '') return ''; // html-aam: decorative
  if (!(role && isPresentational(role))) {
    const native = hostLanguageLabel(run, el, via);
    if (native !== null) return native;
  }

  // step 2F. Name from content: for the root when its role allows it; for every other node
  // (referenced nodes, labels, and descendants — step 2H) always.
  if (!isRoot || NAME_FROM_CONTENT_ROLES.has(role ?? '')) {
    const content = nameFromContent(run, el, via, selfInvisible);
    // step 2F.iv. Return the accumulated text if not empty.
    if (content.trim()) return content;
  }

  // step 2I. Tooltip attribute.
  const title = el.getAttribute('title');
  if (title && title.trim() && !selfInvisible) return title;
  return '';
}

/** Role of a non-root node, computed only where a step depends on it (it costs a little). */
function roleIfRelevant(env: NameEnv, el: Element): string | null {
  if (el.hasAttribute('role') || el.hasAttribute('contenteditable')) return env.role(el);
  if (!isHtml(el)) return null;
  switch (el.localName) {
    case 'input':
    case 'select':
    case 'textarea':
    case 'img':
      return env.role(el);
  }
  return null;
}

/** 'all': hides the subtree (display:none, aria-hidden); 'self': visibility:hidden only. */
function ownHidden(env: NameEnv, el: Element): 'all' | 'self' | false {
  if (el.getAttribute('aria-hidden') === 'true') return 'all';
  const st = env.style(el);
  if (!st) return false;
  if (st.display === 'none') return 'all';
  if (st.visibility === 'hidden' || st.visibility === 'collapse') return 'self';
  return false;
}

/** aria-labelledby targets: element reflection when set from script, else IDREFs in the tree. */
function labelledByTargets(el: Element): Element[] {
  const reflected = (el as Element & { ariaLabelledByElements?: readonly Element[] | null }).ariaLabelledByElements;
  if (reflected && reflected.length) return [...reflected];
  const ids = (el.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean);
  const scope = el.getRootNode() as Document | ShadowRoot;
  const out: Element[] = [];
  if (typeof scope.getElementById !== 'function') return out;
  for (const id of ids) {
    const t = scope.getElementById(id);
    if (t) out.push(t);
  }
  return out;
}

/** step 2C. The value an embedded control contributes to the label it sits in. */
function embeddedValue(run: Run, el: Element, role: string): string {
  const tag = isHtml(el) ? el.localName : '';
  // step 2C textbox: its value.
  if (role === 'textbox' || role === 'searchbox') {
    if (tag === 'input') return (el as HTMLInputElement).type === 'password' ? '' : (el as HTMLInputElement).value;
    if (tag === 'textarea') return (el as HTMLTextAreaElement).value;
    return capped(el.textContent);
  }
  // step 2C combobox/listbox: the text alternative of the chosen option(s).
  if (role === 'combobox' || role === 'listbox') {
    if (tag === 'select') return [...(el as HTMLSelectElement).selectedOptions].map((o) => optionText(run, o)).join(' ');
    if (tag === 'input') return (el as HTMLInputElement).value;
    if (tag === 'textarea') return (el as HTMLTextAreaElement).value;
    const chosen = el.querySelectorAll('[role=option][aria-selected=true]');
    if (chosen.length) return [...chosen].map((o) => optionText(run, o)).join(' ');
    return role === 'combobox' ? capped(el.textContent) : '';
  }
  // step 2C range: aria-valuetext, aria-valuenow, then the host language value.
  const valueText = el.getAttribute('aria-valuetext');
  if (valueText !== null) return valueText;
  const valueNow = el.getAttribute('aria-valuenow');
  if (valueNow !== null) return valueNow;
  if (tag === 'input') return (el as HTMLInputElement).value;
  return '';
}

const capped = (s: string | null): string => (s ?? '').slice(0, CONTENT_CHAR_CAP);

/** The text alternative of an option, computed on its own (options of a closed select are
 *  not rendered, so the hidden rules must not drop them). */
function optionText(run: Run, option: Element): string {
  if (run.visited.has(option)) return '';
  const label = option.getAttribute('aria-label');
  if (label && label.trim()) return label;
  if (isHtml(option) && option.localName === 'option') {
    run.visited.add(option);
    return (option as HTMLOptionElement).label || (option as HTMLOptionElement).value;
  }
  return textAlternative(run, option, { labelledBy: true, label: false, descendant: false, start: option, direct: true, invisibleParent: false });
}

/**
 * step 2E. The text alternative the host language defines (html-aam), or null to go on with
 * name from content and title. Returns '' only where html-aam says "no name" outright.
 */
function hostLanguageLabel(run: Run, el: Element, via: Via): string | null {
  if (isSvg(el)) {
    // svg-aam: a <title> child names its parent.
    for (const c of el.children) if (c.localName === 'title' && isSvg(c)) return nonEmpty(c.textContent);
    return null;
  }
  if (!isHtml(el)) return null;
  // html-aam: associated <label>s, concatenated in tree order, for labelable elements. Not
  // inside another label traversal (a label inside a label is not a thing; this avoids loops).
  if (!via.label && !via.labelledBy && isLabelable(el)) {
    const labels = run.env.labels(el);
    if (labels.length) {
      let acc = '';
      for (const label of labels) {
        const t = textAlternative(run, label, { labelledBy: false, label: true, descendant: false, start: label, direct: false, invisibleParent: false });
        if (t.trim()) acc += (acc ? ' ' : '') + t;
      }
      if (acc.trim()) return acc;
    }
  }
  const title = (): string | null => nonEmpty(el.getAttribute('title'));
  switch (el.localName) {
    case 'input': {
      const input = el as HTMLInputElement;
      const type = input.type;
      if (type === 'button' || type === 'submit' || type === 'reset') {
        // html-aam: the value attribute; submit/reset without one get the UA's default label.
        const value = input.getAttribute('value');
        if (value !== null) return nonEmpty(value);
        if (type === 'submit') return 'Submit';
        if (type === 'reset') return 'Reset';
        return null;
      }
      if (type === 'image') return nonEmpty(input.getAttribute('alt')) ?? title() ?? 'Submit';
      if (TEXT_INPUT_TYPES.has(type)) return title() ?? placeholder(el);
      return null;
    }
    case 'textarea':
      return title() ?? placeholder(el);
    case 'img':
      // html-aam: alt, even empty (handled before), else title.
      return el.hasAttribute('alt') ? nonEmpty(el.getAttribute('alt')) : null;
    case 'area':
      return nonEmpty(el.getAttribute('alt'));
    // Inside content recursion (a link wrapping a figure card) these fall through to their
    // whole content, which holds the legend/caption anyway plus what else the user sees.
    case 'fieldset':
      return via.descendant ? null : childLabel(run, el, 'legend', via);
    case 'figure':
      return via.descendant ? null : childLabel(run, el, 'figcaption', via);
    case 'table':
      return via.descendant ? null : childLabel(run, el, 'caption', via);
    case 'optgroup':
    case 'option':
      return nonEmpty(el.getAttribute('label'));
  }
  // Non-native text fields: aria-placeholder as a last resort (html-aam does the same with
  // placeholder for native ones).
  const role = el.hasAttribute('role') || el.hasAttribute('contenteditable') ? run.env.role(el) : '';
  if (role === 'textbox' || role === 'searchbox' || role === 'combobox') return title() ?? nonEmpty(el.getAttribute('aria-placeholder'));
  return null;
}

function placeholder(el: Element): string | null {
  return nonEmpty(el.getAttribute('placeholder')) ?? nonEmpty(el.getAttribute('aria-placeholder'));
}

/** fieldset/legend, figure/figcaption, table/caption: the first such child names the parent. */
function childLabel(run: Run, el: Element, tag: string, via: Via): string | null {
  for (const c of el.children) {
    if (c.localName !== tag) continue;
    const t = textAlternative(run, c, { labelledBy: via.labelledBy, label: true, descendant: false, start: c, direct: false, invisibleParent: false });
    return nonEmpty(t);
  }
  return null;
}

function nonEmpty(s: string | null | undefined): string | null {
  return s && s.trim() ? s : null;
}

/** step 2F. Name from content: generated content, then each rendered child, in order. */
function nameFromContent(run: Run, el: Element, via: Via, selfInvisible: boolean): string {
  const env = run.env;
  if (isHtml(el) && NO_CONTENT_TAGS.has(el.localName)) return '';
  // step 2F.i. Name from content reset.
  let acc = '';
  // step 2F.ii. Generated content: ::before prepended, ::after appended.
  const before = selfInvisible ? '' : env.pseudoText(el, '::before');
  // Determine child nodes: the shadow root's, a slot's assigned nodes, or the element's own.
  const shadow = env.shadowRoot(el);
  let children: ArrayLike<Node> = el.childNodes;
  if (shadow) children = shadow.childNodes;
  else if (el.localName === 'slot') {
    const assigned = (el as HTMLSlotElement).assignedNodes();
    if (assigned.length) children = assigned;
  }
  const st = env.style(el);
  if (st && st.contentVisibility === 'hidden' && !env.hiddenDeep(via.start)) children = [];
  const childVia: Via = {
    labelledBy: via.labelledBy,
    label: via.label,
    descendant: true,
    start: via.start,
    direct: false,
    invisibleParent: selfInvisible,
  };
  // step 2F.iii. Each child: compute from the top of step 2 (a-b) and append (c). Children
  // that are not laid out inline are set apart by spaces (accname #225; what browsers do).
  for (let i = 0; i < children.length; i++) {
    if (run.chars >= CONTENT_CHAR_CAP || run.nodes >= CONTENT_NODE_CAP) break;
    const child = children[i]!;
    if (child.nodeName === 'BR') {
      acc += ' '; // a line break separates words
      continue;
    }
    const result = textAlternative(run, child, childVia);
    if (!result) continue;
    acc += child.nodeType === ELEMENT_NODE && setApart(env, child as Element) ? ` ${result} ` : result;
  }
  const after = selfInvisible ? '' : env.pseudoText(el, '::after');
  return before + acc + after;
}

/**
 * Whether a child's text is set apart from its neighbours by spaces: when it is not laid out
 * inline (accname #225, what browsers do), and — our choice, so words never fuse — when it is
 * a replaced element (img, input, svg…) or named by aria-label/labelledby rather than text:
 * `<a><img alt="Logo">Home</a>` reads "Logo Home", not "LogoHome".
 */
function setApart(env: NameEnv, el: Element): boolean {
  if (el.localName === 'svg' || NO_CONTENT_TAGS.has(el.localName)) return true;
  if (el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby')) return true;
  const display = env.style(el)?.display ?? 'inline';
  return display !== 'inline' && display !== 'contents';
}
