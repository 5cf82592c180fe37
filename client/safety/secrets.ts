/**
 * `run(task, { secrets: { card: '4111…' } })`: values the agent may type but never see. The
 * model reads `<secret:card>`; `type` (and a declared form tool's fields) put the real value
 * into the page, on the origin where the run started only; the value is masked out of every
 * page text the model reads (./masks.ts) and out of every model request (`maskSecrets`).
 * Nothing else substitutes placeholders: a URL to navigate to, a key to press or a site tool's
 * arguments keep the literal `<secret:card>`, so a hijacked model cannot send a value off the
 * page through them. Pure.
 */
import type { ParsedCall } from '../page/actions/args';
import type { ActionResult } from '../page/actions/contract';
import { secretPlaceholder } from './masks';
import { secretsProblem } from '../../common/secrets-check';

export { secretsProblem };

/** What the run keeps: the values and the origin they may be typed on. */
export interface RunSecrets {
  values: Record<string, string>;
  /** `location.origin` when the run started. */
  origin: string;
}

const PLACEHOLDER = /<secret:([A-Za-z][A-Za-z0-9_-]{0,31})>/g;

/** The `<secret:NAME>` placeholders the model may use, for the prompt. */
export const secretNames = (s: RunSecrets | undefined): string[] => Object.keys(s?.values ?? {});

export { secretPlaceholder };

/**
 * The text with each `<secret:NAME>` replaced by its value, when typing on `origin`. An unknown
 * name, or another origin than the run's, is an error for the model (nothing is typed).
 */
export function fillSecrets(text: string, secrets: RunSecrets | undefined, origin: string): { text: string; used: string[] } | { error: string } {
  const used: string[] = [];
  let error: string | undefined;
  const out = text.replace(PLACEHOLDER, (all, name: string) => {
    const value = secrets?.values[name];
    if (value === undefined) {
      error ??= `There is no secret named "${name}"${secretNames(secrets).length ? `; the secrets are ${secretNames(secrets).map(secretPlaceholder).join(', ')}` : ''}.`;
      return all;
    }
    if (origin !== secrets!.origin) {
      error ??= `${secretPlaceholder(name)} may be typed only on ${secrets!.origin}, where the run started; this page is ${origin}.`;
      return all;
    }
    if (!used.includes(name)) used.push(name);
    return value;
  });
  return error ? { error } : { text: out, used };
}

/** Any placeholder in the text (a call that would need `fillSecrets`). */
export const hasPlaceholder = (text: string): boolean => new RegExp(PLACEHOLDER.source).test(text);

/** Every string in a JSON-like value, masked (for a whole model request). */
export function maskDeep<T>(value: T, mask: (s: string) => string): T {
  if (typeof value === 'string') return mask(value) as T;
  if (Array.isArray(value)) return value.map((v) => maskDeep(v, mask)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = maskDeep(v, mask);
    return out as T;
  }
  return value;
}

/**
 * The text with every secret value replaced by its placeholder — in full (raw, whitespace
 * collapsed, JSON-escaped) and where a report cut it short (a prefix of at least 6 characters
 * right before `…`). The last guard before a request leaves the page.
 */
export function maskSecrets(text: string, secrets: RunSecrets | undefined): string {
  const entries = Object.entries(secrets?.values ?? {}).sort((a, b) => b[1].length - a[1].length);
  if (!entries.length || !text) return text;
  let out = text;
  for (const [name, value] of entries) {
    const forms = new Set([value, value.replace(/\s+/g, ' ').trim(), JSON.stringify(value).slice(1, -1)]);
    for (const f of forms) if (f) out = out.split(f).join(secretPlaceholder(name));
  }
  // A value cut short by a report (`"4111 1111 11…"`): its prefix before the ellipsis.
  for (const [name, value] of entries) {
    for (let at = out.indexOf('…'); at >= 0; at = out.indexOf('…', at + 1)) {
      for (let k = Math.min(value.length - 1, at); k >= 6; k--) {
        if (out.slice(at - k, at) === value.slice(0, k)) {
          out = `${out.slice(0, at - k)}${secretPlaceholder(name)}${out.slice(at)}`;
          at = at - k + secretPlaceholder(name).length;
          break;
        }
      }
    }
  }
  return out;
}

/**
 * The page action as `act` should run it: a `type` whose text holds placeholders gets the
 * values (a copy: the call the history, the events and a recording keep still says
 * `<secret:NAME>`); any other action runs as it is. An error is the model's to read.
 */
export function withSecrets(action: ParsedCall, secrets: RunSecrets | undefined, origin: string): { action: ParsedCall } | { error: string } {
  if (action.name !== 'type' || !hasPlaceholder(action.args.text)) return { action };
  const filled = fillSecrets(action.args.text, secrets, origin);
  if ('error' in filled) return filled;
  return { action: { name: 'type', args: { ...action.args, text: filled.text } } };
}

/** A result with every secret value masked (message and changes): what the history, the events and a recording get. */
export function maskResult(result: ActionResult, secrets: RunSecrets | undefined): ActionResult {
  return secretNames(secrets).length ? maskDeep(result, (t) => maskSecrets(t, secrets)) : result;
}

/** A model request with every secret value masked: the last guard before it leaves the page. */
export function maskRequest<T>(request: T, secrets: RunSecrets | undefined): T {
  return secretNames(secrets).length ? maskDeep(request, (t) => maskSecrets(t, secrets)) : request;
}

/** What the model is told about the secrets (names only), for the system prompt; '' without any. */
export function secretsPrompt(secrets: RunSecrets | undefined): string {
  const names = secretNames(secrets);
  if (!names.length) return '';
  return `\n\n# Values you can type but not see\n${names.map(secretPlaceholder).join(', ')}: write one in type's text and the page gets its value. You never see the value; the page shows the placeholder instead.`;
}

/** As `run` throws for its other options: a `PagehandRunError` with a `code`. */
function runError(code: string, message: string): Error {
  return Object.assign(new Error(message), { name: 'PagehandRunError', code });
}

/** `run`'s `secrets`, checked (a mistake throws `invalid_secrets`), bound to this page's origin; undefined for none. */
export function runSecrets(secrets: unknown): RunSecrets | undefined {
  const problem = secretsProblem(secrets);
  if (problem) throw runError('invalid_secrets', `pagehand.run: ${problem}.`);
  const values = { ...(secrets as Record<string, string> | undefined) };
  return Object.keys(values).length ? { values, origin: location.origin } : undefined;
}
