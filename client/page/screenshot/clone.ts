/**
 * The clone, in slices. html-to-image clones a whole tree in one run of microtasks, which is one
 * long task however much of it there is; here it clones one node at a time (its own cloneNode,
 * children refused) while this walk goes down the kept tree and gives the main thread back
 * every SLICE_MS, so the page keeps answering input while it is captured.
 *
 * Plain elements are cloned here rather than by html-to-image: their computed style goes onto
 * the clone as one `cssText` (html-to-image sets each property with its own call and checks the
 * node's class for each: most of a capture's time) with html-to-image's own adjustments, and
 * their ::before/::after through its pseudo-element cloning. Media, frames, SVG and form
 * controls still go through html-to-image whole.
 *
 * The walk also knows each node's clone, so it shows scrolled containers at their scroll (a
 * clone renders at scroll 0): their children are moved by the scroll offset and the
 * container's overflow clips them as the page does. And a table whose rows after the viewport
 * were left out gets an automatic height, so its kept rows are not stretched to the full one.
 */
import { cloneNode } from 'html-to-image/es/clone-node';
import { clonePseudoElements } from 'html-to-image/es/clone-pseudos';
import type { Options } from 'html-to-image/es/types';
import { openShadowOf, firstChildOf, nodeTypeOf } from '../dom/proto';

const SLICE_MS = 25;
/** Cloned whole by html-to-image (small, and their clone is not their children's parent). */
const WHOLE = new Set(['svg', 'select', 'textarea', 'video', 'canvas', 'iframe']);
/** Cloned by html-to-image one node at a time (it knows their values and replaced content). */
const OWN_CLONE = new Set(['input', 'img', 'picture', 'object', 'embed', 'math']);
/** Table parts whose used height, copied, would stretch the rows kept when later ones are left out. */
const TABLE_BOXES = new Set(['table', 'inline-table', 'table-row-group', 'table-header-group', 'table-footer-group']);

export interface Cloned {
  root: HTMLElement;
  /** Elements in the clone: how much of the page the picture holds. */
  elements: number;
}

export async function cloneSliced(
  root: HTMLElement,
  options: Options,
  keep: (node: Node) => boolean,
  cancelled: () => boolean,
  denied: (el: Element) => boolean = () => false,
): Promise<Cloned> {
  const single: Options = { ...options, filter: () => false };
  const whole: Options = { ...options, filter: keep };
  const props = options.includeStyleProperties ?? [];
  let elements = 1;
  let slice = performance.now();
  const pause = async (): Promise<void> => {
    if (performance.now() - slice < SLICE_MS) return;
    await new Promise((r) => setTimeout(r, 0));
    slice = performance.now();
  };

  const cloneOne = async (child: Node): Promise<Node | null> => {
    if (nodeTypeOf(child) === Node.TEXT_NODE) return child.cloneNode(false);
    if (nodeTypeOf(child) !== Node.ELEMENT_NODE) return null;
    const el = child as Element;
    const tag = el.localName;
    if (WHOLE.has(tag)) return (await cloneNode(el as HTMLElement, whole, true)) as Node | null;
    if (OWN_CLONE.has(tag) || !(el instanceof HTMLElement) || !props.length) return (await cloneNode(el as HTMLElement, single, true)) as Node | null;
    const c = el.cloneNode(false) as HTMLElement;
    copyStyle(el, c, props);
    clonePseudoElements(el, c, single);
    return c;
  };

  /**
   * Clones `native`'s kept children into `clone`; true when some children were kept and an
   * element after them left out (a hollow box keeps none, and its own height).
   */
  const walk = async (native: Node, clone: Node): Promise<boolean> => {
    let dropped = false;
    let kept = false;
    for (const child of childrenOf(native)) {
      await pause();
      if (cancelled()) throw new Error('cancelled');
      if (!keep(child)) {
        dropped ||= nodeTypeOf(child) === Node.ELEMENT_NODE;
        continue;
      }
      const c = await cloneOne(child);
      if (!c) continue;
      clone.appendChild(c);
      if (nodeTypeOf(child) !== Node.ELEMENT_NODE) continue;
      elements++;
      kept = true;
      if (denied(child as Element)) {
        blank(c);
        continue;
      }
      if (WHOLE.has((child as Element).localName)) continue;
      const shortened = await walk(child, c);
      showAtScroll(child as Element, c as HTMLElement);
      // Rows after the viewport left out: the section and its table end with the kept rows.
      if (shortened && c instanceof HTMLElement && TABLE_BOXES.has(c.style.getPropertyValue('display'))) {
        c.style.setProperty('height', 'auto');
        if (clone instanceof HTMLElement && TABLE_BOXES.has(clone.style.getPropertyValue('display'))) clone.style.setProperty('height', 'auto');
      }
    }
    return dropped && kept;
  };

  const rootClone = (await cloneNode(root, single, true)) as HTMLElement | null;
  if (!rootClone) throw new Error('nothing to draw');
  await walk(root, rootClone);
  return { root: rootClone, elements };
}

/**
 * The computed style onto the clone in one write, as html-to-image's cloneCSSStyle would set
 * it property by property — including its font-size rounding down (text wraps as it does in
 * the page).
 */
function copyStyle(native: Element, clone: HTMLElement, props: readonly string[]): void {
  const style = getComputedStyle(native);
  let css = '';
  for (const name of props) {
    let value = style.getPropertyValue(name);
    if (!value) continue;
    if (name === 'font-size' && value.endsWith('px')) value = `${Math.floor(parseFloat(value)) - 0.1}px`;
    css += `${name}:${value};`;
  }
  clone.style.cssText = css;
}

/**
 * A deny zone's clone keeps its box (nothing around it moves) and shows nothing: no children
 * (html-to-image puts the generated ::before/::after content there as a <style>), and hidden,
 * so its background, border, value or picture do not paint. (The capture also paints over its
 * box: module.ts.)
 */
function blank(clone: Node): void {
  for (let c = firstChildOf(clone); c; c = firstChildOf(clone)) clone.removeChild(c);
  if (clone instanceof HTMLElement || clone instanceof SVGElement) clone.style.setProperty('visibility', 'hidden', 'important');
}

/** The children html-to-image would clone: a slot's assigned nodes, else the shadow root's or the element's own. */
function childrenOf(node: Node): Node[] {
  if (node instanceof HTMLSlotElement) return node.assignedNodes();
  const el = node as Element;
  return Array.from((openShadowOf(el) ?? el).childNodes);
}

function showAtScroll(el: Element, clone: HTMLElement): void {
  const x = el.scrollLeft;
  const y = el.scrollTop;
  if (!x && !y) return;
  // Scrollbars would show the wrong place: hidden.
  clone.style.setProperty('scrollbar-width', 'none');
  for (const child of Array.from(clone.children)) {
    if (!(child instanceof HTMLElement || child instanceof SVGElement) || child.localName === 'style') continue;
    const own = child.style.getPropertyValue('translate');
    const [tx, ty] = own && own !== 'none' ? own.split(' ') : [];
    child.style.setProperty('translate', `calc(${tx ?? '0px'} - ${x}px) calc(${ty ?? '0px'} - ${y}px)`);
  }
}
