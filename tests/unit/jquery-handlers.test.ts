import { describe, expect, it } from 'vitest';
import { storeHandlers } from '../../client/page/map/walk/jquery-handlers';

const TYPES = ['click', 'mousedown'];
/** A store entry as jQuery 3 keeps it: `events[type]` is the handlers, the delegated first. */
const entry = (type: string, handlers: Array<{ selector?: string }>, delegateCount: number) => ({
  events: { [type]: Object.assign(handlers, { delegateCount }) },
});

describe("jQuery's store read as click cues", () => {
  it('tells bound handlers from delegated ones and keeps the selectors', () => {
    expect(storeHandlers(entry('click', [{}], 0), TYPES)).toEqual({ direct: true, selectors: [] });
    expect(storeHandlers(entry('click', [{ selector: 'li' }], 1), TYPES)).toEqual({ direct: false, selectors: ['li'] });
    expect(storeHandlers(entry('mousedown', [{ selector: '.item' }, {}], 1), TYPES)).toEqual({ direct: true, selectors: ['.item'] });
  });
  it('ignores other events, catch-all selectors and entries that are not a store', () => {
    expect(storeHandlers(entry('keydown', [{}], 0), TYPES).direct).toBe(false);
    expect(storeHandlers(entry('click', [{ selector: '*' }, { selector: ' body ' }], 2), TYPES).selectors).toEqual([]);
    for (const junk of [null, 3, 'x', { events: 5 }, { events: { click: 'no' } }]) expect(storeHandlers(junk, TYPES)).toEqual({ direct: false, selectors: [] });
  });
  it("a page's forged store with a huge delegate count costs no more than the handlers it holds", () => {
    expect(storeHandlers(entry('click', [{ selector: 'li' }, {}], 1e12), TYPES)).toEqual({ direct: false, selectors: ['li'] });
    expect(storeHandlers(entry('click', [], Infinity), TYPES)).toEqual({ direct: false, selectors: [] });
  });
});
