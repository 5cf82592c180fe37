/**
 * The personal token survives reinstalls: it lives in the user's configuration folder, not in
 * node_modules (which `npm ci` wipes, silently breaking installed bookmarklets and userscripts),
 * and a token from the old place is carried over once.
 */
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPersonalToken } from '../../server/node/personal-token';
import { legacyTokenFile, personalTokenFile } from '../../server/node/token-file';

const dirs: string[] = [];
const tmp = async () => {
  const d = await mkdtemp(join(tmpdir(), 'pagehand-token-'));
  dirs.push(d);
  return d;
};
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('where the personal token lives', () => {
  it('PAGEHAND_TOKEN_FILE first, then XDG_CONFIG_HOME, then ~/.config — never under node_modules', () => {
    const home = () => '/home/ana';
    expect(personalTokenFile({ PAGEHAND_TOKEN_FILE: ' /srv/token ' }, home)).toBe('/srv/token');
    expect(personalTokenFile({ XDG_CONFIG_HOME: '/cfg' }, home)).toBe(join('/cfg', 'pagehand', 'personal-token'));
    expect(personalTokenFile({}, home)).toBe(join('/home/ana', '.config', 'pagehand', 'personal-token'));
    expect(personalTokenFile({}, home)).not.toContain('node_modules');
  });

  it('a token kept by an older version in node_modules is carried over, so installed bookmarklets keep working', async () => {
    const root = await tmp();
    const legacy = legacyTokenFile(root);
    const old = `ph_${'a'.repeat(32)}`;
    await mkdir(join(root, 'node_modules', '.cache', 'pagehand'), { recursive: true });
    await writeFile(legacy, `${old}\n`);
    const file = join(await tmp(), 'pagehand', 'personal-token');
    expect(await loadPersonalToken(file, legacy)).toBe(old);
    expect((await readFile(file, 'utf8')).trim()).toBe(old);
    // `npm ci` removes node_modules: the token stays.
    await rm(join(root, 'node_modules'), { recursive: true });
    expect(await loadPersonalToken(file, legacy)).toBe(old);
  });

  it('without any saved token a new one is made and kept', async () => {
    const file = join(await tmp(), 'nested', 'personal-token');
    const made = await loadPersonalToken(file, join(await tmp(), 'missing'));
    expect(made).toMatch(/^ph_[A-Za-z0-9_-]{32,}$/);
    expect(await loadPersonalToken(file)).toBe(made);
  });
});
