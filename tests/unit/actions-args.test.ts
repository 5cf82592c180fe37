import { describe, expect, it } from 'vitest';
import { parseCall, TOOL_NAMES } from '../../client/page/actions/args';

const ok = (call: unknown) => {
  const r = parseCall(call);
  if (!r.ok) throw new Error(r.message);
  return r.call;
};
const err = (call: unknown): string => {
  const r = parseCall(call);
  if (r.ok) throw new Error(`expected an error for ${JSON.stringify(call)}`);
  return r.message;
};

describe('parseCall', () => {
  it('knows exactly the public tool names', () => {
    expect([...TOOL_NAMES].sort()).toEqual(
      [
        'click',
        'double_click',
        'right_click',
        'type',
        'clear',
        'select_option',
        'hover',
        'drag',
        'upload',
        'press_key',
        'scroll',
        'scroll_to',
        'click_at',
        'read',
        'navigate',
        'go_back',
        'wait',
      ].sort(),
    );
  });

  it('accepts refs as strings, numbers, bracketed and frame refs', () => {
    expect(ok({ name: 'click', args: { ref: '12' } })).toEqual({ name: 'click', args: { ref: '12' } });
    expect(ok({ name: 'click', args: { ref: 12 } }).args).toEqual({ ref: '12' });
    expect(ok({ name: 'click', args: { ref: '[7]' } }).args).toEqual({ ref: '7' });
    expect(ok({ name: 'hover', args: { ref: 'f2:7' } }).args).toEqual({ ref: 'f2:7' });
  });

  it('explains a missing or malformed ref', () => {
    expect(err({ name: 'click', args: {} })).toMatch(/click needs "ref"/);
    expect(err({ name: 'click', args: { ref: 'Save button' } })).toMatch(/"ref" must be the number shown in brackets.*"Save button"/);
    expect(err({ name: 'click', args: { ref: -3 } })).toMatch(/must be the number/);
  });

  it('rejects unknown tools, listing the available ones', () => {
    expect(err({ name: 'tap', args: { ref: '1' } })).toMatch(/Unknown action "tap". Available: click, type/);
    expect(err(null)).toMatch(/must be an object/);
    expect(err({ name: 'click', args: [1] })).toMatch(/"args" must be an object/);
  });

  it('fills defaults for type and coerces string booleans', () => {
    expect(ok({ name: 'type', args: { ref: 3, text: 'hi' } }).args).toEqual({ ref: '3', text: 'hi', replace: true, submit: false });
    expect(ok({ name: 'type', args: { ref: 3, text: 'hi', replace: 'false', submit: true } }).args).toMatchObject({ replace: false, submit: true });
    expect(ok({ name: 'type', args: { ref: 3, text: 42 } }).args).toMatchObject({ text: '42' });
    expect(err({ name: 'type', args: { ref: 3 } })).toMatch(/type needs "text"/);
    expect(err({ name: 'type', args: { ref: 3, text: 'x', replace: 'yes' } })).toMatch(/"replace" must be true or false/);
  });

  it('takes select_option as a string or list, also under value/label', () => {
    expect(ok({ name: 'select_option', args: { ref: 4, option: 'France' } }).args).toEqual({ ref: '4', option: ['France'] });
    expect(ok({ name: 'select_option', args: { ref: 4, value: 'fr' } }).args).toEqual({ ref: '4', option: ['fr'] });
    expect(ok({ name: 'select_option', args: { ref: 4, option: ['a', 'b'] } }).args).toEqual({ ref: '4', option: ['a', 'b'] });
    expect(err({ name: 'select_option', args: { ref: 4 } })).toMatch(/needs "option"/);
    expect(err({ name: 'select_option', args: { ref: 4, option: '  ' } })).toMatch(/non-empty string/);
  });

  it('validates scroll direction and pages', () => {
    expect(ok({ name: 'scroll', args: { direction: 'DOWN' } }).args).toEqual({ direction: 'down', ref: undefined, pages: 1 });
    expect(ok({ name: 'scroll', args: { direction: 'up', pages: '0.5', ref: 9 } }).args).toEqual({ direction: 'up', ref: '9', pages: 0.5 });
    expect(err({ name: 'scroll', args: { direction: 'sideways' } })).toMatch(/up, down, left or right/);
    expect(err({ name: 'scroll', args: { direction: 'down', pages: 0 } })).toMatch(/"pages" must be between/);
    expect(err({ name: 'scroll', args: { direction: 'down', pages: 'lots' } })).toMatch(/"pages" must be a number/);
  });

  it('requires click_at coordinates as viewport fractions', () => {
    expect(ok({ name: 'click_at', args: { x: 0.25, y: '0.5' } }).args).toEqual({ x: 0.25, y: 0.5 });
    expect(err({ name: 'click_at', args: { x: 640, y: 300 } })).toMatch(/fractions of the viewport.*x=640/);
    expect(err({ name: 'click_at', args: { x: 0.5 } })).toMatch(/needs "x" and "y"/);
  });

  it('validates read, navigate, wait, press_key', () => {
    expect(ok({ name: 'read', args: {} }).args).toEqual({ ref: undefined, page: 1 });
    expect(err({ name: 'read', args: { page: 0 } })).toMatch(/whole number from 1/);
    expect(ok({ name: 'navigate', args: { url: ' /docs ' } }).args).toEqual({ url: '/docs' });
    expect(err({ name: 'navigate', args: {} })).toMatch(/navigate needs "url"/);
    expect(ok({ name: 'go_back' }).args).toEqual({});
    expect(ok({ name: 'wait', args: { seconds: 2 } }).args).toEqual({ seconds: 2, text: undefined });
    expect(ok({ name: 'wait', args: { text: ' Done ' } }).args).toEqual({ seconds: undefined, text: 'Done' });
    expect(err({ name: 'wait', args: {} })).toMatch(/wait needs "seconds".*or "text"/);
    expect(err({ name: 'wait', args: { seconds: -1 } })).toMatch(/must be positive/);
    expect(ok({ name: 'press_key', args: { key: 'Enter' } }).args).toEqual({ key: 'Enter', ref: undefined });
    expect(ok({ name: 'press_key', args: { key: ' ' } }).args).toEqual({ key: ' ', ref: undefined });
    expect(err({ name: 'press_key', args: {} })).toMatch(/press_key needs "key"/);
  });

  it('ignores extra arguments models add (e.g. a reason)', () => {
    expect(ok({ name: 'click', args: { ref: 1, reason: 'open menu' } }).args).toEqual({ ref: '1' });
  });
});
