/**
 * What a drag moved, as the model can check it: the order of the list the item is in (before
 * and after), the list it went to, a slider's value, or how far the element (or what it holds,
 * for a map pan) moved on screen.
 */
import type { Describer } from '../names/describe';
import { inputType, tag } from './dom';
import type { Zones } from '../settings';
import { labelOf } from './hit';
import { parentElementOf, ownerDocumentOf, attrOf } from '../dom/proto';

const ITEMS_SHOWN = 10;
const ITEM_CHARS = 40;

interface Place {
  /** The element's container (its parent) and its items, in order: like siblings (same tag). */
  list: Element | null;
  items: Element[];
  index: number;
  value?: string;
  rect: DOMRect;
  /** The first child's box: what moves inside a map or a scroll pane that stays. */
  inner?: DOMRect;
}

/** An item's words, never a deny zone's. */
function itemText(el: Element, zones: Zones): string {
  const t = zones.textOutside(el, 2000).replace(/\s+/g, ' ').trim();
  return t.length > ITEM_CHARS ? `${t.slice(0, ITEM_CHARS - 1)}…` : t;
}

/** A slider's value: a range input's, or aria-valuenow (with aria-valuetext when given). */
function sliderValue(el: Element): string | undefined {
  if (tag(el) === 'input' && inputType(el) === 'range') return (el as HTMLInputElement).value;
  const now = attrOf(el, 'aria-valuetext') ?? attrOf(el, 'aria-valuenow');
  return now ?? undefined;
}

/** The list's items like `el` (same tag), visible, skipping drag ghosts and placeholders. */
function itemsLike(list: Element, el: Element): Element[] {
  return [...list.children].filter((c) => {
    if (c.localName !== el.localName) return false;
    const r = c.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && !/ghost|placeholder|drag-preview|fallback/i.test(String(attrOf(c, 'class') ?? ''));
  });
}

function placeOf(el: Element): Place {
  const list = parentElementOf(el);
  const items = list ? itemsLike(list, el) : [];
  return {
    list,
    items,
    index: items.indexOf(el),
    value: sliderValue(el),
    rect: el.getBoundingClientRect(),
    inner: el.firstElementChild?.getBoundingClientRect(),
  };
}

function listing(order: string[]): string {
  const shown = order.slice(0, ITEMS_SHOWN).map((t) => t || '(no text)');
  return `${shown.join(', ')}${order.length > ITEMS_SHOWN ? `, … (${order.length} in all)` : ''}`;
}

/** The container's name for messages: its own label, else the nearest labelled ancestor's. */
function containerLabel(list: Element, d: Describer): string {
  for (let n: Element | null = list; n && n !== ownerDocumentOf(n).body; n = parentElementOf(n)) {
    const l = labelOf(n, d);
    if (/"/.test(l)) return l;
  }
  return labelOf(list, d);
}

const ordinal = (n: number): string =>
  `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;

/**
 * Takes the element's place before the drag; `after()` says what changed. `d` names things;
 * `label` names the element the way the action's other messages do.
 */
export function watchPlace(el: Element, d: Describer, label: string): { after(): string; value(): string | undefined } {
  const before = placeOf(el);
  const beforeText = before.items.map((e) => itemText(e, d.settings.zones));
  const sameOrder = (a: Element[], b: Element[]): boolean => a.length === b.length && a.every((e, i) => e === b[i]);
  return {
    value: () => (el.isConnected ? sliderValue(el) : undefined),
    after: () => {
      if (!el.isConnected) {
        // Re-rendered: the old list's new order still tells what happened.
        if (before.list?.isConnected && before.items.length > 1) {
          const first = before.items.find((i) => i.isConnected);
          const order = first ? itemsLike(before.list, first).map((e) => itemText(e, d.settings.zones)) : [];
          if (order.length && order.join('\n') !== beforeText.join('\n'))
            return `${containerLabel(before.list, d)} now reads: ${listing(order)} (before: ${listing(beforeText)}).`;
        }
        return `The page replaced ${label} while it was dragged; the next map shows where things are now.`;
      }
      const now = placeOf(el);
      if (before.value !== undefined && now.value !== before.value) return `Its value went from ${before.value} to ${now.value}.`;
      if (now.list && before.list && now.list !== before.list) {
        return `${label} moved from ${containerLabel(before.list, d)} to ${containerLabel(now.list, d)} (now ${ordinal(now.index + 1)} of ${now.items.length}).`;
      }
      if (now.list && before.items.length > 1 && !sameOrder(now.items, before.items)) {
        return `The order of ${containerLabel(now.list, d)} is now: ${listing(now.items.map((e) => itemText(e, d.settings.zones)))} (before: ${listing(beforeText)}).`;
      }
      const mx = Math.round(now.rect.left - before.rect.left);
      const my = Math.round(now.rect.top - before.rect.top);
      if (Math.abs(mx) >= 2 || Math.abs(my) >= 2) return `${label} moved by ${mx}, ${my} px on screen.`;
      if (before.inner && now.inner) {
        const ix = Math.round(now.inner.left - before.inner.left);
        const iy = Math.round(now.inner.top - before.inner.top);
        if (Math.abs(ix) >= 2 || Math.abs(iy) >= 2) return `Its content moved by ${ix}, ${iy} px.`;
      }
      return 'Nothing on the page seems to have moved.';
    },
  };
}
