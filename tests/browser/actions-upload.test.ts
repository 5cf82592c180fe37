/**
 * upload through pagehand.act: attached files go into a file input (the input itself, or the
 * button that stands for a hidden one) or onto a drop zone; a name that is not attached, a type
 * the input does not accept, or a second file for a single input is a clear error.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ActionResult } from '../../client/page/actions/contract';
import { open, useSession } from './harness';
import { act, refOf } from './actions-helpers';

const s = useSession();

interface FileSpec {
  name: string;
  type: string;
  text: string;
}

const CV: FileSpec = { name: 'cv.pdf', type: 'application/pdf', text: '%PDF-1.4 Ada Lovelace' };
const PHOTO: FileSpec = { name: 'me.png', type: 'image/png', text: 'PNGDATA' };
const NOTE: FileSpec = { name: 'note.txt', type: 'text/plain', text: 'Meet at noon' };

/** pagehand.act with these files attached (made in the page, as the panel or run({ files }) would). */
function actWith(page: Page, name: string, args: Record<string, unknown>, files: FileSpec[]): Promise<ActionResult> {
  return page.evaluate(
    ([n, a, f]) => (window as any).pagehand.act({ name: n, args: a }, { files: f.map((x) => new File([x.text], x.name, { type: x.type })) }),
    [name, args, files] as const,
  );
}

const log = (page: Page): Promise<string> => page.textContent('#log').then((t) => t ?? '');

describe('upload into a file input', () => {
  it('sets the files, then input and change, as after the browser picker', async () => {
    const page = await open(s, 'actions/upload-form.html');
    const ref = await refOf(page, 'button', /Résumé/);
    const r = await actWith(page, 'upload', { ref, files: ['cv.pdf'] }, [CV, PHOTO]);
    expect(r.ok, r.message).toBe(true);
    expect(r.message).toMatch(/^Put cv\.pdf \(21 B, application\/pdf\) into /);
    expect(r.changes.value).toBe('cv.pdf');
    expect(await log(page)).toBe(`cv input;cv change cv.pdf:${CV.text.length};`);
    expect(await page.evaluate(async () => (document.getElementById('cv') as HTMLInputElement).files![0]!.text())).toBe(CV.text);
    await page.close();
  });

  it('a "Choose photos" button stands for its hidden input (several files when it takes several)', async () => {
    const page = await open(s, 'actions/upload-form.html');
    const ref = await refOf(page, 'button', 'Choose photos');
    const r = await actWith(page, 'upload', { ref, files: ['me.png', 'me2.png'] }, [PHOTO, { ...PHOTO, name: 'me2.png' }]);
    expect(r.ok, r.message).toBe(true);
    expect(r.message).toContain('(the file input of button "Choose photos")');
    expect(await log(page)).toBe('photos input;photos change me.png:7,me2.png:7;');
    await page.close();
  });

  it('refuses a file that is not attached, a type the input does not accept, two files for one', async () => {
    const page = await open(s, 'actions/upload-form.html');
    const ref = await refOf(page, 'button', /Résumé/);
    let r = await actWith(page, 'upload', { ref, files: ['passport.pdf'] }, [CV, NOTE]);
    expect(r).toMatchObject({ ok: false, message: '"passport.pdf" is not an attached file. Attached: cv.pdf, note.txt. Only attached files can be uploaded.' });
    r = await actWith(page, 'upload', { ref, files: ['cv.pdf'] }, []);
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(/No files are attached/);
    // Without files passed, none are attached, whatever the page puts in the call.
    r = await act(page, 'upload', { ref, files: ['cv.pdf'] });
    expect(r.message).toMatch(/No files are attached/);
    r = await actWith(page, 'upload', { ref, files: ['note.txt'] }, [CV, NOTE]);
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(/accepts only \.pdf, application\/pdf; note\.txt \(12 B, text\/plain\) is not that\./);
    r = await actWith(page, 'upload', { ref, files: ['cv.pdf', 'b.pdf'] }, [CV, { ...CV, name: 'b.pdf' }]);
    expect(r.message).toMatch(/takes one file/);
    expect(await log(page)).toBe('');
    await page.close();
  });

  it('a page cannot slip its own look-alike files into the attached ones', async () => {
    const page = await open(s, 'actions/upload-form.html');
    const ref = await refOf(page, 'button', /Résumé/);
    const r: ActionResult = await page.evaluate(
      (a) => (window as any).pagehand.act({ name: 'upload', args: a }, { files: [{ name: 'cv.pdf', type: 'application/pdf', size: 3, text: () => 'x' }] }),
      { ref, files: ['cv.pdf'] },
    );
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(/No files are attached/);
    await page.close();
  });
});

describe('upload onto a drop zone', () => {
  it('drops the files with their content', async () => {
    const page = await open(s, 'actions/upload-form.html');
    const r = await actWith(page, 'upload', { ref: await refOf(page, 'button', 'Drop attachments here'), files: ['note.txt'] }, [NOTE]);
    expect(r.ok, r.message).toBe(true);
    expect(r.message).toMatch(/^Dropped note\.txt \(12 B, text\/plain\) on button "Drop attachments here"\./);
    await page.waitForFunction(() => document.getElementById('log')!.textContent!.includes('dropped'));
    expect(await log(page)).toBe('dropped note.txt text/plain "Meet at noon";');
    await page.close();
  });

  it('says so when the element takes no dropped files', async () => {
    const page = await open(s, 'actions/upload-form.html');
    const r = await actWith(page, 'upload', { ref: await refOf(page, 'button', 'Not a drop zone'), files: ['note.txt'] }, [NOTE]);
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(/is not a file input and does not take dropped files/);
    await page.close();
  });
});
