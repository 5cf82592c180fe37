// @vitest-environment happy-dom
/**
 * The overlay's controller with a fake run handle: open/close mount one shadow-rooted host,
 * handle events show up in the panel, the user's choices go back through the handle, and the
 * task box sends on Enter (not Shift+Enter). What gives the agent something answers only the
 * user's own input, not a script's.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEmitter } from '../../client/agent/events';
import type { Ref } from '../../client/page/page-types';
import type { RunEvents, RunHandle, RunOptions } from '../../client/agent/public-types';
import { ARM_MS } from '../../client/ui/arming';
import { createUi } from '../../client/ui/index';
import { LAYOUT_KEY, PANEL_KEY, saveLog } from '../../client/ui/storage';

/**
 * The overlay attaches its shadow root closed; for these tests it is opened (as the browser
 * tests' revealOverlay does) and the mode asked for is recorded. Installed before the overlay's
 * module loads, since it keeps attachShadow as it found it.
 */
const overlay = vi.hoisted(() => {
  const asked: string[] = [];
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (this: Element, init: ShadowRootInit): ShadowRoot {
    if (this.localName !== 'pagehand-ui') return attach.call(this, init);
    asked.push(init.mode);
    return attach.call(this, { ...init, mode: 'open' });
  };
  return { asked };
});

/** happy-dom has no isTrusted: here an event is the user's while `input.user` is true, a script's when false. */
const input = { user: true };
Object.defineProperty(Event.prototype, 'isTrusted', { get: () => input.user, configurable: true });

interface FakeHandle extends RunHandle {
  emit<E extends keyof RunEvents>(e: E, p: RunEvents[E]): void;
  calls: string[];
}

/** Every fake handle made, so a test's runs end after it (their masks would block the next test's user input). */
const made: FakeHandle[] = [];

function fakeHandle(task: string): FakeHandle {
  const em = createEmitter<RunEvents>();
  const calls: string[] = [];
  let active = true;
  let paused = false;
  const h: FakeHandle = {
    id: `id-${task}`,
    task,
    ui: true,
    on: em.on,
    emit: (e, p) => {
      if (e === 'done') active = false;
      if (e === 'pause') paused = (p as RunEvents['pause']).paused;
      em.emit(e, p);
    },
    calls,
    stop: () => calls.push('stop'),
    pause: () => calls.push('pause'),
    resume: () => calls.push('resume'),
    answer: (t) => calls.push(`answer:${t}`),
    get paused() {
      return paused;
    },
    get active() {
      return active;
    },
    result: new Promise(() => {}),
  };
  made.push(h);
  return h;
}

let handles: FakeHandle[];
let runs: Array<{ task: string; options?: RunOptions }>;
let ui: ReturnType<typeof createUi>;

const agent = {
  run: (task: string, options?: RunOptions) => {
    runs.push({ task, options });
    const h = fakeHandle(task);
    handles.push(h);
    return h;
  },
  current: () => handles.find((h) => h.active),
};

/** `connected: false`: the overlay before the engine arrived (the embed's panel comes first). */
function setup(lang?: string, connected = true): void {
  handles = [];
  runs = [];
  ui = createUi({ lang });
  if (connected) ui.connect(agent);
}

const hosts = (): Element[] => [...document.querySelectorAll('pagehand-ui')];
const shadow = (): ShadowRoot => hosts()[0]!.shadowRoot!;
const $ = (sel: string): HTMLElement | null => shadow().querySelector(sel);
const text = (): string => shadow().textContent ?? '';
/** Refs are branded strings in the contract. */
const ref = (r: string): Ref => r as Ref;
const usage = { promptTokens: 10, completionTokens: 5 };
/** The panel painted: a language other than English paints once its module has loaded. */
const painted = (): Promise<void> => vi.waitFor(() => expect(hosts()[0]?.shadowRoot?.querySelector('.ph')).toBeTruthy());
/** Lets Preact run its scheduled re-render (hook state changes render on a later tick). */
const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 0));
/** Past the confirmation card's arming wait (happy-dom has no IntersectionObserver v2: the wait alone). */
const armed = (): Promise<void> => new Promise((r) => setTimeout(r, ARM_MS + 50));
/** A pointer's click (detail 1), as the user's mouse gives it; `el.click()` is a key press's (detail 0). */
const press = (el: HTMLElement): boolean => el.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, detail: 1 }));

function type(el: HTMLElement, value: string): void {
  (el as HTMLTextAreaElement).value = value;
  el.dispatchEvent(new Event('input', { bubbles: true }));
}
const key = (el: HTMLElement, k: string, shiftKey = false): boolean =>
  el.dispatchEvent(new KeyboardEvent('keydown', { key: k, shiftKey, bubbles: true, cancelable: true }));

beforeEach(() => {
  input.user = true;
  localStorage.clear();
  sessionStorage.clear();
  document.documentElement.querySelectorAll('pagehand-ui').forEach((e) => e.remove());
  setup();
});
afterEach(() => {
  for (const h of made.splice(0))
    if (h.active) h.emit('done', { result: { ok: false, summary: 'Test over.', steps: 0, usage: { promptTokens: 0, completionTokens: 0 } } });
  ui.close();
});

describe('overlay controller', () => {
  it('open() mounts one marked host with a closed shadow root and adopted styles; close() empties it', () => {
    overlay.asked.length = 0;
    ui.open();
    ui.open();
    expect(overlay.asked).toEqual(['closed']);
    expect(hosts()).toHaveLength(1);
    expect(hosts()[0]!.hasAttribute('data-pagehand-ui')).toBe(true);
    expect(shadow().adoptedStyleSheets.length).toBe(1);
    expect(document.head.querySelector('style')).toBeNull();
    expect($('section[aria-label="pagehand"]')).not.toBeNull();
    ui.close();
    expect($('section')).toBeNull();
  });

  it('Enter sends the task with the open() options; Shift+Enter does not', () => {
    ui.open({ proxy: 'http://proxy.test', token: 'tok', theme: 'dark' });
    const box = $('[data-task]')!;
    type(box, 'Find the invoice');
    key(box, 'Enter', true);
    expect(runs).toHaveLength(0);
    expect(key(box, 'Enter')).toBe(false); // default prevented: no new line
    expect(runs).toEqual([{ task: 'Find the invoice', options: { proxy: 'http://proxy.test', token: 'tok' } }]);
    expect($('.ph.dark')).not.toBeNull();
  });

  it('before the engine: the visitor types, Send waits (shown, the text kept), then runs when the agent connects', async () => {
    setup(undefined, false);
    ui.open({ model: 'gpt-test' });
    const box = $('[data-task]') as HTMLTextAreaElement;
    type(box, 'Find the invoice');
    key(box, 'Enter');
    await tick();
    expect(runs).toHaveLength(0);
    expect(($('[data-task]') as HTMLTextAreaElement).value).toBe('Find the invoice');
    expect(($('[data-task]') as HTMLTextAreaElement).readOnly).toBe(true);
    expect(($('[data-send]') as HTMLButtonElement).disabled).toBe(true);
    expect($('[data-send]')!.textContent).toBe('Sending…');
    expect($('[data-waiting][role="status"]')!.textContent).toContain('still loading');
    ui.connect(agent);
    await tick();
    expect(runs).toEqual([{ task: 'Find the invoice', options: { model: 'gpt-test' } }]);
    expect($('[data-waiting]')).toBeNull();
  });

  it('an engine that fails to load: the error in the panel, the task back in the box, nothing run', async () => {
    setup('es', false);
    ui.open();
    await painted();
    type($('[data-task]')!, 'Busca la factura');
    key($('[data-task]')!, 'Enter');
    await tick();
    ui.agentFailed(new Error('pagehand: could not load the engine'));
    await tick();
    expect(runs).toHaveLength(0);
    expect($('[role="alert"]')!.textContent).toContain('No se pudo cargar el agente');
    expect($('[role="alert"]')!.textContent).toContain('could not load the engine');
    const box = $('[data-task]') as HTMLTextAreaElement;
    // Given back by an effect (Preact runs those after the next frame).
    await vi.waitFor(() => expect(box.value).toBe('Busca la factura'));
    expect(box.readOnly).toBe(false);
    expect(($('[data-send]') as HTMLButtonElement).disabled).toBe(false);
  });

  it("open()'s run options reach the panel's runs by name only: a confirm callback or ui: false slipped in does not", () => {
    ui.open({ model: 'gpt-test', confirm: () => true, ui: false, signal: new AbortController().signal } as never);
    type($('[data-task]')!, 'Delete my account');
    key($('[data-task]')!, 'Enter');
    expect(runs).toEqual([{ task: 'Delete my account', options: { model: 'gpt-test' } }]);
  });

  it('shows steps, progress, the reasoning under a disclosure, and action results', () => {
    ui.open();
    const box = $('[data-task]')!;
    type(box, 'Search');
    key(box, 'Enter');
    const h = handles[0]!;
    h.emit('step', { step: 1, maxSteps: 20, phase: 'start', usage, elapsedMs: 0, url: '' });
    h.emit('step', {
      step: 1,
      maxSteps: 20,
      phase: 'planned',
      usage,
      elapsedMs: 0,
      url: '',
      reasoning: { evaluation: 'Page loaded', memory: 'nothing yet', nextGoal: 'Type into search' },
    });
    const call = { name: 'type', args: { ref: '4', text: 'ernesto' } };
    h.emit('action', { step: 1, phase: 'start', call });
    h.emit('action', { step: 1, phase: 'end', call, result: { ok: true, message: 'Typed "ernesto".', changes: {} } });
    expect($('[role="log"]')).not.toBeNull();
    expect($('[data-progress]')!.textContent).toContain('Step 1 of 20');
    expect($('[data-progress]')!.textContent).toContain('15 tokens');
    expect(text()).toContain('Type into search');
    const details = $('[data-step="1"] details')!;
    expect(details.textContent).toContain('Page loaded');
    expect(details.textContent).toContain('nothing yet');
    expect(details.textContent).toContain('Typed "ernesto".');
    expect($('[data-step="1"] .act')!.textContent).toContain('✓ type [4] — ernesto');
  });

  it('a confirm event opens a dialog card; Allow, Deny and "allow this kind" answer through respond, Allow only once the card has been shown a moment', async () => {
    const h = fakeHandle('Pay');
    ui.attach(h); // a run from code with ui: true opens the panel
    const respond = vi.fn();
    const target = { ref: ref('9'), role: 'button', name: 'Place order', rect: { x: 0, y: 0, width: 1, height: 1 } };
    const ask = () =>
      h.emit('confirm', {
        request: { kind: 'payment', call: { name: 'click', args: { ref: '9' } }, target, reason: 'It places an order.', goal: 'pay' },
        respond,
      });
    ask();
    const card = $('[role="alertdialog"]')!;
    expect(card.getAttribute('aria-labelledby')).toBe('ph-confirm-title');
    expect(card.textContent).toContain('[9] button "Place order"');
    expect(card.textContent).toContain('It places an order.');
    // Just shown: Allow and "allow this kind" are disarmed (aria-disabled) and take no click.
    expect([$('[data-allow]')!.getAttribute('aria-disabled'), $('[data-allow-kind]')!.getAttribute('aria-disabled')]).toEqual(['true', 'true']);
    press($('[data-allow]')!);
    press($('[data-allow-kind]')!);
    expect(respond).not.toHaveBeenCalled();
    await armed();
    expect($('[data-allow]')!.getAttribute('aria-disabled')).toBeNull();
    // A key press (detail 0) counts only once the focus has been on Allow as long: it is on Deny.
    $('[data-allow]')!.click();
    expect(respond).not.toHaveBeenCalled();
    press($('[data-allow]')!);
    expect(respond).toHaveBeenLastCalledWith(true, undefined);
    expect($('[role="alertdialog"]')).toBeNull();
    ask();
    await armed();
    press($('[data-allow-kind]')!);
    expect(respond).toHaveBeenLastCalledWith(true, true);
    ask();
    $('[data-deny]')!.click();
    expect(respond).toHaveBeenLastCalledWith(false, undefined);
    ask();
    key($('[data-confirm]')!, 'Escape');
    expect(respond).toHaveBeenLastCalledWith(false, undefined);
  });

  it('ask: the answer box answers through handle.answer; Stop, Take over and Resume call the handle', () => {
    const h = fakeHandle('Book');
    ui.attach(h);
    h.emit('ask', { question: 'Which date?' });
    expect($('[data-ask]')!.textContent).toContain('Which date?');
    const box = $('#ph-answer')!;
    type(box, 'Friday');
    key(box, 'Enter');
    expect(h.calls).toEqual(['answer:Friday']);
    expect($('[data-ask]')).toBeNull();
    const button = (label: string) => [...shadow().querySelectorAll('footer button')].find((b) => b.textContent === label) as HTMLElement;
    button('Take over').click();
    h.emit('pause', { paused: true });
    button('Resume').click();
    button('Stop').click();
    expect(h.calls.slice(1)).toEqual(['pause', 'resume', 'stop']);
  });

  it('the mask shows while the run acts, not while paused; it highlights the target with its ref', () => {
    const h = fakeHandle('Click');
    ui.attach(h);
    expect($('[data-mask]')).not.toBeNull();
    const target = { ref: ref('7'), role: 'link', name: 'Inbox', rect: { x: 100, y: 200, width: 80, height: 20 } };
    h.emit('action', { step: 1, phase: 'start', call: { name: 'click', args: { ref: '7' } }, target });
    const hl = $('[data-highlight]')!;
    expect(hl.textContent).toContain('[7] link "Inbox"');
    expect(hl.style.left).toBe('97px');
    ui.close(); // the mask stays while the run acts: the user can still take over
    expect($('[data-mask]')).not.toBeNull();
    h.emit('pause', { paused: true });
    expect($('[data-mask]')).toBeNull();
    h.emit('pause', { paused: false });
    expect($('[data-mask]')).not.toBeNull();
    h.emit('done', { result: { ok: true, summary: 's', steps: 1, usage } });
    expect($('[data-mask]')).toBeNull();
  });

  it('done: the summary with a copy button; a failure with Retry re-runs the same task; history is kept', () => {
    ui.open();
    const box = $('[data-task]')!;
    type(box, 'Summarise');
    key(box, 'Enter');
    handles[0]!.emit('done', { result: { ok: true, summary: 'Three emails.', steps: 2, usage } });
    expect($('[data-end="done"] [data-summary]')!.textContent).toBe('Three emails.');
    expect($('[data-copy]')).not.toBeNull();
    type($('[data-task]')!, 'Pay the bill');
    key($('[data-task]')!, 'Enter');
    handles[1]!.emit('error', { message: 'The model call failed: 500', code: 'http_500', fatal: true });
    handles[1]!.emit('done', { result: { ok: false, summary: 'The model call failed: 500', reason: 'model_error', steps: 0, usage } });
    expect($('[data-end="failed"]')!.textContent).toContain('The model call failed: 500');
    $('[data-retry]')!.click();
    expect(runs.map((r) => r.task)).toEqual(['Summarise', 'Pay the bill', 'Pay the bill']);
    expect(JSON.parse(sessionStorage.getItem('pagehand:history')!).map((i: { task: string }) => i.task)).toEqual(['Pay the bill', 'Summarise']);
  });

  it('history shows when idle; picking one fills the task box', async () => {
    sessionStorage.setItem('pagehand:history', JSON.stringify([{ task: 'Old task', ok: true, at: 1 }]));
    setup();
    ui.open();
    const item = $('[data-history] button')!;
    expect(item.textContent).toContain('Old task');
    item.click();
    await tick();
    expect(($('[data-task]') as HTMLTextAreaElement).value).toBe('Old task');
  });

  it('collapse and expand are remembered for this tab (sessionStorage), the place for the site (pagehand:ui); the move button moves it by keyboard', () => {
    ui.open();
    $('[data-collapse]')!.click();
    expect($('section')).toBeNull();
    expect($('.launcher')).not.toBeNull();
    expect(sessionStorage.getItem(PANEL_KEY)).toBe('"collapsed"');
    expect(JSON.parse(localStorage.getItem(LAYOUT_KEY)!).collapsed).toBeUndefined();
    $('.launcher')!.click();
    expect($('section')).not.toBeNull();
    expect(sessionStorage.getItem(PANEL_KEY)).toBe('"open"');
    const left = parseFloat($('section')!.style.left);
    key($('[data-move]')!, 'ArrowLeft');
    expect(parseFloat($('section')!.style.left)).toBe(left - 16);
    expect(JSON.parse(localStorage.getItem(LAYOUT_KEY)!).x).toBe(left - 16);
  });

  it('Spanish from the lang option', async () => {
    setup('es');
    ui.open();
    await painted();
    expect($('[data-send]')!.textContent).toBe('Enviar');
    expect($('.ph')!.getAttribute('lang')).toBe('es');
  });

  it('open() shows the run already going (pagehand.current())', () => {
    const h = fakeHandle('Running from code');
    handles.push(h);
    ui.open();
    expect(text()).toContain('Running from code');
    expect($('[data-mask]')).not.toBeNull();
  });

  it('a run resumed after a navigation shows the banner and the log saved by the page before; a page hide saves it', () => {
    const h = fakeHandle('Across pages');
    saveLog(h.id, [{ kind: 'step', step: 1, actions: [], reasoning: { nextGoal: 'search first' } }]);
    ui.attach(h, true);
    expect($('[data-resumed]')).not.toBeNull();
    expect($('[data-step="1"]')!.textContent).toContain('search first');
    h.emit('step', { step: 2, maxSteps: 9, phase: 'planned', usage, elapsedMs: 0, url: '', reasoning: { nextGoal: 'open it' } });
    window.dispatchEvent(new Event('pagehide'));
    const saved = JSON.parse(sessionStorage.getItem('pagehand:log')!);
    expect(saved.id).toBe(h.id);
    expect(saved.entries.map((e: { step: number }) => e.step)).toEqual([1, 2]);
    // The history records a task once, when it starts, not again on every page it resumes on.
    expect(sessionStorage.getItem('pagehand:history')).toBeNull();
  });
  it("a script's clicks and keys (not the user's) do not allow, send, answer, retry, take over or resume; Deny and Stop still work", async () => {
    ui.open();
    input.user = false;
    type($('[data-task]')!, 'Delete my account');
    key($('[data-task]')!, 'Enter');
    $('[data-send]')!.click();
    expect(runs).toEqual([]);
    expect(($('[data-task]') as HTMLTextAreaElement).value).toBe('Delete my account');

    const h = fakeHandle('Delete');
    ui.attach(h);
    const respond = vi.fn();
    h.emit('confirm', { request: { kind: 'deletion', call: { name: 'click', args: { ref: '3' } }, reason: 'It deletes the account.' }, respond });
    await armed(); // armed: what refuses these is that they are not the user's
    press($('[data-allow]')!);
    press($('[data-allow-kind]')!);
    expect(respond).not.toHaveBeenCalled();
    expect($('[data-confirm]')).not.toBeNull();
    $('[data-deny]')!.click();
    expect(respond).toHaveBeenCalledWith(false, undefined);

    h.emit('ask', { question: 'Which account?' });
    type($('#ph-answer')!, 'all of them');
    key($('#ph-answer')!, 'Enter');
    ([...shadow().querySelectorAll('[data-ask] button')] as HTMLElement[]).forEach((b) => b.click());
    const button = (label: string) => [...shadow().querySelectorAll('button')].find((b) => b.textContent === label) as HTMLElement;
    button('Take over').click();
    h.emit('pause', { paused: true }); // the user took over for real (or the site's code paused it)
    button('Resume').click();
    expect(h.calls).toEqual([]);
    button('Stop').click();
    expect(h.calls).toEqual(['stop']);
    h.emit('done', { result: { ok: false, summary: 'Stopped.', reason: 'model_error', steps: 1, usage } });
    $('[data-retry]')?.click();
    expect(runs).toEqual([]);

    // The same controls answer the user.
    input.user = true;
    $('[data-retry]')!.click();
    expect(runs.map((r) => r.task)).toEqual(['Delete']);
  });
});
