/**
 * Accessible names: W3C "Accessible Name and Description Computation 1.2" (accname), with the
 * HTML specifics of html-aam §"Accessible Name Computations By HTML Element".
 *
 * Each step of accname §4.3.2 is marked `// step 2X.` where it is implemented, with the step
 * letters of accname 1.2: 2A hidden not referenced, 2B aria-labelledby, 2C embedded control,
 * 2D aria-label, 2E host language label, 2F name from content, 2G text node, 2H recursive
 * name from content, 2I tooltip (title).
 *
 * What the name is made of:
 * - `accessibleName` returns the spec's flat string: runs of ASCII whitespace become one space
 *   and the ends are trimmed of ASCII whitespace. Every other character is kept as the page
 *   wrote it — a no-break space, a zero-width space, a soft hyphen, or an aria-label's own
 *   leading "→". That is what `pagehand.describe()` and the map's `elements[].name` return,
 *   and what ref re-validation compares. `flatten` is the looser form for a line printed to
 *   the model (any Unicode space collapses, invisible characters go): the map's printed line
 *   may fold a name with it; the name itself is never folded further.
 * - Word breaks follow layout: text is joined as written (so a space inside a nested inline
 *   element stays a space), and a piece that CSS lays out as its own box (block, inline-block,
 *   flex or grid item, table cell, list item) is set apart by spaces, as are controls and
 *   pieces named by an attribute rather than by text (aria-label, alt, title, a value, CSS alt
 *   text). accname leaves that spacing open (its note on accname #225), so where it is a
 *   question of layout we space as Chromium does — that is the name assistive technology
 *   reads: a display:contents element (a <slot> too) and a <wbr> are word breaks; a ::before or
 *   ::after laid out as a box is set apart from its element's own content only, and a
 *   block-level one also ends its element with a break; an empty picture (img, svg, canvas)
 *   inside a <label> is a break. tests/browser/names-differential.test.ts lists what is left.
 *
 * Deliberate choices, each for the agent's benefit and each tested:
 * - The element whose name is asked is never dropped as hidden (accname step 2A would): a
 *   control that is hidden now keeps the name it will have when shown, so a ref keeps its
 *   fingerprint across a collapse/expand. If that element is hidden, its hidden content
 *   counts, as for a hidden node referenced by aria-labelledby.
 * - An embedded text field with no value is read by its own name (aria-label, title,
 *   placeholder), as Chromium reads it, rather than adding nothing: "Flash [number of] times".
 * - An embedded password field adds nothing to a label, not even bullets as long as the
 *   secret (the map never tells a password's length either).
 * - Characters from the Unicode private use area (icon fonts drawn through ::before/::after)
 *   are dropped from generated content: they are glyph codes, not text, and an icon button's
 *   title names it instead.
 * - Content is collected up to CONTENT_CHAR_CAP characters and CONTENT_NODE_CAP elements per
 *   name, so a link wrapping a whole product card or a huge list costs little. Names under the
 *   cap are exact; longer ones are their first ~CONTENT_CHAR_CAP characters.
 * - aria-owns is not followed (content is walked in flat-tree order only).
 * - Roles that prohibit naming (generic, paragraph…) keep an author's aria-labelledby or
 *   aria-label, which accname step 1 would drop: as Chromium does, and because that label is
 *   the only thing the author says about such an element. Title and content never name them.
 * - Name from content does not descend into containers of other widgets, live regions and
 *   navigation (menu, toolbar, tree, group, dialog, navigation…; see UNREAD_CONTAINER_ROLES),
 *   except inside an aria-labelledby traversal, as Chromium does: a menu item keeps its own
 *   name when its submenu opens. accname 1.2 leaves these roles undefined (its change log:
 *   2H "until logic can be drafted to correctly handle roles that should not be traversed").
 *   Sectioning content (article, figure, header…) is still read — Chromium leaves a link that
 *   wraps a whole card with no name there.
 *
 * Deny zones (`data-pagehand="off"`, the site's deny selectors) and the agent's own UI add
 * nothing to any name, as if they were not in the page: not through content (a link's hidden
 * IBAN), not through aria-labelledby or a <label> inside them, not through a text field's or
 * a combobox's text; an element inside one has no name at all.
 *
 * Following html-aam, a hidden <label>, <legend> or <caption> names nothing ("If a label
 * element is hidden from the accessibility tree, then it will not provide an accessible name",
 * and the same for caption; WPT html-aam/hidden-names.html), and a <figure> is not named by its
 * <figcaption> (html-aam 4.1.9).
 */
import { isHtml, isPresentational, isSvg } from './role';
import { attrOf, nodeTypeOf, hasAttrOf, parentElementOf, nextSiblingOf, firstChildOf } from '../dom/proto';

/** Text collected from content stops growing after this many characters (see file comment). */
export const CONTENT_CHAR_CAP = 500;
/** …or after visiting this many elements inside one name computation. */
export const CONTENT_NODE_CAP = 2000;

/** Roles whose name may come from their content (WAI-ARIA 1.2/1.3 "name from: contents"). */
export const NAME_FROM_CONTENT_ROLES: ReadonlySet<string> = new Set([
  'button',
  'cell',
  'checkbox',
  'columnheader',
  'comment',
  'gridcell',
  'heading',
  'link',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'radio',
  'row',
  'rowheader',
  'sectionheader',
  'sectionfooter',
  'switch',
  'tab',
  'tooltip',
  'treeitem',
  'doc-backlink',
  'doc-biblioref',
  'doc-glossref',
  'doc-noteref',
]);

/** Roles that cannot be named (WAI-ARIA "name from: prohibited"); accname step 1 returns ''. */
export const NAME_PROHIBITED_ROLES: ReadonlySet<string> = new Set([
  'caption',
  'code',
  'deletion',
  'emphasis',
  'generic',
  'insertion',
  'mark',
  'none',
  'paragraph',
  'presentation',
  'strong',
  'subscript',
  'suggestion',
  'superscript',
]);

/**
 * Roles whose content a name from content does not read (outside aria-labelledby targets):
 * containers of other widgets, live regions and navigation. Their own aria-label, host
 * language label (a fieldset's legend) and title still count. Chromium leaves out these and
 * more (article, figure, landmarks); we read sectioning content, which names card links.
 */
export const UNREAD_CONTAINER_ROLES: ReadonlySet<string> = new Set([
  'alert',
  'alertdialog',
  'application',
  'dialog',
  'feed',
  'form',
  'grid',
  'group',
  'img',
  'listbox',
  'log',
  'marquee',
  'menu',
  'menubar',
  'navigation',
  'progressbar',
  'radiogroup',
  'search',
  'status',
  'tablist',
  'tabpanel',
  'timer',
  'toolbar',
  'tree',
  'treegrid',
]);

/** Roles that step 2C reads as a value when they sit in another widget's label. */
type EmbeddedKind = 'textbox' | 'choice' | 'range';
const EMBEDDED_CONTROLS: ReadonlyMap<string, EmbeddedKind> = new Map([
  ['textbox', 'textbox'],
  ['searchbox', 'textbox'],
  ['combobox', 'choice'],
  ['listbox', 'choice'],
  // accname: "role range (e.g., a spinbutton or slider)"; progressbar and meter are ranges too.
  ['slider', 'range'],
  ['spinbutton', 'range'],
  ['scrollbar', 'range'],
  ['progressbar', 'range'],
  ['meter', 'range'],
]);

/**
 * How a piece of content meets its neighbours in a name: 'inline' pieces (text, inline
 * elements, inline generated content) join as written; an 'apart' piece is a word of its own,
 * with a break on each side: a box CSS lays out on its own (block, inline-block, flex or grid
 * item, table cell, list item…), a control, or a piece named by an attribute.
 */
export type Spacing = 'inline' | 'apart';

/** The spacing CSS gives an element of this computed `display`: only inline boxes run on with
 *  their neighbours. `display: contents` has no box, yet it is a word break: Chromium reads it
 *  so (accname leaves the question open), and names are what assistive technology reads. */
export function spacingOf(display: string): Spacing {
  return display === 'inline' || display === '' ? 'inline' : 'apart';
}

/**
 * How a ::before / ::after meets the content around it, as Chromium joins it (accname 2F.ii
 * says "without a space"; its #225 note leaves layout-based spacing open):
 * - 'inline': joins as written;
 * - 'word': CSS alt text (`content: "→" / "Next"`) stands for a picture: a word of its own;
 * - 'inline-box' (inline-block, inline-flex…): set apart from its element's own content only,
 *   so `Pay<span>due</span>now` with an inline-block ::after "EUR" reads "Paydue EURnow";
 * - 'block-box' (block, list-item, flex, floated…): the same, and its element ends with a
 *   break: with a block ::before "Total" it reads "PayTotal due now".
 */
export type PseudoLayout = 'inline' | 'word' | 'inline-box' | 'block-box';

export function pseudoLayout(display: string, altText: boolean): PseudoLayout {
  if (altText) return 'word';
  if (display === 'inline' || display === 'contents' || display === '') return 'inline';
  return display.startsWith('inline') ? 'inline-box' : 'block-box';
}

/** Generated content of one ::before / ::after pseudo-element, as the describer reads it. */
export interface GeneratedContent {
  text: string;
  layout: PseudoLayout;
}

/** What the name computation needs from the page, cached by the describer. */
export interface NameEnv {
  role(el: Element): string;
  /** Labels associated with a labelable element, in tree order. */
  labels(el: Element): readonly Element[];
  style(el: Element): CSSStyleDeclaration | null;
  /** The rendered ::before or ::after content, or null when there is none (or it is hidden). */
  pseudo(el: Element, which: '::before' | '::after'): GeneratedContent | null;
  /** Hidden by any rule, counting ancestors (display, visibility, content-visibility, aria-hidden). */
  hiddenDeep(el: Element): boolean;
  /** The (open or hooked closed) shadow root of a host. */
  shadowRoot(el: Element): ShadowRoot | null;
  /** The element itself starts a subtree the site keeps from the agent (a deny zone) or is
   *  the agent's own UI. Optional: without it nothing is kept out. */
  excluded?(el: Element): boolean;
  /** The element or an ancestor (across shadow roots and frames) is such a subtree. */
  inExcluded?(el: Element): boolean;
}

/** One whole name computation (accname's "root node" and its bookkeeping). */
interface Run {
  env: NameEnv;
  root: Element;
  /** Each node is consulted once (accname 2F "Important"); each aria-labelledby reference
   *  starts from the set as it was before the references. */
  visited: Set<Node>;
  chars: number;
  nodes: number;
}

/** How the traversal reached the current node. */
type Traversal =
  | 'root' // the element whose name is asked
  | 'labelledby' // a node directly referenced by aria-labelledby
  | 'label' // a native label (<label>, <legend>, <caption>, <figcaption>) of the root
  | 'content'; // a rendered child, through name from content

/** Where the current node was reached from. */
interface Via {
  how: Traversal;
  /** Inside an aria-labelledby traversal (2B is not followed again). */
  inLabelledBy: boolean;
  /** Inside a native label's subtree (labels are not followed again). */
  inLabel: boolean;
  /** The node that started this traversal: the root, a referenced node, or a label. Hidden
   *  descendants count only when it is hidden itself (step 2A). */
  start: Element;
  /** The parent element is visibility:hidden, so this text node is not rendered. */
  invisibleParent: boolean;
}

/** Where a result came from: text and content join as written; attributes and controls are
 *  set apart; 'break' is an empty piece that still separates words; 'none' is a node that
 *  adds nothing at all (hidden, skipped, already read). */
type Source = 'content' | 'attribute' | 'control' | 'break' | 'none';

interface Result {
  text: string;
  source: Source;
}

const NOTHING: Result = { text: '', source: 'none' };
const BREAK: Result = { text: '', source: 'break' };
const fromAttribute = (text: string): Result => ({ text, source: 'attribute' });

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/** ASCII whitespace (infra): the only whitespace accname's flat string collapses. */
const ASCII_SPACES = /[ \t\n\r\f]+/g;
const isBlank = (s: string | null | undefined): boolean => !s || !/[^ \t\n\r\f]/.test(s);
const usable = (s: string | null | undefined): string | null => (isBlank(s) ? null : s!);

/** accname "flat string": ASCII whitespace runs become one space, the ends are trimmed. Every
 *  other character (no-break space, zero-width space, soft hyphen…) is kept. */
export function flatString(s: string): string {
  return s.replace(ASCII_SPACES, ' ').replace(/^ | $/g, '');
}

/** For a line printed to the model, never for the name itself: every Unicode whitespace run
 *  becomes one space and invisible characters (zero-width space, soft hyphen) go. */
export function flatten(s: string): string {
  return s
    .replace(/[\u200b\u00ad]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The text of a computed CSS `content` value: quoted strings and attr() joined; url(),
 * counters and quotes dropped; a "/ alt" part, when present, wins (CSS alt text for
 * generated content). Private-use-area characters (icon fonts) are removed.
 */
export function cssContentText(value: string, attr: (name: string) => string | null): string {
  return cssContent(value, attr).text;
}

/** cssContentText, telling also whether the text is CSS alt text (`content: … / "alt"`). */
export function cssContent(value: string, attr: (name: string) => string | null): { text: string; alt: boolean } {
  if (!value || value === 'none' || value === 'normal') return { text: '', alt: false };
  const parts: string[] = [];
  let alt: string[] | null = null;
  const re = /"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|attr\(\s*([^\s)]+)[^)]*\)|(\/)|url\([^)]*\)|[a-z-]+\([^)]*\)|\S+/gi;
  for (let m = re.exec(value); m; m = re.exec(value)) {
    const target = alt ?? parts;
    if (m[1] !== undefined || m[2] !== undefined) target.push(unescapeCss(m[1] ?? m[2] ?? ''));
    else if (m[3] !== undefined) target.push(attr(m[3]) ?? '');
    else if (m[4] !== undefined) alt = [];
  }
  const text = (alt ?? parts).join('').replace(/[\ue000-\uf8ff]|[\udb80-\udbff][\udc00-\udfff]/g, '');
  return { text, alt: alt !== null };
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
const NO_CONTENT_TAGS = new Set([
  'input',
  'img',
  'select',
  'textarea',
  'iframe',
  'video',
  'audio',
  'canvas',
  'object',
  'embed',
  'br',
  'hr',
  'wbr',
  'area',
  'meter',
  'progress',
]);

/** Form controls: a word of their own in a label even when they add no text ("Amount [ ] due"). */
const CONTROL_TAGS = new Set(['input', 'select', 'textarea', 'button', 'meter', 'progress']);

/**
 * The accessible name of `el`: a flat string (see the file comment). `asRole` computes it as if
 * `el` had that role (for the map's clickable elements whose own role is generic, e.g. a <div>
 * with a click handler that the map lists as a button).
 */
export function accessibleName(env: NameEnv, el: Element, asRole?: string): string {
  const role = asRole ?? env.role(el);
  const run: Run = { env, root: el, visited: new Set(), chars: 0, nodes: 0 };
  // step 1. Roles that prohibit naming: only an author's name (see the file comment).
  if (namingProhibited(el, role)) return flatString(authorName(run, el));
  const via: Via = { how: 'root', inLabelledBy: false, inLabel: false, start: el, invisibleParent: false };
  return flatString(textAlternative(run, el, via, role).text);
}

/** steps 2B and 2D only: aria-labelledby, else aria-label. */
function authorName(run: Run, el: Element): string {
  run.visited.add(el);
  return labelledBy(run, el)?.text ?? usable(attrOf(el, 'aria-label')) ?? '';
}

/** step 1. html-aam names an <iframe> by its title although it maps to no role. */
function namingProhibited(el: Element, role: string): boolean {
  if (isHtml(el) && el.localName === 'iframe') return false;
  return NAME_PROHIBITED_ROLES.has(role);
}

/** accname step 2: the text alternative of the current node. `rootRole` only for the root. */
function textAlternative(run: Run, node: Node, via: Via, rootRole?: string): Result {
  if (nodeTypeOf(node) === TEXT_NODE) return { text: textNode(run, node as Text, via), source: 'content' };
  if (nodeTypeOf(node) !== ELEMENT_NODE) return NOTHING;
  const el = node as Element;
  if (SKIPPED_TAGS.has(el.localName)) return NOTHING;
  // Deny zones: content is reached from above, so its own mark tells; a referenced node, a
  // label or the root may sit anywhere, so their ancestors count too.
  if (via.how === 'content' ? run.env.excluded?.(el) : run.env.inExcluded?.(el)) return NOTHING;
  const isRoot = via.how === 'root';
  const rootAgain = !isRoot && el === run.root;
  // A node directly referenced by aria-labelledby is computed each time it is referenced
  // ("a b a" reads a twice); anything else once (2F "Important"), which also ends loops.
  if (run.visited.has(el) && via.how !== 'labelledby' && !rootAgain) return NOTHING;
  // The root inside its own label adds nothing: its value is not part of its name.
  if (rootAgain && via.inLabel) return { text: '', source: 'control' };
  run.visited.add(el);
  run.nodes++;

  // step 2A. Hidden, not referenced.
  const visibility = isRoot || via.how === 'labelledby' ? 'shown' : hiddenForName(run.env, el, via);
  if (visibility === 'hidden') return NOTHING;
  const selfInvisible = visibility === 'children only';
  const role = isRoot ? (rootRole ?? run.env.role(el)) : roleIfRelevant(run.env, el);

  // steps 2B-2E (not for a visibility:hidden node's own attributes), then 2F-2I: content,
  // then the tooltip.
  const own = selfInvisible ? null : authorOrControl(run, el, via, role, !isRoot && !rootAgain);
  const result = own ?? contentOrTooltip(run, el, via, role, selfInvisible);
  // Inside a <label>, an empty picture between words is a break, as Chromium reads it (not in
  // a button's content: there it adds nothing). accname 2F.iii only appends.
  if (!result.text && via.inLabel && !via.inLabelledBy && !selfInvisible && isPicture(el)) return BREAK;
  return result;
}

/** steps 2B-2E, or null to go on with content. `embedded`: not the root (2C applies). */
function authorOrControl(run: Run, el: Element, via: Via, role: string | null, embedded: boolean): Result | null {
  // step 2B. aria-labelledby, unless already inside a labelledby traversal.
  const labelled = via.inLabelledBy ? null : labelledBy(run, el);
  if (labelled !== null) return labelled;

  // step 2C. Embedded control: a control inside the label of another widget (a label, a
  // labelledby target, or the content that names a widget) gives its value.
  const kind = role && embedded ? EMBEDDED_CONTROLS.get(role) : undefined;
  const value = kind ? embeddedValue(run, el, kind) : null;
  if (value !== null) return { text: value, source: 'control' };

  // steps 2D-2E. aria-label, then the host language's label.
  return ownLabel(run, el, via, role);
}

const isPicture = (el: Element): boolean => (el.localName === 'svg' ? isSvg(el) : isHtml(el) && (el.localName === 'img' || el.localName === 'canvas'));

/**
 * step 2A for a node reached through content or a label: 'hidden' drops it with its subtree
 * (display:none, aria-hidden); 'children only' when it is visibility:hidden (its children may
 * be visible again, its own text and attributes are not). Hidden nodes count when the
 * traversal started at a hidden node (a hidden labelledby target or label, or a hidden root).
 */
function hiddenForName(env: NameEnv, el: Element, via: Via): 'shown' | 'hidden' | 'children only' {
  const hidden = ownHidden(env, el);
  if (!hidden || env.hiddenDeep(via.start)) return 'shown';
  return hidden === 'all' ? 'hidden' : 'children only';
}

/** steps 2D-2E: aria-label (returned as written), else the host language label, or null. */
function ownLabel(run: Run, el: Element, via: Via, role: string | null): Result | null {
  // step 2D. aria-label (not on slots), when not blank.
  const ariaLabel = el.localName === 'slot' ? null : usable(attrOf(el, 'aria-label'));
  if (ariaLabel !== null) return fromAttribute(ariaLabel);
  // step 2E. Host language label (html-aam), unless the node is presentational.
  if (role && isPresentational(role)) return null;
  return hostLanguageLabel(run, el, via);
}

/**
 * steps 2F-2I. Name from content — for the root when its role allows it, for every other node
 * (referenced nodes, labels and descendants: step 2H) unless it is a container that names do
 * not read (UNREAD_CONTAINER_ROLES, outside labelledby targets) — then the tooltip.
 */
function contentOrTooltip(run: Run, el: Element, via: Via, role: string | null, selfInvisible: boolean): Result {
  const isRoot = via.how === 'root';
  let content = '';
  if (readsContent(via, role)) {
    content = nameFromContent(run, el, via, selfInvisible);
    // step 2F.iv. Return the accumulated text if it is not the empty string: a descendant's
    // blank text is the word break between its neighbours. For the root, a blank is no name,
    // and its title follows (html-aam: "no usable text string").
    if (isRoot ? !isBlank(content) : content !== '') return { text: content, source: 'content' };
  }
  // step 2I. Tooltip attribute — not for a decorative image (alt=""), which html-aam leaves
  // unnamed.
  const title = selfInvisible || isDecorativeImage(el) ? null : usable(attrOf(el, 'title'));
  if (title !== null) return fromAttribute(title);
  return { text: content, source: isControl(el) ? 'control' : 'content' };
}

/** Whether step 2F reads this node's content (see contentOrTooltip). */
function readsContent(via: Via, role: string | null): boolean {
  if (via.how === 'root') return NAME_FROM_CONTENT_ROLES.has(role ?? '');
  return via.how === 'labelledby' || via.inLabelledBy || !role || !UNREAD_CONTAINER_ROLES.has(role);
}

/** step 2G. A text node gives its text, as rendered (text-transform), unless its parent is
 *  visibility:hidden. Whitespace is kept: it is the word break between its neighbours. */
function textNode(run: Run, node: Text, via: Via): string {
  if (via.invisibleParent) return '';
  let data = node.data;
  if (isBlank(data)) return data;
  const room = CONTENT_CHAR_CAP - run.chars;
  if (room <= 0) return '';
  if (data.length > room) data = data.slice(0, room);
  run.chars += data.length;
  const parent = parentElementOf(node);
  const transform = parent ? run.env.style(parent)?.textTransform : undefined;
  return transform && transform !== 'none' ? applyTextTransform(data, transform) : data;
}

/** CSS text-transform, as a reader sees the text (and as Chromium exposes it). */
export function applyTextTransform(text: string, transform: string): string {
  switch (transform) {
    case 'uppercase':
      return text.toUpperCase();
    case 'lowercase':
      return text.toLowerCase();
    case 'capitalize':
      // The first letter of each word; a hyphen starts a word, an underscore does not.
      return text.replace(/(^|[^\p{L}\p{N}_'’])(\p{L})/gu, (_, pre: string, ch: string) => pre + ch.toUpperCase());
  }
  return text;
}

/** Elements without a role attribute whose role some step needs (see roleIfRelevant). */
const ROLE_RELEVANT_TAGS = new Set(['input', 'select', 'textarea', 'img', 'meter', 'progress', 'nav', 'dialog', 'fieldset', 'search']);

/** Role of a non-root node, computed only where a step depends on it (it costs a little). */
function roleIfRelevant(env: NameEnv, el: Element): string | null {
  if (hasAttrOf(el, 'role') || hasAttrOf(el, 'contenteditable')) return env.role(el);
  return isHtml(el) && ROLE_RELEVANT_TAGS.has(el.localName) ? env.role(el) : null;
}

/** 'all': hides the subtree (display:none, aria-hidden); 'self': visibility:hidden only.
 *  (content-visibility:hidden hides a node's children, not the node: see renderedChildren.) */
function ownHidden(env: NameEnv, el: Element): 'all' | 'self' | false {
  if (attrOf(el, 'aria-hidden') === 'true') return 'all';
  const st = env.style(el);
  if (!st) return false;
  if (st.display === 'none') return 'all';
  if (st.visibility === 'hidden' || st.visibility === 'collapse') return 'self';
  return false;
}

/**
 * step 2B. The text of the aria-labelledby targets, or null when there are none or they say
 * nothing. Each target is computed from the top of step 2 as part of this traversal, so its
 * own aria-labelledby is not followed (accname example 3), and a target that points back into
 * the chain (the root itself, or a node already read) is read by its other steps only.
 */
function labelledBy(run: Run, el: Element): Result | null {
  if (!hasAttrOf(el, 'aria-labelledby')) return null;
  const refs = labelledByTargets(el);
  if (!refs.length) return null;
  // step 2B.i. Set the accumulated text to the empty string.
  let acc = '';
  const outer = run.visited;
  for (const ref of refs) {
    // step 2B.ii.a-b. The referenced node, computed from the top of step 2. Each reference is
    // read in full, even a repeated one; loops cannot form, as 2B is not followed inside.
    run.visited = new Set(outer);
    const result = textAlternative(run, ref, { how: 'labelledby', inLabelledBy: true, inLabel: false, start: ref, invisibleParent: false });
    // step 2B.ii.c. Append a space character and the result.
    acc += ' ' + result.text;
  }
  run.visited = outer;
  // step 2B.iii. Return the accumulated text if it is not empty.
  return isBlank(acc) ? null : fromAttribute(acc);
}

/** aria-labelledby targets: element reflection when set from script, else IDREFs in the tree. */
function labelledByTargets(el: Element): Element[] {
  const reflected = (el as Element & { ariaLabelledByElements?: readonly Element[] | null }).ariaLabelledByElements;
  if (reflected && reflected.length) return [...reflected];
  const ids = (attrOf(el, 'aria-labelledby') ?? '').split(/\s+/).filter(Boolean);
  const scope = el.getRootNode() as Document | ShadowRoot;
  const out: Element[] = [];
  if (typeof scope.getElementById !== 'function') return out;
  for (const id of ids) {
    const t = scope.getElementById(id);
    if (t) out.push(t);
  }
  return out;
}

/**
 * step 2C. The value an embedded control contributes to the label it sits in, or null to go
 * on with the next steps: an empty text field is read by its own name (aria-label, title,
 * placeholder) instead, as Chromium does — the field's label says what goes there.
 */
function embeddedValue(run: Run, el: Element, kind: EmbeddedKind): string | null {
  switch (kind) {
    // step 2C textbox: its value.
    case 'textbox':
      if (isHtml(el) && (el as HTMLInputElement).type === 'password') return '';
      return usable(textValue(run, el));
    // step 2C combobox/listbox: the text alternative of the chosen option(s).
    case 'choice':
      return chosenOptions(run, el);
    // step 2C range: aria-valuetext, aria-valuenow, then the host language value.
    case 'range':
      return attrOf(el, 'aria-valuetext') ?? attrOf(el, 'aria-valuenow') ?? hostValue(el);
  }
}

/** A text field's value; a password field's is a secret (and so is its length): nothing. */
function textValue(run: Run, el: Element): string {
  if (!isHtml(el)) return '';
  if (el.localName === 'input') {
    const input = el as HTMLInputElement;
    return input.type === 'password' ? '' : input.value;
  }
  if (el.localName === 'textarea') return (el as HTMLTextAreaElement).value;
  return shownText(run.env, el); // a contenteditable or role=textbox element: its text
}

/** An element's text, as textContent gives it (capped), without what deny zones hold. */
function shownText(env: NameEnv, el: Element): string {
  if (!env.excluded) return capped(el.textContent);
  let out = '';
  const add = (parent: Node): void => {
    for (let c = firstChildOf(parent); c && out.length < CONTENT_CHAR_CAP; c = nextSiblingOf(c)) {
      if (nodeTypeOf(c) === TEXT_NODE) out += (c as Text).data;
      else if (nodeTypeOf(c) === ELEMENT_NODE && !env.excluded!(c as Element)) add(c);
    }
  };
  add(el);
  return capped(out);
}

function hostValue(el: Element): string {
  if (!isHtml(el)) return '';
  switch (el.localName) {
    case 'input':
      return (el as HTMLInputElement).value;
    case 'meter':
    case 'progress':
      return String((el as HTMLMeterElement).value);
  }
  return '';
}

/** The chosen option(s) of a combobox or listbox, or null to read it by its other steps. */
function chosenOptions(run: Run, el: Element): string | null {
  const tag = isHtml(el) ? el.localName : '';
  if (tag === 'select') return [...(el as HTMLSelectElement).selectedOptions].map((o) => optionText(run, o)).join(' ');
  if (tag === 'input' || tag === 'textarea') return usable((el as HTMLInputElement).value);
  const chosen = el.querySelectorAll('[role=option][aria-selected=true]');
  if (chosen.length) return [...chosen].map((o) => optionText(run, o)).join(' ');
  // A select-only combobox shows its value as its text; a listbox with nothing chosen says nothing.
  return run.env.role(el) === 'combobox' ? shownText(run.env, el) : '';
}

const capped = (s: string | null): string => (s ?? '').slice(0, CONTENT_CHAR_CAP);

/** The text alternative of an option, computed on its own (options of a closed select are
 *  not rendered, so the hidden rules must not drop them). */
function optionText(run: Run, option: Element): string {
  if (run.visited.has(option) || run.env.inExcluded?.(option)) return '';
  const label = usable(attrOf(option, 'aria-label'));
  if (label !== null) return label;
  if (isHtml(option) && option.localName === 'option') {
    run.visited.add(option);
    return (option as HTMLOptionElement).label || (option as HTMLOptionElement).value;
  }
  return textAlternative(run, option, { how: 'labelledby', inLabelledBy: true, inLabel: false, start: option, invisibleParent: false }).text;
}

/**
 * step 2E. The text alternative the host language defines (html-aam), or null to go on with
 * name from content and title.
 */
function hostLanguageLabel(run: Run, el: Element, via: Via): Result | null {
  if (isSvg(el)) return svgTitle(run, el);
  if (!isHtml(el)) return null;
  // html-aam: associated <label>s, concatenated in tree order, for labelable elements. Not
  // inside another label or labelledby traversal (that would loop back to the root's labels).
  if (!via.inLabel && !via.inLabelledBy && isLabelable(el)) {
    const labels = associatedLabels(run, el);
    if (labels !== null) return labels;
  }
  const title = (): Result | null => attributeResult(attrOf(el, 'title'));
  switch (el.localName) {
    case 'img':
      // html-aam: alt, even empty (then the image is decorative: no name, not even a title).
      if (hasAttrOf(el, 'alt')) return fromAttribute(attrOf(el, 'alt')!);
      return null;
    case 'input':
      return inputLabel(el as HTMLInputElement, title);
    case 'textarea':
      return title() ?? placeholder(el);
    case 'area':
      return attributeResult(attrOf(el, 'alt'));
    // A fieldset is a group, whose content names do not read (UNREAD_CONTAINER_ROLES): its
    // legend speaks for it everywhere. html-aam 4.1.9: a <figure> is not named by its
    // <figcaption> (a link wrapping a figure card reads its whole content).
    case 'fieldset':
      return childLabel(run, el, 'legend', via);
    // Inside content recursion (a link wrapping a table) a table gives its whole content,
    // which holds the caption anyway, as Chromium reads a layout table.
    case 'table':
      return via.how === 'content' ? null : childLabel(run, el, 'caption', via);
    case 'optgroup':
      return attributeResult(attrOf(el, 'label'));
    case 'option':
      // An option of a <select> or <datalist> is not laid out: its label attribute, else its
      // text as HTML gives it (`option.label`: whitespace collapsed, no boxes to space).
      return parentElementOf(el)?.closest('select, datalist') ? attributeResult((el as HTMLOptionElement).label) : attributeResult(attrOf(el, 'label'));
  }
  // Non-native text fields: aria-placeholder as a last resort (html-aam does the same with
  // placeholder for native ones).
  const role = hasAttrOf(el, 'role') || hasAttrOf(el, 'contenteditable') ? run.env.role(el) : '';
  if (role === 'textbox' || role === 'searchbox' || role === 'combobox') return title() ?? attributeResult(attrOf(el, 'aria-placeholder'));
  return null;
}

/** html-aam input rules: button values and default labels, image alt, text field title and
 *  placeholder. */
function inputLabel(input: HTMLInputElement, title: () => Result | null): Result | null {
  const type = input.type;
  if (type === 'button' || type === 'submit' || type === 'reset') {
    // The value attribute; submit/reset with no value attribute get the UA's default label;
    // an empty value is no usable text, so the title follows.
    const value = attrOf(input, 'value');
    if (value !== null) return attributeResult(value) ?? title();
    if (type === 'submit') return fromAttribute('Submit');
    if (type === 'reset') return fromAttribute('Reset');
    return title();
  }
  if (type === 'image') return attributeResult(attrOf(input, 'alt')) ?? title() ?? fromAttribute('Submit');
  if (TEXT_INPUT_TYPES.has(type)) return title() ?? placeholder(input);
  return null;
}

/** The root's associated <label>s, each computed as a label traversal, joined by spaces. */
function associatedLabels(run: Run, el: Element): Result | null {
  const labels = run.env.labels(el);
  if (!labels.length) return null;
  let acc = '';
  for (const label of labels) {
    if (hiddenLabel(run, label)) continue;
    const t = textAlternative(run, label, { how: 'label', inLabelledBy: false, inLabel: true, start: label, invisibleParent: false }).text;
    if (!isBlank(t)) acc += (acc ? ' ' : '') + t;
  }
  return isBlank(acc) ? null : fromAttribute(acc);
}

/** svg-aam: a <title> child names its parent (unless content-visibility hides the children). */
function svgTitle(run: Run, el: Element): Result | null {
  if (run.env.style(el)?.contentVisibility === 'hidden') return null;
  for (const c of el.children) if (c.localName === 'title' && isSvg(c)) return attributeResult(shownText(run.env, c));
  return null;
}

function placeholder(el: Element): Result | null {
  return attributeResult(attrOf(el, 'placeholder')) ?? attributeResult(attrOf(el, 'aria-placeholder'));
}

function attributeResult(s: string | null | undefined): Result | null {
  const text = usable(s);
  return text === null ? null : fromAttribute(text);
}

/**
 * html-aam: a hidden <label>, <legend> or <caption> provides no name ("If a label element is
 * hidden from the accessibility tree, then it will not provide an accessible name to the
 * labelable element it is associated with"). A hidden root still reads its hidden labels (the
 * file comment: a hidden control keeps the name it will have when shown).
 */
function hiddenLabel(run: Run, label: Element): boolean {
  return run.env.hiddenDeep(label) && !run.env.hiddenDeep(run.root);
}

/** fieldset/legend, table/caption: the first such child names the parent (html-aam 4.1.5,
 *  4.1.11), unless it is hidden. */
function childLabel(run: Run, el: Element, tag: string, via: Via): Result | null {
  for (const c of el.children) {
    if (c.localName !== tag) continue;
    if (hiddenLabel(run, c)) return null;
    const t = textAlternative(run, c, { how: 'label', inLabelledBy: via.inLabelledBy, inLabel: true, start: c, invisibleParent: false }).text;
    return attributeResult(t);
  }
  return null;
}

/** step 2F. Name from content: generated content, then each rendered child, in order. */
function nameFromContent(run: Run, el: Element, via: Via, selfInvisible: boolean): string {
  const env = run.env;
  if (isHtml(el) && NO_CONTENT_TAGS.has(el.localName)) return '';
  // step 2F.i. Name from content reset.
  const acc = new WordJoiner();
  // step 2F.ii. Generated content: ::before is prepended (spaced as PseudoLayout says).
  const before = selfInvisible ? null : env.pseudo(el, '::before');
  if (before) acc.addBefore(before);
  // step 2F.iii. Each rendered child: compute it from the top of step 2 (a-b), append it (c).
  const childVia: Via = { how: 'content', inLabelledBy: via.inLabelledBy, inLabel: via.inLabel, start: via.start, invisibleParent: selfInvisible };
  const children = renderedChildren(env, el, via);
  for (let i = 0; i < children.length; i++) {
    if (run.chars >= CONTENT_CHAR_CAP || run.nodes >= CONTENT_NODE_CAP) break;
    const child = children[i]!;
    // A line break separates words; so does a line-break opportunity, as Chromium reads it.
    if (child.nodeName === 'BR' || child.nodeName === 'WBR') {
      acc.add('', 'apart');
      continue;
    }
    const result = textAlternative(run, child, childVia);
    acc.add(result.text, nodeTypeOf(child) === ELEMENT_NODE ? spacingOfChild(env, child as Element, result) : 'inline');
  }
  // step 2F.ii. ::after is appended.
  const after = selfInvisible ? null : env.pseudo(el, '::after');
  if (after) acc.addAfter(after);
  // A block-level ::before/::after ends its element with a break (PayTotal due now).
  if (before?.layout === 'block-box' || after?.layout === 'block-box') acc.add('', 'apart');
  return acc.text;
}

/** step 2F.iii "rendered child nodes": a shadow root's children, a slot's assigned nodes, or
 *  the element's own children; none under content-visibility:hidden. */
function renderedChildren(env: NameEnv, el: Element, via: Via): ArrayLike<Node> {
  const st = env.style(el);
  if (st && st.contentVisibility === 'hidden' && !env.hiddenDeep(via.start)) return [];
  const shadow = env.shadowRoot(el);
  if (shadow) return shadow.childNodes;
  if (el.localName === 'slot') {
    const assigned = (el as HTMLSlotElement).assignedNodes();
    if (assigned.length) return assigned;
  }
  return el.childNodes;
}

/** Joins the pieces of a name from content (see Spacing, PseudoLayout). Extra spaces are
 *  harmless: the final flat string collapses them. */
class WordJoiner {
  text = '';
  /** A ::before box was added: the next non-empty piece starts a new word. */
  private breakNext = false;

  add(text: string, spacing: Spacing): void {
    if (this.breakNext && text) {
      this.text += ' ';
      this.breakNext = false;
    }
    this.text += spacing === 'apart' ? ` ${text} ` : text;
  }

  addBefore(g: GeneratedContent): void {
    this.add(g.text, g.layout === 'word' ? 'apart' : 'inline');
    this.breakNext = g.layout === 'inline-box' || g.layout === 'block-box';
  }

  addAfter(g: GeneratedContent): void {
    const box = g.layout === 'inline-box' || g.layout === 'block-box';
    if (box && !isBlank(this.text)) this.text += ' ';
    this.add(g.text, g.layout === 'word' ? 'apart' : 'inline');
  }
}

/**
 * How a child's text meets its siblings: as CSS lays it out (see spacingOf); a form control is
 * a word of its own even when it adds no text ("Amount [  ] due"), and so is text from an
 * attribute rather than from text (aria-label, alt, title, a value): `<a><img alt="Logo">Home</a>`
 * reads "Logo Home". A display:contents element is a break even when empty. (The style was
 * read for step 2A already: no new getComputedStyle call.)
 */
function spacingOfChild(env: NameEnv, el: Element, result: Result): Spacing {
  if (result.source === 'none') return 'inline';
  if (result.source === 'control' || result.source === 'break') return 'apart';
  const display = env.style(el)?.display ?? 'inline';
  if (display === 'contents') return 'apart';
  if (!result.text) return 'inline';
  if (result.source !== 'content' || isControl(el) || el.localName === 'svg') return 'apart';
  return spacingOf(display);
}

const isDecorativeImage = (el: Element): boolean => isHtml(el) && el.localName === 'img' && attrOf(el, 'alt') === '';

function isControl(el: Element): boolean {
  if (!isHtml(el) || !CONTROL_TAGS.has(el.localName)) return false;
  return el.localName !== 'input' || (el as HTMLInputElement).type !== 'hidden';
}
