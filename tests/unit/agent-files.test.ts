import { describe, expect, it } from 'vitest';
import { NO_MASKS } from '../../client/safety/masks';
import { filesFor, filesProblem, MAX_RUN_FILES } from '../../client/agent/files';
import { stepMessage } from '../../client/agent/prompt';

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
    // What each step's message tells the model (the loop hands it the run's files).
    const message = (files: File[]) =>
      stepMessage({ task: 'apply', step: 1, maxSteps: 5, history: [], omitted: 0, lastResults: [], notes: [], files, map: '' }, { masks: NO_MASKS });
    const text = message([file('cv.pdf', 'SECRET-CONTENT', 'application/pdf')]);
    expect(text).toContain('# Attached files (upload puts them into the page by name)\n⟪page content⟫\ncv.pdf (14 B, application/pdf)\n⟪/page content⟫');
    expect(text).not.toContain('SECRET');
    expect(message([])).not.toContain('Attached files');
  });

  it('may be uploaded only on the origin where the run started', () => {
    const files = [file('cv.pdf')];
    expect(filesFor({ files, origin: 'https://jobs.example' }, 'https://jobs.example')).toBe(files);
    expect(filesFor({ files, origin: 'https://jobs.example' }, 'https://evil.example')).toEqual([]);
    expect(filesFor(undefined, 'https://jobs.example')).toEqual([]);
  });
});
