/**
 * The clone, in slices. html-to-image clones a whole tree in one run of microtasks, which is one
 * long task however much of it there is; here it clones one node at a time (its own cloneNode,
 * children refused) while this walk goes down the kept tree and gives the main thread back
 * every SLICE_MS, so the page keeps answering input while it is captured.
 *
 * The walk also knows each node's clone, so it shows scrolled containers at their scroll (a
 * clone renders at scroll 0): their children are moved by the scroll offset and the
 * container's overflow clips them as the page does.
 */
import { cloneNode } from 'html-to-image/es/clone-node';
import type { Options } from 'html-to-image/es/types';

const SLICE_MS = 25;
/** Cloned whole by html-to-image (small, and their clone is not their children's parent). */
const WHOLE = new Set(['svg', 'select', 'textarea', 'video', 'canvas', 'iframe']);

export async function cloneSliced(root: HTMLElement, options: Options, keep: (node: Node) => boolean, cancelled: () => boolean, denied: (el: Element) => boolean = () => false): Promise<HTMLElement> {
  const single: Options = { ...options, filter: () => false };
  const whole: Options = { ...options, filter: keep };
  let slice = performance.now();
  const pause = async (): Promise<void> => {
    if (performance.now() - slice < SLICE_MS) return;
    await new Promise((r) => setTimeout(r, 0));
    slice = performance.now();
  };

  const walk = async (native: Node, clone: Node): Promise<void> => {
    for (const child of childrenOf(native)) {
      await pause();
      if (cancelled()) throw new Error('cancelled');
      if (!keep(child)) continue;
      const isWhole = child.nodeType === Node.ELEMENT_NODE && WHOLE.has((child as Element).localName);
      const c = await cloneNode(child as HTMLElement, isWhole ? whole : single, true);
      if (!c) continue;
      clone.appendChild(c);
      if (child.nodeType === Node.ELEMENT_NODE && denied(child as Element)) {
        blank(c);
        continue;
      }
      if (!isWhole && child.nodeType === Node.ELEMENT_NODE) {
        await walk(child, c);
        showAtScroll(child as Element, c);
      }
    }
  };

  const rootClone = await cloneNode(root, single, true);
  if (!rootClone) throw new Error('nothing to draw');
  await walk(root, rootClone);
  return rootClone;
}

/**
 * A deny zone's clone keeps its box (nothing around it moves) and shows nothing: no children
 * (html-to-image puts the generated ::before/::after content there as a <style>), and hidden,
 * so its background, border, value or picture do not paint. (The capture also paints over its
 * box: module.ts.)
 */
function blank(clone: Node): void {
  while (clone.firstChild) clone.removeChild(clone.firstChild);
  if (clone instanceof HTMLElement || clone instanceof SVGElement) clone.style.setProperty('visibility', 'hidden', 'important');
}

/** The children html-to-image would clone: a slot's assigned nodes, else the shadow root's or the element's own. */
function childrenOf(node: Node): Node[] {
  if (node instanceof HTMLSlotElement) return node.assignedNodes();
  const el = node as Element;
  return Array.from((el.shadowRoot ?? el).childNodes);
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
