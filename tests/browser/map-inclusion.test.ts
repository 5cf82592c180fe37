/**
 * DESIGN §2 Inclusion: which elements become lines of the map, asserted as the exact lines the
 * model reads.
 */
import { describe, expect, it } from 'vitest';
import { mapBody, open, useSession } from './harness';

const s = useSession();

describe('inclusion', () => {
  it('lists native controls, ARIA widgets and contenteditable roots; a label is never its own line', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><body>
      <button>Save</button>
      <a href="#docs">Docs</a>
      <p><a>Not a link</a></p>
      <div role="switch" aria-checked="true">Dark mode</div>
      <label for="e">Email</label><input id="e">
      <label>Subscribe <input type="checkbox"></label>
      <select aria-label="Size"><option>S</option><option selected>M</option></select>
      <textarea aria-label="Notes"></textarea>
      <div contenteditable="true"><p>Draft <b>text</b></p></div>
      <details><summary>More</summary><p>Hidden until opened</p></details>
    </body>`,
    );
    expect(await mapBody(page)).toEqual([
      '*[1]button "Save"',
      '*[2]link "Docs"',
      'Not a link',
      '*[3]switch "Dark mode" checked',
      '*[4]textbox "Email"',
      '*[5]checkbox "Subscribe"',
      '*[6]combobox "Size" value="M" options=S|M',
      '*[7]textbox "Notes"',
      '*[8]textbox value="Draft text"',
      '*[9]button "More" collapsed',
    ]);
  });

  it('takes the outermost cursor:pointer element of a cluster; side-by-side ones stay separate', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><style>.p{cursor:pointer}</style><body>
      <div class="p" id="card"><span class="p">Card <b>title</b></span> <span>body text</span></div>
      <div><span class="p">tag A</span> <span class="p">tag B</span></div>
      <a href="#x"><span class="p">folded into the link</span></a>
      <button><span style="cursor:pointer">folded into the button</span></button>
    </body>`,
    );
    expect(await mapBody(page)).toEqual([
      '*[1]clickable "Card title body text"',
      '*[2]clickable "tag A"',
      '*[3]clickable "tag B"',
      '*[4]link "folded into the link"',
      '*[5]button "folded into the button"',
    ]);
  });

  it('keeps a child that has its own handler, role or label inside a clickable parent', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><body>
      <div style="cursor:pointer" onclick="void 0">Row
        <span role="button">Star</span>
        <span aria-label="Flag" style="cursor:pointer" onclick="void 0">⚑</span>
      </div>
    </body>`,
    );
    expect(await mapBody(page)).toEqual(['*[1]clickable "Row Star Flag"', '*[2]button "Star"', '*[3]clickable "Flag"']);
  });

  it('does not list tabindex="0" or a handler alone, but does with a second cue', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><body>
      <div tabindex="0">only tabindex</div>
      <div onclick="void 0">only onclick</div>
      <div tabindex="0" onclick="void 0">tabindex and onclick</div>
      <div tabindex="0" role="tab">a tab</div>
    </body>`,
    );
    expect(await mapBody(page)).toEqual(['only tabindex', 'only onclick', '*[1]clickable "tabindex and onclick"', '*[2]tab "a tab"']);
  });

  it('always includes the focused element, even when nothing else would list it', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><body>
      <p>Intro</p><div id="f" tabindex="-1">Focus lands here</div>
      <script>document.getElementById('f').focus()</script>
    </body>`,
    );
    expect(await mapBody(page)).toEqual(['Intro', '*[1]clickable "Focus lands here" focused']);
  });

  it('reveals listener-only click targets when the bundle runs at document start', async () => {
    const html = `<!doctype html><title>t</title><body>
      <div id="l" style="cursor:pointer">listener</div>
      <div id="m">listener, no cursor</div>
      <div id="n" tabindex="0">listener and tabindex</div>
      <script>for (const id of ['l','m','n']) document.getElementById(id).addEventListener('click', () => {});</script>
    </body>`;
    const early = await open(s, html, { early: true });
    // A direct listener on an element with short text of its own is a target (map-targets has more).
    expect(await mapBody(early)).toEqual(['*[1]clickable "listener"', '*[2]clickable "listener, no cursor"', '*[3]clickable "listener and tabindex"']);
    const late = await open(s, html);
    expect(await mapBody(late)).toEqual(['*[1]clickable "listener"', 'listener, no cursor', 'listener and tabindex']);
  });
});
