/**
 * The personal token `npm start` uses when no PAGEHAND_SITES is set: random, usable from any
 * origin, kept in a file (mode 600, in the user's configuration folder: see token-file.ts) so
 * a dragged bookmarklet keeps working across restarts and reinstalls.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

const TOKEN_SHAPE = /^ph_[A-Za-z0-9_-]{32,}$/;

/**
 * @example
 * const token = await loadPersonalToken('node_modules/.cache/pagehand/personal-token');
 */
export async function loadPersonalToken(file: string, legacyFile?: string): Promise<string> {
  const saved = await readToken(file);
  if (saved) return saved;
  // A token from before the move is carried over, so bookmarklets made with it keep working.
  const token = (legacyFile && (await readToken(legacyFile))) || `ph_${randomBytes(24).toString('base64url')}`;
  try {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, `${token}\n`, { mode: 0o600 });
  } catch {
    // Read-only install: the token simply changes on the next start.
  }
  return token;
}

async function readToken(file: string): Promise<string | undefined> {
  try {
    const saved = (await readFile(file, 'utf8')).trim();
    return TOKEN_SHAPE.test(saved) ? saved : undefined;
  } catch {
    return undefined; // no token yet
  }
}
