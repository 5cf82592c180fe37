/**
 * Where the personal token lives: a per-user configuration folder, so `npm ci`, a reinstall or
 * a fresh clone keep the token that installed bookmarklets and userscripts carry.
 *
 *   PAGEHAND_TOKEN_FILE                  when set
 *   $XDG_CONFIG_HOME/pagehand/personal-token
 *   ~/.config/pagehand/personal-token    (Linux, macOS)
 *   %APPDATA%\pagehand\personal-token    (Windows)
 *
 * Shared by the Node server (which writes it) and the runner (which reads it). No Node-only
 * import beyond path/os, so both entries can use it.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

type Env = Record<string, string | undefined>;

/**
 * @example
 * personalTokenFile(process.env) // '/home/ana/.config/pagehand/personal-token'
 */
export function personalTokenFile(env: Env, home: () => string = homedir): string {
  const given = env.PAGEHAND_TOKEN_FILE?.trim();
  if (given) return given;
  const base = env.XDG_CONFIG_HOME?.trim() || (process.platform === 'win32' && env.APPDATA?.trim()) || join(home(), '.config');
  return join(base, 'pagehand', 'personal-token');
}

/** Where versions before this one kept the token (inside the install, lost by `npm ci`). */
export const legacyTokenFile = (root: string): string => join(root, 'node_modules', '.cache', 'pagehand', 'personal-token');
