/**
 * Naming what a pointer hits, for messages: `covered by dialog "Cookie consent"`. The
 * hit-test itself (through shadow roots and same-origin frames) is `deepHit` in ../flat-tree.
 */
import type { Describer } from '../names/describe';
import type { CoverRole } from '../../../common/said';
import { hasClickListener } from '../dom/hooks';
import { flatContains, flatParent, inputType, isElement, tag } from './dom';
import { labelledControl, hasAttrOf, attrOf } from '../dom/proto';

export { deepHit, type Hit } from '../dom/flat-tree';

const ROLELESS = new Set(['generic', 'none', 'presentation', '']);
/** Elements whose content is not text a reader sees (canvas fallback, media, frames). */
const OPAQUE_TAGS = new Set(['canvas', 'video', 'audio', 'iframe', 'embed', 'object', 'img', 'svg']);
/** Containers whose whole text would not name them (a list, a form, a scroll pane). */
const CONTAINER_ROLES = new Set([
  'list',
  'listbox',
  'menu',
  'tree',
  'grid',
  'table',
  'form',
  'region',
  'dialog',
  'main',
  'navigation',
  'document',
  'feed',
  'tabpanel',
  'group',
]);
const CONTENT_MAX = 60;

/** The name the element would get from its content, when that is short enough to be a label. */
function contentName(el: Element, describer: Describer): string {
  try {
    if (CONTAINER_ROLES.has(describer.role(el))) return '';
    const text = describer.nameAs(el, 'button').replace(/\s+/g, ' ').trim();
    return text.length <= CONTENT_MAX * 2 ? text : '';
  } catch {
    return '';
  }
}

/**
 * `role "name"` for messages; names are shortened. Elements without a meaningful role (a
 * canvas, a div) are named by tag, with their aria-label/title/id when they have one.
 */
export function labelOf(el: Element, describer: Describer): string {
  let role = '';
  let name = '';
  try {
    ({ role, name } = describer.describe(el));
  } catch {
    /* describe must never break an action */
  }
  if (ROLELESS.has(role)) {
    role = tag(el);
    name ||= attrOf(el, 'aria-label') ?? attrOf(el, 'title') ?? '';
  }
  // A nameless list item or clickable div is told by what it says, as the map shows it.
  if (!name && !OPAQUE_TAGS.has(tag(el))) name = contentName(el, describer);
  if (!name && el.id && ROLELESS.has(describer.role(el))) return `${role}#${el.id}`;
  name = (name || '').replace(/\s+/g, ' ').trim();
  if (name.length > 60) name = `${name.slice(0, 57)}…`;
  return name ? `${role} "${name}"` : role;
}

/** `div#cookie-banner.banner.fixed` — for elements without a role or name worth naming. */
export function selectorOf(el: Element): string {
  const id = el.id ? `#${el.id}` : '';
  const cls =
    typeof el.className === 'string'
      ? el.className
          .trim()
          .split(/\s+/)
          .filter(Boolean)
          .slice(0, 3)
          .map((c) => `.${c}`)
          .join('')
      : '';
  return `${tag(el)}${id}${cls}`;
}

const LAYER_ROLES = new Set([
  'dialog',
  'alertdialog',
  'banner',
  'contentinfo',
  'navigation',
  'region',
  'complementary',
  'alert',
  'status',
  'tooltip',
  'menu',
  'listbox',
  'form',
  'search',
]);

/**
 * Describes what covers `target` at a point, given the element actually hit there: the
 * covering layer is the outermost ancestor of the hit that does not contain the target; it is
 * named by the first ancestor on the way with a landmark/dialog role or an explicit label.
 * `cover` is how the message names it; a layer's role and label also come apart, for the
 * panel to say the role in its language.
 */
export function describeCover(hit: Element, target: Element, describer: Describer): { cover: string; role?: CoverRole; name?: string } {
  let layer: Element = hit;
  for (let n = flatParent(hit); n && isElement(n) && !flatContains(n, target); n = flatParent(n)) {
    if (tag(n) === 'body' || tag(n) === 'html') break;
    layer = n;
  }
  const chain: Element[] = [];
  for (let n: Node | null = hit; n && isElement(n); n = flatParent(n)) {
    chain.push(n as Element);
    if (n === layer) break;
  }
  const describe = (el: Element): { role: string; name: string } => {
    try {
      return describer.describe(el);
    } catch {
      return { role: '', name: '' };
    }
  };
  // A dialog/landmark layer names the cover best; failing that, an explicitly labelled container.
  const named =
    chain.find((el) => tag(el) === 'dialog' || LAYER_ROLES.has(describe(el).role)) ??
    chain.slice(1).find((el) => hasAttrOf(el, 'aria-label') || hasAttrOf(el, 'aria-labelledby'));
  if (named) {
    const { role, name } = describe(named);
    const heading = named.querySelector('h1,h2,h3,h4,[role=heading]')?.textContent?.trim() ?? '';
    const label = (LAYER_ROLES.has(role) && name ? name : heading || name).replace(/\s+/g, ' ').trim().slice(0, 60);
    const layerRole = LAYER_ROLES.has(role) ? role : tag(named) === 'dialog' ? 'dialog' : '';
    const what = layerRole || selectorOf(named);
    return {
      cover: label ? `${what} "${label}"` : `${what} (${selectorOf(named)})`,
      role: (layerRole || undefined) as CoverRole | undefined,
      name: label || undefined,
    };
  }
  const text = (layer.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 50);
  return { cover: `${selectorOf(layer)}${text ? ` ("${text}${(layer.textContent ?? '').trim().length > 50 ? '…' : ''}")` : ''}` };
}

/** True if a click landing on `hit` reaches `target`: inside it, or on one of its labels. */
export function hitReaches(hit: Element, target: Element): boolean {
  if (flatContains(target, hit)) return true;
  const labels = (target as HTMLInputElement).labels;
  if (labels) for (const l of labels) if (flatContains(l, hit)) return true;
  return false;
}

/** Roles whose element a click activates as a whole (the click on a child is a click on it). */
const CONTROL_ROLES = new Set(['button', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'tab', 'checkbox', 'radio', 'switch', 'treeitem']);

function isControl(el: Element): boolean {
  const t = tag(el);
  if (t === 'button' || t === 'select' || t === 'textarea' || t === 'summary' || t === 'option') return true;
  if ((t === 'a' || t === 'area') && hasAttrOf(el, 'href')) return true;
  if (t === 'input') return inputType(el) !== 'hidden';
  const role = (attrOf(el, 'role') ?? '').trim().split(/\s+/)[0]!.toLowerCase();
  return CONTROL_ROLES.has(role);
}

/**
 * The element a click on `el` activates: the nearest control around it (button, link, form
 * field, summary, an element with a control role), a label's control, else the nearest element
 * with an `onclick` or a click listener (seen when the hooks ran before the page), else `el`.
 * A click on the <span> or <svg> inside <button>Place order</button> is a click on the button.
 */
export function activatedBy(el: Element): Element {
  let listener: Element | undefined;
  for (let n: Node | null = el; n && isElement(n); n = flatParent(n)) {
    const e = n as Element;
    const t = tag(e);
    if (t === 'body' || t === 'html') break;
    if (t === 'label') {
      const control = labelledControl(e);
      if (control) return control;
    }
    if (isControl(e)) return e;
    if (!listener && (hasAttrOf(e, 'onclick') || hasClickListener(e))) listener = e;
  }
  return listener ?? el;
}
