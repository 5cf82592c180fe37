import { describe, expect, it } from 'vitest';
import { filesFor, filesLine, filesProblem, MAX_RUN_FILES } from '../../client/agent/files';

const file = (name: string, text = 'x', type = 'text/plain'): File => new File([text], name, { type });

describe('run files', () => {
  it('are File objects with distinct names, at most 20', () => {
    expect(filesProblem(undefined)).toBeUndefined();
    expect(filesProblem([file('a.txt'), file('b.csv')])).toBeUndefined();
    expect(filesProblem('a.txt')).toMatch(/array of File objects/);
    expect(filesProblem([{ name: 'a.txt', size: 1, type: 'text/plain' }])).toMatch(/must be File objects/);
    expect(filesProblem([file('a.txt'), file('a.txt')])).toMatch(/two files are named "a.txt"/);
    expect(filesProblem(Array.from({ length: MAX_RUN_FILES + 1 }, (_, i) => file(`${i}.txt`)))).toMatch(/at most 20/);
  });

  it('the model reads names, types and sizes, never content', () => {
    const line = filesLine([file('cv.pdf', 'SECRET-CONTENT', 'application/pdf')]);
    expect(line).toBe('Attached files (upload may put them into the page by name): cv.pdf (14 B, application/pdf).');
    expect(line).not.toContain('SECRET');
    expect(filesLine([])).toBe('');
  });

  it('may be uploaded only on the origin where the run started', () => {
    const files = [file('cv.pdf')];
    expect(filesFor({ files, origin: 'https://jobs.example' }, 'https://jobs.example')).toBe(files);
    expect(filesFor({ files, origin: 'https://jobs.example' }, 'https://evil.example')).toEqual([]);
    expect(filesFor(undefined, 'https://jobs.example')).toEqual([]);
  });
});
