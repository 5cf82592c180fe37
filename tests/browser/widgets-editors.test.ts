/**
 * `type` into rich-text and code editors from npm — Lexical, TipTap (ProseMirror), Quill, Slate,
 * CodeMirror 6 — judged by each editor's own document as the page mirrors it into #state.
 * Lexical applies a cancelled `beforeinput` in a microtask: sent in one task, all characters but
 * the first were lost.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { open, useSession } from './harness';
import { act, appState, refOf } from './actions-helpers';

const s = useSession();

const EDITORS: Array<[key: string, name: string]> = [
  ['lexical', 'Lexical note'],
  ['tiptap', 'TipTap notes'],
  ['quill', 'Quill body'],
  ['slate', 'Slate story'],
  ['codemirror', 'Code'],
];

async function openEditors(): Promise<Page> {
  const page = await open(s, 'widgets/editors.html');
  await page.waitForSelector('#slate [contenteditable]');
  return page;
}

describe('type into component-library editors', () => {
  for (const [key, name] of EDITORS) {
    it(`${key}: every character reaches the editor's model, and appending keeps what was there`, async () => {
      const page = await openEditors();
      const ref = await refOf(page, 'textbox', name);
      let r = await act(page, 'type', { ref, text: 'Hello world' });
      expect(r.ok, r.message).toBe(true);
      await expect.poll(async () => (await appState(page))[key]).toBe('Hello world');
      r = await act(page, 'type', { ref, text: ', again', replace: false });
      expect(r.ok, r.message).toBe(true);
      await expect.poll(async () => (await appState(page))[key]).toBe('Hello world, again');
      await page.close();
    });
  }

  it('lexical: replacing the text and typing two lines', async () => {
    const page = await openEditors();
    const ref = await refOf(page, 'textbox', 'Lexical note');
    await act(page, 'type', { ref, text: 'First draft' });
    const r = await act(page, 'type', { ref, text: 'Line one\nLine two' });
    expect(r.ok, r.message).toBe(true);
    await expect.poll(async () => (await appState(page)).lexical).toBe('Line one\nLine two');
    await page.close();
  });
});
