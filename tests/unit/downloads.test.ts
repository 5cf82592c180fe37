import { describe, expect, it } from 'vitest';
import { downloadName, MAX_TEXT_BYTES, textOf } from '../../client/page/downloads';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('which downloads are text', () => {
  it('a text name or a text type, UTF-8 without NUL, up to the cap', () => {
    expect(textOf('notes.txt', 'application/octet-stream', bytes('hi\n'))).toEqual({ text: 'hi\n' });
    expect(textOf('export', 'text/csv', bytes('a,b'))).toEqual({ text: 'a,b' });
    expect(textOf('data.json', '', bytes('\uFEFF{"a":1}'))).toEqual({ text: '{"a":1}' });
    expect(textOf('README.md', '', bytes('# Title'))).toEqual({ text: '# Title' });
  });

  it('anything else is only named', () => {
    expect(textOf('logo.png', 'image/png', bytes('PNG'))).toEqual({ unreadable: 'binary' });
    expect(textOf('fake.txt', 'text/plain', new Uint8Array([104, 0, 105]))).toEqual({ unreadable: 'binary' });
    expect(textOf('latin1.txt', 'text/plain', new Uint8Array([0xe9, 0x20, 0x61]))).toEqual({ unreadable: 'binary' });
    expect(textOf('big.csv', 'text/csv', new Uint8Array(MAX_TEXT_BYTES + 1).fill(97))).toEqual({ unreadable: 'too big' });
    expect(textOf('exact.csv', 'text/csv', new Uint8Array(MAX_TEXT_BYTES).fill(97)).text).toHaveLength(MAX_TEXT_BYTES);
  });

  it("names a download by the site's name, else the URL's last part; never a path or control characters", () => {
    expect(downloadName('report.csv', 'https://shop.test/x')).toBe('report.csv');
    expect(downloadName('', 'https://shop.test/files/Q3%20report.pdf?x=1')).toBe('Q3 report.pdf');
    expect(downloadName('../../etc/passwd', 'https://shop.test/')).toBe('passwd');
    expect(downloadName('a\u001b[31mb.txt', 'blob:https://shop.test/1')).toBe('a[31mb.txt');
    expect(downloadName('', 'blob:https://shop.test/123')).toBe('download');
  });
});
