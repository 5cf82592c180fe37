/**
 * The candidates for sequential focus navigation (Tab), in order: positive tabindex ascending,
 * then tabindex 0 in tree order (open shadow roots at their host's place), inside an open modal
 * dialog if there is one. Not yet checked for visibility — that is done lazily, only for the few
 * candidates around the current focus (checking all of them costs ~10 ms on a 5k page).
 *
 * Walking every element for its `tabIndex` costs ~10 ms on a 5k page, and one Tab asks twice
 * (the deny-zone check, then the key itself), a run many times. The order depends only on the
 * DOM (`tabIndex` reflects attributes and element kinds; a modal dialog is its `open`
 * attribute), so it is kept until a MutationObserver on the document and on every open shadow
 * root the walk entered sees any change: records are taken at each ask, so a change made a
 * moment before (a focus handler adding a field) counts at once. A shadow root attached to an
 * element already in place makes no record; the common case, a custom element defined after the
 * walk (its upgrade attaches one), is caught by remembering the undefined ones.
 *
 * @example
 *   const order = focusOrder(document); // the walk
 *   focusOrder(document);               // the same array, unless the DOM changed in between
 */
import { isHTML } from './dom';
import { openShadowOf } from '../dom/proto';
import { watchTrees, type ChangeWatch } from '../map/walk-reuse';

interface Kept {
  order: HTMLElement[];
  /** Custom elements not yet defined at the walk: one upgraded since may hold new stops. */
  undefinedEls: Element[];
  /** Elements and attributes only: a text edit moves no stop. */
  watch: ChangeWatch;
}

const kept = new WeakMap<Document, Kept>();

function walkOrder(doc: Document, roots: Node[], undefinedEls: Element[]): HTMLElement[] {
  let scope: ParentNode = doc;
  try {
    scope = doc.querySelector('dialog:modal') ?? doc;
  } catch {
    /* :modal unsupported */
  }
  const list: HTMLElement[] = [];
  const visit = (root: ParentNode): void => {
    for (const el of root.querySelectorAll('*')) {
      const open = openShadowOf(el);
      if (open) {
        roots.push(open);
        visit(open);
      }
      if (isHTML(el) && el.tabIndex >= 0) list.push(el);
      if (el.localName.includes('-') && !el.matches(':defined')) undefinedEls.push(el);
    }
  };
  visit(scope);
  const positive = list.filter((e) => e.tabIndex > 0).sort((a, b) => a.tabIndex - b.tabIndex);
  return positive.length ? [...positive, ...list.filter((e) => e.tabIndex === 0)] : list;
}

export function focusOrder(doc: Document): HTMLElement[] {
  const k = kept.get(doc);
  if (k && !k.watch.changed() && !k.undefinedEls.some((el) => el.matches(':defined'))) return k.order;
  k?.watch.stop();
  const roots: Node[] = [doc];
  const undefinedEls: Element[] = [];
  const order = walkOrder(doc, roots, undefinedEls);
  kept.set(doc, { order, undefinedEls, watch: watchTrees(roots, { text: false }) });
  return order;
}
