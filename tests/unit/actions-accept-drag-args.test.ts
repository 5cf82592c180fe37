import { describe, expect, it } from 'vitest';
import { handsParsers } from '../../client/page/actions/hands-args';
import { accepts } from '../../client/page/actions/upload-files';

const f = (name: string, type: string) => ({ name, type, size: 10 });
const TXT = f('notes.txt', 'text/plain');
const MP3 = f('take.MP3', 'audio/mpeg');
const PNG = f('Me.PNG', 'image/png');
const PDF = f('scan.pdf', 'application/pdf');
const MOV = f('clip.mov', 'video/quicktime');
const ODD = f('data.bin', '');

describe('accept, by the HTML rules', () => {
  it('*/* takes every file, one of unknown type too', () => {
    for (const file of [TXT, MP3, PNG, PDF, MOV, ODD]) expect(accepts('*/*', file)).toBe(true);
  });

  it('audio/*, image/*, video/* take their family only', () => {
    expect(accepts('audio/*', MP3)).toBe(true);
    expect(accepts('audio/*', PNG)).toBe(false);
    expect(accepts('image/*', PNG)).toBe(true);
    expect(accepts('image/*', ODD)).toBe(false);
    expect(accepts('video/*', MOV)).toBe(true);
    expect(accepts('video/*', MP3)).toBe(false);
  });

  it('compares case-insensitively and strips whitespace around each entry', () => {
    expect(accepts('AUDIO/*', MP3)).toBe(true);
    expect(accepts('Application/PDF', PDF)).toBe(true);
    expect(accepts(' .PNG , .jpg ', PNG)).toBe(true);
    expect(accepts('.mp3', MP3)).toBe(true);
    expect(accepts('\t.pdf\n', PDF)).toBe(true);
    expect(accepts('.jpg', PNG)).toBe(false);
  });

  it('takes a file any of several entries takes', () => {
    expect(accepts('image/*,.pdf', PDF)).toBe(true);
    expect(accepts('image/*,.pdf', PNG)).toBe(true);
    expect(accepts('image/*,.pdf', TXT)).toBe(false);
    expect(accepts('.doc,,application/pdf', PDF)).toBe(true);
  });

  it("matches a MIME type by the file's essence, and ignores entries that are no valid token", () => {
    expect(accepts('text/plain', f('a.txt', 'text/plain;charset=utf-8'))).toBe(true);
    // A type with parameters, a bare word: not valid tokens, ignored; with none left, any file.
    expect(accepts('text/plain;charset=utf-8', PDF)).toBe(true);
    expect(accepts('pdf', PNG)).toBe(true);
    expect(accepts('pdf, image/*', PDF)).toBe(false);
    expect(accepts('.', TXT)).toBe(true);
    expect(accepts(' , ', TXT)).toBe(true);
  });
});

describe('drag from a point', () => {
  it('presses at x/y (fractions) and lets go at to_x/to_y, by dx/dy or on to_ref', () => {
    expect(handsParsers.drag({ x: 0.2, y: '0.3', to_x: 0.5, to_y: 0.6 })).toEqual({ x: 0.2, y: 0.3, to_x: 0.5, to_y: 0.6 });
    expect(handsParsers.drag({ x: 0.2, y: 0.3, dx: 40 })).toEqual({ x: 0.2, y: 0.3, dx: 40, dy: 0 });
    expect(handsParsers.drag({ x: 0.2, y: 0.3, to_ref: '9' })).toEqual({ x: 0.2, y: 0.3, to_ref: '9' });
    expect(handsParsers.drag({ ref: '4', to_x: 1, to_y: 0 })).toEqual({ ref: '4', to_x: 1, to_y: 0 });
  });

  it('refuses half a point, a point outside the viewport, two starts or two ends', () => {
    expect(() => handsParsers.drag({ x: 0.2, dx: 5 })).toThrow(/"x" and "y" go together/);
    expect(() => handsParsers.drag({ x: 0.2, y: 0.3, to_y: 0.5 })).toThrow(/"to_x" and "to_y" go together/);
    expect(() => handsParsers.drag({ x: 1.5, y: 0.3, dx: 5 })).toThrow(/fractions of the viewport.*x=1.5/);
    expect(() => handsParsers.drag({ x: 0.2, y: 0.3, to_x: -0.1, to_y: 0.3 })).toThrow(/fractions of the viewport/);
    expect(() => handsParsers.drag({ ref: '4', x: 0.2, y: 0.3, dx: 5 })).toThrow(/"ref" or at "x"\/"y", not both/);
    expect(() => handsParsers.drag({ x: 0.2, y: 0.3, to_x: 0.5, to_y: 0.5, dx: 5 })).toThrow(/either "to_ref".*or "dx"\/"dy".*not both/);
    expect(() => handsParsers.drag({ x: 0.2, y: 0.3 })).toThrow(/drag needs "to_ref".*"to_x"\/"to_y".*or "dx"\/"dy"/);
    expect(() => handsParsers.drag({ x: 0.2, y: 0.3, to_x: 0.2, to_y: 0.3 })).toThrow(/nothing would move/);
  });
});
