/**
 * File trees as others build them: hit areas before folder names (jQuery treeview), toggles
 * drawn by ::before on an empty span, flat rows indented by padding with a state class on the
 * twisty (editor explorers), li folders whose caret is their own ::before inside a clickable
 * tree, nested divs under one delegated listener. After a folder opens, the folders nested in it
 * are targets of their own with collapsed/expanded, at every depth: a model clicks its way down
 * to a file two levels below.
 */
import { describe, expect, it } from 'vitest';
import { act } from './actions-helpers';
import { mapBody, open, useSession } from './harness';

const s = useSession();

/** The ref of the line that shows `name` as a word and the given state. */
function rowRef(body: string[], name: string, state: 'collapsed' | 'expanded' | ''): string {
  // A row's line is short; a clickable tree around the rows lists them all.
  const hits = body.filter((l) => {
    const words = l.replace(/"/g, ' ').trim().split(/\s+/);
    return /\[\d+\]/.test(l) && words.length <= 6 && words.includes(name) && (!state || words.includes(state));
  });
  if (hits.length !== 1) throw new Error(`${hits.length} lines for ${name} ${state} in:\n${body.join('\n')}`);
  return /\[(\d+)\]/.exec(hits[0]!)![1]!;
}

const fixtures = [
  { file: 'map/tree-hitarea.html', opens: true },
  { file: 'map/tree-before.html', opens: false },
  { file: 'map/tree-rows.html', opens: true },
  { file: 'map/tree-li-before.html', opens: true },
  { file: 'map/tree-divs.html', opens: true },
];

describe('trees without ARIA', () => {
  for (const f of fixtures) {
    it(`${f.file}: opens folder after folder down to a file two levels below`, async () => {
      const page = await open(s, f.file);
      let body = await mapBody(page);
      expect(body.join('\n')).not.toMatch(/\blib\b/);
      for (const folder of ['src', 'lib', 'util']) {
        const r = await act(page, 'click', { ref: rowRef(body, folder, 'collapsed') });
        expect(r.ok, r.message).toBe(true);
        body = await mapBody(page);
        rowRef(body, folder, 'expanded');
      }
      // The sibling folder at the top stays a target, still collapsed.
      rowRef(body, 'docs', 'collapsed');
      expect(body.join('\n')).toContain('strings.ts');
      if (f.opens) {
        const r = await act(page, 'click', { ref: rowRef(body, 'strings.ts', '') });
        expect(r.ok, r.message).toBe(true);
        expect(await page.textContent('#opened')).toMatch(/opened (src\/lib\/util\/)?strings\.ts/);
      }
      await page.close();
    });
  }

  it('names a folder by its own line, not by the rows nested in it', async () => {
    const page = await open(s, 'map/tree-li-before.html');
    await page.click('#tree > li.folder');
    expect((await mapBody(page)).slice(0, 4)).toEqual(['# Project', '*[1]listitem "src" expanded', '*[2]listitem "lib" collapsed', '*[3]listitem "main.ts"']);
    await page.close();
  });

  it('names a folder by its own line without what a deny zone in it holds', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><style>li{cursor:pointer} li>ul{display:none} li.open>ul{display:block}</style><body>
      <ul id="tree"><li class="folder open">src <span data-pagehand="off">SECRET-ZONE-WORD</span><ul><li>lib</li><li>main.ts</li></ul></li></ul>
    </body>`,
    );
    const body = await mapBody(page);
    expect(body[0]).toBe('*[1]listitem "src" expanded');
    expect(body.join('\n')).not.toContain('SECRET-ZONE-WORD');
    await page.close();
  });
});
