/**
 * The personal token `npm start` uses when no PAGEHAND_SITES is set: random, usable from any
 * origin, kept in a file (mode 600, under node_modules/.cache, which git ignores) so a dragged
 * bookmarklet keeps working across restarts.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

const TOKEN_SHAPE = /^ph_[A-Za-z0-9_-]{32,}$/;

/**
 * @example
 * const token = await loadPersonalToken('node_modules/.cache/pagehand/personal-token');
 */
export async function loadPersonalToken(file: string): Promise<string> {
  try {
    const saved = (await readFile(file, 'utf8')).trim();
    if (TOKEN_SHAPE.test(saved)) return saved;
  } catch {
    // no token yet
  }
  const token = `ph_${randomBytes(24).toString('base64url')}`;
  try {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, `${token}\n`, { mode: 0o600 });
  } catch {
    // Read-only install: the token simply changes on the next start.
  }
  return token;
}
