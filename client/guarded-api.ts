/**
 * The run API as page scripts get it when the page is a stranger's (bookmarklet, userscript:
 * `installedBy: 'user'`). There `window.pagehand` is reachable by whatever script the page runs,
 * so what it offers must not speak for the user: a page script may start a run (the panel shows
 * it), watch it, stop or pause it — things that only make the agent do less — but it cannot
 * approve a risky action, answer the agent's question, or resume a run the user took over.
 * The overlay keeps the whole handle; only the copy handed to the page is cut down.
 */
import type { InitConfig, RunEventName, RunEvents, RunHandle, RunOptions } from './agent/public-types';

/** Events whose payload or follow-up speaks for the user: only the panel subscribes to them. */
const USER_ONLY: ReadonlySet<string> = new Set<RunEventName>(['confirm', 'ask']);

const warned = new Set<string>();
function warnOnce(what: string): void {
  if (warned.has(what)) return;
  warned.add(what);
  console.warn(`pagehand: ${what} is ignored here: pagehand was added to this page by its user, so only the user answers it, in the panel.`);
}

const guarded = new WeakMap<RunHandle, RunHandle>();

/** The handle page scripts get: the same run, without confirm/ask subscriptions, answer() or resume(). */
export function pageHandle(h: RunHandle): RunHandle {
  let g = guarded.get(h);
  if (g) return g;
  g = Object.freeze({
    id: h.id,
    task: h.task,
    ui: h.ui,
    on<E extends RunEventName>(event: E, fn: (payload: RunEvents[E]) => void): () => void {
      const name = String(event) as E;
      if (USER_ONLY.has(name)) {
        warnOnce(`on('${name}')`);
        return () => {};
      }
      return h.on(name, fn);
    },
    stop: () => h.stop(),
    pause: () => h.pause(),
    resume: () => warnOnce('resume()'),
    get paused() {
      return h.paused;
    },
    answer: () => warnOnce('answer()'),
    result: h.result,
    get active() {
      return h.active;
    },
  });
  guarded.set(h, g);
  return g;
}

/**
 * A page script's run options: always in the panel, and nothing that speaks for the user or
 * takes the run elsewhere: no `confirm` callback; no `tools` (page code the model would trust as
 * the site's, marked read-only at the page's word); no `proxy`/`token` (the page's own "model"
 * would read everything the run reads and answer as the model).
 */
export function pageRunOptions(options: RunOptions | undefined): RunOptions {
  const copy: RunOptions = { ...options };
  if (copy.confirm !== undefined) warnOnce('The confirm option');
  for (const k of ['tools', 'proxy', 'token'] as const) {
    if (copy[k] !== undefined) warnOnce(`run's ${k}`);
    delete copy[k];
  }
  delete copy.confirm;
  return { ...copy, ui: true };
}

/**
 * A page script's init on a stranger's page: only what narrows the agent applies (deny zones,
 * allowed actions, risk marks, looks), and `knowledge.llmsTxt`, whose file is read as page data.
 * `confirm` would answer for the user; `instructions` and `knowledge.routes` would put page
 * words in the system prompt, where they instruct; `tools` would offer page code the
 * model trusts as the site's; `proxy`/`token` would send the user's task to the page's own
 * "model". Read once, into a plain copy.
 */
export function pageInitConfig(config: InitConfig | undefined): InitConfig | undefined {
  if (!config || typeof config !== 'object' || Array.isArray(config)) return config; // init says what is wrong
  const copy: InitConfig = { ...config };
  // `recordings` would offer page-made steps in the panel as the site's own tasks, `suggestions`
  // page-made words as the user's own task.
  for (const k of ['confirm', 'instructions', 'tools', 'proxy', 'token', 'recordings', 'suggestions'] as const) {
    if (copy[k] !== undefined) warnOnce(`init's ${k}`);
    delete copy[k];
  }
  // Route instructions are instructions too; the page's llms.txt stays, read as the page's data.
  const k = copy.knowledge;
  if (k && typeof k === 'object' && !Array.isArray(k) && 'routes' in k) {
    warnOnce("init's knowledge.routes");
    const { routes: _routes, ...rest } = k;
    copy.knowledge = rest;
  }
  return copy;
}

/**
 * A page script's open() on a stranger's page: the panel's runs keep the user's proxy, token and
 * instructions — a page that named its own proxy would receive the user's task and answer as
 * the model.
 */
export function pageOpenOptions<T extends object>(options: T | undefined): T | undefined {
  if (!options || typeof options !== 'object') return options;
  const copy = { ...options } as T & Record<string, unknown>;
  for (const k of ['proxy', 'token', 'instructions']) {
    if (copy[k] !== undefined) warnOnce(`open()'s ${k}`);
    delete copy[k];
  }
  return copy;
}
