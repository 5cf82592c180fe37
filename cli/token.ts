/**
 * The token the runner sends when --token is not given: the personal token `npm start` keeps
 * in a file (server/node.ts: PAGEHAND_TOKEN_FILE, else node_modules/.cache/pagehand/personal-token
 * under the repository) when the proxy is on this machine, else $PAGEHAND_TOKEN.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** The repository root: dist/cli.js and cli/pagehand.ts both sit one level below it. */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

export const personalTokenFile = (env: Record<string, string | undefined>): string =>
  env.PAGEHAND_TOKEN_FILE?.trim() || `${ROOT}node_modules/.cache/pagehand/personal-token`;

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
