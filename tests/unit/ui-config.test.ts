// @vitest-environment happy-dom
/**
 * The overlay under the site's configuration (`ui.configure` / `ui.autoOpen`, what
 * `pagehand.init` calls): theme and launcher text apply at once, the corner moves the
 * launcher, init's theme and language replace open()'s, and autoOpen opens the panel once,
 * never over a run already shown.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createEmitter } from '../../client/agent/events';
import type { RunEvents, RunHandle } from '../../client/agent/public-types';
import { createUi } from '../../client/ui/index';

// The overlay attaches its shadow root closed: opened for these tests (installed before the
// overlay's module loads, which keeps attachShadow as it found it).
vi.hoisted(() => {
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (this: Element, init: ShadowRootInit): ShadowRoot {
    return attach.call(this, this.localName === 'pagehand-ui' ? { ...init, mode: 'open' } : init);
  };
});

function handle(task: string): RunHandle {
  const em = createEmitter<RunEvents>();
  return {
    id: `id-${task}`,
    task,
    ui: true,
    on: em.on,
    stop() {},
    pause() {},
    resume() {},
    paused: false,
    answer() {},
    active: true,
    result: new Promise(() => {}),
  };
}

let ui: ReturnType<typeof createUi>;
let running: RunHandle | undefined;
const $ = (sel: string): HTMLElement | null => document.querySelector('pagehand-ui')?.shadowRoot?.querySelector(sel) ?? null;

function setup(deps: { lang?: string; position?: 'bottom-left' } = {}): void {
  document.querySelectorAll('pagehand-ui').forEach((e) => e.remove());
  // Each test a fresh tab: the place is the site's (localStorage), open or folded the tab's.
  localStorage.clear();
  sessionStorage.clear();
  running = undefined;
  ui = createUi(deps);
  ui.connect({ run: (task) => (running = handle(task)), current: () => running });
}

beforeEach(() => setup());

describe('ui.configure (pagehand.init)', () => {
  it('re-renders the launcher with the text, in the corner, and re-themes the open panel at once', () => {
    ui.launcher();
    expect($('.launcher')!.getAttribute('aria-label')).toBe('Open pagehand');
    expect($('.launcher')!.style.right).toBe('12px');
    ui.configure({ launcherText: 'Ask the shop', position: 'top-left' });
    const l = $('.launcher')!;
    expect(l.textContent).toBe('Ask the shop');
    expect(l.hasAttribute('aria-label')).toBe(false); // its text names it
    expect([l.style.left, l.style.top, l.style.right, l.style.bottom]).toEqual(['12px', '12px', '', '']);
    l.click();
    expect($('.ph.dark')).toBeNull();
    // Each init is the whole configuration: the corner is given again.
    ui.configure({ theme: 'dark', position: 'top-left' });
    expect($('.ph.dark')).not.toBeNull();
    expect($('section.panel')!.style.top).toBe('12px'); // the panel opened from the same corner
    expect($('section.panel')!.style.left).toBe('12px');
  });

  it("init's theme and lang replace those open() was given: the last call wins", async () => {
    ui.open({ theme: 'light', lang: 'en' });
    expect($('.ph.light')).not.toBeNull();
    ui.configure({ theme: 'dark', lang: 'es' });
    // Spanish paints once its module is here (English stays on screen until then).
    await vi.waitFor(() => expect($('[data-send]')!.textContent).toBe('Enviar'));
    expect($('.ph.dark')).not.toBeNull();
  });

  it("the script tag's language and corner are the defaults beneath init", async () => {
    setup({ lang: 'es', position: 'bottom-left' });
    ui.launcher();
    await vi.waitFor(() => expect($('.launcher')!.getAttribute('aria-label')).toBe('Abrir pagehand'));
    expect($('.launcher')!.style.left).toBe('12px');
    ui.configure({ lang: 'en' });
    expect($('.launcher')!.getAttribute('aria-label')).toBe('Open pagehand');
  });
});

describe('ui.autoOpen', () => {
  it('shows the panel instead of the launcher, once per page load, without taking focus', () => {
    ui.launcher();
    expect($('section.panel')).toBeNull();
    ui.autoOpen();
    expect($('section.panel')).not.toBeNull();
    expect(document.querySelector('pagehand-ui')!.shadowRoot!.activeElement).toBeNull();
    ($('[data-collapse]') as HTMLElement).click();
    ui.autoOpen(); // a second init with autoOpen: the user's choice stays
    expect($('section.panel')).toBeNull();
  });

  it('leaves a run already shown as it is', () => {
    const h = handle('Resumed task');
    ui.attach(h, true);
    ($('[data-collapse]') as HTMLElement).click();
    ui.autoOpen();
    expect($('section.panel')).toBeNull();
    expect($('.launcher')).not.toBeNull();
  });
});
