/**
 * What an action makes the page do, judged as the action's target is: a request that changes
 * something, a beacon, a navigation or a new window the page starts while the action runs
 * (held by the page layer: page/settle/effects.ts) is judged by where it goes and its method,
 * with the rules links and forms are judged by (./risk.ts): the address's words (`urlKind`), a
 * DELETE, a file, another site. A risky one asks the user like any other risk (./confirm.ts),
 * with a reason that names the action and what it caused; refused, it never goes, and the
 * action's result tells the model.
 */
import type { PageEffect, EffectWatch } from '../page/settle/effect-gate';
import type { CallTarget, PlannedCall, RiskKind } from '../agent/public-types';
import { confirmCall, type ConfirmHost } from './confirm';
import { DOES, DOWNLOAD_PATH, fileName, originOf, safePath, unjudged, urlKind, type Risk } from './risk';

const DOING: Record<string, string> = {
  click: 'Clicking',
  double_click: 'Double-clicking',
  right_click: 'Right-clicking',
  hover: 'Hovering over',
  type: 'Typing into',
  press_key: 'Pressing a key on',
  select_option: 'Choosing',
  drag: 'Dragging',
};

/** `Clicking button "Show more"`, `Typing into textbox "Search"`, `The scroll action`. */
function doing(call: PlannedCall, target: CallTarget | undefined): string {
  const verb = DOING[call.name] ?? `The ${call.name} action on`;
  return target ? `${verb} ${target.role} "${target.name.slice(0, 60)}"` : DOING[call.name] ? `${verb} the page` : `The ${call.name} action`;
}

const TAIL: Partial<Record<RiskKind, string>> = { ...DOES, download: 'would download a file', leaving_site: 'leaves this site' };

/**
 * The risks of one effect (none: it goes at once). Requests: a DELETE, or an address whose words
 * say delete or pay (`/account/delete`, `/api/orders`); reading (GET, HEAD) is never asked about.
 * Navigations and windows: as a link there (a form's POST as a form sent there), a file, another site.
 */
export function effectRisks(e: PageEffect, here: string, by: string): Risk[] {
  const to = originOf(e.url);
  const page = to === originOf(here) ? safePath(e.url) : `${to ?? ''}${safePath(e.url)}`;
  const what =
    e.kind === 'request'
      ? `send a ${e.method} request to ${page}`
      : e.kind === 'beacon'
        ? `send a beacon to ${page}`
        : e.kind === 'window'
          ? `open a window on ${page}`
          : e.method === 'POST'
            ? `submit a form to ${page}`
            : `go to ${page}`;
  const out: Risk[] = [];
  const add = (kind: RiskKind): void => {
    if (!out.some((r) => r.kind === kind)) out.push({ kind, reason: `${by} made the page ${what}, which ${TAIL[kind]}.` });
  };
  if (!to) {
    // about:blank opens an empty window; any other scheme (javascript:, data:) is not read here.
    return e.url === 'about:blank' || e.kind === 'request' || e.kind === 'beacon'
      ? []
      : [unjudged(`${by} made the page open a ${new URL(e.url).protocol} address`)];
  }
  if (e.method === 'DELETE') add('deletion');
  const kind = urlKind(e.url, e.method !== 'GET');
  if (kind) add(kind);
  if (e.kind === 'navigation' || e.kind === 'window') {
    if (DOWNLOAD_PATH.test(fileName(e.url))) add('download');
    if (to !== originOf(here)) add('leaving_site');
  }
  return out;
}

/** The same address, whatever the fragment. */
const place = (url: string): string => url.replace(/#.*/, '');

/**
 * One action's gate: effects that go where the call itself was judged to go (`own`) pass; the
 * others are judged, and a risky one waits for the user (one question at a time).
 */
export function watchEffects(host: ConfirmHost, call: PlannedCall, target: CallTarget | undefined, own: readonly string[]): EffectWatch {
  const by = doing(call, target);
  const waits: Array<Promise<boolean>> = [];
  const blocked = new Set<string>();
  /** One answer per effect within an action: typing "kim" into a field that posts on each key asks once. */
  const answers = new Map<string, Promise<true | string>>();
  let queue: Promise<unknown> = Promise.resolve();
  return {
    gate(e) {
      // The form a click submits, sent by the page's script, or the link it follows: judged with the call.
      if (own.some((u) => place(u) === place(e.url))) return undefined;
      const risks = effectRisks(e, location.href, by);
      if (!risks.length) return undefined;
      const key = `${e.kind} ${e.method} ${place(e.url)}`;
      let answer = answers.get(key);
      if (!answer) {
        // A synchronous request cannot wait for anyone: refused.
        answer = e.now
          ? Promise.resolve(`Not done: ${risks[0]!.reason} It could not wait for the user's answer.`)
          : queue.then(() => confirmCall(host, risks, call, target, undefined));
        if (!e.now) queue = answer;
        answers.set(key, answer);
      }
      const p = answer.then((a) => {
        if (a !== true) blocked.add(`The page's ${e.kind} was stopped. ${a}`);
        return a === true;
      });
      waits.push(p);
      return p;
    },
    async done() {
      await Promise.all(waits);
      return blocked.size ? `${[...blocked].join(' ')} Do not try to make it happen again.` : '';
    },
  };
}
