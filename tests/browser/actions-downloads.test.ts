/**
 * Files the page hands out: a small text download (a same-origin link, a blob a script saves
 * and revokes at once, a data: URL) is read into the action's result and `read {download}`;
 * a binary or a too-big file is only named. (A link to another site is a navigation: browsers
 * ignore its `download`, and only the runner sees what it downloads.)
 */
import { describe, expect, it } from 'vitest';
import { open, useSession } from './harness';
import { act, refOf } from './actions-helpers';

const s = useSession();

describe('downloads the agent can read', () => {
  it('a same-origin link (served as octet-stream: its name says text): the text is in the result and read {download} gives it again', async () => {
    const page = await open(s, 'actions/downloads.html');
    const r = await act(page, 'click', { ref: await refOf(page, 'link', 'Meeting notes') });
    expect(r.ok, r.message).toBe(true);
    expect(r.changes.download).toMatchObject({ filename: 'notes.txt' });
    expect(r.message).toContain(
      'It downloaded notes.txt (74 B, application/octet-stream). Its text:\nMeeting moved to Thursday 3 pm.\nRoom: Ada Lovelace.\nCode word: PERIWINKLE',
    );
    const again = await act(page, 'read', { download: 'notes.txt' });
    expect(again.message).toBe('Text of the download notes.txt:\nMeeting moved to Thursday 3 pm.\nRoom: Ada Lovelace.\nCode word: PERIWINKLE');
    await page.close();
  });

  it('a blob a script saves and revokes at once, and a data: URL', async () => {
    const page = await open(s, 'actions/downloads.html');
    let r = await act(page, 'click', { ref: await refOf(page, 'button', 'Export CSV') });
    expect(r.message).toContain('It downloaded scores.csv (27 B, text/csv). Its text:\nname,score\nAda,98\nGrace,95');
    r = await act(page, 'click', { ref: await refOf(page, 'link', 'Totals') });
    expect(r.message).toContain('It downloaded totals.json (12 B, application/json). Its text:\n{"total":42}');
    expect((await act(page, 'read', { download: 'scores.csv' })).message).toContain('Ada,98');
    await page.close();
  });
});

describe('downloads only named', () => {
  it('a binary file, a file over 64 KB', async () => {
    const page = await open(s, 'actions/downloads.html');
    let r = await act(page, 'click', { ref: await refOf(page, 'link', 'Logo') });
    expect(r.message).toMatch(/It downloaded dot\.png \(\d+ B, image\/png\); only its name is known \(not a text file\)\./);
    r = await act(page, 'click', { ref: await refOf(page, 'button', 'Export everything') });
    expect(r.message).toContain('It downloaded everything.txt (100 KB, text/plain); only its name is known (over 64 KB).');
    const read = await act(page, 'read', { download: 'dot.png' });
    expect(read).toMatchObject({ ok: false });
    expect(read.message).toMatch(/dot\.png cannot be read: not a text file/);
    const none = await act(page, 'read', { download: 'secret.txt' });
    expect(none.message).toMatch(/No download named "secret\.txt"\. Downloads on this page: .*notes|dot\.png/);
    expect((await act(page, 'read', { download: 'x.txt', ref: '1' })).message).toMatch(/not both/);
    await page.close();
  });
});
