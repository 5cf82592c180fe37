/** Pure helpers of the names/roles/states modules (no DOM needed). */
import { describe, expect, it } from 'vitest';
import { cssContentText, flatten, NAME_FROM_CONTENT_ROLES, NAME_PROHIBITED_ROLES } from '../../client/page/names/name';
import { firstValidRole, VALID_ROLES } from '../../client/page/names/role';
import { clip, inputFormat } from '../../client/page/names/state';

describe('firstValidRole', () => {
  it('takes the first token that is a concrete ARIA role', () => {
    expect(firstValidRole('button')).toBe('button');
    expect(firstValidRole('foo bar link')).toBe('link');
    expect(firstValidRole('widget command menuitem')).toBe('menuitem'); // abstract roles skipped
  });
  it('is case-insensitive and whitespace-tolerant', () => {
    expect(firstValidRole('  \n\tSWITCH  checkbox')).toBe('switch');
  });
  it('reports the ARIA 1.3 synonym image as img', () => {
    expect(firstValidRole('image')).toBe('img');
  });
  it('accepts DPUB and graphics roles', () => {
    expect(firstValidRole('doc-toc')).toBe('doc-toc');
    expect(firstValidRole('graphics-symbol')).toBe('graphics-symbol');
  });
  it('returns null when nothing is valid', () => {
    expect(firstValidRole('')).toBeNull();
    expect(firstValidRole(null)).toBeNull();
    expect(firstValidRole('roletype structure fancy')).toBeNull();
  });
  it('knows no abstract role', () => {
    for (const abstract of [
      'command',
      'composite',
      'input',
      'landmark',
      'range',
      'roletype',
      'section',
      'sectionhead',
      'select',
      'structure',
      'widget',
      'window',
    ]) {
      expect(VALID_ROLES.has(abstract)).toBe(false);
    }
  });
});

describe('role tables', () => {
  it('no role both takes its name from content and prohibits a name', () => {
    for (const r of NAME_FROM_CONTENT_ROLES) expect(NAME_PROHIBITED_ROLES.has(r)).toBe(false);
  });
  it('every listed role is a valid role token', () => {
    for (const r of [...NAME_FROM_CONTENT_ROLES, ...NAME_PROHIBITED_ROLES]) expect(VALID_ROLES.has(r)).toBe(true);
  });
});

describe('flatten (accname flat string)', () => {
  it('collapses whitespace runs, including tabs, newlines and no-break spaces, and trims', () => {
    expect(flatten('  a\t\n b \u00a0 c\f ')).toBe('a b c');
  });
  it('drops zero-width spaces and soft hyphens', () => {
    expect(flatten('in\u00advis\u200bible')).toBe('invisible');
  });
});

describe('cssContentText (computed `content` → text)', () => {
  const noAttr = () => null;
  it('none/normal/empty give nothing', () => {
    expect(cssContentText('none', noAttr)).toBe('');
    expect(cssContentText('normal', noAttr)).toBe('');
    expect(cssContentText('', noAttr)).toBe('');
  });
  it('joins quoted strings', () => {
    expect(cssContentText('"a" "b"', noAttr)).toBe('ab');
    expect(cssContentText(`'single'`, noAttr)).toBe('single');
  });
  it('unescapes CSS escapes', () => {
    expect(cssContentText('"\\2014  x"', noAttr)).toBe('— x');
    expect(cssContentText('"say \\"hi\\""', noAttr)).toBe('say "hi"');
  });
  it('resolves attr() and drops counters and url()', () => {
    expect(cssContentText('attr(data-x) ":"', (n) => (n === 'data-x' ? 'Step' : null))).toBe('Step:');
    expect(cssContentText('counter(item) ". " url(a.png)', noAttr)).toBe('. ');
  });
  it('prefers the alt text after "/"', () => {
    expect(cssContentText('"→" / "Next"', noAttr)).toBe('Next');
    expect(cssContentText('url(x.svg) / "Warning"', noAttr)).toBe('Warning');
  });
  it('drops icon-font glyphs (private use area), keeps real symbols', () => {
    expect(cssContentText('"\uf007"', noAttr)).toBe('');
    expect(cssContentText('"\\f007 Home"', noAttr)).toBe('Home');
    expect(cssContentText('"★"', noAttr)).toBe('★');
  });
});

describe('inputFormat', () => {
  it('gives the typing format of date and time inputs', () => {
    expect(inputFormat('date')).toBe('YYYY-MM-DD');
    expect(inputFormat('time')).toBe('HH:MM');
    expect(inputFormat('time', '60')).toBe('HH:MM');
    expect(inputFormat('time', '1')).toBe('HH:MM:SS');
    expect(inputFormat('time', '0.5')).toBe('HH:MM:SS');
    expect(inputFormat('time', 'any')).toBe('HH:MM');
    expect(inputFormat('datetime-local')).toBe('YYYY-MM-DDTHH:MM');
    expect(inputFormat('datetime-local', '30')).toBe('YYYY-MM-DDTHH:MM:SS');
    expect(inputFormat('month')).toBe('YYYY-MM');
    expect(inputFormat('week')).toBe('YYYY-Www');
    expect(inputFormat('color')).toBe('#rrggbb');
  });
  it('has none for other types', () => {
    expect(inputFormat('text')).toBeUndefined();
    expect(inputFormat('number')).toBeUndefined();
  });
});

describe('clip', () => {
  it('collapses whitespace and cuts long values with an ellipsis at the limit', () => {
    expect(clip('  a \n b ')).toBe('a b');
    expect(clip('abcdef', 4)).toBe('abc…');
    expect(clip('abcd', 4)).toBe('abcd');
  });
});
