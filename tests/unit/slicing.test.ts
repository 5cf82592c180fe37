/**
 * client/page/map/slicing.ts alone, on a fake clock: when a slice is due, how a job runs in one go
 * or in slices, and which pauses let the page's ordinary tasks in.
 */
import { describe, expect, it } from 'vitest';
import { pauses, runNow, runSliced, sliceBudget, UNLIMITED, type Budget, type Sliced } from '../../client/page/map/slicing';

/** A job of `n` steps that advance the clock by `stepMs` each, yielding when its budget is due. */
function* steps(n: number, clock: { t: number }, stepMs: number, budget: Budget, log: string[]): Sliced<number> {
  for (let i = 0; i < n; i++) {
    if (budget.due()) yield;
    clock.t += stepMs;
    log.push(`step${i}`);
  }
  return n;
}

describe('sliceBudget', () => {
  it('is due once its slice of time is spent, reading the clock every `checkEvery` calls', () => {
    const clock = { t: 0 };
    let reads = 0;
    const b = sliceBudget({ sliceMs: 10, checkEvery: 4, now: () => (reads++, clock.t) });
    reads = 0;
    clock.t = 9;
    expect([b.due(), b.due(), b.due(), b.due()]).toEqual([false, false, false, false]);
    expect(reads).toBe(1);
    clock.t = 10;
    expect([b.due(), b.due(), b.due(), b.due()]).toEqual([false, false, false, true]);
    expect(reads).toBe(2);
    b.restart();
    expect([b.due(), b.due(), b.due(), b.due()]).toEqual([false, false, false, false]);
  });

  it('the unlimited budget is never due', () => {
    for (let i = 0; i < 100; i++) expect(UNLIMITED.due()).toBe(false);
  });
});

describe('runNow and runSliced', () => {
  it('runNow drains a job in one go: same steps, same result', () => {
    const log: string[] = [];
    expect(runNow(steps(5, { t: 0 }, 3, UNLIMITED, log))).toBe(5);
    expect(log).toEqual(['step0', 'step1', 'step2', 'step3', 'step4']);
  });

  it('runSliced pauses whenever the budget is due and starts a fresh slice after each pause', async () => {
    const clock = { t: 0 };
    const log: string[] = [];
    const budget = sliceBudget({ sliceMs: 10, checkEvery: 1, now: () => clock.t });
    const pause = async (): Promise<void> => void log.push('pause');
    const result = await runSliced(steps(7, clock, 4, budget, log), budget, pause);
    expect(result).toBe(7);
    // 4 ms steps in 10 ms slices: three steps, then the clock says the slice is spent.
    expect(log).toEqual(['step0', 'step1', 'step2', 'pause', 'step3', 'step4', 'step5', 'pause', 'step6']);
  });

  it('runSliced rejects with what the job throws', async () => {
    function* failing(): Sliced<number> {
      yield;
      throw new Error('half-built page');
    }
    await expect(runSliced(failing(), sliceBudget({ sliceMs: 1, now: () => 0 }), async () => undefined)).rejects.toThrow('half-built page');
  });
});

describe('pauses', () => {
  it('makes the first pause plain, then prioritized ones, and a plain one again once plainEveryMs passed', async () => {
    const clock = { t: 0 };
    const kinds: string[] = [];
    const pause = pauses({
      plainEveryMs: 50,
      now: () => clock.t,
      prioritized: async () => void kinds.push('prioritized'),
      plain: async () => void kinds.push('plain'),
    });
    for (const t of [0, 15, 30, 49, 51, 60, 120]) {
      clock.t = t;
      await pause();
    }
    expect(kinds).toEqual(['plain', 'prioritized', 'prioritized', 'prioritized', 'plain', 'prioritized', 'plain']);
  });

  it('makes every pause plain where there is no prioritized one', async () => {
    const kinds: string[] = [];
    const pause = pauses({ now: () => 0, prioritized: null, plain: async () => void kinds.push('plain') });
    await pause();
    await pause();
    expect(kinds).toEqual(['plain', 'plain']);
  });
});
