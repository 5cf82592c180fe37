import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../cli/args';

describe('--file PATH', () => {
  it('is repeatable; paths are resolved from the working directory, each file once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pagehand-files-'));
    await writeFile(join(dir, 'cv.pdf'), '%PDF');
    await writeFile(join(dir, 'photo.png'), 'PNG');
    const p = parseArgs(['run', '--url', 'example.org', '--file', 'cv.pdf', `--file=${join(dir, 'photo.png')}`, '--file', './cv.pdf', 'apply'], {}, dir);
    expect(p).toMatchObject({ kind: 'run', args: { task: 'apply', files: [join(dir, 'cv.pdf'), join(dir, 'photo.png')] } });
    expect(parseArgs(['run', '--url', 'example.org', 'task'], {}, dir)).toMatchObject({ kind: 'run', args: { files: [] } });
  });

  it('refuses a file that does not exist, a folder, two files of one name, a --file without a value', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pagehand-files-'));
    await mkdir(join(dir, 'a'));
    await mkdir(join(dir, 'b'));
    await writeFile(join(dir, 'a', 'cv.pdf'), '1');
    await writeFile(join(dir, 'b', 'cv.pdf'), '2');
    const run = (...flags: string[]) => parseArgs(['run', '--url', 'example.org', ...flags, 'task'], {}, dir);
    expect(run('--file', 'missing.pdf')).toEqual({ kind: 'error', message: '--file must name a file that exists, got "missing.pdf"' });
    expect(run('--file', 'a')).toEqual({ kind: 'error', message: '--file must name a file that exists, got "a"' });
    expect(run('--file', 'a/cv.pdf', '--file', 'b/cv.pdf')).toEqual({
      kind: 'error',
      message: '--file: two files are named "cv.pdf" (the task names files by name)',
    });
    expect(parseArgs(['run', '--url', 'example.org', '--file'], {}, dir)).toEqual({ kind: 'error', message: '--file needs a value' });
  });
});
