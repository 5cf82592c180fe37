/**
 * What the runner injects at document start of every page of its tab (top frame only), in the
 * run's isolated world (cli/isolated-world.ts): the bundle, then a bridge that subscribes to
 * the run handle — the one `pagehand.run` returned, or the one the bundle resumed on this page
 * after a navigation — and passes its events to Node through bindings that exist in that world
 * only. Confirmations and questions go to Node too, which decides (--yes, the terminal, or no)
 * and answers in that world. Node drives the world through `__pagehandRunner` there. Around
 * each call that acts, the run asks Node to hold what the page sends (cli/network-hold.ts) and
 * Node has each held request judged there (`effect`).
 *
 * For --screenshot-dir, the bridge draws the first acted-on element's box and the click point
 * of each step right as the action starts (synchronously, before it runs), in a fixed layer
 * that carries data-pagehand-ui (left out of the map, no pointer events); Node takes the
 * screenshot and then removes the layer.
 */

/** Names of the bindings Node installs in the run's world (each takes one string). */
export const BINDINGS = {
  event: '__pagehandRunnerEvent',
  confirm: '__pagehandRunnerConfirm',
  ask: '__pagehandRunnerAsk',
  save: '__pagehandRunnerSave',
  hold: '__pagehandRunnerHold',
} as const;

/** What the run's world offers Node (a global of that world, out of the page's reach). */
export const WORLD_API = '__pagehandRunner';

/**
 * Where the run's world reads the run's state from Node at document start: a synchronous POST
 * of the run's secret (cli/run-state.ts) that the runner's route answers (it never reaches the
 * network). https, so https pages may ask too.
 */
export const RUN_STATE_URL = 'https://pagehand-runner.invalid/run';

export interface BridgeOptions {
  /** Draw the marks for screenshots. */
  marks: boolean;
  /** Listen for `ask` (only when someone can answer: else the loop is told no one is there). */
  ask: boolean;
}

/** What a bridge message carries to Node (one JSON string per binding call). */
export interface EventMessage {
  name: string;
  payload: unknown;
  url: string;
}
export interface ConfirmMessage {
  id: number;
  request: unknown;
  url: string;
}
export interface AskMessage {
  id: number;
  question: string;
  url: string;
}
/** Hold what the page sends (`on`, around a call that acts) or stop holding; answered true once done. */
export interface HoldMessage {
  id: number;
  on: boolean;
  url: string;
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
  const box = marks.rect
    ? `<div style="position:absolute;box-sizing:border-box;left:${marks.rect.x}px;top:${marks.rect.y}px;width:${marks.rect.width}px;height:${marks.rect.height}px;${BOX_CSS}"></div>`
    : '';
  const dot = marks.point
    ? `<div style="position:absolute;box-sizing:border-box;left:${marks.point.x - 9}px;top:${marks.point.y - 9}px;${DOT_CSS}"></div>`
    : '';
  return `<!doctype html><html><body style="margin:0;overflow:hidden;position:relative"><img style="display:block" src="data:image/png;base64,${png.toString('base64')}">${box}${dot}</body></html>`;
}

/**
 * The bridge, as source for the run's world (inside worldSource: it uses its RUNNER_NODE and
 * RUNNER_DOWNLOADS). Events are copied as plain JSON (functions dropped). A confirmation or a
 * question waits for Node's answer by id (`answer`).
 */
function bridgeSource(o: BridgeOptions): string {
  return `(() => {
  if (window.top !== window) return;
  const DOWNLOADS = RUNNER_DOWNLOADS;
  const O = ${JSON.stringify(o)};
  const B = ${JSON.stringify(BINDINGS)};
  const plain = (v) => { try { return JSON.parse(JSON.stringify(v ?? null)); } catch { return null; } };
  const send = RUNNER_NODE.send;
  const emit = (name, payload) => send(B.event, { name, payload: plain(payload), url: location.href });
  const request = RUNNER_NODE.request;
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
  const subscribe = (h) => {
    if (!h || seen.has(h)) return;
    seen.add(h);
    for (const ev of ['step', 'message', 'error', 'done', 'pause']) h.on(ev, (p) => emit(ev, p));
    h.on('action', (p) => {
      let marks = false;
      if (O.marks && p.phase === 'start' && p.step !== marked) {
        marked = p.step;
        try { marks = drawMarks(p); } catch { marks = false; }
      }
      const payload = plain(p);
      if (payload && p.phase === 'start') payload.marked = marks;
      send(B.event, { name: 'action', payload, url: location.href });
    });
    h.on('confirm', (p) => {
      request(B.confirm, { request: plain(p.request) }).then((a) => p.respond(!!(a && a.allowed), !!(a && a.always)));
    });
    if (O.ask) {
      h.on('ask', (p) => {
        request(B.ask, { question: String(p.question) }).then((a) => { if (typeof a === 'string') h.answer(a); });
      });
    }
  };
  const current = () => { try { return window.pagehand && window.pagehand.current(); } catch { return undefined; } };
  window.${WORLD_API} = Object.freeze({
    start(task, options, files) {
      if (!window.pagehand) return { error: 'pagehand did not load in this page' };
      if (files && files.length) {
        options = { ...options, files: files.map((f) => new File([Uint8Array.from(atob(f.data), (c) => c.charCodeAt(0))], f.name, { type: f.type })) };
      }
      const h = window.pagehand.run(task, options);
      subscribe(h);
      return { id: h.id };
    },
    replay(recording, options, files) {
      if (!window.pagehand) return { error: 'pagehand did not load in this page' };
      if (files && files.length) {
        options = { ...options, files: files.map((f) => new File([Uint8Array.from(atob(f.data), (c) => c.charCodeAt(0))], f.name, { type: f.type })) };
      }
      try {
        const h = window.pagehand.replay(recording, options);
        subscribe(h);
        return { id: h.id };
      } catch (e) {
        return { error: String((e && e.message) || e) };
      }
    },
    answer: RUNNER_NODE.answer,
    // A request Node holds (cli/network-hold.ts), judged by the action's gate: 'go' or 'stop'.
    // No gate (the call has not started acting, or its page has settled): it goes.
    effect(e) {
      const judge = RUNNER_NODE.judge;
      if (!judge) return 'stop';
      try {
        const wait = judge(e);
        return wait ? Promise.resolve(wait).then((ok) => (ok === true ? 'go' : 'stop'), () => 'stop') : 'go';
      } catch { return 'stop'; }
    },
    alive: () => !!current(),
    stop() { const h = current(); if (h) h.stop(); },
    // A download the runner saw start, then saved (cli/download-handoff.ts): to the bundle.
    download(note) { if (DOWNLOADS) DOWNLOADS.hand(note); },
    marked: () => !!document.querySelector('[data-pagehand-runner-marks]'),
    clearMarks,
  });
  // A run the bundle resumed on this page (after a navigation).
  subscribe(current());
})();`;
}

/**
 * The run's world: the runner's bundle (dist/pagehand.runner.js) in a scope that gives it the
 * runner's store (client/entries/runner-env.ts) — the run's state read from Node synchronously with
 * the run's secret, saves sent to Node, the downloads Node saved handed in through the bridge's
 * `download`, the network hold around each call that acts and the gate that judges what it
 * holds — then the bridge. Top frame only (frames are read from the top through the map).
 * This world's XMLHttpRequest, bindings and globals are its own: no page script can wrap, read
 * or call them.
 */
export function worldSource(bundle: string, secret: string, o: BridgeOptions): string {
  return `(function () {
"use strict";
if (window.top !== window) return;
// The runner's download notes, from the bridge (Node calls it) to the bundle, held until it listens.
const RUNNER_DOWNLOADS = (() => {
  let take;
  const held = [];
  return {
    listen(fn) { take = fn; for (const n of held.splice(0)) fn(n); },
    hand(note) { if (take) take(note); else if (held.length < 50) held.push(note); },
  };
})();
// Messages to Node through this world's bindings; a request waits for Node's answer by id.
// \`judge\`: the bundle's gate for what Node holds at the network layer (set through PAGEHAND_RUNNER).
const RUNNER_NODE = (() => {
  const waiting = new Map();
  let lastId = 0;
  const send = (binding, message) => { try { window[binding](JSON.stringify(message)); } catch {} };
  return {
    send,
    request: (binding, message) => new Promise((resolve) => {
      const id = ++lastId;
      waiting.set(id, resolve);
      send(binding, { ...message, id, url: location.href });
    }),
    answer(id, value) {
      const resolve = waiting.get(id);
      waiting.delete(id);
      if (resolve) resolve(value);
    },
    judge: undefined,
  };
})();
(function () {
const PAGEHAND_RUNNER = (() => {
  const X = XMLHttpRequest, save = window.${BINDINGS.save};
  return {
    get() {
      try {
        const x = new X();
        x.open('POST', ${JSON.stringify(RUN_STATE_URL)}, false);
        x.send(${JSON.stringify(secret)});
        return x.status === 200 ? x.responseText : null;
      } catch { return null; }
    },
    set(json) { try { save(json); } catch {} },
    downloads(take) { RUNNER_DOWNLOADS.listen(take); },
    hold() {
      return RUNNER_NODE.request(${JSON.stringify(BINDINGS.hold)}, { on: true }).then((on) => {
        if (on !== true) throw new Error('no network hold');
        return () => RUNNER_NODE.request(${JSON.stringify(BINDINGS.hold)}, { on: false }).then(() => undefined);
      });
    },
    effects(judge) { RUNNER_NODE.judge = judge; },
  };
})();
${bundle}
})();
${bridgeSource(o)}
})();`;
}

/**
 * The page-world part (dist/pagehand.runner-page.js): hooks that must see the page's own calls
 * from document start, handing over only what they observed (client/entries/runner-page.ts). Top
 * frame only, like the run.
 */
export function pageWorldSource(pagePart: string): string {
  return `(function () {
if (window.top !== window) return;
${pagePart}
})();`;
}
