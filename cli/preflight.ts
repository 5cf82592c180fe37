/**
 * What the runner checks before it starts a browser, so the common mistakes end in one clear
 * sentence: Chromium is not there, the proxy is not running, the token is refused, the model
 * is not allowed.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { NO_PROVIDER_FIX } from '../common/no-provider';

/** GET /v1/config's answer, or its error, as the proxy sends them (read defensively). */
interface ConfigBody {
  error?: { code?: string; message?: string };
  models?: unknown;
  defaultModel?: string;
  providers?: unknown;
}

export class CliError extends Error {
  override readonly name = 'CliError';
}

export async function checkChromium(path: string): Promise<void> {
  const hint = 'Install it (Debian/Ubuntu: `apt-get install chromium`) or point to it with --chromium PATH or CHROMIUM_PATH.';
  try {
    if (!(await stat(path)).isFile()) throw new Error('not a file');
  } catch {
    throw new CliError(`Chromium not found at ${path}. ${hint}`);
  }
  try {
    await access(path, constants.X_OK);
  } catch {
    throw new CliError(`Chromium at ${path} is not executable. ${hint}`);
  }
}

export interface ProxyInfo {
  models: string[];
  defaultModel?: string;
  /** Which providers the proxy has keys for (absent from proxies that do not say). */
  providers?: { openai?: boolean; gemini?: boolean };
}

/** GET /v1/config with the token, as the page will; resolves to the models the token may use. */
export async function checkProxy(proxy: string, token: string | undefined, tokenSource: string): Promise<ProxyInfo> {
  let res: Response;
  try {
    res = await fetch(`${proxy}/v1/config`, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      signal: AbortSignal.timeout(15_000),
    });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } })?.cause;
    const why =
      cause?.code === 'ECONNREFUSED'
        ? 'connection refused'
        : (e as Error)?.name === 'TimeoutError'
          ? 'no answer in 15 s'
          : (cause?.code ?? cause?.message ?? String((e as Error)?.message ?? e));
    throw new CliError(`The pagehand proxy at ${proxy} is not reachable (${why}). Start it with \`npm start\`, or pass --proxy URL.`);
  }
  let body: ConfigBody | undefined;
  try {
    body = (await res.json()) as ConfigBody;
  } catch {
    body = undefined;
  }
  if (res.status === 401 || res.status === 403) {
    const code = body?.error?.code ?? res.status;
    const detail = body?.error?.message ? `: ${body.error.message}` : '';
    const which = token ? `the token (from ${tokenSource})` : 'the request: no token was given';
    throw new CliError(
      `The proxy at ${proxy} refused ${which} (${code}${detail}). Pass --token T (the token \`npm start\` prints, or a site token from PAGEHAND_SITES), or set PAGEHAND_TOKEN.`,
    );
  }
  if (!res.ok || !body || !Array.isArray(body.models)) {
    const detail = body?.error?.message ?? `HTTP ${res.status}`;
    throw new CliError(`${proxy} did not answer as a pagehand proxy (GET /v1/config: ${detail}). Is --proxy right?`);
  }
  return {
    models: body.models,
    defaultModel: body.defaultModel,
    ...(body.providers && typeof body.providers === 'object' ? { providers: body.providers } : {}),
  };
}

/** The model must be one the token may use (`*` in the list allows any). */
export function checkModel(info: ProxyInfo, model: string | undefined, proxy: string): void {
  // No provider: no model can answer, whatever --model says.
  if (info.providers && !info.providers.openai && !info.providers.gemini) {
    throw new CliError(`The proxy at ${proxy} has no model provider configured: ${NO_PROVIDER_FIX}`);
  }
  if (!model) {
    if (!info.defaultModel && !info.models.length) {
      throw new CliError(`The proxy at ${proxy} offers no model to this token: configure a provider and a model on the proxy (see its install page).`);
    }
    return;
  }
  if (info.models.length && !info.models.includes('*') && !info.models.includes(model)) {
    throw new CliError(`The model "${model}" is not allowed for this token on ${proxy}. Allowed: ${info.models.join(', ')}.`);
  }
}
