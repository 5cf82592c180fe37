/**
 * The overlay: one `<pagehand-ui data-pagehand-ui>` host with a closed shadow root holding the
 * panel, the launcher and the mask. It is a view of run handles: it starts runs through the
 * same `run` the page calls, renders their events through the reducer, and answers `confirm`
 * and `ask` with the user's choice. `createUi` is called once by the entry.
 *
 * The root is closed so that the page's scripts do not find the panel's buttons by walking the
 * DOM (`host.shadowRoot` is null); only this module holds it. That alone does not stop a page
 * that hooks the DOM: the buttons that give the agent something also refuse scripted clicks.
 */
/** Defined by the bookmarklet's build (site-ui.ts). */
declare const __PAGEHAND_STRANGER_PANEL__: boolean | undefined;
import { render } from 'preact';
import type { AnswerFeedback, LauncherPosition, OpenOptions, Recording, RunHandle, RunOptions, UiConfig } from '../agent/public-types';
import { UI_ATTR } from '../page/ui-attr';
import { en, type Strings } from './i18n';
import { loadStrings } from './lang-load';
import { chooseLang, isRtl, matchLang, type Lang } from './languages';
import { Launcher } from './launcher';
import { Mask } from './mask';
import { topModal, watchDialogs } from './modal';
import { Panel, type PanelActions } from './panel';
import type { BrowserModelState } from './browser-model';
import type { Markdown } from './markdown';
import { Spot, type Box } from './spot';
import { reduce, type RunView, type UiEvent } from './state';
import {
  keptIn,
  launcherAnchor,
  loadLang,
  loadLayout,
  placeIn,
  saveLang,
  saveLayout,
  sessionKept,
  type HistoryItem,
  type KeptStore,
  type Layout,
  type PanelThread,
  type ThreadStore,
} from './storage';
import { adoptStyles } from './styles';

/**
 * attachShadow as it was when the bundle loaded: loaded before the page's scripts (userscript,
 * embed in <head>) the page cannot wrap it later to catch our root. (Guarded: a server
 * rendering the page imports this module too.)
 */
const attachShadow = typeof Element === 'function' ? Element.prototype.attachShadow : undefined;

/** The run options open() takes (OpenOptions without the theme). */
const RUN_KEYS = [
  'proxy',
  'token',
  'model',
  'maxSteps',
  'maxTokens',
  'maxCost',
  'verify',
  'instructions',
  'vision',
  'toolChoice',
  'lang',
] as const satisfies ReadonlyArray<keyof OpenOptions>;

const SHIELDED = [
  'keydown',
  'keyup',
  'keypress',
  'input',
  'beforeinput',
  'mousedown',
  'mouseup',
  'click',
  'dblclick',
  'pointerdown',
  'pointerup',
  'contextmenu',
  'focusin',
  'focusout',
  'wheel',
];

/** What the overlay needs of the agent (the engine), once it is there: see `connect`. */
export interface UiAgent {
  run(task: string, options?: RunOptions): RunHandle;
  /** Runs a recording again (the end card's "Run again", the site's one-click tasks). */
  replay?(recording: Recording, options?: RunOptions): RunHandle;
  current(): RunHandle | undefined;
  /** An answer's "Show me": scrolls to the element a ref names and gives its box when asked; undefined when it is gone. */
  reveal?(ref: string): (() => Box | undefined) | undefined;
  /** The user's rating of an answer, told to the site (absent where the site did not install pagehand). */
  feedback?(f: AnswerFeedback): void;
  /** Loads the Markdown parser (markdown.ts) for answers: in the embed, with the code loaded on first use (client/on-demand.ts). */
  markdown?(): Promise<Markdown>;
  /** The end card's downloads, a recording or the run's report (ui/save.ts, loaded on first use). */
  save?(what: Recording | RunView): Promise<void>;
  /**
   * Asks the browser about its own model and downloads it when it must, telling `show` each
   * state and the progress (llm/browser-model.ts, loaded on first use).
   */
  browserModel?(show: (s: BrowserModelState) => void): Promise<void>;
}

export interface UiDeps {
  /** From the script tag (`data-lang`). */
  lang?: string;
  /** From the script tag (`data-position`). */
  position?: LauncherPosition;
  /**
   * Where the conversation survives a page load: the site's own pages give the tab's
   * sessionStorage (`sessionThreadStore`), a stranger's page only a store out of the page's reach
   * (the userscript's); without one it lives with the page (the bookmarklet).
   */
  threads?: ThreadStore;
  /** On a stranger's page: where the list of tasks and the run's log are kept out of the page's reach (the userscript's tab object); without it, nowhere. */
  kept?: KeptStore;
  /**
   * The site put pagehand here (the embed, npm): a run resumed after a navigation is its panel's
   * own and continues the conversation. On a stranger's page the page can rewrite a saved run,
   * so only a run the store says the panel started does.
   */
  siteInstalled?: boolean;
  /**
   * A stranger's page (bookmarklet, userscript): the panel speaks the user's language (their
   * choice, else their browser's), not the one the page or its scripts name.
   */
  stranger?: boolean;
}

/**
 * The overlay works before the agent is there (the embed loads the panel first and the engine
 * beside it): the visitor can open it and type; a task sent before `connect` waits, shown as
 * such, and goes when the agent arrives; `agentFailed` says the engine could not be loaded and
 * gives the task back to the task box.
 */
export function createUi(deps: UiDeps) {
  let agent: UiAgent | undefined;
  /** Why the engine could not be loaded (then nothing is queued any more). */
  let agentError: string | undefined;
  /** What the user sent before the agent arrived: its text (shown, given back on failure) and how to start it. */
  let queued: { text: string; go(): void } | undefined;
  /** The text to put back in the task box (a new object each time). */
  let restore: { text: string } | undefined;
  let host: HTMLElement | undefined;
  let root: ShadowRoot | undefined;
  let visible = false;
  let options: OpenOptions = {};
  /** The site's `pagehand.init` (beneath open()'s options, above the script tag's). */
  let site: UiConfig = {};
  let autoOpened = false;
  let layout: Layout = loadLayout();
  // The tab's list of tasks and the run's log for its next page: in the tab's sessionStorage on a
  // site's own pages; on a stranger's page, which reads that storage, only in a store out of its
  // reach (the userscript's), else nowhere. The define is read here, not through SITE_UI, so the
  // bookmarklet's build drops this code itself (site-ui.ts).
  const kept = typeof __PAGEHAND_STRANGER_PANEL__ === 'undefined' ? keptIn(deps.stranger ? deps.kept : sessionKept) : undefined;
  let history: HistoryItem[] = kept?.history() ?? [];
  let view: RunView | undefined;
  let handle: RunHandle | undefined;
  let unsubscribe: Array<() => void> = [];
  /** A line under the task box: said in the panel's language when it is one of ours. */
  let notice: string | ((t: Strings) => string) | undefined;
  /** The language the user picked in the panel's menu (remembered for the site). */
  let chosen: Lang | undefined = matchLang(loadLang());
  /** Each language's strings once loaded (English is built in); a language whose file failed shows English. */
  const tables: Partial<Record<Lang, Strings>> = { en };
  const loading = new Set<Lang>();
  /** The strings last painted: kept on screen while the next language's file arrives. */
  let shown: Strings | undefined;
  /** What to focus after the next render (the launcher after collapsing, and back). */
  let focusNext: string | undefined;
  let waiting = false;
  let unwatch: (() => void) | undefined;
  /**
   * The conversation: the turns of the runs the panel started, each new task carrying them.
   * Only runs started here continue it (a page script's run, a replay, has its own).
   */
  let thread: PanelThread = { turns: [] };
  const { threads } = deps;
  /** Runs this panel started on this page; and the run whose turn is the thread's last (its view shows it). */
  const mine = new Set<string>();
  const resumedHere = new Set<string>();
  let lastTurnOf: string | undefined;
  const keepThread = (): void => {
    if (thread.turns.length || thread.pending) threads?.save(thread);
    else threads?.clear();
  };
  // The conversation of this tab and site's earlier pages, once the store can say.
  void threads?.ready().then(() => {
    // A store out of the page's reach is read once it can answer (the userscript's shares the tab object).
    if (deps.stranger) history = kept?.history() ?? history;
    const saved = threads.load();
    if (!saved || thread.turns.length || mine.size) return;
    thread = saved;
    paint();
  });
  /** The outline a "Show me" draws, while it shows. */
  let spot: (() => Box | undefined) | undefined;
  /** The Markdown parser for answers: loaded when a run is shown, not with the panel (most opens never get an answer). */
  let md: Markdown | undefined;
  const loadMarkdown = (): void =>
    void agent?.markdown?.().then(
      (m) => {
        md = m;
        paint();
      },
      () => {}, // answers stay plain text
    );

  const dispatch = (ev: UiEvent): void => {
    view = reduce(view, ev);
    paint();
  };

  /** False while the document has no body yet (bundle run at document start): paints on DOMContentLoaded. */
  function mount(): boolean {
    if (!document.body) {
      // Appending before the parser made <html> would make us the document element.
      if (!waiting) {
        waiting = true;
        document.addEventListener('DOMContentLoaded', () => paint(), { once: true });
      }
      return false;
    }
    if (!host) {
      host = document.createElement('pagehand-ui');
      host.setAttribute(UI_ATTR, '');
      root = attachShadow!.call(host, { mode: 'closed' });
      adoptStyles(root);
      // Typing and clicking in the panel is not the page's business: keys typed in the task
      // box must not fire the site's keyboard shortcuts (their bubbling listeners see our host).
      for (const type of SHIELDED) host.addEventListener(type, (e) => e.stopPropagation());
    }
    // Inside the page's modal dialog while one is open (else it makes us inert); a page that
    // rebuilds its DOM may have dropped us: put the host back.
    const parent = topModal() ?? document.documentElement;
    if (host.parentNode !== parent) {
      const focused = root!.activeElement as HTMLElement | null;
      parent.appendChild(host);
      focused?.focus();
    }
    unwatch ??= watchDialogs(() => host?.isConnected && paint());
    return true;
  }

  const lang = (): Lang =>
    chooseLang({
      chosen,
      site: [options.lang, site.lang, deps.lang],
      page: document.documentElement?.lang,
      browser: navigator.languages?.length ? navigator.languages : [navigator.language],
      stranger: deps.stranger,
    });

  /** `lang`'s strings, or undefined while its file loads (asked for once; the panel paints when it is here). */
  function stringsOf(code: Lang): Strings | undefined {
    const t = tables[code];
    if (t || loading.has(code)) return t;
    loading.add(code);
    loadStrings(code)
      .then(
        (s) => (tables[code] = s),
        () => (tables[code] = en),
      )
      .finally(() => {
        loading.delete(code);
        paint();
      });
    return undefined;
  }
  const corner = (): LauncherPosition => site.position ?? deps.position ?? 'bottom-right';

  /**
   * open()'s run options, by name: whatever else a caller slipped in (a `confirm` callback, a
   * `signal`, `ui: false`) must not reach the runs the user starts in the panel.
   */
  const runOptions = (): RunOptions => {
    const o: RunOptions = {};
    for (const k of RUN_KEYS) if (options[k] !== undefined) (o as Record<string, unknown>)[k] = options[k];
    // The language the user picked is the one the agent answers them in, too.
    if (chosen) o.lang = chosen;
    // The model name that chooses it (RunOptions.model).
    if (browser) o.model = 'browser';
    return o;
  };

  /** The user chose the browser's own model for the panel's runs, and what the browser says of it. */
  let browser = false;
  let browserState: BrowserModelState;

  /** The values and files of the last run started here, for its Retry (nothing else keeps them). */
  let lastSecrets: Record<string, string> | undefined;
  let lastFiles: File[] | undefined;

  /** Runs `go` with the agent, or keeps it until the agent is there (or says why it never will). */
  function withAgent(text: string, go: (a: UiAgent) => void): void {
    notice = undefined;
    if (agent) return go(agent);
    if (agentError) {
      const why = agentError;
      notice = (t) => t.agentFailed(why);
      restore = { text };
    } else queued = { text, go: () => go(agent!) };
    paint();
  }

  function start(task: string, secrets?: Record<string, string>, files?: File[]): void {
    withAgent(task, (a) => startWith(a, task, secrets, files));
  }

  function startWith(a: UiAgent, task: string, secrets?: Record<string, string>, files?: File[]): void {
    lastSecrets = secrets;
    lastFiles = files;
    try {
      // Through the page's own `run`, which hands the new handle to attach(); it continues the conversation.
      const h = a.run(task, {
        ...runOptions(),
        ...(thread.turns.length ? { thread: { turns: thread.turns } } : {}),
        ...(secrets ? { secrets } : {}),
        ...(files?.length ? { files } : {}),
      });
      mine.add(h.id);
      thread = { ...thread, pending: h.id };
      keepThread();
      attach(h);
    } catch (e) {
      notice = String((e as Error)?.message ?? e);
      paint();
    }
  }

  const act: PanelActions = {
    send: start,
    stop: () => handle?.stop(),
    pause: () => handle?.pause(),
    resume: () => handle?.resume(),
    answer: (text) => {
      handle?.answer(text);
      dispatch({ type: 'answered', text });
    },
    confirm: (allowed, always) => {
      view?.confirm?.respond(allowed, always);
      dispatch({ type: 'confirmed', allowed });
    },
    retry: () => view && start(view.task, lastSecrets, lastFiles),
    replay: (recording) =>
      withAgent(recording.task, (a) => {
        try {
          if (a.replay) attach(a.replay(recording, runOptions()));
          else {
            notice = (t) => t.replayUnavailable;
            paint();
          }
        } catch (e) {
          notice = String((e as Error)?.message ?? e);
          paint();
        }
      }),
    save: (what) => void agent?.save?.(what),
    show: (ref) => {
      const box = agent?.reveal?.(ref);
      spot = box;
      paint();
      return !!box;
    },
    rate: (rating) => {
      const r = view?.result;
      if (view && r) agent?.feedback?.({ id: view.id, rating, task: view.task, answer: r.summary });
    },
    dismissResume: () => dispatch({ type: 'dismissResume' }),
    newConversation: () => {
      if (view?.status === 'running') return;
      thread = { turns: [] };
      lastTurnOf = undefined;
      keepThread();
      view = undefined;
      notice = undefined;
      focusNext = '[data-task]';
      paint();
    },
    collapse: () => {
      setLayout({ ...layout, collapsed: true });
      focusNext = '.launcher';
      paint();
    },
    close,
    useBrowser: (on) => {
      browser = on;
      // What the browser says (while it stays chosen): its model's state, the download's progress.
      if (on) void agent?.browserModel?.((s) => browser && ((browserState = s), paint()));
      paint();
    },
    setLang: (l) => {
      chosen = l;
      saveLang(l);
      paint();
    },
    move: (dx, dy, done) => {
      const box = placeIn(layout, innerWidth, innerHeight, corner());
      layout = { ...layout, x: box.x + dx, y: box.y + dy };
      const placed = placeIn(layout, innerWidth, innerHeight, corner());
      layout = { ...layout, x: placed.x, y: placed.y };
      if (done) saveLayout(layout);
      paint();
    },
  };

  function setLayout(l: Layout): void {
    layout = l;
    saveLayout(l);
  }

  function paint(): void {
    const uiRun = view?.status === 'running' && !view.paused;
    if (!visible && !uiRun) {
      if (root) render(null, root);
      return;
    }
    // The language's strings, else those on screen until they arrive (the first paint waits for them).
    const t = stringsOf(lang()) ?? shown;
    if (!t || !mount()) return;
    shown = t;
    const rtl = isRtl(t.locale as Lang);
    const themeName = options.theme ?? site.theme;
    const theme = themeName && themeName !== 'auto' ? ` ${themeName}` : '';
    const box = placeIn(layout, innerWidth, innerHeight, corner());
    render(
      <div class={`ph${theme}`} lang={t.locale} dir={rtl ? 'rtl' : 'ltr'}>
        {uiRun && (
          <Mask
            host={host!}
            acting={view!.confirm ? { call: view!.confirm.request.call, target: view!.confirm.request.target } : view!.acting}
            t={t}
            onTakeOver={act.pause}
            onStop={act.stop}
          />
        )}
        {spot && visible && (
          <Spot
            box={spot}
            onEnd={() => {
              spot = undefined;
              paint();
            }}
          />
        )}
        {visible &&
          (layout.collapsed ? (
            <Launcher
              t={t}
              text={site.launcherText}
              anchor={launcherAnchor(box, corner(), innerWidth, innerHeight)}
              running={view?.status === 'running'}
              onOpen={() => {
                setLayout({ ...layout, collapsed: false });
                focusNext = '[data-collapse]';
                paint();
              }}
            />
          ) : (
            <Panel
              view={view}
              t={t}
              earlier={view && view.id === lastTurnOf ? thread.turns.slice(0, -1) : thread.turns}
              history={history}
              recordings={site.recordings ?? []}
              notice={typeof notice === 'function' ? notice(t) : notice}
              suggestions={(site.suggestions ?? []).filter((s) => s.trim()).slice(0, 4)}
              canRate={!!agent?.feedback}
              browser={'LanguageModel' in globalThis && agent?.browserModel ? { on: browser, state: browserState } : undefined}
              md={md}
              waiting={queued?.text}
              restore={restore}
              box={box}
              rtl={rtl}
              act={act}
              // Right to left, the panel hangs from its right edge (the resize grip is bottom-left): that edge stays put.
              onResize={(width, height) =>
                setLayout({
                  ...layout,
                  width,
                  height,
                  ...(rtl && (layout.x !== undefined || corner().endsWith('left')) ? { x: box.x + box.width - width } : {}),
                })
              }
            />
          ))}
      </div>,
      root!,
    );
    if (focusNext) {
      (root!.querySelector(focusNext) as HTMLElement | null)?.focus();
      focusNext = undefined;
    }
  }

  /** Shows a run in the overlay and answers its confirmations and questions. */
  function attach(h: RunHandle, resumed = false): void {
    if (h === handle || !h.active) return;
    for (const off of unsubscribe) off();
    handle = h;
    if (resumed) resumedHere.add(h.id);
    if (!md) loadMarkdown();
    // A run resumed after a navigation brings the log of the pages before.
    dispatch({ type: 'attach', id: h.id, task: h.task, paused: h.paused, resumed, now: Date.now(), entries: resumed ? kept?.loadLog(h.id) : undefined });
    if (kept && !resumed) history = kept.record({ task: h.task, at: Date.now() });
    unsubscribe = [
      h.on('step', (p) => dispatch({ type: 'step', p, now: Date.now() })),
      h.on('action', (p) => dispatch({ type: 'action', p })),
      h.on('message', (p) => dispatch({ type: 'message', p })),
      h.on('pause', (p) => dispatch({ type: 'pause', p })),
      h.on('error', (p) => dispatch({ type: 'error', p })),
      // The user must see what they are asked: open the panel, expanded.
      h.on('confirm', (p) => {
        reveal();
        dispatch({ type: 'confirm', p });
      }),
      h.on('ask', (p) => {
        reveal();
        dispatch({ type: 'ask', p });
      }),
      h.on('done', (p) => {
        if (kept && p.result.reason !== 'moved') history = kept.record({ task: h.task, ok: p.result.ok, at: Date.now() });
        // A run of the panel's own (started here, or on the page before this one) adds its turn.
        const own = mine.has(h.id) || thread.pending === h.id || (deps.siteInstalled === true && resumedHere.has(h.id));
        if (p.result.reason !== 'moved' && p.result.thread && own) {
          thread = { turns: p.result.thread.turns };
          lastTurnOf = h.id;
          keepThread();
        }
        dispatch({ type: 'done', p, now: Date.now() });
      }),
    ];
    reveal();
    paint();
  }

  function reveal(): void {
    visible = true;
    if (layout.collapsed) setLayout({ ...layout, collapsed: false });
  }

  function open(o: OpenOptions = {}): void {
    options = { ...options, ...o };
    // Another page of the site may have moved it since this one loaded.
    if (!visible) layout = loadLayout();
    reveal();
    const h = agent?.current();
    if (h) attach(h);
    if (!view || view.status !== 'running') focusNext = '[data-task]';
    paint();
  }

  function close(): void {
    visible = false;
    spot = undefined;
    paint();
  }

  /** The embed's start: the launcher, or the panel as the user last left it in this tab. */
  function launcher(): void {
    if (visible) return;
    layout = loadLayout(true);
    visible = true;
    paint();
  }

  /**
   * The site's `pagehand.init` for the overlay: applied at once (the launcher re-rendered, an
   * open panel re-themed). Its theme and language replace any given to open() before: the
   * last call wins.
   */
  function configure(c: UiConfig): void {
    site = { ...c };
    options = { ...options, theme: undefined, lang: undefined };
    if (visible) paint();
  }

  /**
   * init's `autoOpen`: the panel, expanded, instead of only the launcher — once per page load
   * (a later init must not reopen what the user closed), and not over a run already shown
   * (one resumed after a navigation). Focus stays with the page: nobody asked for the panel.
   */
  function autoOpen(): void {
    if (autoOpened) return;
    autoOpened = true;
    if (handle?.active) return;
    if (!visible) layout = loadLayout();
    reveal();
    paint();
  }

  /** The bookmarklet clicked again: hide the panel if shown, else show it. */
  function toggle(): void {
    if (visible) close();
    else open();
  }

  /** The agent is here: a task sent while it loaded starts now. */
  function connect(a: UiAgent): void {
    agent = a;

    const q = queued;
    queued = undefined;
    if (q) q.go();
  }

  /** The engine could not be loaded: said in the panel; a task waiting for it goes back to the task box. */
  function agentFailed(e: unknown): void {
    const why = (agentError = String((e as Error)?.message ?? e));
    notice = (t) => t.agentFailed(why);
    if (queued) restore = { text: queued.text };
    queued = undefined;
    paint();
  }

  addEventListener('resize', () => visible && paint());
  // The language's file is asked for now, so it is here by the time the panel opens.
  stringsOf(lang());
  // The run's log for its next page: not in a stranger's page's storage from the bookmarklet,
  // whose run a full page load ends anyway.
  addEventListener('pagehide', () => {
    if (kept && view?.status === 'running')
      kept.saveLog(
        view.id,
        view.entries.map((e) => (e.kind === 'step' ? { ...e, thinking: undefined } : e)),
      );
  });
  return { open, close, toggle, launcher, attach, configure, autoOpen, connect, agentFailed };
}

/** The overlay's controller, as the entries hold it. */
export type Ui = ReturnType<typeof createUi>;
