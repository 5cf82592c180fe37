/**
 * The confirmation flow: a call that may pay, delete, send, submit personal data, leave the
 * site or download — or a site tool that does not declare itself read-only — runs only after
 * the user's yes. Judged on what the call will do (`targetFacts` on the canonical call), never
 * on the model's words. Asked through the run's `confirm` callback, else through the handle's
 * `confirm` event (the overlay, the runner); with neither, the call is refused.
 */
import { targetFacts } from '../page/facts';
import type { PageSettings } from '../page/settings';
import type { Emitter } from './events';
import type { Call } from './calls';
import type { SavedRun } from './persist';
import { classifyRisks, siteToolRisk, type Risk } from './risk';
import { pageToolRisks } from '../webmcp/offer';
import { clock, spent } from '../page/step-parts';
import type { Allowance, CallTarget, ConfirmRequest, RunEvents, RunOptions } from './types';

export interface ConfirmHost {
  readonly state: SavedRun;
  readonly emitter: Emitter<RunEvents>;
  readonly signal: AbortSignal;
  /** The run's (or the site's) callback, read at each use. */
  confirmFn(): RunOptions['confirm'] | undefined;
  /** What the page layer judges with: the site's marks and zones, the run's frames. */
  pageSettings(): PageSettings;
  /** The page is a stranger's: its marks may add caution, never remove it. */
  readonly untrustedPage: boolean;
}

/** Every risk of a call, most telling first; none for calls that do not act. */
export function risksOf(call: Call, settings: PageSettings, untrusted: boolean): Risk[] {
  try {
    if (call.kind === 'site') {
      const r = siteToolRisk(call.tool);
      return r ? [r] : [];
    }
    if (call.kind === 'page_tool') return pageToolRisks(call.tool, settings.masks);
    if (call.kind === 'page') return classifyRisks(call.action, targetFacts(call.action, settings), location.href, { trustMarks: !untrusted });
  } catch {
    /* a page that breaks the facts gets no question rather than a crash */
  }
  return [];
}

const allowance = (r: Risk): Allowance => (r.tool ? `tool:${r.tool}` : r.kind);

/**
 * true, or the sentence the model reads when the user (or nobody) said no. The user's
 * "always" holds for a kind, and for a site tool by its name only. One question per call,
 * about its first risk not yet allowed: an "always" for sending does not let a "Send" button
 * that also pays through.
 */
export async function confirmCall(host: ConfirmHost, call: Call, target: CallTarget | undefined, goal: string | undefined): Promise<true | string> {
  const allowed = host.state.allowed;
  const granted = (r: Risk): boolean => allowed.includes(allowance(r)) || (r.kind !== 'site_tool' && allowed.includes(r.kind));
  const t = clock();
  const risk = risksOf(call, host.pageSettings(), host.untrustedPage).find((r) => !granted(r));
  spent('risk', t);
  if (!risk) return true;
  const request: ConfirmRequest = { kind: risk.kind, call: { name: call.planned.name, args: call.planned.args }, target, reason: risk.reason, goal };
  let yes = false;
  let asked = true;
  const confirmFn = host.confirmFn();
  if (confirmFn) {
    try {
      yes = (await confirmFn(request)) === true;
    } catch {
      yes = false;
    }
  } else if (host.emitter.count('confirm') > 0) {
    yes = await new Promise<boolean>((resolve) => {
      let answered = false;
      const respond = (ok: boolean, always?: boolean): void => {
        if (answered) return;
        answered = true;
        if (ok && always && !allowed.includes(allowance(risk))) allowed.push(allowance(risk));
        resolve(ok === true);
      };
      host.signal.addEventListener('abort', () => respond(false), { once: true });
      host.emitter.emit('confirm', { request, respond });
    });
  } else asked = false;
  if (yes) return true;
  return asked
    ? `The user did not allow this: ${risk.reason}`
    : `Not done: ${risk.reason} Such actions need the user's confirmation and no one could be asked.`;
}
