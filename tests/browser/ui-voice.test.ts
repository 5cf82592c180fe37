/**
 * Dictating the task, in Chromium against a scripted stand-in of the browser's speech
 * recognition (installed before the bundle, as the browser's own would be there): the
 * microphone shows only where the API is, is named in the panel's language, listens only after
 * the user's own press, shows the words heard so far in the task box, stops on the
 * recognition's end (silence) or a second press, says an error, and goes quiet when the task is
 * sent. A PNG of the panel while it listens is kept in .tmp/ui-shots/.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call, sequence, useAgentStack } from './agent-harness';
import { bundleSource, origin } from './harness';
import { checkState, inUi, LIGHT_BG, openPanel, useUiSession } from './ui-kit';

const session = useUiSession();
const stack = useAgentStack();

/**
 * The stand-in: what the browser's recognition does, driven by the test. `window.__speech.made`
 * holds every recognition made; `hear([[text, final], …])` delivers results, `end()` is the
 * browser hearing silence, `fail(code)` an error (followed by the end, as in the browser).
 */
const STAND_IN = `(() => {
  const speech = (window.__speech = { made: [], starts: 0, stops: 0, aborts: 0 });
  class Recognition extends EventTarget {
    constructor() { super(); this.lang = ''; this.interimResults = false; this.continuous = true; this.listening = false; speech.made.push(this); }
    start() {
      if (this.listening) throw new DOMException('recognition has already started', 'InvalidStateError');
      this.listening = true; speech.starts++;
      this.dispatchEvent(new Event('start'));
    }
    stop() { speech.stops++; setTimeout(() => this.end(), 0); }
    abort() { speech.aborts++; this.end(); }
    end() { if (!this.listening) return; this.listening = false; this.dispatchEvent(new Event('end')); }
    hear(parts) {
      const e = new Event('result');
      e.resultIndex = 0;
      e.results = parts.map(([transcript, final]) => Object.assign([{ transcript, confidence: 0.9 }], { isFinal: !!final }));
      this.dispatchEvent(e);
    }
    fail(code) { const e = new Event('error'); e.error = code; this.dispatchEvent(e); this.end(); }
  }
  window.SpeechRecognition = Recognition;
  window.webkitSpeechRecognition = Recognition;
})();`;

const NO_SPEECH = `delete window.SpeechRecognition; delete window.webkitSpeechRecognition;`;

/** The shop's cart page with `init` run before anything else, the bundle, and the panel open. */
async function openWith(init: string, lang?: string): Promise<Page> {
  const page = await session.context.newPage();
  page.on('pageerror', (e) => console.error('[page error]', e.message));
  await page.addInitScript({ content: init });
  await page.goto(`${origin()}/fixtures/agent/know/cart.html`);
  await page.addScriptTag({ content: bundleSource() });
  await page.emulateMedia({ colorScheme: 'light' });
  await openPanel(page, stack, lang ? { lang } : {});
  return page;
}

const speech = (page: Page) => page.evaluate(() => ({ ...(window as any).__speech, made: (window as any).__speech.made.length }));
const last = (page: Page, fn: string, arg?: unknown) => page.evaluate(([f, a]) => (window as any).__speech.made.at(-1)[f as string](a), [fn, arg] as const);
const mic = (page: Page) => inUi(page, '[data-voice]');
const taskText = (page: Page) => inUi(page, '[data-task]').inputValue();
const hint = (page: Page) => inUi(page, '#ph-task-hint').textContent();

describe('voice input', () => {
  it('is absent where the browser has no speech recognition', async () => {
    const page = await openWith(NO_SPEECH);
    await inUi(page, '[data-send]').waitFor();
    expect(await mic(page).count()).toBe(0);
    await page.close();
  });

  it("listens only after the user's own press, shows the words as they come, and stops when the browser hears silence", async () => {
    const page = await openWith(STAND_IN);
    await mic(page).waitFor();
    expect(await mic(page).getAttribute('aria-label')).toBe('Dictate the task');
    expect(await mic(page).getAttribute('aria-pressed')).toBe('false');
    // Opening the panel, focusing the box, a page script's click: nothing listens.
    await page.evaluate(() => (document.querySelector('pagehand-ui')!.shadowRoot!.querySelector('[data-voice]') as HTMLElement).click());
    expect(await speech(page)).toMatchObject({ made: 0, starts: 0 });

    await mic(page).click();
    expect(await speech(page)).toMatchObject({ made: 1, starts: 1 });
    const rec = await page.evaluate(() => {
      const r = (window as any).__speech.made[0];
      return { lang: r.lang, interim: r.interimResults, continuous: r.continuous };
    });
    expect(rec).toEqual({ lang: 'en', interim: true, continuous: false });
    expect(await mic(page).getAttribute('aria-pressed')).toBe('true');
    expect(await mic(page).getAttribute('aria-label')).toBe('Stop dictating');
    expect(await hint(page)).toBe('Listening… It stops when you pause, or press the microphone again.');

    await last(page, 'hear', [['find the', false]]);
    expect(await taskText(page)).toBe('find the');
    await last(page, 'hear', [['find the blue', false]]);
    expect(await taskText(page)).toBe('find the blue');
    // Looked at: the microphone pressed (red), the words in the box, "Listening…" under it.
    await checkState(page, 'voice-listening', { background: LIGHT_BG });
    await last(page, 'hear', [['find the blue mug', true]]);
    expect(await taskText(page)).toBe('find the blue mug');

    await last(page, 'end');
    await expect.poll(() => mic(page).getAttribute('aria-pressed')).toBe('false');
    expect(await mic(page).getAttribute('aria-label')).toBe('Dictate the task');
    expect(await taskText(page)).toBe('find the blue mug');
    expect(await hint(page)).toBe('Enter sends, Shift+Enter adds a line.');
    expect(await speech(page)).toMatchObject({ made: 1, starts: 1, stops: 0 });
    await checkState(page, 'voice-heard', { background: LIGHT_BG });
    await page.close();
  });

  it('a second press stops it; what is heard goes after what the box held', async () => {
    const page = await openWith(STAND_IN);
    await inUi(page, '[data-task]').click();
    await page.keyboard.type('Open the cart and');
    await mic(page).click();
    await last(page, 'hear', [['remove the mug', false]]);
    expect(await taskText(page)).toBe('Open the cart and remove the mug');
    await mic(page).click();
    await expect.poll(() => mic(page).getAttribute('aria-pressed')).toBe('false');
    expect(await speech(page)).toMatchObject({ made: 1, starts: 1, stops: 1 });
    expect(await taskText(page)).toBe('Open the cart and remove the mug');
    // Pressed again: a new listening, after the text as it is now.
    await mic(page).click();
    await last(page, 'hear', [['please', true]]);
    expect(await taskText(page)).toBe('Open the cart and remove the mug please');
    await page.close();
  });

  it('says an error under the box, in the panel’s language, and listens no more', async () => {
    const page = await openWith(STAND_IN, 'es');
    await mic(page).waitFor();
    expect(await mic(page).getAttribute('aria-label')).toBe('Dictar la tarea');
    await mic(page).click();
    expect(await page.evaluate(() => (window as any).__speech.made[0].lang)).toBe('es');
    expect(await mic(page).getAttribute('aria-label')).toBe('Dejar de dictar');
    await last(page, 'fail', 'not-allowed');
    await expect.poll(() => mic(page).getAttribute('aria-pressed')).toBe('false');
    expect(await hint(page)).toBe('El micrófono no está permitido en esta página. Permítelo en el navegador, o escribe la tarea.');
    expect(await inUi(page, '#ph-task-hint').getAttribute('role')).toBe('status');
    await checkState(page, 'voice-error-es', { background: LIGHT_BG });
    // The next press starts again and clears the error.
    await mic(page).click();
    expect(await speech(page)).toMatchObject({ made: 2, starts: 2 });
    expect(await hint(page)).toBe('Escuchando… Se detiene cuando haces una pausa, o pulsa de nuevo el micrófono.');
    await page.close();
  });

  it('sending the task stops listening, and words heard after it do not come back into the box', async () => {
    stack.setPolicy(sequence(call('done', { summary: 'Sent.' })));
    const page = await openWith(STAND_IN);
    await mic(page).click();
    await last(page, 'hear', [['what is in my cart', false]]);
    const before = stack.requests().length;
    await inUi(page, '[data-send]').click();
    await expect.poll(() => stack.requests().length).toBe(before + 1);
    expect(stack.requests()[before]!.messages.find((m) => m.role === 'user')!.text).toContain('# Task\nwhat is in my cart');
    expect(await speech(page)).toMatchObject({ aborts: 1 });
    await last(page, 'hear', [['what is in my cart today', true]]);
    expect(await taskText(page)).toBe('');
    await page.close();
  });
});
