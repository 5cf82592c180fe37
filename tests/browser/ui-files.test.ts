/**
 * The panel's paperclip, with the overlay's shadow root closed as shipped and a page that got
 * hold of it anyway (hooks installed before pagehand loaded): the user's own click opens the
 * browser's picker and the files picked go to the run (the model sees their names, types and
 * sizes only); a page script can neither open the picker nor slip files in.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call, sequence, useAgentStack, type ModelRequest } from './agent-harness';
import { origin, useSession } from './harness';
import { clickBookmarklet } from './ui-kit';

const session = useSession();
const stack = useAgentStack();

/** Keeps the overlay's root as `__root`, and counts every file picker a script opens (`__pickers`). */
const HOSTILE = `(() => {
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attach.call(this, init);
    if (this.localName === 'pagehand-ui') window.__root = root;
    return root;
  };
  window.__pickers = 0;
  const click = HTMLInputElement.prototype.click;
  HTMLInputElement.prototype.click = function () {
    if (this.type === 'file') window.__pickers++;
    return click.call(this);
  };
})();`;

async function userClick(page: Page, sel: string): Promise<void> {
  const at = await page.evaluate((s) => {
    const r = (window as any).__root.querySelector(s).getBoundingClientRect();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  }, sel);
  await page.mouse.click(at.x, at.y);
}

async function openPage(): Promise<Page> {
  const page = await session.context.newPage();
  page.on('pageerror', (e) => console.error('[page error]', e.message));
  await page.addInitScript({ content: HOSTILE });
  await page.goto(`${origin()}/fixtures/actions/upload-form.html`);
  await clickBookmarklet(page, stack);
  await page.waitForFunction(() => !!(window as any).__root?.querySelector('[data-attach]'), undefined, { timeout: 15_000 });
  return page;
}

const attachedNames = (page: Page): Promise<string[]> =>
  page.evaluate(() => [...(window as any).__root.querySelectorAll('[data-file-name]')].map((s: Element) => s.textContent ?? ''));

async function sendTask(page: Page, task: string): Promise<ModelRequest> {
  const before = stack.requests().length;
  await userClick(page, '[data-task]');
  await page.keyboard.type(task);
  await page.keyboard.press('Enter');
  await expect.poll(() => stack.requests().length, { timeout: 15_000 }).toBeGreaterThan(before);
  return stack.requests()[before]!;
}

const userText = (req: ModelRequest): string =>
  req.messages
    .filter((m) => m.role === 'user')
    .map((m) => m.text)
    .join('\n');

describe('the paperclip', () => {
  it("the user's own click opens the picker; the files picked go to the run by name, type and size", async () => {
    stack.setPolicy(sequence(call('done', { summary: 'ok' })));
    const page = await openPage();
    const chooser = page.waitForEvent('filechooser');
    await userClick(page, '[data-attach]');
    // Files from disk, as the browser's own picker gives them (the browser announces the change).
    const dir = await mkdtemp(join(tmpdir(), 'pagehand-attach-'));
    await writeFile(join(dir, 'cv.pdf'), '%PDF-1.4 NEVER-IN-A-PROMPT');
    await writeFile(join(dir, 'photo.png'), 'PNG');
    await (await chooser).setFiles([join(dir, 'cv.pdf'), join(dir, 'photo.png')]);
    await expect.poll(() => attachedNames(page)).toEqual(['cv.pdf (26 B)', 'photo.png (3 B)']);
    // Removing one is the user's choice too.
    await userClick(page, '[data-file]:nth-child(2) button');
    await expect.poll(() => attachedNames(page)).toEqual(['cv.pdf (26 B)']);
    const req = await sendTask(page, 'Attach my CV');
    expect(userText(req)).toContain('cv.pdf (26 B, application/pdf)');
    expect(userText(req)).not.toContain('photo.png');
    expect(JSON.stringify(req)).not.toContain('NEVER-IN-A-PROMPT');
    await page.close();
  });

  it('a page script that holds the root cannot open the picker nor slip files in', async () => {
    stack.setPolicy(sequence(call('done', { summary: 'ok' })));
    const page = await openPage();
    const tried = await page.evaluate(() => {
      const root = (window as any).__root as ShadowRoot;
      const attach = root.querySelector('[data-attach]') as HTMLButtonElement;
      attach.click();
      attach.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true }));
      // Files set on the panel's own input, announced with a scripted change.
      const input = root.querySelector('[data-file-input]') as HTMLInputElement;
      const dt = new DataTransfer();
      dt.items.add(new File(['planted'], 'planted.txt', { type: 'text/plain' }));
      input.files = dt.files;
      input.dispatchEvent(new Event('change', { bubbles: true }));
      input.dispatchEvent(new Event('input', { bubbles: true }));
      return { pickers: (window as any).__pickers, inputHolds: input.files.length };
    });
    // The script did put a file on the input element: the panel did not take it.
    expect(tried).toEqual({ pickers: 0, inputHolds: 1 });
    expect(await attachedNames(page)).toEqual([]);
    const req = await sendTask(page, 'Upload something');
    expect(userText(req)).not.toContain('Attached files');
    expect(userText(req)).not.toContain('planted.txt');
    await page.close();
  });
});
