/**
 * DESIGN §2 Refs: stable for the session, never reused, re-matched by fingerprint only when
 * unique, `*` for new ones, and re-validated before use.
 */
import { describe, expect, it } from 'vitest';
import { mapBody, open, useSession } from './harness';

const s = useSession();

describe('refs', () => {
  it('are stable across maps and marked * only when new', async () => {
    const page = await open(s, `<!doctype html><title>t</title><body><button>One</button><button>Two</button></body>`);
    expect(await mapBody(page)).toEqual(['*[1]button "One"', '*[2]button "Two"']);
    expect(await mapBody(page)).toEqual(['[1]button "One"', '[2]button "Two"']);
    await page.evaluate(() => document.body.insertAdjacentHTML('afterbegin', '<button>Zero</button>'));
    expect(await mapBody(page)).toEqual(['*[3]button "Zero"', '[1]button "One"', '[2]button "Two"']);
  });

  it('are never reused after an element goes away', async () => {
    const page = await open(s, `<!doctype html><title>t</title><body><button id="a">Alpha</button></body>`);
    expect(await mapBody(page)).toEqual(['*[1]button "Alpha"']);
    await page.evaluate(() => {
      document.getElementById('a')!.remove();
      document.body.innerHTML += '<button>Beta</button>';
    });
    expect(await mapBody(page)).toEqual(['*[2]button "Beta"']);
  });

  it('re-match a replaced node by fingerprint only when the match is unique', async () => {
    const page = await open(
      s,
      `<!doctype html><title>t</title><body>
      <ul id="l"><li><button>Archive</button></li><li><button>Delete</button></li><li><button>Delete</button></li></ul></body>`,
    );
    expect(await mapBody(page)).toEqual(['*[1]button "Archive"', '*[2]button "Delete"', '*[3]button "Delete"']);
    // A framework re-renders the whole list with fresh nodes: same roles, names, positions.
    await page.evaluate(() => {
      const l = document.getElementById('l')!;
      const same = l.innerHTML; // re-rendered from the same markup: new nodes
      l.innerHTML = same;
    });
    expect(await mapBody(page)).toEqual(['[1]button "Archive"', '[2]button "Delete"', '[3]button "Delete"']);
    // One row goes away and the rest re-render: which "Delete" is which is no longer unique.
    await page.evaluate(() => {
      document.getElementById('l')!.innerHTML = '<li><button>Archive</button></li><li><button>Delete</button></li>';
    });
    expect(await mapBody(page)).toEqual(['[1]button "Archive"', '*[4]button "Delete"']);
    const stale = await page.evaluate(() => {
      try {
        (window as any).pagehand.resolve('2');
        return null;
      } catch (e: any) {
        return e.code;
      }
    });
    expect(stale).toBe('stale');
  });

  it('resolve re-validates: stale when detached or changed, unknown when never handed out', async () => {
    const page = await open(s, `<!doctype html><title>t</title><body><button id="a">Send</button><button id="b">Save</button></body>`);
    const r = await page.evaluate(() => {
      const ph = (window as any).pagehand;
      ph.map();
      const ok = ph.resolve('1').id;
      const okNumber = ph.resolve(2).id;
      const err = (f: () => unknown) => {
        try {
          f();
          return null;
        } catch (e: any) {
          return { name: e.name, code: e.code, message: e.message };
        }
      };
      document.getElementById('a')!.remove();
      document.getElementById('b')!.textContent = 'Saved';
      return { ok, okNumber, gone: err(() => ph.resolve('1')), changed: err(() => ph.resolve('2')), unknown: err(() => ph.resolve('99')) };
    });
    expect(r.ok).toBe('a');
    expect(r.okNumber).toBe('b');
    expect(r.gone).toEqual({
      name: 'RefError',
      code: 'stale',
      message: 'Element [1] button "Send" is no longer on the page (it was removed or re-rendered). Observe again.',
    });
    expect(r.changed).toEqual({ name: 'RefError', code: 'stale', message: 'Element [2] changed: it was button "Save", now button "Saved". Observe again.' });
    expect(r.unknown).toEqual({ name: 'RefError', code: 'unknown', message: 'There is no element [99] in the map. Use a ref from the latest observation.' });
  });
});
