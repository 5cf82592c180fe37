import { describe, expect, it } from 'vitest';
import { normaliseInputValue, parseDate, parseNumber, parseTime } from '../../client/page/actions/values';

const v = (type: string, text: string, bounds = {}) => {
  const r = normaliseInputValue(type, text, bounds);
  if (!r.ok) throw new Error(r.error);
  return r.value;
};
const e = (type: string, text: string) => {
  const r = normaliseInputValue(type, text);
  if (r.ok) throw new Error(`expected an error, got ${r.value}`);
  return r.error;
};

describe('date inputs', () => {
  it('keeps ISO and converts unambiguous human forms', () => {
    expect(v('date', '2024-03-05')).toBe('2024-03-05');
    expect(v('date', '2024/3/5')).toBe('2024-03-05');
    expect(v('date', 'March 5, 2024')).toBe('2024-03-05');
    expect(v('date', 'Mar 5 2024')).toBe('2024-03-05');
    expect(v('date', 'Tuesday, March 5th, 2024')).toBe('2024-03-05');
    expect(v('date', '5 March 2024')).toBe('2024-03-05');
    expect(v('date', '25/03/2024')).toBe('2024-03-25');
    expect(v('date', '12/31/2024')).toBe('2024-12-31');
    expect(v('date', '07/07/2024')).toBe('2024-07-07');
    expect(v('date', '2024-02-29')).toBe('2024-02-29');
  });

  it('refuses ambiguous and impossible dates with the format to use', () => {
    expect(e('date', '05/03/2024')).toMatch(/ambiguous.*YYYY-MM-DD/);
    expect(e('date', '2023-02-29')).toMatch(/not a date.*YYYY-MM-DD/);
    expect(e('date', '2024-13-01')).toMatch(/not a date/);
    expect(e('date', 'next Tuesday')).toMatch(/not a date/);
    expect(parseDate('Smarch 5, 2024').ok).toBe(false);
  });
});

describe('time, datetime, month, week', () => {
  it('normalises times', () => {
    expect(v('time', '14:30')).toBe('14:30');
    expect(v('time', '9:05')).toBe('09:05');
    expect(v('time', '2:30 pm')).toBe('14:30');
    expect(v('time', '12am')).toBe('00:00');
    expect(v('time', '12:15 PM')).toBe('12:15');
    expect(v('time', '14:30:15')).toBe('14:30:15');
    expect(parseTime('25:00').ok).toBe(false);
    expect(parseTime('5').ok).toBe(false);
    expect(e('time', 'noon')).toMatch(/HH:MM/);
  });
  it('combines date and time for datetime-local', () => {
    expect(v('datetime-local', '2024-03-05T14:30')).toBe('2024-03-05T14:30');
    expect(v('datetime-local', '2024-03-05 9:00')).toBe('2024-03-05T09:00');
    expect(v('datetime-local', 'March 5, 2024 2:30 pm')).toBe('2024-03-05T14:30');
    expect(e('datetime-local', 'March 5, 2024')).toMatch(/YYYY-MM-DDTHH:MM/);
  });
  it('handles months and weeks', () => {
    expect(v('month', '2024-03')).toBe('2024-03');
    expect(v('month', 'March 2024')).toBe('2024-03');
    expect(v('month', '3/2024')).toBe('2024-03');
    expect(e('month', '2024-13')).toMatch(/YYYY-MM/);
    expect(v('week', '2024-W10')).toBe('2024-W10');
    expect(v('week', '2024 w3')).toBe('2024-W03');
    expect(e('week', '2024-W60')).toMatch(/YYYY-Www/);
  });
});

describe('number, range, colour', () => {
  it('accepts common number spellings', () => {
    expect(parseNumber('42')).toEqual({ ok: true, value: '42' });
    expect(v('number', '1,234.5')).toBe('1234.5');
    expect(v('number', '1.234,5')).toBe('1234.5');
    expect(v('number', '3,5')).toBe('3.5');
    expect(v('number', ' +7 ')).toBe('7');
    expect(v('number', '-0.25')).toBe('-0.25');
    expect(v('number', '.5')).toBe('0.5');
    expect(v('number', '1 000')).toBe('1000');
    expect(e('number', 'twelve')).toMatch(/not a number/);
    expect(e('number', '1,2,3')).toMatch(/not a number/);
  });
  it('maps percentages onto a range', () => {
    expect(v('range', '50%')).toBe('50');
    expect(v('range', '25%', { min: '10', max: '20' })).toBe('12.5');
    expect(v('range', '7')).toBe('7');
    expect(e('range', 'max')).toMatch(/slider value/);
  });
  it('expands colours', () => {
    expect(v('color', '#F80')).toBe('#ff8800');
    expect(v('color', 'FF8800')).toBe('#ff8800');
    expect(e('color', 'orange')).toMatch(/#rrggbb/);
  });
  it('passes text through untouched', () => {
    expect(v('text', '  spaced  ')).toBe('  spaced  ');
    expect(v('email', 'a@b.c')).toBe('a@b.c');
  });
});
