/**
 * Role and accessible name of any element, for one map call.
 *
 * A describer caches per element (role, name, computed style, generated content, deep
 * hiddenness) and holds one label index per root node (document or shadow root), built lazily
 * in a single `querySelectorAll('label')` pass — never `.labels` per element, which Chromium
 * answers by scanning the tree each time (quadratic over a page's controls). It never reads
 * layout (no getBoundingClientRect, no innerText): only attributes, properties and computed
 * style. Create a fresh one per map call; cached answers go stale when the page changes.
 *
 * @example
 *   const d = createDescriber(settings);
 *   d.describe(document.querySelector('#email')!); // { role: 'textbox', name: 'Email address' }
 */
import { accessibleName, cssContent, pseudoLayout, type GeneratedContent, type NameEnv } from './name';
import type { PageSettings } from '../settings';
import { getRole } from './role';
import { attrOf, nodeTypeOf, parentNodeOf, parentElementOf, assignedSlotOf, ownerDocumentOf, openShadowOf } from '../dom/proto';

export interface DescriberOptions {
  /** The shadow root of a host, including closed roots the caller has seen (attachShadow hook).
   *  Default: the open `shadowRoot`. */
  shadowRoot?: (host: Element) => ShadowRoot | null;
}

export interface Describer {
  /** The settings of the operation it serves: nothing in their deny zones names anything. */
  readonly settings: PageSettings;
  /** ARIA role: first valid token of `role`, else implicit per html-aam. Never ''. */
  role(el: Element): string;
  /** Accessible name per accname 1.2 + html-aam, as its flat string: ASCII whitespace
   *  collapsed and trimmed, every other character (no-break spaces…) kept; not truncated
   *  (content beyond ~500 characters is not collected; see name.ts). */
  name(el: Element): string;
  describe(el: Element): { role: string; name: string };
  /** The name `el` would have with role `role` — for an element the map lists under a role it
   *  infers (a clickable <div> shown as a button gets its name from its content). */
  nameAs(el: Element, role: string): string;
}

/** Elements that never have a layout box of their own; their parent decides their visibility. */
const BOXLESS = new Set(['option', 'optgroup', 'area', 'map', 'slot', 'title', 'desc']);

export function createDescriber(settings: PageSettings, options: DescriberOptions = {}): Describer {
  const { zones } = settings;
  const roles = new Map<Element, string>();
  const names = new Map<Element, string>();
  const styles = new Map<Element, CSSStyleDeclaration | null>();
  const pseudo = { '::before': new Map<Element, GeneratedContent | null>(), '::after': new Map<Element, GeneratedContent | null>() };
  const hidden = new Map<Element, boolean>();
  const labelIndexes = new Map<Node, Map<Element, Element[]>>();
  const shadowRootOf = options.shadowRoot ?? ((host: Element) => openShadowOf(host));

  const role = (el: Element): string => {
    let r = roles.get(el);
    if (r === undefined) roles.set(el, (r = getRole(el)));
    return r;
  };

  const style = (el: Element): CSSStyleDeclaration | null => {
    let s = styles.get(el);
    if (s === undefined) {
      const view = ownerDocumentOf(el).defaultView;
      s = view ? view.getComputedStyle(el) : null;
      styles.set(el, s);
    }
    return s;
  };

  /** Rendered ::before/::after text; none when the pseudo-element is display:none or not
   *  visible (its visibility is its own, inherited from the element unless set). */
  const pseudoContent = (el: Element, which: '::before' | '::after'): GeneratedContent | null => {
    const cache = pseudo[which];
    let g = cache.get(el);
    if (g === undefined) {
      g = null;
      const view = ownerDocumentOf(el).defaultView;
      if (view) {
        const s = view.getComputedStyle(el, which);
        const content = s.content;
        if (content && content !== 'none' && content !== 'normal' && s.display !== 'none' && s.visibility === 'visible') {
          const { text, alt } = cssContent(content, (a) => attrOf(el, a));
          // Spaced as its display says; CSS alt text stands for a picture: a word of its own.
          if (text) g = { text, layout: pseudoLayout(s.display, alt) };
        }
      }
      cache.set(el, g);
    }
    return g;
  };

  const flatParent = (el: Element): Element | null => {
    if (assignedSlotOf(el)) return assignedSlotOf(el);
    if (parentElementOf(el)) return parentElementOf(el);
    const parent = parentNodeOf(el);
    return parent && nodeTypeOf(parent) === 11 ? (parent as ShadowRoot).host : null;
  };

  /** CSS-hidden, ancestors included: display:none anywhere up, visibility, content-visibility. */
  const cssHidden = (el: Element): boolean => {
    const st = style(el);
    if (!st) return false;
    if (st.display === 'contents' || BOXLESS.has(el.localName)) {
      if (st.visibility === 'hidden' || st.visibility === 'collapse') return true;
      const p = flatParent(el);
      return p ? hiddenDeep(p) : false;
    }
    if (typeof el.checkVisibility === 'function') return !el.checkVisibility({ visibilityProperty: true });
    if (st.visibility === 'hidden' || st.visibility === 'collapse') return true;
    for (let e: Element | null = el; e; e = flatParent(e)) if (style(e)?.display === 'none') return true;
    return false;
  };

  const hiddenDeep = (el: Element): boolean => {
    let h = hidden.get(el);
    if (h === undefined) {
      h = false;
      for (let e: Element | null = el; e && !h; e = flatParent(e)) h = attrOf(e, 'aria-hidden') === 'true';
      h = h || cssHidden(el);
      hidden.set(el, h);
    }
    return h;
  };

  /** control → its labels, for every label under one root node, in tree order. */
  const labels = (el: Element): readonly Element[] => {
    const root = el.getRootNode();
    let index = labelIndexes.get(root);
    if (!index) {
      index = new Map();
      const scope = root as ParentNode;
      if (typeof scope.querySelectorAll === 'function') {
        for (const label of scope.querySelectorAll('label')) {
          // `control` is the `for` target (looked up by id in the label's tree) or the first
          // labelable descendant: one lookup per label, not one tree scan per control.
          const control = (label as HTMLLabelElement).control;
          if (!control) continue;
          const list = index.get(control);
          if (list) list.push(label);
          else index.set(control, [label]);
        }
      }
      labelIndexes.set(root, index);
    }
    return index.get(el) ?? [];
  };

  /** Deny zones (and our own UI), ancestors included across shadow roots and frames: nothing
   *  in them names anything (name.ts). */
  const inExcluded = zones.check();

  const env: NameEnv = {
    role,
    labels,
    style,
    pseudo: pseudoContent,
    hiddenDeep,
    shadowRoot: shadowRootOf,
    excluded: (el) => zones.excluded(el),
    inExcluded,
  };

  const name = (el: Element): string => {
    let n = names.get(el);
    if (n === undefined) names.set(el, (n = accessibleName(env, el)));
    return n;
  };

  return {
    settings,
    role,
    name,
    describe: (el) => ({ role: role(el), name: name(el) }),
    nameAs: (el, asRole) => (asRole === role(el) ? name(el) : accessibleName(env, el, asRole)),
  };
}
