/**
 * `read`'s text and Tab's focus order are kept between calls (read-text.ts, focus-order.ts),
 * and must never be served stale: each case changes the page the way a page can without the
 * agent — its text, inside a shadow root, inside a same-origin frame, a style that follows the
 * focus, an element added, a custom element defined later — and the next call must see it.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { act, refOf } from './actions-helpers';
import { open, useSession } from './harness';

const s = useSession();

async function readPage(page: Page): Promise<string> {
  const r = await act(page, 'read', {});
  expect(r.ok, r.message).toBe(true);
  return r.message;
}

const focusedId = (page: Page): Promise<string | undefined> =>
  page.evaluate(() => {
    let a = document.activeElement;
    while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
    return a?.id;
  });

describe('read keeps its text only while the page is as it was', () => {
  it('sees a changed text, a shadow root, a frame and a style that follows the focus', async () => {
    const page = await open(
      s,
      `<!doctype html><main><p id="p">Alpha text</p><div id="host"></div>
       <iframe id="f" srcdoc="<p id=q>Frame words</p>"></iframe>
       <form><input aria-label="Name" id="name"><p class="tip">Tip shown while typing</p></form>
       <style>.tip{display:none} form:focus-within .tip{display:block}</style></main>
       <script>document.getElementById('host').attachShadow({ mode: 'open' }).innerHTML = '<p>Shadow words</p>';</script>`,
    );
    await page.waitForFunction(() => (document.getElementById('f') as HTMLIFrameElement).contentDocument?.getElementById('q'));
    const first = await readPage(page);
    expect(first).toContain('Alpha text');
    expect(first).toContain('Shadow words');
    expect(first).toContain('Frame words');
    expect(first).not.toContain('Tip shown');
    // Read again with nothing changed: the same text.
    expect(await readPage(page)).toBe(first);

    await page.evaluate(() => (document.getElementById('p')!.textContent = 'Beta text'));
    expect(await readPage(page)).toContain('Beta text');

    await page.evaluate(() => (document.getElementById('host')!.shadowRoot!.querySelector('p')!.textContent = 'Shadow changed'));
    expect(await readPage(page)).toContain('Shadow changed');

    await page.evaluate(() => ((document.getElementById('f') as HTMLIFrameElement).contentDocument!.getElementById('q')!.textContent = 'Frame changed'));
    expect(await readPage(page)).toContain('Frame changed');

    // No mutation at all: only the focus moved, and a :focus-within rule shows the tip.
    await page.evaluate(() => document.getElementById('name')!.focus());
    expect(await readPage(page)).toContain('Tip shown while typing');
    await page.close();
  });
});

describe('Tab keeps its focus order only while the DOM is as it was', () => {
  it('sees an added button and a custom element defined after the first Tab', async () => {
    const page = await open(s, `<!doctype html><button id="a">First</button><x-late id="late"></x-late><span id="slot"></span><button id="c">Last</button>`);
    const first = await refOf(page, 'button', 'First');
    const tab = async (): Promise<string | undefined> => {
      const r = await act(page, 'press_key', { key: 'Tab', ref: first });
      expect(r.ok, r.message).toBe(true);
      return focusedId(page);
    };
    expect(await tab()).toBe('c');
    expect(await tab()).toBe('c');

    // A button added between them: the next Tab reaches it.
    await page.evaluate(() => {
      const b = document.createElement('button');
      b.id = 'added';
      b.textContent = 'Added';
      document.getElementById('slot')!.append(b);
    });
    expect(await tab()).toBe('added');

    // Defining the element upgrades it: its shadow root (no mutation record) holds a button before "Added".
    await page.evaluate(() => {
      customElements.define(
        'x-late',
        class extends HTMLElement {
          connectedCallback(): void {
            this.attachShadow({ mode: 'open' }).innerHTML = '<button id="inner">Inner</button>';
          }
        },
      );
    });
    expect(await tab()).toBe('inner');
    await page.close();
  });
});
