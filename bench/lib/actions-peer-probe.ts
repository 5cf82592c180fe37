/**
 * Runs inside the peer's tab of `npm run bench:actions` (bundled to an IIFE by
 * bench/lib/bundle-for-page.ts, after bench/lib/peer-page-agent.ts's bundle) and defines
 * `window.__actionsPeer`: page-agent's PageController driven through the bench panel's actions,
 * each call timed on the page's clock.
 *
 * page-agent's action methods await fixed sleeps of their own (`waitFor(0.3)` while its pointer
 * "moves", 0.1 s after the pointer click, 0.2 s after the click, 0.1 s after input or select).
 * They sit inside the methods, so they cannot be skipped without changing its code; instead the
 * page's `setTimeout` is metered during a call, and every timer scheduled from its `waitFor`
 * (found by the function name on the stack; the bundle is not minified) is timed from scheduling
 * to firing. `activeMs = totalMs − sleptMs` is then what the action itself costs, comparable to
 * pagehand's "total − settle wait".
 */

interface ActionResult {
  success: boolean;
  message: string;
}

/** The part of @page-agent/page-controller's PageController that this probe drives. */
interface PageAgentController {
  getBrowserState(): Promise<unknown>;
  cleanUpHighlights(): Promise<void>;
  /** Private in its typings, public at runtime: index → node with the element reference. */
  selectorMap: Map<number, { ref?: Element }>;
  clickElement(index: number): Promise<ActionResult>;
  inputText(index: number, text: string): Promise<ActionResult>;
  selectOption(index: number, optionText: string): Promise<ActionResult>;
  scroll(options: { down: boolean; numPages: number }): Promise<ActionResult>;
}
type PageAgentControllerClass = new (config: Record<string, unknown>) => PageAgentController;

/** One action, with its arguments already chosen by the runner (the same ones pagehand gets). */
export type PeerCall =
  { kind: 'click' } | { kind: 'type'; text: string } | { kind: 'select_option'; option: string } | { kind: 'scroll'; down: boolean; numPages: number };

export interface PeerSample {
  /** Wall time of the call. */
  totalMs: number;
  /** Time spent inside page-agent's own fixed sleeps during the call. */
  sleptMs: number;
  /** totalMs − sleptMs. */
  activeMs: number;
  /** How many fixed sleeps the call awaited, and their nominal sum. */
  sleeps: number;
  sleepNominalMs: number;
  /** page-agent reported success and the panel shows the action's effect. */
  ok: boolean;
  message: string;
}

/** A call still pending after this long is recorded as failed (its sleeps total 0.7 s at most). */
const CALL_TIMEOUT_MS = 10_000;

interface Meter {
  ms: number;
  count: number;
  nominal: number;
}

let meter: Meter | null = null;
let controller: PageAgentController | undefined;
let index = { toggle: -1, text: -1, select: -1 };

const realSetTimeout = window.setTimeout.bind(window);
const SLEEP_FRAME = /\bat (?:async )?waitFor\b/;

function installSleepMeter(): void {
  window.setTimeout = ((handler: TimerHandler, delay?: number, ...rest: unknown[]) => {
    const m = meter;
    if (!m || typeof handler !== 'function') return realSetTimeout(handler, delay, ...rest);
    // Start the clock before the stack check, so the meter's own cost is not charged to the peer.
    const t0 = performance.now();
    if (!SLEEP_FRAME.test(new Error().stack ?? '')) return realSetTimeout(handler, delay, ...rest);
    m.count++;
    m.nominal += delay ?? 0;
    return realSetTimeout(() => {
      m.ms += performance.now() - t0;
      (handler as (...a: unknown[]) => void)(...rest);
    }, delay);
  }) as typeof window.setTimeout;
}

function panel<T extends Element>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`bench page: no #${id}`);
  return el as unknown as T;
}

function indexOf(el: Element): number {
  for (const [i, node] of controller!.selectorMap) if (node.ref === el) return i;
  throw new Error(`page-agent did not index #${el.id}`);
}

function invoke(c: PeerCall): Promise<ActionResult> {
  const pc = controller!;
  switch (c.kind) {
    case 'click':
      return pc.clickElement(index.toggle);
    case 'type':
      return pc.inputText(index.text, c.text);
    case 'select_option':
      return pc.selectOption(index.select, c.option);
    case 'scroll':
      return pc.scroll({ down: c.down, numPages: c.numPages });
  }
}

/** What the panel must show after the call; checked after the clock stops. */
function effectCheck(c: PeerCall): () => string | undefined {
  switch (c.kind) {
    case 'click': {
      const b = panel<HTMLButtonElement>('b-toggle');
      const before = b.getAttribute('aria-pressed');
      return () => (b.getAttribute('aria-pressed') !== before ? undefined : 'the toggle did not flip');
    }
    case 'type': {
      const input = panel<HTMLInputElement>('b-text');
      return () => (input.value === c.text ? undefined : `the input holds "${input.value}", not "${c.text}"`);
    }
    case 'select_option': {
      const s = panel<HTMLSelectElement>('b-select');
      return () => (s.selectedOptions[0]?.text === c.option ? undefined : `the select shows "${s.selectedOptions[0]?.text}", not "${c.option}"`);
    }
    case 'scroll': {
      const y = window.scrollY;
      return () =>
        (c.down ? window.scrollY > y : window.scrollY < y) ? undefined : `the page did not scroll ${c.down ? 'down' : 'up'} (scrollY ${y} → ${window.scrollY})`;
    }
  }
}

const peerProbe = {
  /** A fresh controller on this tab, as page-agent builds one for its session. */
  setup(config: Record<string, unknown>): void {
    const peer = (window as unknown as { __pageAgentPeer?: { PageController: PageAgentControllerClass } }).__pageAgentPeer;
    if (!peer) throw new Error('page-agent peer bundle is not loaded');
    controller = new peer.PageController(config);
    installSleepMeter();
  },

  /**
   * page-agent's observation step (untimed): it must index the page before any index-based
   * action, as the model would see the indices. Its highlight overlays (one box per indexed
   * element, each with a scroll listener) are then removed, so its actions run on the same page
   * as pagehand's; in page-agent's own loop they stay up until the next observation and make
   * every scroll repaint thousands of boxes, which this bench does not charge to it.
   */
  async observe(): Promise<void> {
    await controller!.getBrowserState();
    index = { toggle: indexOf(panel('b-toggle')), text: indexOf(panel('b-text')), select: indexOf(panel('b-select')) };
    await controller!.cleanUpHighlights();
  },

  async run(c: PeerCall): Promise<PeerSample> {
    const check = effectCheck(c);
    const m: Meter = { ms: 0, count: 0, nominal: 0 };
    let result: ActionResult;
    meter = m;
    const t0 = performance.now();
    try {
      result = await Promise.race([
        invoke(c),
        new Promise<ActionResult>((resolve) =>
          realSetTimeout(() => resolve({ success: false, message: `no answer within ${CALL_TIMEOUT_MS} ms` }), CALL_TIMEOUT_MS),
        ),
      ]);
    } finally {
      meter = null;
    }
    const totalMs = performance.now() - t0;
    const problem = result.success ? check() : result.message;
    return {
      totalMs,
      sleptMs: m.ms,
      activeMs: totalMs - m.ms,
      sleeps: m.count,
      sleepNominalMs: m.nominal,
      ok: !problem,
      message: problem ?? result.message,
    };
  },
};

declare global {
  interface Window {
    __actionsPeer?: typeof peerProbe;
  }
}

window.__actionsPeer = peerProbe;
