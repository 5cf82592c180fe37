/**
 * Deny zones: what keeps elements out of the map and out of reach of actions. The agent's own
 * UI (overlay, mask, Set-of-Marks boxes) carries UI_ATTR on its host; site owners put
 * `data-pagehand="off"` on subtrees the agent must not see or touch, or name them with
 * selectors (`init({ deny })`, parsed once by `denyZones`). The result is the `Zones` gate
 * (client/page/settings.ts) that every page operation receives in its settings and asks.
 */
import { contentOrigin, flatParent, frameDocument } from '../page/dom/flat-tree';
import { shadowRootOf } from '../page/dom/flat-tree';
import type { ZoneBox, Zones } from '../page/settings';
import { UI_ATTR } from '../page/ui-attr';
import { checkedSelectors } from './selectors';
import { nodeTypeOf, nextSiblingOf, firstChildOf, openShadowOf, hasAttrOf, attrOf } from '../page/dom/proto';

export const OFF_ATTR = 'data-pagehand';

/** The site's deny selectors, joined ('' for none): what `data-pagehand="off"` marks is always a zone. */
interface Selector {
  readonly selector: string;
}

/** The gate for `selector` (checked already). */
function gate(z: Selector): Zones {
  return Object.freeze({
    denied: (el: Element) => isDenied(el, z),
    excluded: (el: Element) => isExcluded(el, z),
    deniedBySelector: (el: Element) => deniedBySelector(el, z),
    inside: (el: Element) => inExcludedZone(el, z),
    check: () => createZoneCheck(z),
    holds: (el: Element) => containsZone(el, z),
    textOutside: (el: Element, max: number) => textOutsideZones(el, max, z),
    boxes: (doc?: Document, dx?: number, dy?: number) => denyZoneBoxes(z, doc, dx, dy),
  });
}

/** Only `data-pagehand="off"` (and our own UI): no deny selectors. */
export const NO_ZONES: Zones = gate({ selector: '' });

/** Selectors of subtrees the agent must not see or touch; invalid selectors are reported, not applied. */
export function denyZones(selectors: readonly string[]): { zones: Zones; ignored: string[] } {
  const { ok, ignored } = checkedSelectors(selectors);
  return { zones: ok.length ? gate({ selector: ok.join(',') }) : NO_ZONES, ignored };
}

/** A subtree the site keeps from the agent: `data-pagehand="off"` or a deny selector. */
function isDenied(el: Element, zones: Selector): boolean {
  return attrOf(el, OFF_ATTR) === 'off' || deniedBySelector(el, zones);
}

function isExcluded(el: Element, zones: Selector): boolean {
  return hasAttrOf(el, UI_ATTR) || isDenied(el, zones);
}

/** `isExcluded` for an element with no attribute at all: only a deny selector can name it. */
const deniedBySelector = (el: Element, zones: Selector): boolean => zones.selector !== '' && el.matches(zones.selector);

/**
 * `inExcludedZone` for many elements at once (a map, a snapshot): each ancestor's answer is
 * kept, so a page is walked up once. Fresh per use: answers go stale when the page changes.
 */
function createZoneCheck(zones: Selector): (el: Element) => boolean {
  const known = new Map<Node, boolean>();
  const check = (n: Node): boolean => {
    let z = known.get(n);
    if (z === undefined) {
      if (nodeTypeOf(n) === 1 && isExcluded(n as Element, zones)) z = true;
      else {
        let up: Node | null = flatParent(n);
        if (!up && nodeTypeOf(n) === 9) up = frameOf(n as Document);
        z = up ? check(up) : false;
      }
      known.set(n, z);
    }
    return z;
  };
  return (el) => check(el);
}

function frameOf(doc: Document): Element | null {
  try {
    return doc.defaultView?.frameElement ?? null;
  } catch {
    return null;
  }
}

/** The element or any ancestor (across shadow roots and frames) is excluded. */
function inExcludedZone(el: Element, zones: Selector): boolean {
  for (let n: Node | null = el; n; n = flatParent(n) ?? (n as Document).defaultView?.frameElement ?? null) {
    if (nodeTypeOf(n) === 1 && isExcluded(n as Element, zones)) return true;
  }
  return false;
}

/**
 * The boxes of the deny zones (`data-pagehand="off"`, deny selectors) in the top viewport's CSS
 * pixels: in the document, its open and hooked closed shadow roots and its same-origin frames.
 * For screenshots, which paint over them.
 */
function denyZoneBoxes(zones: Selector, doc: Document = document, dx = 0, dy = 0): ZoneBox[] {
  const out: ZoneBox[] = [];
  const selector = `[${OFF_ATTR}="off"]${zones.selector ? `,${zones.selector}` : ''}`;
  const look = (root: Document | ShadowRoot): void => {
    for (const z of Array.from(root.querySelectorAll(selector))) {
      const r = z.getBoundingClientRect();
      if (r.width > 0 && r.height > 0) out.push({ x: r.x + dx, y: r.y + dy, width: r.width, height: r.height });
    }
    for (const el of Array.from(root.querySelectorAll('*'))) {
      const shadow = shadowRootOf(el);
      if (shadow) look(shadow);
      if (el.localName === 'iframe' || el.localName === 'frame') {
        const inner = frameDocument(el);
        if (inner) {
          const o = contentOrigin(el);
          out.push(...denyZoneBoxes(zones, inner, o.x + dx, o.y + dy));
        }
      }
    }
  };
  look(doc);
  return out;
}

/** A selector for the elements that start a zone (or our UI) in one tree. */
function zoneSelector(zones: Selector): string {
  return `[${OFF_ATTR}="off"],[${UI_ATTR}]${zones.selector ? `,${zones.selector}` : ''}`;
}

/** The element is, or holds somewhere below it (through open shadow roots), a zone or our UI. */
function containsZone(el: Element, zones: Selector): boolean {
  if (isExcluded(el, zones)) return true;
  const selector = zoneSelector(zones);
  const look = (root: Element | ShadowRoot): boolean => {
    if (root.querySelector(selector)) return true;
    for (const e of Array.from(root.querySelectorAll('*'))) {
      const open = openShadowOf(e);
      if (open && look(open)) return true;
    }
    return false;
  };
  const open = openShadowOf(el);
  return look(el) || (!!open && look(open));
}

/**
 * `textContent` up to `max` characters, without what deny zones (and our own UI) hold: for
 * cheap text checks over an element that is itself outside any zone.
 */
function textOutsideZones(el: Element, max: number, zones: Selector): string {
  let out = '';
  const add = (parent: Node): void => {
    for (let c = firstChildOf(parent); c && out.length < max; c = nextSiblingOf(c)) {
      if (nodeTypeOf(c) === 3) out += (c as Text).data;
      else if (nodeTypeOf(c) === 1 && !isExcluded(c as Element, zones)) add(c);
    }
  };
  add(el);
  return out.slice(0, max);
}
