/**
 * The confirmation flow: a call that may pay, delete, send, submit personal data, leave the
 * site or download — or a site tool that does not declare itself read-only — runs only after
 * the user's yes. Its risks (./risk.ts) are judged on what the call will do (./facts.ts on the
 * canonical call), never on the model's words. Asked through the run's `confirm` callback, else through the handle's
 * `confirm` event (the overlay, the runner); with neither, the call is refused.
 */
import type { Allowance, CallTarget, ConfirmRequest, PlannedCall, RunEvents, RunOptions } from '../agent/public-types';
import type { Risk } from './risk';

/** What the flow needs of the run: its allowances, its callback or listeners, its end. */
export interface ConfirmHost {
  /** The user's "always" answers so far (kinds, and `tool:NAME` for site tools): grows here. */
  readonly allowed: Allowance[];
  readonly emitter: { count(event: 'confirm'): number; emit(event: 'confirm', payload: RunEvents['confirm']): void };
  readonly signal: AbortSignal;
  /** The run's (or the site's) callback, read at each use. */
  confirmFn(): RunOptions['confirm'] | undefined;
}

const allowance = (r: Risk): Allowance => (r.tool ? `tool:${r.tool}` : r.kind);
/** What pagehand could not judge may be anything: each call is asked about, whatever "always" was given (or forged into a saved run). */
const once = (r: Risk): boolean => r.kind === 'unjudged';

/**
 * true, or the sentence the model reads when the user (or nobody) said no. The user's
 * "always" holds for a kind, and for a site tool by its name only. One question per call,
 * about its first risk not yet allowed: an "always" for sending does not let a "Send" button
 * that also pays through.
 */
export async function confirmCall(
  host: ConfirmHost,
  risks: readonly Risk[],
  planned: PlannedCall,
  target: CallTarget | undefined,
  goal: string | undefined,
): Promise<true | string> {
  const allowed = host.allowed;
  const granted = (r: Risk): boolean => !once(r) && (allowed.includes(allowance(r)) || (r.kind !== 'site_tool' && allowed.includes(r.kind)));
  const risk = risks.find((r) => !granted(r));
  if (!risk) return true;
  const request: ConfirmRequest = {
    kind: risk.kind,
    call: { name: planned.name, args: planned.args },
    target,
    reason: risk.reason,
    ...(risk.said ? { said: risk.said } : {}),
    goal,
  };
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
        if (ok && always && !once(risk) && !allowed.includes(allowance(risk))) allowed.push(allowance(risk));
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
