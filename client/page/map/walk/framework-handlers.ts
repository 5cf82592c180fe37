/**
 * Click handlers a framework attaches by delegation: one listener on the root, the handler kept
 * on the node, where the document-start hooks cannot see it (no listener on the element) and
 * `onclick` is null. Read from what each framework leaves on the node:
 * - React 17+ `__reactProps$<id>` (16: `__reactEventHandlers$<id>`): onClick, onMouseDown, …
 * - Vue 3 `_vei` (its event invokers, a symbol since 3.4; the listener is on the node, but a
 *   bundle loaded after the page cannot have hooked it): onClick, onMousedown, …
 * - Svelte 5 `__click`, `__mousedown`, … and Solid `$$click`, … (delegated events)
 * - Preact `l` (its listener table, keys like `clickfalse`), for the same reason as Vue.
 * Angular and Lit add real listeners, seen by the hooks when they run first; jQuery's store is
 * read apart (./jquery-handlers.ts, kept out of the embed loader, which ships these hooks).
 *
 * Only own properties are read (a node has none unless a framework or script set them), each
 * guarded: a page's getter that throws or lies can hide or invent one cue, nothing more.
 */

// Not only clicks: a double click opens, a right click opens the page's own menu (right_click).
const REACT_PROPS = ['onClick', 'onMouseDown', 'onMouseUp', 'onPointerDown', 'onPointerUp', 'onTouchStart', 'onDoubleClick', 'onContextMenu'];
const VUE_KEYS = ['onClick', 'onMousedown', 'onMouseup', 'onPointerdown', 'onPointerup', 'onTouchstart', 'onDblclick', 'onContextmenu'];
const EVENTS = ['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart', 'dblclick', 'contextmenu'];
const DELEGATED = new Set(EVENTS.flatMap((e) => [`__${e}`, `$$${e}`]));
const PREACT_KEY = new RegExp(`^(${EVENTS.join('|')})(true|false)$`);

/** The element carries a click-like handler a framework keeps on the node. */
export function frameworkClickHandler(el: Element): boolean {
  let keys: Array<string | symbol>;
  try {
    // One call for names and symbols: most nodes have neither, and this runs for most nodes.
    keys = Reflect.ownKeys(el);
  } catch {
    return false;
  }
  if (!keys.length) return false;
  for (const k of keys) {
    if (typeof k === 'symbol') {
      // Vue 3.4+ keeps its invokers under a symbol described `_vei`.
      if (k.description === '_vei' && hasAny(readSymbol(el, k), VUE_KEYS)) return true;
      continue;
    }
    try {
      if (k.startsWith('__reactProps$') || k.startsWith('__reactEventHandlers$')) {
        if (hasFunction(read(el, k), REACT_PROPS)) return true;
      } else if (k === '_vei') {
        if (hasAny(read(el, k), VUE_KEYS)) return true;
      } else if (DELEGATED.has(k)) {
        if (read(el, k) != null) return true;
      } else if (k === 'l') {
        const table = read(el, k);
        if (table && typeof table === 'object' && Object.keys(table).some((key) => PREACT_KEY.test(key))) return true;
      }
    } catch {
      /* a throwing getter is no cue */
    }
  }
  return false;
}

/**
 * A framework's root container (React's, Vue's): the delegation listeners sit there, and React
 * also sets a no-op `onclick` (as on nodes with onClick) so that iOS delivers clicks to them.
 * On the root these are no click cue: the handlers are on the nodes below.
 */
export function isFrameworkRoot(el: Element): boolean {
  try {
    return Object.getOwnPropertyNames(el).some((k) => k.startsWith('__reactContainer$') || k === '_reactRootContainer' || k === '__vue_app__');
  } catch {
    return false;
  }
}

function readSymbol(el: Element, key: symbol): unknown {
  try {
    return (el as unknown as Record<symbol, unknown>)[key];
  } catch {
    return undefined;
  }
}

function read(el: Element, key: string): unknown {
  return (el as unknown as Record<string, unknown>)[key];
}

function hasFunction(obj: unknown, keys: readonly string[]): boolean {
  if (!obj || typeof obj !== 'object') return false;
  const o = obj as Record<string, unknown>;
  return keys.some((k) => typeof o[k] === 'function');
}

function hasAny(obj: unknown, keys: readonly string[]): boolean {
  if (!obj || typeof obj !== 'object') return false;
  const o = obj as Record<string, unknown>;
  return keys.some((k) => o[k] != null);
}
