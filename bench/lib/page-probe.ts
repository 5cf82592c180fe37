/**
 * Runs inside the benchmark page (bundled to an IIFE by bench/lib/bundle-for-page.ts) and defines
 * `window.__benchProbe`: a census of the page against its ground truth, the two tools' per-step
 * calls timed on the main thread, and the scoring of what each tool listed.
 *
 * Scoring is done here, in the page, because only here can a tool's listing be matched to DOM
 * nodes by identity: pagehand through `pagehand.resolve(ref)`, page-agent through the element
 * references in its selector map.
 */

type Gt = 'visible' | 'hidden' | 'inert-behind-modal' | 'edge';

interface GtItem {
  el: Element;
  gt: Gt;
  kind: string;
  /** In the top-level viewport's coordinates. */
  rect: { x: number; y: number; width: number; height: number };
  /** Intersects the viewport (at the current scroll). */
  inViewport: boolean;
  /** Intersects the viewport or the screen below it. */
  inNear: boolean;
}

export interface Census {
  elements: number;
  shadowRoots: number;
  frames: number;
  viewport: { width: number; height: number };
  groundTruth: Record<Gt, number>;
  visibleInViewport: number;
  visibleInNear: number;
  /** Ground-truth labels that disagree with what the browser renders (generator bugs). */
  inconsistencies: string[];
}

export interface RunResult {
  ms: number;
  /** performance.now() at the start of the call, for matching long tasks. */
  t0: number;
  chars: number;
  listed: number;
  /** The tool's own token estimate (pagehand stats.tokens), when it has one. */
  ownTokens?: number;
  /** The tool's own timing (pagehand stats.ms), when it has one. */
  ownMs?: number;
}

export interface Score {
  listed: number;
  /** Listed entries that could not be mapped to a DOM node. */
  unresolved: number;
  foundViewport: number;
  inScopeViewport: number;
  foundNear: number;
  inScopeNear: number;
  foundAllVisible: number;
  allVisible: number;
  hiddenLeaked: number;
  hiddenLeakedByKind: Record<string, number>;
  inertBehindModalLeaked: number;
  edgeListed: number;
  /** Listed nodes without ground truth (wrappers, labels, containers the tool chose). */
  otherListed: number;
  /** A few in-viewport visible controls the tool missed, for diagnosis. */
  missedViewportSample: string[];
}

interface PageAgentController {
  getBrowserState(): Promise<{ header: string; content: string; footer: string }>;
  selectorMap: Map<number, { ref?: Element }>;
}
interface Pagehand {
  map(o: unknown): PagehandMap;
  mapAsync(o: unknown): Promise<PagehandMap>;
  resolve(ref: string): Element;
}
type PageAgentControllerClass = new (config: Record<string, unknown>) => PageAgentController;

interface PagehandMap {
  text: string;
  elements: Array<{ ref: string }>;
  stats: { tokens: number; ms: number };
}

declare global {
  interface Window {
    __benchProbe?: typeof probe;
    __pageAgentPeer?: { PageController: PageAgentControllerClass };
  }
}

let items: GtItem[] = [];
let lastText = '';
let lastListed: () => Array<Element | null> = () => [];
const longTasks: Array<{ start: number; duration: number }> = [];
let observer: PerformanceObserver | undefined;
const controllers = new Map<string, PageAgentController>();

/** Every element of the page: the document, open shadow roots and same-origin iframes. */
function walk(visit: (el: Element, offset: { x: number; y: number }) => void): { shadowRoots: number; frames: number } {
  let shadowRoots = 0;
  let frames = 0;
  const stack: Array<{ node: Element; offset: { x: number; y: number } }> = [{ node: document.documentElement, offset: { x: 0, y: 0 } }];
  while (stack.length) {
    const { node, offset } = stack.pop()!;
    visit(node, offset);
    for (let c = node.lastElementChild; c; c = c.previousElementSibling) stack.push({ node: c, offset });
    if (node.shadowRoot) {
      shadowRoots++;
      for (let c = node.shadowRoot.lastElementChild; c; c = c.previousElementSibling) stack.push({ node: c, offset });
    }
    if (node instanceof HTMLIFrameElement && node.contentDocument?.documentElement) {
      frames++;
      const r = node.getBoundingClientRect();
      const inner = { x: offset.x + r.x + node.clientLeft, y: offset.y + r.y + node.clientTop };
      stack.push({ node: node.contentDocument.documentElement, offset: inner });
    }
  }
  return { shadowRoots, frames };
}

/** Whether the browser agrees an element is hidden by one of DESIGN §2's rules. */
function renderedHidden(el: Element): boolean {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return true;
  if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true })) return true;
  if (el.closest('[aria-hidden="true"],[inert]')) return true;
  if (el instanceof HTMLInputElement && el.type === 'hidden') return true;
  return false;
}

function label(el: Element): string {
  const text = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 30);
  return `<${el.localName}${el.id ? `#${el.id}` : ''}> "${text}"`;
}

function longestTaskIn(t0: number, t1: number): number {
  if (observer) for (const e of observer.takeRecords()) longTasks.push({ start: e.startTime, duration: e.duration });
  let max = 0;
  for (const t of longTasks) if (t.start <= t1 && t.start + t.duration >= t0) max = Math.max(max, t.duration);
  return max;
}

/**
 * Runs `fn` in a task of its own (a zero timeout), as an agent loop's step would run, and
 * resolves with its result. Code evaluated straight from the driver (a DevTools message) is not
 * a scheduler task, so the Long Tasks API would never see it.
 */
function inOwnTask<T>(fn: () => T | Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    setTimeout(() => {
      try {
        Promise.resolve(fn()).then(resolve, reject);
      } catch (e) {
        reject(e);
      }
    }, 0);
  });
}

const probe = {
  /** Starts the long-task observer; call once after load, before any measured run. */
  install(): boolean {
    if (observer) return true;
    if (!PerformanceObserver.supportedEntryTypes?.includes('longtask')) return false;
    observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration });
    });
    observer.observe({ type: 'longtask', buffered: true });
    return true;
  },

  /** Counts every element and reads the ground truth, with positions at the current scroll. */
  census(): Census {
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    let elements = 0;
    items = [];
    const found: Array<{ el: Element; offset: { x: number; y: number } }> = [];
    const { shadowRoots, frames } = walk((el, offset) => {
      elements++;
      if (el.hasAttribute('data-gt')) found.push({ el, offset });
    });
    const groundTruth: Record<Gt, number> = { visible: 0, hidden: 0, 'inert-behind-modal': 0, edge: 0 };
    const inconsistencies: string[] = [];
    const modalOpen = !!document.querySelector('dialog:modal');
    for (const { el, offset } of found) {
      const gt = el.getAttribute('data-gt') as Gt;
      const b = el.getBoundingClientRect();
      const rect = { x: b.x + offset.x, y: b.y + offset.y, width: b.width, height: b.height };
      const area = rect.width > 0 && rect.height > 0;
      const inViewport = area && rect.x < vw && rect.x + rect.width > 0 && rect.y < vh && rect.y + rect.height > 0;
      const inNear = area && rect.x < vw && rect.x + rect.width > 0 && rect.y < 2 * vh && rect.y + rect.height > 0;
      items.push({ el, gt, kind: el.getAttribute('data-gt-kind') ?? '', rect, inViewport, inNear });
      groundTruth[gt]++;
      const hidden = renderedHidden(el);
      if (gt === 'visible' && hidden) inconsistencies.push(`marked visible but hidden: ${label(el)}`);
      if (gt === 'hidden' && !hidden) inconsistencies.push(`marked hidden (${el.getAttribute('data-gt-kind')}) but rendered: ${label(el)}`);
      if (gt === 'inert-behind-modal' && !modalOpen) inconsistencies.push(`marked inert-behind-modal but no modal is open: ${label(el)}`);
    }
    const visible = items.filter((i) => i.gt === 'visible');
    return {
      elements,
      shadowRoots,
      frames,
      viewport: { width: vw, height: vh },
      groundTruth,
      visibleInViewport: visible.filter((i) => i.inViewport).length,
      visibleInNear: visible.filter((i) => i.inNear).length,
      inconsistencies: inconsistencies.slice(0, 20),
    };
  },

  /**
   * One pagehand step, in a task of its own: `pagehand.map(options)` (synchronous), or with
   * `sliced` the agent loop's `pagehand.mapAsync(options)` (its slices are tasks of their own).
   */
  async runPagehand(options: Record<string, unknown>, sliced = false): Promise<RunResult> {
    const ph = (window as unknown as { pagehand: Pagehand }).pagehand;
    const { m, t0, ms } = await inOwnTask(async () => {
      const t0 = performance.now();
      const m = sliced ? await ph.mapAsync(options) : ph.map(options);
      return { m, t0, ms: performance.now() - t0 };
    });
    lastText = m.text;
    lastListed = () =>
      m.elements.map((e) => {
        try {
          return ph.resolve(e.ref);
        } catch {
          return null;
        }
      });
    return { ms, t0, chars: m.text.length, listed: m.elements.length, ownTokens: m.stats.tokens, ownMs: m.stats.ms };
  },

  /**
   * One page-agent step: `getBrowserState()` of a PageController kept across steps (as its agent
   * does). The text is what its agent puts in the prompt: header, content, footer.
   */
  async runPageAgent(key: string, config: Record<string, unknown>): Promise<RunResult> {
    const Peer = window.__pageAgentPeer;
    if (!Peer) throw new Error('page-agent peer bundle is not loaded');
    let pc = controllers.get(key);
    if (!pc) controllers.set(key, (pc = new Peer.PageController(config)));
    const controller = pc;
    const { s, t0, ms } = await inOwnTask(async () => {
      const t0 = performance.now();
      const s = await controller.getBrowserState();
      return { s, t0, ms: performance.now() - t0 };
    });
    lastText = `${s.header}\n${s.content}\n${s.footer}`;
    lastListed = () => [...controller.selectorMap.values()].map((n) => n.ref ?? null);
    return { ms, t0, chars: lastText.length, listed: controller.selectorMap.size };
  },

  /** The longest main-thread task overlapping [t0, t0 + ms], after giving the observer a moment. */
  async longestTask(t0: number, ms: number): Promise<number> {
    await new Promise((r) => setTimeout(r, 30));
    return longestTaskIn(t0, t0 + ms);
  },

  lastText(): string {
    return lastText;
  },

  /** Matches the last run's listing to the ground truth by element identity. */
  score(): Score {
    const listedEls = lastListed();
    const listed = new Set<Element>();
    let unresolved = 0;
    for (const el of listedEls) {
      if (el) listed.add(el);
      else unresolved++;
    }
    const s: Score = {
      listed: listedEls.length,
      unresolved,
      foundViewport: 0,
      inScopeViewport: 0,
      foundNear: 0,
      inScopeNear: 0,
      foundAllVisible: 0,
      allVisible: 0,
      hiddenLeaked: 0,
      hiddenLeakedByKind: {},
      inertBehindModalLeaked: 0,
      edgeListed: 0,
      otherListed: 0,
      missedViewportSample: [],
    };
    const gtEls = new Set<Element>();
    for (const it of items) {
      gtEls.add(it.el);
      const hit = listed.has(it.el);
      if (it.gt === 'visible') {
        s.allVisible++;
        if (hit) s.foundAllVisible++;
        if (it.inViewport) {
          s.inScopeViewport++;
          if (hit) s.foundViewport++;
          else if (s.missedViewportSample.length < 6) s.missedViewportSample.push(label(it.el));
        }
        if (it.inNear) {
          s.inScopeNear++;
          if (hit) s.foundNear++;
        }
      } else if (hit && it.gt === 'hidden') {
        s.hiddenLeaked++;
        s.hiddenLeakedByKind[it.kind] = (s.hiddenLeakedByKind[it.kind] ?? 0) + 1;
      } else if (hit && it.gt === 'inert-behind-modal') s.inertBehindModalLeaked++;
      else if (hit && it.gt === 'edge') s.edgeListed++;
    }
    for (const el of listed) if (!gtEls.has(el)) s.otherListed++;
    return s;
  },
};

window.__benchProbe = probe;
