/**
 * Handlers jQuery keeps in its own data store, not on the element: `.on('click', fn)` adds one
 * generic listener per element and type (unseen by a bundle loaded after the page), and
 * `.on('click', 'li', fn)` on a list or the document leaves nothing at all on the `li`. Both are
 * read from the store's entry on the node: an own property `jQuery<digits>` whose `events.click`
 * (…mousedown, …) holds the handlers, the first `delegateCount` of them delegated, with the
 * selector they answer for (jQuery UI, Selectric, Chosen, menus all bind this way).
 *
 * Delegation is read upwards from the element (its ancestors and the document), only on pages
 * where a jQuery store was seen, and cached per task; a selector jQuery alone understands
 * (`:visible`, `> li`) is skipped, and so are catch-alls (`*`, `body`), which mark no target.
 */

const STORE_KEY = /^jQuery\d+$/;
const CATCH_ALL = /^\s*(\*|html|body|div|span)\s*$/i;

interface Handlers {
  direct: boolean;
  selectors: string[];
}
const NONE: Handlers = { direct: false, selectors: [] };

/** The click-like handlers in a jQuery store entry (`events` by type). */
export function storeHandlers(entry: unknown, types: readonly string[]): Handlers {
  const events = entry && typeof entry === 'object' ? (entry as { events?: unknown }).events : undefined;
  if (!events || typeof events !== 'object') return NONE;
  let direct = false;
  const selectors: string[] = [];
  for (const t of types) {
    const list = (events as Record<string, unknown>)[t];
    if (!Array.isArray(list)) continue;
    // A page can write any count into a store: never more than the handlers there are.
    const delegated = Math.min(Number((list as { delegateCount?: unknown }).delegateCount) || 0, list.length);
    if (list.length > delegated) direct = true;
    for (let i = 0; i < delegated; i++) {
      const sel = (list[i] as { selector?: unknown } | undefined)?.selector;
      if (typeof sel === 'string' && sel && !CATCH_ALL.test(sel)) selectors.push(sel);
    }
  }
  return direct || selectors.length ? { direct, selectors } : NONE;
}

/** The node's jQuery handlers (any copy of jQuery on the page), guarded against lying getters. */
function handlersOf(node: Node, types: readonly string[]): Handlers {
  let found = NONE;
  try {
    for (const k of Object.getOwnPropertyNames(node)) {
      if (!STORE_KEY.test(k)) continue;
      const h = storeHandlers((node as unknown as Record<string, unknown>)[k], types);
      if (h !== NONE) found = found === NONE ? h : { direct: found.direct || h.direct, selectors: [...found.selectors, ...h.selectors] };
    }
  } catch {
    /* a throwing getter is no cue */
  }
  return found;
}

/** Per task: which documents have a jQuery store, and each ancestor's delegated selectors. */
let cache: { docs: Map<Document, boolean>; nodes: Map<Node, Handlers> } | null = null;
function taskCache(): NonNullable<typeof cache> {
  if (!cache) {
    cache = { docs: new Map(), nodes: new Map() };
    queueMicrotask(() => (cache = null));
  }
  return cache;
}

/** jQuery is on the page: a global, or a store on the document (delegation to it). */
function hasJquery(doc: Document): boolean {
  const c = taskCache();
  let on = c.docs.get(doc);
  if (on === undefined) {
    on = false;
    try {
      const w = doc.defaultView as unknown as Record<string, unknown> | null;
      const jq = w && (w.jQuery ?? w.$);
      on = typeof jq === 'function' && typeof (jq as { fn?: { jquery?: unknown } }).fn?.jquery === 'string';
    } catch {
      /* a throwing global is no jQuery */
    }
    on ||= Object.getOwnPropertyNames(doc).some((k) => STORE_KEY.test(k));
    c.docs.set(doc, on);
  }
  return on;
}

const EVENTS = ['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart', 'dblclick'];

/** The element has a click-like handler jQuery keeps for it: bound on it, or delegated to an ancestor and matching it. */
export function jqueryClickHandler(el: Element, types: readonly string[] = EVENTS): boolean {
  const doc = el.ownerDocument;
  if (!doc || !hasJquery(doc)) return false;
  if (handlersOf(el, types).direct) return true;
  const nodes = taskCache().nodes;
  for (let n: Node | null = el.parentNode; n; n = n.parentNode) {
    let h = nodes.get(n);
    if (!h) nodes.set(n, (h = handlersOf(n, types)));
    for (const sel of h.selectors) {
      try {
        if (el.matches(sel)) return true;
      } catch {
        /* a selector only jQuery reads */
      }
    }
  }
  return false;
}
