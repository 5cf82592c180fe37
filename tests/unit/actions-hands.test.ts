import { describe, expect, it } from 'vitest';
import { dragPath, FIRST_STEP, MAX_STEPS, REST_MOVES } from '../../client/page/actions/drag-path';
import { handsParsers, holdMs, MAX_HOLD_MS } from '../../client/page/actions/hands-args';
import { accepts, describeFile, pickFiles } from '../../client/page/actions/upload-files';

describe('drag arguments', () => {
  it('takes to_ref, or dx/dy (numbers as strings too); a ref as a number', () => {
    expect(handsParsers.drag({ ref: 4, to_ref: '9' })).toEqual({ ref: '4', to_ref: '9' });
    expect(handsParsers.drag({ ref: 'f2:4', to_ref: 'f2:9' })).toEqual({ ref: 'f2:4', to_ref: 'f2:9' });
    expect(handsParsers.drag({ ref: '4', dx: '120' })).toEqual({ ref: '4', dx: 120, dy: 0 });
    expect(handsParsers.drag({ ref: '4', dy: -30 })).toEqual({ ref: '4', dx: 0, dy: -30 });
  });

  it('refuses what would change the meaning, saying how to fix it', () => {
    expect(() => handsParsers.drag({ to_ref: '9' })).toThrow(/drag needs "ref"/);
    expect(() => handsParsers.drag({ ref: '4' })).toThrow(/"to_ref".*or "dx"\/"dy"/);
    expect(() => handsParsers.drag({ ref: '4', to_ref: '9', dx: 5 })).toThrow(/not both/);
    expect(() => handsParsers.drag({ ref: '4', to_ref: 4 })).toThrow(/the dragged element itself/);
    expect(() => handsParsers.drag({ ref: '4', dx: 'left' })).toThrow(/"dx" must be a number/);
    expect(() => handsParsers.drag({ ref: '4', dx: 0, dy: 0 })).toThrow(/both 0/);
    expect(() => handsParsers.drag({ ref: '4', dx: 1e9 })).toThrow(/at most 10000/);
    expect(() => handsParsers.drag({ ref: 'twelve', dx: 3 })).toThrow(/"ref" must be the number shown in brackets/);
  });
});

describe('click hold_ms', () => {
  it('is absent for a plain click, capped at 10 s, refused when negative', () => {
    expect(holdMs({})).toBeUndefined();
    expect(holdMs({ hold_ms: 0 })).toBeUndefined();
    expect(holdMs({ hold_ms: '1500' })).toEqual({ ms: 1500, capped: false });
    expect(holdMs({ hold_ms: 60_000 })).toEqual({ ms: MAX_HOLD_MS, capped: true });
    expect(() => holdMs({ hold_ms: -1 })).toThrow(/how long to hold/);
    expect(() => holdMs({ hold_ms: 'long' })).toThrow(/must be a number/);
  });
});

describe('double_click, right_click, upload arguments', () => {
  it('need a ref; upload needs file names, one name or a list', () => {
    expect(handsParsers.double_click({ ref: 3 })).toEqual({ ref: '3' });
    expect(() => handsParsers.right_click({})).toThrow(/right_click needs "ref"/);
    expect(handsParsers.upload({ ref: '7', files: 'cv.pdf' })).toEqual({ ref: '7', files: ['cv.pdf'] });
    expect(handsParsers.upload({ ref: '7', files: ['a.txt', ' a.txt ', 'b.csv'] })).toEqual({ ref: '7', files: ['a.txt', 'b.csv'] });
    expect(() => handsParsers.upload({ ref: '7' })).toThrow(/upload needs "files"/);
    expect(() => handsParsers.upload({ ref: '7', files: [{ name: 'x', content: 'made up' }] })).toThrow(/must be file names/);
  });
});

describe('which attached files an upload names', () => {
  const attached = [
    { name: 'CV.pdf', type: 'application/pdf', size: 12_345 },
    { name: 'notes.txt', type: 'text/plain', size: 80 },
  ];

  it('matches exactly, then a path’s last part, then ignoring case', () => {
    expect(pickFiles(['notes.txt'], attached)).toEqual([attached[1]]);
    expect(pickFiles(['C:\\Users\\me\\CV.pdf', 'cv.PDF'], attached)).toEqual([attached[0], attached[0]]);
  });

  it('refuses a name that is not attached, listing what is', () => {
    expect(() => pickFiles(['passport.jpg'], attached)).toThrow(
      '"passport.jpg" is not an attached file. Attached: CV.pdf, notes.txt. Only attached files can be uploaded.',
    );
    expect(() => pickFiles(['notes.txt'], [])).toThrow(/No files are attached/);
  });

  it('describes a file by name, size and type only', () => {
    expect(describeFile(attached[0]!)).toBe('CV.pdf (12.1 KB, application/pdf)');
    expect(describeFile(attached[1]!)).toBe('notes.txt (80 B, text/plain)');
  });

  it('reads accept as browsers do: MIME types, families and extensions', () => {
    expect(accepts('', attached[0]!)).toBe(true);
    expect(accepts('application/pdf', attached[0]!)).toBe(true);
    expect(accepts('image/*', attached[0]!)).toBe(false);
    expect(accepts('image/*, .PDF', attached[0]!)).toBe(true);
    expect(accepts('.txt,.md', attached[1]!)).toBe(true);
    expect(accepts('text/*', attached[1]!)).toBe(true);
    expect(accepts('.csv', attached[1]!)).toBe(false);
  });
});

describe('the path of a drag', () => {
  it('starts with a short step past activation distances, ends at the target and rests there', () => {
    const path = dragPath({ x: 100, y: 100 }, { x: 300, y: 100 });
    expect(path[0]).toEqual({ x: 100 + FIRST_STEP, y: 100 });
    expect(path.slice(-REST_MOVES - 1)).toEqual(Array(REST_MOVES + 1).fill({ x: 300, y: 100 }));
    const xs = path.map((p) => p.x);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
  });

  it('never takes more than MAX_STEPS even steps', () => {
    expect(dragPath({ x: 0, y: 0 }, { x: 5000, y: 5000 }).length).toBe(1 + MAX_STEPS + REST_MOVES);
  });
});
