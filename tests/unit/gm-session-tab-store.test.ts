/**
 * The run store for managers without a tab API (Violentmonkey): a per-tab id in the page's
 * sessionStorage names the tab's run in GM storage. The run goes on in its tab's next page of
 * the same site; another tab, a tab that copied the id while the run was at work, another
 * origin, or a second taker finds nothing; stale entries are ignored and swept.
 */
import { describe, expect, it } from 'vitest';
import { newGuardState } from '../../client/agent/guards';
import type { RunStore, SavedRun } from '../../client/agent/persist';
import { createSessionTabStore, tabRunKey, TAB_ID_KEY } from '../../client/userscript/session-tab-store';
import type { GmStorage } from '../../client/userscript/store';

const ORIGIN = 'https://shop.test';

/** The manager's storage (shared by every tab and origin) and one sessionStorage per tab and origin. */
function world() {
  const values = new Map<string, string>();
  const gm: GmStorage = { getValue: (k, d) => values.get(k) ?? d, setValue: (k, v) => void values.set(k, v), deleteValue: (k) => void values.delete(k) };
  const sessions = new Map<string, Map<string, string>>();
  const session = (tab: string, origin = ORIGIN) => {
    const key = `${tab} ${origin}`;
    if (!sessions.has(key)) sessions.set(key, new Map());
    const m = sessions.get(key)!;
    return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
  };
  let clock = 1_000_000;
  let ids = 0;
  /** A page load in `tab` on `origin`: a new store, ready before the entry resumes. */
  const page = async (tab: string, origin = ORIGIN): Promise<RunStore> => {
    const store = createSessionTabStore(gm, {
      session: () => session(tab, origin),
      origin,
      now: () => clock,
      newId: () => `tab-id-${String(++ids).padStart(12, '0')}`,
      list: () => [...values.keys()],
    });
    await store.ready?.();
    return store;
  };
  return { values, session, page, tick: (ms: number) => void (clock += ms) };
}

function savedRun(id: string): SavedRun {
  return {
    v: 1,
    id,
    task: 'Sign up',
    options: {},
    step: 1,
    history: [],
    memory: '',
    usage: { promptTokens: 0, completionTokens: 0 },
    startedAt: 1,
    guards: newGuardState(),
    notes: [],
    allowed: [],
    owner: 'page-1',
  };
}

describe('the session-tab run store (managers without a tab API)', () => {
  it("goes on in its tab's next page of the site, under a new id; the old id holds nothing", async () => {
    const w = world();
    const p1 = await w.page('A');
    expect(p1.load()).toBeUndefined();
    const id1 = w.session('A').getItem(TAB_ID_KEY)!;
    expect(p1.save(savedRun('run-1'))).toBe(true);
    p1.save(savedRun('run-1'), true); // the page goes away
    w.tick(500);
    const p2 = await w.page('A');
    expect(p2.load()?.id).toBe('run-1');
    const id2 = w.session('A').getItem(TAB_ID_KEY)!;
    expect(id2).not.toBe(id1);
    expect(w.values.has(tabRunKey(ORIGIN, id1))).toBe(false);
    expect(w.values.has(tabRunKey(ORIGIN, id2))).toBe(true);
    // The run ends there: nothing is left for a later page.
    p2.clear();
    expect((await w.page('A')).load()).toBeUndefined();
    expect([...w.values.keys()]).toEqual([]);
  });

  it('never in another tab: one opened meanwhile, or reloaded, finds nothing', async () => {
    const w = world();
    const a = await w.page('A');
    a.save(savedRun('run-1'), true);
    expect((await w.page('B')).load()).toBeUndefined();
    expect((await w.page('B')).load()).toBeUndefined();
    // Tab A's next page still has it.
    expect((await w.page('A')).load()?.id).toBe('run-1');
  });

  it('a tab that copied the id while the run was at work (window.open, Duplicate tab) leaves it in its own tab', async () => {
    const w = world();
    const a = await w.page('A');
    a.save(savedRun('run-1'));
    // The copy: tab C starts with tab A's sessionStorage.
    w.session('C').setItem(TAB_ID_KEY, w.session('A').getItem(TAB_ID_KEY)!);
    const c = await w.page('C');
    expect(c.load()).toBeUndefined();
    expect(w.session('C').getItem(TAB_ID_KEY)).not.toBe(w.session('A').getItem(TAB_ID_KEY));
    // The run goes on in A and moves to A's next page.
    a.save(savedRun('run-1'), true);
    expect((await w.page('A')).load()?.id).toBe('run-1');
    expect((await w.page('C')).load()).toBeUndefined();
  });

  it('one page takes a run its page left: a copy of the old id finds nothing after', async () => {
    const w = world();
    const a = await w.page('A');
    a.save(savedRun('run-1'), true);
    const old = w.session('A').getItem(TAB_ID_KEY)!;
    expect((await w.page('A')).load()?.id).toBe('run-1');
    w.session('D').setItem(TAB_ID_KEY, old);
    expect((await w.page('D')).load()).toBeUndefined();
  });

  it("is bound to the origin: another site's page that puts the tab's id in its own sessionStorage finds nothing", async () => {
    const w = world();
    const a = await w.page('A');
    a.save(savedRun('run-1'), true);
    const id = w.session('A').getItem(TAB_ID_KEY)!;
    w.session('A', 'https://evil.test').setItem(TAB_ID_KEY, id);
    expect((await w.page('A', 'https://evil.test')).load()).toBeUndefined();
    // A forged id of another shape is not looked up at all.
    w.session('E').setItem(TAB_ID_KEY, 'x');
    expect((await w.page('E')).load()).toBeUndefined();
  });

  it('resumes only a fresh run, and sweeps what closed tabs left', async () => {
    const w = world();
    const a = await w.page('A');
    a.save(savedRun('run-1'), true);
    const b = await w.page('B');
    b.save(savedRun('run-2'), true); // tab B closed here
    w.tick(61_000);
    expect((await w.page('A')).load()).toBeUndefined();
    expect([...w.values.keys()]).toEqual([]);
  });

  it('keeps the run on its page when sessionStorage is refused', async () => {
    const values = new Map<string, string>();
    const store = createSessionTabStore(
      { getValue: (k, d) => values.get(k) ?? d, setValue: (k, v) => void values.set(k, v), deleteValue: (k) => void values.delete(k) },
      {
        session: () => {
          throw new DOMException('denied', 'SecurityError');
        },
        origin: ORIGIN,
      },
    );
    await store.ready?.();
    expect(store.save(savedRun('run-1'), true)).toBe(true);
    expect(store.load()?.id).toBe('run-1');
    expect(values.size).toBe(0);
  });
});
