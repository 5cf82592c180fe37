/**
 * The chat panel: the task box, the step log, progress, and the cards that need the user
 * (confirm, ask, the end of a run). It renders a RunView and calls back; no agent logic.
 * What gives the agent something — Allow, Allow all of a kind, Send (a task or an answer),
 * Retry, Take over, Resume — answers only the user's own input (see trusted.ts); Deny, Stop
 * and the rest only make it do less, so they take any click.
 */
import { SITE_UI } from './site-ui';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Recording, ThreadTurn } from '../agent/public-types';
import { say, type Strings } from './i18n';
import { callLabel, targetLabel } from './labels';
import type { HistoryItem } from './storage';
import type { Entry, RunView, StepView } from './state';
import { FilesBox } from './files';
import { readSecrets, SecretsBox } from './secrets';
import { isUserInput, onUserInput } from './trusted';
import { guardCard, type CardGuard } from './arming';
import { clock } from './format';
import type { Lang } from './languages';
import { LangMenu } from './lang-menu';
import { Answer } from './answer';
import type { Markdown } from './markdown';
import { MicButton, useVoice } from './voice';
import { BrowserModel, type BrowserModelState } from './browser-model';

export interface PanelActions {
  /** `secrets`: the values the agent may type but not see; `files`: those attached; both from the task box. */
  send(task: string, secrets?: Record<string, string>, files?: File[]): void;
  stop(): void;
  pause(): void;
  resume(): void;
  answer(text: string): void;
  confirm(allowed: boolean, always?: boolean): void;
  retry(): void;
  /** Runs a recording again (no model call while every step matches). */
  replay(recording: Recording): void;
  /** Saves a recording as a JSON file. */
  /** Downloads a recording (JSON) or the finished run's report (one HTML file). */
  save(what: Recording | RunView): void;
  /** An answer's "Show me": scrolls to the element and outlines it; false when it is no longer on the page. */
  show(ref: string): boolean;
  /** The user's thumbs up or down on the answer shown. */
  rate(rating: 'up' | 'down'): void;
  dismissResume(): void;
  /** Forgets the conversation: the next task starts one of its own. */
  newConversation(): void;
  collapse(): void;
  close(): void;
  /** The user turned the browser's own model on or off for the next runs. */
  useBrowser(on: boolean): void;
  /** The user picked a language in the panel's menu. */
  setLang(lang: Lang): void;
  move(dx: number, dy: number, done?: boolean): void;
}

interface Props {
  view?: RunView;
  t: Strings;
  /** The conversation's turns before the one the view shows, oldest first. */
  earlier: readonly ThreadTurn[];
  history: HistoryItem[];
  /** The site's recordings (init): one-click tasks. */
  recordings: Recording[];
  /** The site's starter tasks (init's first four): shown before the first task, a click fills the task box. */
  suggestions: string[];
  /** Answers can be rated (the site installed pagehand and hears the ratings). */
  canRate: boolean;
  /** The Markdown parser, once loaded (it loads when a run starts): answers are plain text until then. */
  md?: Markdown;
  /** Whether the browser's own model is chosen, and its box; absent where the browser has none to offer. */
  browser?: { on: boolean; state: BrowserModelState };
  /** A run that could not start (busy, no task, the agent not loaded). */
  notice?: string;
  /** The task sent before the agent arrived: shown in the task box until it starts. */
  waiting?: string;
  /** Text given back to the task box (a task the agent never got); a new object each time. */
  restore?: { text: string };
  box: { x: number; y: number; width: number; height: number };
  /** Right to left: the panel hangs from its right edge, where its resize grip is not. */
  rtl?: boolean;
  act: PanelActions;
  onResize(width: number, height: number): void;
}

/** Re-renders once a second while `on`, for the elapsed-time clock. */
function useTick(on: boolean): void {
  const [, setN] = useState(0);
  useEffect(() => {
    if (!on) return;
    const id = setInterval(() => setN((n) => n + 1), 1000);
    return () => clearInterval(id);
  }, [on]);
}

export function Panel({ view, t, earlier, history, recordings, suggestions, canRate, md, browser, notice, waiting, restore, box, rtl, act, onResize }: Props) {
  const running = view?.status === 'running';
  useTick(running);
  const ref = useRef<HTMLElement>(null);
  const logRef = useRef<HTMLDivElement>(null);
  const [draft, setDraft] = useState('');
  useEffect(() => {
    if (restore) setDraft(restore.text);
  }, [restore]);

  // The size the user gives it by the resize corner is remembered.
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => {
      const w = el.offsetWidth;
      const h = el.offsetHeight;
      if (Math.abs(w - box.width) > 2 || Math.abs(h - box.height) > 2) onResize(w, h);
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [box.width, box.height]);

  // The log follows the newest entry.
  const last = view?.entries[view.entries.length - 1];
  const count = earlier.length + (view ? view.entries.length + (last?.kind === 'step' ? (last as StepView).actions.length : 0) : 0);
  useEffect(() => {
    const el = logRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [count, view?.status]);

  return (
    <section
      ref={ref}
      class="panel"
      aria-label={t.title}
      style={{
        ...(rtl ? { right: `${(document.documentElement.clientWidth || innerWidth) - box.x - box.width}px` } : { left: `${box.x}px` }),
        top: `${box.y}px`,
        width: `${box.width}px`,
        height: `${box.height}px`,
      }}
    >
      <Header t={t} running={running} act={act} />
      {view && view.step > 0 && (
        <div class="bar" data-progress>
          <span>{t.step(view.step, view.maxSteps)}</span>
          <span>{clock(running ? Date.now() - view.startedAt : view.elapsedMs, t.locale)}</span>
          <span>{t.tokens(view.tokens)}</span>
          {view.cost !== undefined && <span data-cost>{t.cost(view.cost)}</span>}
        </div>
      )}
      {view?.resumed && running && (
        <div class="banner" data-resumed role="status">
          <p>{t.resumed}</p>
          <button type="button" class="icon" aria-label={t.dismiss} onClick={act.dismissResume}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
      )}
      <div class="log" role="log" aria-label={t.log} ref={logRef} tabIndex={0}>
        {earlier.length > 0 && <Conversation t={t} turns={earlier} />}
        {view && (
          <p class="task" dir="auto">
            {view.task}
          </p>
        )}
        {view?.entries.map((e, i) => (
          <EntryView key={i} e={e} t={t} running={running} />
        ))}
        {!view && !earlier.length && <p class="hint intro">{t.intro}</p>}
        {SITE_UI && !view && !earlier.length && waiting === undefined && suggestions.length > 0 && <Starters t={t} items={suggestions} pick={setDraft} />}
        {SITE_UI && !view && recordings.length > 0 && <SiteTasks t={t} recordings={recordings} act={act} />}
        {SITE_UI && !view && !earlier.length && history.length > 0 && <History t={t} items={history} pick={setDraft} />}
      </div>
      {view?.confirm && <ConfirmCard view={view} t={t} act={act} />}
      {view?.ask !== undefined && running && <AskCard question={view.ask} t={t} act={act} />}
      {view && !running && <EndCard view={view} t={t} act={act} canRate={canRate} md={md} />}
      <footer class="foot">
        {running ? (
          <div class="row">
            {view!.paused ? (
              <button type="button" class="primary" onClick={onUserInput(act.resume)}>
                {t.resume}
              </button>
            ) : (
              <button type="button" onClick={onUserInput(act.pause)}>
                {t.takeOver}
              </button>
            )}
            <button type="button" class="danger" onClick={act.stop}>
              {t.stop}
            </button>
            {view!.paused && <span class="hint">{t.paused}</span>}
          </div>
        ) : (
          <>
            {(view || earlier.length > 0) && (
              <div class="row">
                <button type="button" class="link" onClick={act.newConversation} data-new-conversation>
                  {t.newConversation}
                </button>
              </div>
            )}
            <TaskBox t={t} send={act.send} text={draft} setText={setDraft} waiting={waiting} />
            {browser && (
              // A page script's click neither changes the choice nor the box.
              <BrowserModel t={t} on={browser.on} state={browser.state} toggle={(e) => (isUserInput(e) ? act.useBrowser(!browser.on) : e.preventDefault())} />
            )}
          </>
        )}
        {notice && (
          <p class="err" role="alert">
            {notice}
          </p>
        )}
      </footer>
    </section>
  );
}

function Header({ t, running, act }: { t: Strings; running: boolean; act: PanelActions }) {
  // Dragging by the header; the move button does the same from the keyboard.
  const drag = useRef<{ x: number; y: number } | undefined>();
  const down = (e: PointerEvent): void => {
    if ((e.target as Element).closest('button,select') || e.button !== 0) return;
    drag.current = { x: e.clientX, y: e.clientY };
    (e.currentTarget as Element).setPointerCapture(e.pointerId);
  };
  const moveTo = (e: PointerEvent, done = false): void => {
    const d = drag.current;
    if (!d) return;
    act.move(e.clientX - d.x, e.clientY - d.y, done);
    drag.current = done ? undefined : { x: e.clientX, y: e.clientY };
  };
  const key = (e: KeyboardEvent): void => {
    const step = e.shiftKey ? 64 : 16;
    const d = ({ ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] } as Record<string, [number, number]>)[e.key];
    if (!d) return;
    e.preventDefault();
    act.move(d[0], d[1], true);
  };
  return (
    <header onPointerDown={down} onPointerMove={(e) => moveTo(e)} onPointerUp={(e) => moveTo(e, true)} onPointerCancel={(e) => moveTo(e, true)}>
      <h2>
        <span class={running ? 'dot on' : 'dot'} aria-hidden="true" />
        {t.title}
      </h2>
      <LangMenu t={t} pick={act.setLang} />
      <button type="button" class="icon" aria-label={t.move} title={t.move} onKeyDown={key} data-move>
        <span aria-hidden="true">✥</span>
      </button>
      <button type="button" class="icon" aria-label={t.collapse} title={t.collapse} onClick={act.collapse} data-collapse>
        <span aria-hidden="true">–</span>
      </button>
      <button type="button" class="icon" aria-label={t.close} title={t.close} onClick={act.close} data-close>
        <span aria-hidden="true">×</span>
      </button>
    </header>
  );
}

/**
 * The conversation's earlier turns, each as it was asked and answered: they stay in view while
 * the next task runs. (How an answer is drawn is the answer's own component's business.)
 */
function Conversation({ t, turns }: { t: Strings; turns: readonly ThreadTurn[] }) {
  return (
    <ol class="thread" aria-label={t.conversation} data-thread>
      {turns.map((turn, i) => (
        <li key={i} data-turn={i + 1}>
          <p class="task" dir="auto">
            <span class="sr">{t.you}: </span>
            {turn.task}
          </p>
          <p class={turn.status === 'done' ? 'entry msg model' : 'entry msg model bad'} data-turn-answer={turn.status} dir="auto">
            <span class="sr">{t.agent}: </span>
            {turn.status === 'stopped' ? t.stopped : turn.status === 'failed' ? `${t.notDone}: ${turn.answer}` : turn.answer}
          </p>
        </li>
      ))}
    </ol>
  );
}

function EntryView({ e, t, running }: { e: Entry; t: Strings; running: boolean }) {
  if (e.kind === 'message') {
    return (
      <p class={`entry msg ${e.from}`} dir="auto">
        <span class="sr">{e.from === 'user' ? t.you : t.agent}: </span>
        {e.text}
      </p>
    );
  }
  if (e.kind === 'error') {
    return (
      <p class="entry err">
        {say(t, e.message, e.said)}
        {e.retryInMs ? ` (${t.retrying(Math.round(e.retryInMs / 100) / 10)})` : ''}
      </p>
    );
  }
  const r = e.reasoning;
  const results = e.actions.filter((a) => a.result);
  // Planned calls that emit no action events: the end of the run, a question.
  const quiet = (e.calls ?? []).filter((c) => !e.actions.some((a) => a.call.name === c.name));
  if (!running && !r && !e.thinking && !e.actions.length) return null;
  return (
    <div class="entry" data-step={e.step}>
      <div class="k">{`#${e.step}`}</div>
      {e.thinking !== undefined && !r && (e.thinking || running) && (
        <p class="think" aria-hidden="true" dir="auto">
          {e.thinking.slice(-240) || t.thinking}
        </p>
      )}
      {!r && e.thinking === undefined && running && <p class="think">{t.thinking}</p>}
      {/* What it saw (muted), then what it does next and why; the rest under Details. */}
      {r?.evaluation && (
        <p class="entry saw" dir="auto">
          {r.evaluation}
        </p>
      )}
      {r?.nextGoal && (
        <p class="entry" dir="auto">
          {r.nextGoal}
        </p>
      )}
      {e.actions.map((a, i) => (
        <span key={i} class={a.result && !a.result.ok ? 'act fail' : 'act'} dir="auto">
          {a.result ? (a.result.ok ? '✓ ' : '✗ ') : '… '}
          {callLabel(a.call, a.target)}
        </span>
      ))}
      {quiet.map((c, i) => (
        <span key={`q${i}`} class="act" dir="auto">{`→ ${callLabel(c)}`}</span>
      ))}
      {(r?.evaluation || r?.memory || r?.nextGoal || results.length > 0) && (
        <details>
          <summary>{t.details}</summary>
          <dl>
            {r?.evaluation && [
              <dt key="e">{t.evaluation}</dt>,
              <dd key="e2" dir="auto">
                {r.evaluation}
              </dd>,
            ]}
            {r?.memory && [
              <dt key="m">{t.memory}</dt>,
              <dd key="m2" dir="auto">
                {r.memory}
              </dd>,
            ]}
            {r?.nextGoal && [
              <dt key="g">{t.nextGoal}</dt>,
              <dd key="g2" dir="auto">
                {r.nextGoal}
              </dd>,
            ]}
            {results.map((a, i) => [
              <dt key={`r${i}`}>{t.result}</dt>,
              <dd key={`d${i}`} dir="auto">
                {say(t, a.result!.message, a.result!.said)}
              </dd>,
            ])}
          </dl>
        </details>
      )}
    </div>
  );
}

function ConfirmCard({ view, t, act }: { view: RunView; t: Strings; act: PanelActions }) {
  const req = view.confirm!.request;
  const card = useRef<HTMLDivElement>(null);
  const first = useRef<HTMLButtonElement>(null);
  const guard = useRef<CardGuard>();
  // Allow is disarmed until the card has been in full view for a moment (arming.ts).
  const [armed, setArmed] = useState(false);
  useEffect(() => {
    // The card opens at its top (what the call does) and its long values scroll in their place;
    // one that does is reachable by keyboard too.
    first.current?.focus({ preventScroll: true });
    for (const dd of card.current!.querySelectorAll('dd')) if (dd.scrollHeight > dd.clientHeight) dd.tabIndex = 0;
    const g = guardCard(card.current!, setArmed);
    guard.current = g;
    return g.stop;
  }, [view.confirm]);
  const kind = t.kinds[req.kind] ?? req.kind;
  const allow = (always?: boolean) => (e: MouseEvent) => {
    if (isUserInput(e) && guard.current?.ok(e)) act.confirm(true, always);
  };
  /** Allow's look while disarmed: "…" for its icon, greyed, aria-disabled (it stays focusable). */
  const gate = {
    class: armed ? 'risk' : 'risk wait',
    'aria-disabled': armed ? undefined : ('true' as const),
    'aria-describedby': armed ? undefined : 'ph-confirm-wait',
    onFocus: (e: FocusEvent) => guard.current?.focused(e.currentTarget),
  };
  const icon = (s: string) => (
    <span class="ic" aria-hidden="true">
      {armed ? s : '…'}
    </span>
  );
  return (
    // It shrinks and scrolls when long (the model's goal can be), so it stays whole in the panel and can arm.
    <div
      ref={card}
      class="card confirm"
      role="alertdialog"
      aria-modal="false"
      aria-labelledby="ph-confirm-title"
      aria-describedby="ph-confirm-why"
      data-confirm
      data-armed={armed || undefined}
      onKeyDown={(e) => e.key === 'Escape' && (e.preventDefault(), act.confirm(false))}
    >
      <h3 id="ph-confirm-title">{`${t.confirmTitle} — ${kind}`}</h3>
      <dl>
        <dt>{t.action}</dt>
        {/* What comes from the page, the model or the risk check keeps its own direction (dir=auto). */}
        <dd dir="auto">{callLabel(req.target ? { name: req.call.name, args: { ...req.call.args, ref: undefined } } : req.call)}</dd>
        {req.target && [
          <dt key="e">{t.element}</dt>,
          <dd key="e2" dir="auto">
            {targetLabel(req.target)}
          </dd>,
        ]}
        <dt>{t.why}</dt>
        <dd id="ph-confirm-why" dir="auto">
          {say(t, req.reason, req.said)}
        </dd>
        {req.goal && [
          <dt key="g">{t.goal}</dt>,
          <dd key="g2" dir="auto">
            {req.goal}
          </dd>,
        ]}
      </dl>
      {/* Each button says what it does, with its own icon and colour, not only by its place. */}
      <div class="row">
        <button type="button" {...gate} onClick={allow()} data-allow>
          {icon('✓')}
          {t.allowIt(kind)}
        </button>
        <button type="button" class="safe" ref={first} onClick={() => act.confirm(false)} data-deny>
          <span class="ic" aria-hidden="true">
            ✕
          </span>
          {t.deny}
        </button>
        {/* What pagehand could not judge is allowed one call at a time. */}
        {req.kind !== 'unjudged' && (
          <button type="button" {...gate} onClick={allow(true)} data-allow-kind>
            {icon('✓')}
            {t.allowKind(kind)}
          </button>
        )}
      </div>
      {/* Kept in its place when armed (hidden), so arming does not move the card. */}
      <p class={armed ? 'hint off' : 'hint'} id="ph-confirm-wait">
        {t.arming}
      </p>
    </div>
  );
}

function AskCard({ question, t, act }: { question: string; t: Strings; act: PanelActions }) {
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => box.current?.focus(), [question]);
  // Read from the field itself: the last keystroke may not have re-rendered yet.
  const send = (): void => {
    const text = box.current?.value.trim();
    if (text) act.answer(text);
  };
  return (
    <div class="card" data-ask role="group" aria-labelledby="ph-ask-q">
      <h3>{t.askTitle}</h3>
      <p id="ph-ask-q" dir="auto">
        {question}
      </p>
      <label class="sr" for="ph-answer">
        {t.answer}
      </label>
      <textarea id="ph-answer" ref={box} rows={2} onKeyDown={(e) => enterSends(e, send)} />
      <div class="row">
        <button type="button" class="primary" onClick={onUserInput(send)}>
          {t.send}
        </button>
      </div>
    </div>
  );
}

function EndCard({ view, t, act, canRate, md }: { view: RunView; t: Strings; act: PanelActions; canRate: boolean; md?: Markdown }) {
  const [copied, setCopied] = useState(false);
  const [rated, setRated] = useState<'up' | 'down'>();
  const r = view.result;
  if (view.status === 'stopped')
    return (
      <p class="card" data-end="stopped">
        {t.stopped}
      </p>
    );
  const ok = view.status === 'done';
  const why = r?.reason;
  const text = view.error
    ? say(t, view.error.message, view.error.said)
    : !ok && (why === 'max_tokens' || why === 'max_cost')
      ? t.budgetStop(why === 'max_cost')
      : say(t, r?.summary ?? '', r?.said);
  // The model's own words (its answer, or why it gave up) are Markdown; pagehand's are plain.
  const answer = !view.error && (ok || why === 'failed' || why === 'incomplete' || why === 'refused');
  // What happened against what the model said: steps that did not happen, claims no step backs.
  const warnings = [
    ...(r?.refused ?? []).map((x) => t.refusedStep(t.kinds[x.kind], x.target ?? x.call, x.outcome === 'denied')),
    ...(r?.unbacked ?? []).map((k) => t.unbacked(t.kinds[k])),
  ];
  const tree = answer && md ? md.parseMarkdown(text) : undefined;
  // A run that acted on the page can be run again, or kept.
  const recording = r?.recording?.steps.length ? r.recording : undefined;
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(tree ? md!.plainText(tree) : text);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div class={ok ? 'card ok' : 'card bad'} data-end={view.status} role="status">
      <h3>{ok ? t.done : view.error ? t.error : t.notDone}</h3>
      {warnings.length > 0 && (
        <ul data-warnings>
          {warnings.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      )}
      {why === 'refused' && <p class="hint">{t.agentSaid}</p>}
      {tree ? (
        <div data-summary dir="auto">
          <Answer tree={tree} t={t} show={act.show} />
        </div>
      ) : (
        <p data-summary dir="auto">
          {text}
        </p>
      )}
      <div class="row">
        {ok ? (
          <button type="button" onClick={copy} data-copy>
            {copied ? t.copied : t.copy}
          </button>
        ) : (
          <button type="button" class="primary" onClick={onUserInput(act.retry)} data-retry>
            {t.retry}
          </button>
        )}
        {ok && recording && (
          <>
            <button type="button" onClick={onUserInput(() => act.replay(recording))} data-run-again>
              {t.runAgain}
            </button>
            <button type="button" onClick={() => act.save(recording)} data-save-recording>
              {t.saveRecording}
            </button>
          </>
        )}
        <button type="button" onClick={() => act.save(view)} data-save-report>
          {t.saveReport}
        </button>
        {SITE_UI && answer && canRate && (
          <span class="rate" role="group" aria-label={t.rateAnswer}>
            {(['up', 'down'] as const).map((k) => (
              <button
                key={k}
                type="button"
                class="icon"
                aria-label={k === 'up' ? t.helpful : t.notHelpful}
                title={k === 'up' ? t.helpful : t.notHelpful}
                aria-pressed={rated === k}
                data-rate={k}
                onClick={() => rated !== k && (setRated(k), act.rate(k))}
              >
                <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" class={k}>
                  <path d="M1 7h3v8H1zM5 7l3-6c1.2 0 2 .8 2 2v3h3.5c.9 0 1.6.8 1.4 1.7l-1.2 6c-.1.7-.8 1.3-1.5 1.3H5z" fill="currentColor" />
                </svg>
              </button>
            ))}
          </span>
        )}
      </div>
      {rated && (
        <p class="hint" role="status" data-rated>
          {t.thanks}
        </p>
      )}
    </div>
  );
}

/** Enter (not Shift+Enter, not while composing) sends — when a person pressed it. */
function enterSends(e: KeyboardEvent, send: () => void): void {
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing && isUserInput(e)) {
    e.preventDefault();
    send();
  }
}

function TaskBox({ t, send, text, setText, waiting }: { t: Strings; send: PanelActions['send']; text: string; setText(s: string): void; waiting?: string }) {
  const box = useRef<HTMLTextAreaElement>(null);
  const secrets = useRef<HTMLDivElement | null>(null);
  const [files, setFiles] = useState<File[]>([]);
  // Dictation in the panel's language, into this box.
  const voice = useVoice(
    () => box.current?.closest('[lang]')?.getAttribute('lang') || 'en',
    () => box.current?.value ?? text,
    setText,
  );
  const go = (): void => {
    if (waiting !== undefined) return;
    const task = (box.current?.value ?? text).trim();
    if (!task) return;
    voice.cancel();
    setText('');
    if (box.current) box.current.value = '';
    send(task, readSecrets(secrets.current), files.length ? files : undefined);
    setFiles([]);
  };
  return (
    <>
      <label for="ph-task">{t.taskLabel}</label>
      <textarea
        id="ph-task"
        ref={box}
        dir="auto"
        data-task
        rows={2}
        value={waiting ?? text}
        readOnly={waiting !== undefined}
        aria-busy={waiting !== undefined}
        aria-describedby="ph-task-hint"
        onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
        onKeyDown={(e) => enterSends(e, go)}
      />
      <div class="row">
        <p
          class="hint"
          id="ph-task-hint"
          style={{ flex: '1' }}
          role={waiting !== undefined || voice.listening || voice.error ? 'status' : undefined}
          data-waiting={waiting !== undefined || undefined}
          data-voice-hint={voice.error ? 'error' : voice.listening ? 'listening' : undefined}
        >
          {waiting !== undefined ? t.waitingAgent : voice.error ? t.voiceError(voice.error) : voice.listening ? t.listening : t.taskHint}
        </p>
        <button type="button" class="primary" onClick={onUserInput(go)} data-send disabled={waiting !== undefined}>
          {waiting !== undefined ? t.sendWaiting : t.send}
        </button>
        {/* After Send: Send stays the next stop from the task box. */}
        <MicButton t={t} voice={voice} disabled={waiting !== undefined} />
      </div>
      <FilesBox t={t} files={files} setFiles={setFiles} />
      <SecretsBox t={t} boxRef={secrets} />
    </>
  );
}

/** The site's starter tasks: a click puts one in the task box, for the user to send or change. */
function Starters({ t, items, pick }: { t: Strings; items: string[]; pick(task: string): void }) {
  return (
    <nav class="hist sugg" aria-label={t.starters} data-suggestions>
      <span class="k">{t.starters}</span>
      <ul>
        {items.map((s, i) => (
          <li key={i}>
            <button type="button" title={s} onClick={(e) => (pick(s), focusTask(e))}>
              {s}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Moves the focus to the task box (a starter or an earlier task was just put in it). */
const focusTask = (e: Event): void => ((e.currentTarget as Element).getRootNode() as ShadowRoot).getElementById?.('ph-task')?.focus();

/** The site's recorded tasks: one click runs one again. */
function SiteTasks({ t, recordings, act }: { t: Strings; recordings: Recording[]; act: PanelActions }) {
  return (
    <nav class="hist" aria-label={t.siteTasks} data-site-tasks>
      <span class="k">{t.siteTasks}</span>
      <ul>
        {recordings.map((r, i) => (
          <li key={i}>
            <button type="button" title={r.task} dir="auto" onClick={onUserInput(() => act.replay(r))}>
              {r.task}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function History({ t, items, pick }: { t: Strings; items: HistoryItem[]; pick(task: string): void }) {
  return (
    <nav class="hist" aria-label={t.history} data-history>
      <span class="k">{t.history}</span>
      <ul>
        {items.map((i) => (
          <li key={i.task}>
            <button type="button" title={i.task} dir="auto" onClick={(e) => (pick(i.task), focusTask(e))}>
              {i.ok === true ? '✓ ' : i.ok === false ? '✗ ' : ''}
              {i.task}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
