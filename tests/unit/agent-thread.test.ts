/**
 * The conversation's pure parts: the thread a caller hands in (common/thread.ts), how its turns
 * fit a step's prompt — oldest compressed first, then left out (client/agent/thread.ts) — and the
 * userscript's store of it in the manager's tab object (client/userscript/thread-store.ts).
 */
import { describe, expect, it } from 'vitest';
import { keptTurns, threadProblem, THREAD_TURNS_MAX, withTurn, type ThreadTurn } from '../../common/thread';
import { fitThread } from '../../client/agent/thread';
import { tabThreadStore } from '../../client/userscript/thread-store';
import type { TabField } from '../../client/userscript/store';

const turn = (n: number, answer = `answer ${n}`): ThreadTurn => ({ task: `task ${n}`, answer, status: 'done', url: `https://shop.test/${n}` });

describe('a thread', () => {
  it('is checked like the other run options: a previous result.thread, or the mistake named', () => {
    expect(threadProblem(undefined)).toBeUndefined();
    expect(threadProblem({ turns: [turn(1)] })).toBeUndefined();
    expect(threadProblem([])).toMatch(/thread must be \{ turns/);
    expect(threadProblem({ turns: [{ ...turn(1), status: 'allowed' }] })).toMatch(/status must be/);
    expect(threadProblem({ turns: [{ task: 'a', answer: 1, url: '' }] })).toBe('thread.turns[0].answer must be a string');
  });

  it('keeps the newest turns, only their known fields: no field a caller adds (an allowance) comes through', () => {
    const many = Array.from({ length: THREAD_TURNS_MAX + 5 }, (_, i) => ({ ...turn(i + 1), allowed: ['deletion'] }));
    const kept = keptTurns({ turns: many });
    expect(kept).toHaveLength(THREAD_TURNS_MAX);
    expect(kept[0]!.task).toBe('task 6');
    expect(Object.keys(kept[0]!).sort()).toEqual(['answer', 'status', 'task', 'url']);
    expect(withTurn(kept, turn(99)).turns.at(-1)!.task).toBe('task 99');
  });
});

describe('fitting the turns to the prompt', () => {
  it('shows every turn in full when they fit', () => {
    const f = fitThread([turn(1), turn(2)], 2000);
    expect(f.omitted).toBe(0);
    expect(f.turns.map((t) => [t.n, t.short])).toEqual([
      [1, false],
      [2, false],
    ]);
  });

  it('compresses the oldest first, keeps the newest in full, then leaves the oldest out', () => {
    const long = 'word '.repeat(300);
    const turns = [turn(1, long), turn(2, long), turn(3, long)];
    const some = fitThread(turns, 1000);
    expect(some.omitted).toBe(0);
    expect(some.turns.map((t) => t.short)).toEqual([true, true, false]);
    expect(some.turns[0]!.answer.length).toBeLessThanOrEqual(200);
    expect(some.turns[2]!.answer.length).toBeGreaterThan(1000);
    const few = fitThread(turns, 200);
    expect(few.omitted).toBeGreaterThan(0);
    expect(few.turns.at(-1)!.n).toBe(3);
    expect(fitThread(turns, 0)).toEqual({ turns: [], omitted: 3 });
  });
});

describe("the userscript's store", () => {
  const field = (): TabField & { value: unknown } => {
    const f = { value: undefined as unknown, ready: async () => {}, get: () => f.value, set: (v: unknown) => void (f.value = v) };
    return f;
  };

  it('keeps one conversation per site in the tab object, and forgets only its own', () => {
    const f = field();
    const a = tabThreadStore(f, 'https://a.test');
    const b = tabThreadStore(f, 'https://b.test');
    a.save({ turns: [turn(1)], pending: 'run1' });
    b.save({ turns: [turn(2)] });
    expect(a.load()).toEqual({ turns: [turn(1)], pending: 'run1' });
    expect(b.load()?.turns[0]!.task).toBe('task 2');
    a.clear();
    expect(a.load()).toBeUndefined();
    expect(b.load()?.turns).toHaveLength(1);
    b.clear();
    expect(f.value).toBeUndefined();
  });

  it('ignores what is not a thread', () => {
    const f = field();
    f.value = { 'https://a.test': { turns: 'nope' } };
    expect(tabThreadStore(f, 'https://a.test').load()).toBeUndefined();
  });
});
