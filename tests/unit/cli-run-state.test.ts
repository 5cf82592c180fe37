import { describe, expect, it } from 'vitest';
import { runStateKeeper } from '../../cli/run-state';

const state = (owner: string, step: number, id = 'run1') => JSON.stringify({ v: 1, id, owner, step, task: 't', history: [] });

describe('runStateKeeper', () => {
  it('keeps the newest save of the page that drives the run', () => {
    const k = runStateKeeper();
    expect(k.current()).toBeUndefined();
    expect(k.save(state('a', 0))).toBe(true);
    expect(k.save(state('a', 1))).toBe(true);
    expect(JSON.parse(k.current()!).step).toBe(1);
  });

  it('refuses saves from a page that was followed by another (a late pagehide), even of the same step', () => {
    const k = runStateKeeper();
    k.save(state('a', 2));
    expect(k.save(state('b', 2))).toBe(true); // the next page resumed the run
    expect(k.save(state('a', 2))).toBe(false); // the old page's pagehide, arriving late
    expect(k.save(state('a', 3))).toBe(false);
    expect(JSON.parse(k.current()!).owner).toBe('b');
    expect(k.save(state('c', 3))).toBe(true);
    expect(k.save(state('b', 3))).toBe(false);
  });

  it('refuses another run and anything that is not a run state', () => {
    const k = runStateKeeper();
    k.save(state('a', 0));
    for (const bad of [state('x', 5, 'run2'), '{', 'null', '{"v":2,"id":"run1","owner":"z"}', 42, undefined, JSON.stringify({ v: 1, id: 'run1' })]) {
      expect(k.save(bad)).toBe(false);
    }
    expect(JSON.parse(k.current()!)).toMatchObject({ owner: 'a', step: 0 });
  });
});
