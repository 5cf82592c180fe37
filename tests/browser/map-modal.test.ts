/**
 * A dialog scopes the map only while it is really open: rendered, on screen or holding focus,
 * or a <dialog> opened with showModal(). Themes park closed drawers off-screen, at zero size,
 * transparent or visibility:hidden, still marked aria-modal.
 */
import { describe, expect, it } from 'vitest';
import { mapText, open, splitMap, useSession } from './harness';

const s = useSession();

const page = (dialogStyle: string, extra = '') => `<!doctype html><title>Shop</title><body style="margin:0">
  <form aria-label="Log in"><input aria-label="Email"><button>Log in</button></form>
  <div role="dialog" aria-modal="true" aria-label="Search" style="position:fixed;left:0;width:400px;height:300px;${dialogStyle}">
    <input aria-label="Search products" id="q"><button>Close search</button>
  </div>${extra}
</body>`;

const PAGE_LINES = ['form "Log in"', '  *[1]textbox "Email"', '  *[2]button "Log in"'];

describe('modal scope', () => {
  it.each([
    ['off-screen (parked 18,000 px up)', 'top:-18000px'],
    ['off-screen to the right', 'top:0;left:5000px'],
    ['zero-size', 'top:0;width:0;height:0;overflow:hidden'],
    ['fully transparent', 'top:0;opacity:0'],
    ['visibility:hidden', 'top:0;visibility:hidden'],
  ])('a %s aria-modal dialog does not scope the map', async (_, style) => {
    const p = await open(s, page(style));
    const { body, notes } = splitMap(await mapText(p));
    expect(body).toEqual(PAGE_LINES);
    expect(notes.join('\n')).not.toContain('behind the modal');
  });

  it('an aria-modal dialog on screen scopes the map', async () => {
    const p = await open(s, page('top:100px;background:#fff'));
    const { body, notes } = splitMap(await mapText(p));
    expect(body).toEqual(['dialog "Search" modal', '  *[1]textbox "Search products"', '  *[2]button "Close search"']);
    expect(notes).toEqual(['… 2 interactive behind the modal dialog "Search" (inert until it closes)']);
  });

  it('an off-screen aria-modal dialog that holds focus scopes the map', async () => {
    const p = await open(s, page('top:-18000px', `<script>document.getElementById('q').focus()</script>`));
    const { body } = splitMap(await mapText(p));
    expect(body[0]).toBe('dialog "Search" modal');
    expect(body).toContain('  *[1]textbox "Search products" focused');
  });

  it('a <dialog> opened with showModal() scopes the map; one opened with show() does not', async () => {
    const html = (how: string) => `<!doctype html><title>t</title><body>
      <button>Behind</button>
      <dialog id="d" aria-label="Filters"><button>Apply</button></dialog>
      <script>document.getElementById('d').${how}(); document.activeElement.blur()</script>
    </body>`;
    const modal = splitMap(await mapText(await open(s, html('showModal'))));
    expect(modal.body).toEqual(['dialog "Filters" modal', '  *[1]button "Apply"']);
    const plain = splitMap(await mapText(await open(s, html('show'))));
    expect(plain.body).toEqual(['*[1]button "Behind"', 'dialog "Filters"', '  *[2]button "Apply"']);
  });
});
