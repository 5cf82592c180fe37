/**
 * DESIGN §2 Visibility and occlusion: what the model can't see or reach is not offered.
 */
import { describe, expect, it } from 'vitest';
import { mapBody, mapText, open, splitMap, useSession } from './harness';

const s = useSession();

describe('visibility', () => {
  it('skips hidden elements and subtrees, keeps visible children of visibility:hidden', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><body>
      <button>shown</button>
      <button style="display:none">display none</button>
      <div hidden><button>hidden attr</button></div>
      <button style="visibility:hidden">visibility hidden</button>
      <div style="visibility:hidden"><span>ghost text</span><button style="visibility:visible">child made visible</button></div>
      <div style="opacity:0"><button>in transparent subtree</button></div>
      <button style="width:0;height:0;padding:0;border:0;overflow:hidden">zero size</button>
      <div aria-hidden="true"><button>aria-hidden</button></div>
      <div inert><button>inert</button></div>
      <div style="content-visibility:hidden"><button>content-visibility</button></div>
      <button style="position:absolute;left:-10000px">off-screen left</button>
      <button style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)">sr-only</button>
      <div style="height:40px;overflow:hidden"><div style="height:40px"></div><button>clipped by overflow hidden</button></div>
    </body>`,
    );
    expect(await mapBody(page)).toEqual(['*[1]button "shown"', '*[2]button "child made visible"']);
  });

  it('lists a transparent file input or checkbox at its visible label', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><body>
      <label class="upload" style="display:inline-block;padding:8px;border:1px solid">Upload photo
        <input type="file" style="opacity:0;position:absolute;width:1px"></label>
    </body>`,
    );
    const map = await page.evaluate(() => (window as any).pagehand.map());
    expect(splitMap(map.text).body).toEqual(['*[1]button "Upload photo" type=file']);
    expect(map.elements[0].rect.width).toBeGreaterThan(50);
  });

  it('does not offer a button covered by a cookie banner, and says what covers it', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><body style="margin:0">
      <button style="position:absolute;top:760px;left:10px">Buy now</button>
      <button style="position:absolute;top:10px;left:10px">Menu</button>
      <div role="dialog" aria-label="Cookie consent" style="position:fixed;bottom:0;left:0;right:0;height:100px;background:#fff">
        We use cookies. <button>Accept all</button>
      </div>
    </body>`,
    );
    const { body, notes } = splitMap(await mapText(page));
    expect(body).toEqual(['*[1]button "Menu"', 'dialog "Cookie consent"', '  We use cookies.', '  *[2]button "Accept all"']);
    expect(notes).toEqual(['… 1 interactive covered by dialog "Cookie consent"']);
  });

  it('layers with pointer-events:none do not cover', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><body style="margin:0">
      <button style="position:absolute;top:20px;left:10px">Under a glass pane</button>
      <div style="position:fixed;inset:0;pointer-events:none;background:rgba(0,0,0,.1)"></div>
    </body>`,
    );
    expect(await mapBody(page)).toEqual(['*[1]button "Under a glass pane"']);
  });

  it("the agent's own mask over the page does not count as a cover", async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><body style="margin:0">
      <button style="position:absolute;top:20px;left:10px">Under the mask</button>
      <div data-pagehand-ui style="position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,.2)"></div>
    </body>`,
    );
    const { body, notes } = splitMap(await mapText(page));
    expect(body).toEqual(['*[1]button "Under the mask"']);
    expect(notes).toEqual([]);
  });

  it('offers only the open modal dialog; everything behind it is inert', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><body>
      <button>Behind one</button><a href="#b">Behind two</a>
      <dialog id="d" aria-label="Confirm delete"><p>Delete 3 files?</p><button>Cancel</button><button>Delete</button></dialog>
      <script>document.getElementById('d').showModal()</script>
    </body>`,
    );
    const { body, notes } = splitMap(await mapText(page));
    expect(body).toEqual(['dialog "Confirm delete" modal', '  Delete 3 files?', '  *[1]button "Cancel" focused', '  *[2]button "Delete"']);
    expect(notes).toEqual(['… 2 interactive behind the modal dialog "Confirm delete" (inert until it closes)']);
  });
});
