/**
 * What the runner injects at document start of every page (top frame only): the bundle, then
 * a bridge that subscribes to the run handle — the one `pagehand.run` returned, or the one the
 * bundle resumed on this page after a navigation — and passes its events to Node through
 * bindings (`page.exposeBinding`, which survive navigations). Confirmations and questions go
 * to Node too, which decides (--yes, the terminal, or no).
 *
 * For --screenshot-dir, the bridge draws the first acted-on element's box and the click point
 * of each step right as the action starts (synchronously, before it runs), in a fixed layer
 * that carries data-pagehand-ui (left out of the map, no pointer events); Node takes the
 * screenshot and then removes the layer.
 */

/** Names of the bindings Node exposes. */
export const BINDINGS = {
  event: '__pagehandRunnerEvent',
  confirm: '__pagehandRunnerConfirm',
  ask: '__pagehandRunnerAsk',
  save: '__pagehandRunnerSave',
} as const;

/**
 * Where a page reads the run's state from Node at document start: a synchronous request that
 * the runner's route answers (it never reaches the network). https, so https pages may ask too.
 */
export const RUN_STATE_URL = 'https://pagehand-runner.invalid/run';

export interface BridgeOptions {
  /** Draw the marks for screenshots. */
  marks: boolean;
  /** Listen for `ask` (only when someone can answer: else the loop is told no one is there). */
  ask: boolean;
}

/** How a mark looks: the acted-on element's box and the click point (here and in the page). */
const BOX_CSS = 'border:3px solid #e8590c;background:rgba(232,89,12,.12);border-radius:3px;';
const DOT_CSS = 'width:18px;height:18px;border-radius:50%;border:3px solid #fff;background:#e03131;box-shadow:0 0 0 2px #e03131;';

export interface Marks {
  rect?: { x: number; y: number; width: number; height: number };
  point?: { x: number; y: number };
}

/** Where a call acts: the target's box (as planned) and the click point (its centre; click_at: x, y). */
export function marksFor(call: { name: string; args?: Record<string, unknown> } | undefined, target?: { rect?: Marks['rect'] }): Marks | undefined {
  const rect = target?.rect;
  const point =
    call?.name === 'click_at'
      ? { x: Number(call.args?.x), y: Number(call.args?.y) }
      : rect
        ? { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 }
        : undefined;
  const p = point && Number.isFinite(point.x) && Number.isFinite(point.y) ? point : undefined;
  return rect || p ? { ...(rect ? { rect } : {}), ...(p ? { point: p } : {}) } : undefined;
}

/** A page showing a screenshot with the marks drawn over it (when the live page moved on). */
export function markedImageHtml(png: Buffer, marks: Marks): string {
  const box = marks.rect ? `<div style="position:absolute;box-sizing:border-box;left:${marks.rect.x}px;top:${marks.rect.y}px;width:${marks.rect.width}px;height:${marks.rect.height}px;${BOX_CSS}"></div>` : '';
  const dot = marks.point ? `<div style="position:absolute;box-sizing:border-box;left:${marks.point.x - 9}px;top:${marks.point.y - 9}px;${DOT_CSS}"></div>` : '';
  return `<!doctype html><html><body style="margin:0;overflow:hidden;position:relative"><img style="display:block" src="data:image/png;base64,${png.toString('base64')}">${box}${dot}</body></html>`;
}

/** The in-page half, as source. Events are copied as plain JSON (functions dropped). */
export function bridgeSource(o: BridgeOptions): string {
  return `(() => {
  if (window.top !== window) return;
  const O = ${JSON.stringify(o)};
  const emit = window.${BINDINGS.event};
  const plain = (v) => { try { return JSON.parse(JSON.stringify(v ?? null)); } catch { return null; } };
  const seen = new WeakSet();
  let marked = 0;
  const clearMarks = () => { for (const el of document.querySelectorAll('[data-pagehand-runner-marks]')) el.remove(); };
  const drawMarks = (p) => {
    const r = p.target && p.target.rect;
    const xy = p.call && p.call.name === 'click_at' ? { x: Number(p.call.args.x), y: Number(p.call.args.y) } : r && { x: r.x + r.width / 2, y: r.y + r.height / 2 };
    if (!r && !(xy && isFinite(xy.x) && isFinite(xy.y))) return false;
    clearMarks();
    const layer = document.createElement('div');
    layer.setAttribute('data-pagehand-ui', '');
    layer.setAttribute('data-pagehand-runner-marks', '');
    layer.style.cssText = 'position:fixed;inset:0;pointer-events:none;z-index:2147483647;contain:strict;';
    const add = (css) => { const d = document.createElement('div'); d.style.cssText = 'position:absolute;box-sizing:border-box;pointer-events:none;' + css; layer.appendChild(d); };
    if (r) add('left:' + r.x + 'px;top:' + r.y + 'px;width:' + r.width + 'px;height:' + r.height + 'px;${BOX_CSS}');
    if (xy) add('left:' + (xy.x - 9) + 'px;top:' + (xy.y - 9) + 'px;${DOT_CSS}');
    (document.body || document.documentElement).appendChild(layer);
    return true;
  };
  window.__pagehandRunnerClearMarks = clearMarks;
  const subscribe = (h) => {
    if (!h || seen.has(h)) return;
    seen.add(h);
    for (const ev of ['step', 'message', 'error', 'done', 'pause']) {
      h.on(ev, (p) => emit(ev, plain(p), location.href));
    }
    h.on('action', (p) => {
      let marks = false;
      if (O.marks && p.phase === 'start' && p.step !== marked) {
        marked = p.step;
        try { marks = drawMarks(p); } catch { marks = false; }
      }
      const payload = plain(p);
      if (payload && p.phase === 'start') payload.marked = marks;
      emit('action', payload, location.href);
    });
    h.on('confirm', (p) => {
      window.${BINDINGS.confirm}(plain(p.request), location.href).then(
        (a) => p.respond(!!(a && a.allowed), !!(a && a.always)),
        () => p.respond(false),
      );
    });
    if (O.ask) {
      h.on('ask', (p) => {
        window.${BINDINGS.ask}(String(p.question), location.href).then((a) => { if (typeof a === 'string') h.answer(a); }, () => {});
      });
    }
  };
  window.__pagehandRunnerSubscribe = subscribe;
  // A run the bundle resumed on this page (after a navigation).
  try { subscribe(window.pagehand && window.pagehand.current()); } catch {}
})();`;
}

/**
 * The runner's bundle (dist/pagehand.runner.js), for the top frame only (frames are read from
 * the top through the map), in a scope that gives it the runner's store (client/runner-env.ts):
 * the run's state read from Node synchronously, saves sent to Node. The page's XMLHttpRequest
 * is taken before any page script can change it.
 */
export function runnerBundleSource(bundle: string): string {
  return `(function () {
"use strict";
if (window.top !== window) return;
const PAGEHAND_RUNNER = (() => {
  const X = XMLHttpRequest, open = X.prototype.open, send = X.prototype.send, save = window.${BINDINGS.save};
  return {
    get() {
      try {
        const x = new X();
        open.call(x, 'GET', ${JSON.stringify(RUN_STATE_URL)}, false);
        send.call(x);
        return x.status === 200 ? x.responseText : null;
      } catch { return null; }
    },
    set(json) { try { save(json); } catch {} },
  };
})();
${bundle}
})();`;
}
