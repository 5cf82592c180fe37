/**
 * The hands through a whole run with the scripted model and the real proxy: the model is
 * offered drag, double_click, right_click, upload, click {hold_ms} and read {download}, sees
 * attached files by name, type and size only, and reads what each action reports.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../client/agent/public-types';
import { call, hasText, lastToolResults, latestMap, MODELS, refFor, sequence, useAgentStack, type ModelRequest } from './agent-harness';
import { RECORDER, waitForResult } from './agent-run';
import { open, useSession } from './harness';

const session = useSession();
const stack = useAgentStack();

interface FileSpec {
  name: string;
  type: string;
  text: string;
}

/** Runs `task` in the page (no panel; risky actions allowed) with these files attached; resolves with the result. */
function runWith(page: Page, task: string, files: FileSpec[] = []): Promise<RunResult> {
  return page.evaluate(
    ([t, f, proxy, token, model]) =>
      (window as any).pagehand.run(t, {
        proxy,
        token,
        model,
        ui: false,
        confirm: () => true,
        files: f.map((x) => new File([x.text], x.name, { type: x.type })),
      }).result,
    [task, files, stack.proxyUrl, stack.token, MODELS.openai] as const,
  );
}

const userText = (req: ModelRequest): string =>
  req.messages
    .filter((m) => m.role === 'user')
    .map((m) => m.text)
    .join('\n');

describe('the model is offered the hands', () => {
  it('every new tool is in the tool list the model gets', async () => {
    const page = await open(session, 'actions/drag-native.html');
    stack.setPolicy(sequence(call('done', { summary: 'ok' })));
    const before = stack.requests().length;
    await runWith(page, 'Look');
    const req = stack.requests()[before]!;
    const names = JSON.stringify(req.body ?? req);
    for (const tool of ['drag', 'double_click', 'right_click', 'upload', 'hold_ms', 'download', 'to_ref']) expect(names, tool).toContain(`"${tool}"`);
    await page.close();
  });
});

describe('drag through a run', () => {
  it('reorders a SortableJS list; the model reads the order before and after', async () => {
    const page = await open(session, 'actions/drag-sortable.html');
    let result = '';
    stack.setPolicy(
      sequence(
        (req) => call('drag', { ref: refFor(latestMap(req), 'listitem', 'Call mum'), to_ref: refFor(latestMap(req), 'listitem', 'Buy milk') }),
        (req) => {
          result = lastToolResults(req).join('\n');
          return call('done', { summary: 'Call mum is first.' });
        },
      ),
    );
    const r = await runWith(page, 'Put "Call mum" at the top of the to-do list');
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(JSON.parse((await page.textContent('#state'))!).todo).toEqual(['Call mum', 'Buy milk', 'Walk the dog', 'Write report']);
    expect(result).toContain('is now: Call mum, Buy milk, Walk the dog, Write report (before: Buy milk, Walk the dog, Write report, Call mum)');
    await page.close();
  });
});

describe('upload through a run', () => {
  it('the model sees attached files by name, type and size, never their content, and uploads one by name', async () => {
    const page = await open(session, 'actions/upload-form.html');
    const seen: string[] = [];
    let refused = '';
    stack.setPolicy(
      sequence(
        (req) => {
          seen.push(userText(req));
          // A name that was never attached first: refused, listing what is.
          return call('upload', { ref: refFor(latestMap(req), 'button', /Résumé/), files: ['passport.pdf'] });
        },
        (req) => {
          refused = lastToolResults(req).join('\n');
          return call('upload', { ref: refFor(latestMap(req), 'button', /Résumé/), files: ['cv.pdf'] });
        },
        call('done', { summary: 'Uploaded.' }),
      ),
    );
    const r = await runWith(page, 'Attach my CV to the application', [{ name: 'cv.pdf', type: 'application/pdf', text: '%PDF-1.4 CONTENT-NEVER-SENT' }]);
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(seen[0]).toMatch(
      /# Attached files \(upload puts them into the page by name\)\n⟪page content [0-9a-f]{12}⟫\ncv\.pdf \(27 B, application\/pdf\)\n⟪\/page content [0-9a-f]{12}⟫/,
    );
    for (const req of stack.requests()) expect(JSON.stringify(req)).not.toContain('CONTENT-NEVER-SENT');
    expect(refused).toContain('"passport.pdf" is not an attached file. Attached: cv.pdf.');
    expect(await page.textContent('#log')).toBe('cv input;cv change cv.pdf:27;');
    await page.close();
  });

  it('attached files go with the run to the next page of the same site, and are forgotten when it ends', async () => {
    const page = await open(session, 'actions/upload-start.html', { early: true });
    stack.setPolicy((req) => {
      const map = latestMap(req);
      if (hasText(map, 'Careers')) return call('click', { ref: refFor(map, 'link', 'Apply for this job') });
      if (!/cv\.pdf/.test(lastToolResults(req).join('\n'))) return call('upload', { ref: refFor(map, 'button', /Résumé/), files: ['cv.pdf'] });
      return call('done', { summary: 'Applied.' });
    });
    await page.context().addInitScript({ content: RECORDER });
    await page.evaluate(
      ([proxy, token, model, recorder]) => {
        sessionStorage.removeItem('agent-result');
        (window as any).pagehand.run('Apply with my CV', {
          proxy,
          token,
          model,
          ui: false,
          files: [new File(['%PDF-1.4 cv'], 'cv.pdf', { type: 'application/pdf' })],
        });
        (0, eval)(recorder);
      },
      [stack.proxyUrl, stack.token, MODELS.openai, RECORDER] as const,
    );
    const r = await waitForResult(page);
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(page.url()).toMatch(/upload-form\.html$/);
    expect(await page.textContent('#log')).toBe('cv input;cv change cv.pdf:11;');
    expect(await page.evaluate(() => sessionStorage.getItem('pagehand:files'))).toBeNull();
    await page.close();
  });

  it('without attached files, nothing can be uploaded', async () => {
    const page = await open(session, 'actions/upload-form.html');
    let said = '';
    stack.setPolicy(
      sequence(
        (req) => call('upload', { ref: refFor(latestMap(req), 'button', /Résumé/), files: ['cv.pdf'] }),
        (req) => {
          said = lastToolResults(req).join('\n');
          return call('fail', { reason: 'No file.' });
        },
      ),
    );
    await runWith(page, 'Attach my CV');
    expect(said).toMatch(/No files are attached to this task/);
    expect(await page.textContent('#log')).toBe('');
    await page.close();
  });
});

describe('buttons and keys through a run', () => {
  it("double_click opens a file, right_click opens the page's menu and its item is clicked", async () => {
    const page = await open(session, 'actions/contextmenu.html');
    stack.setPolicy(
      sequence(
        (req) => call('double_click', { ref: refFor(latestMap(req), 'option', 'notes.txt') }),
        (req) => call('right_click', { ref: refFor(latestMap(req), 'option', 'report.pdf') }),
        (req) => call('click', { ref: refFor(latestMap(req), 'menuitem', 'Rename') }),
        call('done', { summary: 'Done.' }),
      ),
    );
    const r = await runWith(page, 'Open notes.txt, then rename report.pdf');
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(await page.textContent('#log')).toContain('open notes.txt;');
    expect(await page.textContent('#log')).toContain('rename report.pdf;');
    await page.close();
  });

  it('click {hold_ms} confirms a hold-to-confirm button (a deletion: asked, allowed)', async () => {
    const page = await open(session, 'actions/hold-confirm.html');
    stack.setPolicy(
      sequence(
        (req) => call('click', { ref: refFor(latestMap(req), 'button', 'Hold to delete draft'), hold_ms: 2000 }),
        (req) => call('done', { summary: hasText(latestMap(req), 'Draft deleted') ? 'Deleted.' : 'Still there.' }),
      ),
    );
    const r = await runWith(page, 'Delete the draft');
    expect(r).toMatchObject({ ok: true, summary: 'Deleted.' });
    await page.close();
  });

  it('a hold on a deletion control is asked about as a deletion; denied, it is not held', async () => {
    const page = await open(session, 'actions/hold-confirm.html');
    stack.setPolicy(
      sequence(
        (req) => call('click', { ref: refFor(latestMap(req), 'button', 'Hold to delete draft'), hold_ms: 2000 }),
        call('done', { summary: 'Not deleted.', success: false }),
      ),
    );
    const asked: Array<{ kind: string; reason: string }> = [];
    await page.exposeFunction('__asked', (kind: string, reason: string) => void asked.push({ kind, reason }));
    await page.evaluate(
      ([proxy, token, model]) =>
        (window as any).pagehand.run('Delete the draft', {
          proxy,
          token,
          model,
          ui: false,
          confirm: (r: any) => ((window as any).__asked(r.kind, r.reason), false),
        }).result,
      [stack.proxyUrl, stack.token, MODELS.openai] as const,
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]!.kind).toBe('deletion');
    expect(asked[0]!.reason).toMatch(/^Pressing and holding button "Hold to delete draft" may delete something/);
    expect(await page.textContent('#status')).toBe('Draft kept');
    expect(await page.textContent('#log')).toBe('');
    await page.close();
  });

  it('press_key with a combo reaches a shortcut recorder', async () => {
    const page = await open(session, 'actions/shortcut-recorder.html');
    stack.setPolicy(
      sequence(
        (req) => call('press_key', { key: 'Control+Shift+Y', ref: refFor(latestMap(req), 'textbox', 'Shortcut for "Quick search"') }),
        call('done', { summary: 'Set.' }),
      ),
    );
    await runWith(page, 'Set the quick search shortcut to Control+Shift+Y');
    expect(await page.inputValue('#rec')).toBe('Control+Shift+Y');
    await page.close();
  });
});

describe('downloads through a run', () => {
  it('the model reads a downloaded note in the click result and with read {download}, as page data', async () => {
    const page = await open(session, 'actions/downloads.html');
    const results: string[] = [];
    stack.setPolicy(
      sequence(
        (req) => call('click', { ref: refFor(latestMap(req), 'link', 'Meeting notes') }),
        (req) => {
          results.push(lastToolResults(req).join('\n'));
          return call('read', { download: 'notes.txt' });
        },
        (req) => {
          results.push(lastToolResults(req).join('\n'));
          const word = /Code word: (\w+)/.exec(results.join('\n'))?.[1] ?? '?';
          return call('done', { summary: `The code word is ${word}.` });
        },
      ),
    );
    const r = await runWith(page, 'Download the meeting notes and tell me the code word');
    expect(r).toMatchObject({ ok: true, summary: 'The code word is PERIWINKLE.' });
    expect(results[0]).toContain('It downloaded notes.txt');
    expect(results[1]).toContain('Text of the download notes.txt:');
    // The text came as page data: inside the markers of the results block, never outside.
    const last = stack.requests()[stack.requests().length - 1]!;
    const user = userText(last);
    const block = /# Last step's results\n⟪page content [0-9a-f]{12}⟫\n([\s\S]*?)\n⟪\/page content [0-9a-f]{12}⟫/.exec(user)?.[1] ?? '';
    expect(block).toContain('PERIWINKLE');
    expect(user.replace(block, '')).not.toContain('PERIWINKLE');
    await page.close();
  });
});
