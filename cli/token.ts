/**
 * The token the runner sends when --token is not given: the personal token `npm start` keeps
 * in a file (server/node/token-file.ts: PAGEHAND_TOKEN_FILE, else the user's configuration
 * folder) when the proxy is on this machine, else $PAGEHAND_TOKEN.
 */
import { readFile } from 'node:fs/promises';
import { personalTokenFile } from '../server/node/token-file';

export { personalTokenFile };

export function isLoopbackUrl(url: string): boolean {
  try {
    return /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\])$/i.test(new URL(url).hostname);
  } catch {
    return false;
  }
}

export interface TokenChoice {
  token?: string;
  /** Where it came from, for messages: `--token`, the file's path, `PAGEHAND_TOKEN`. */
  source: string;
}

export async function defaultToken(proxy: string, given: string | undefined, env: Record<string, string | undefined>): Promise<TokenChoice> {
  if (given) return { token: given, source: '--token' };
  if (isLoopbackUrl(proxy)) {
    const file = personalTokenFile(env);
    try {
      const saved = (await readFile(file, 'utf8')).trim();
      if (saved) return { token: saved, source: file };
    } catch {
      // no personal token: the proxy was never started here, or runs with PAGEHAND_SITES
    }
  }
  const fromEnv = env.PAGEHAND_TOKEN?.trim();
  if (fromEnv) return { token: fromEnv, source: 'PAGEHAND_TOKEN' };
  return { token: undefined, source: 'none' };
}
