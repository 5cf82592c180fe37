/**
 * What the dispatch runs besides its own kinds of call: a `type` whose text holds
 * `<secret:NAME>` placeholders (the page gets the values; the call as recorded keeps the
 * placeholders), and the page's WebMCP tools — a registered tool's `execute`, or a declared
 * form filled with pagehand's own actions and, with `toolautosubmit`, submitted after the
 * normal risk check of that submit. Every result comes back with the secrets masked.
 */
import { act } from '../page/actions/index';
import { createDescriber } from '../page/names/describe';
import { parseCall } from '../page/actions/args';
import type { ActionCall, ActionResult } from '../page/actions/contract';
import type { Call, PageCall, PageToolCall } from './calls';
import type { PageSettings } from '../page/settings';
import type { SavedRun } from './persist';
import type { CallTarget } from './public-types';
import { hasPlaceholder, maskResult, withSecrets, type RunSecrets } from '../safety/secrets';
import { agentLazy } from './lazy';

/** What the extended calls need from their run (a part of dispatch.ts's DispatchHost). */
interface Host {
  readonly state: Pick<SavedRun, 'secrets'>;
  readonly ended: boolean;
  readonly signal?: AbortSignal;
  confirm(call: Call, target: CallTarget | undefined, goal: string | undefined): Promise<true | string | ActionResult>;
  beforeAction(call: PageCall, target: CallTarget | undefined): void;
  pageSettings(): PageSettings;
}

const failure = (message: string, kind: 'bad_args' | 'failed' = 'failed'): ActionResult => ({ ok: false, message, error: { kind }, changes: {} });

/** A page action with its secrets filled in, run by `act`. */
async function actWithSecrets(action: PageCall['action'], secrets: RunSecrets | undefined, settings: PageSettings): Promise<ActionResult> {
  const filled = withSecrets(action, secrets, location.origin);
  if ('error' in filled) return failure(filled.error, 'bad_args');
  return maskResult(await act(filled.action, undefined, settings), secrets);
}

/**
 * Runs `call` if it is one of ours (a `type` with a secret, a page tool), else `otherwise()`;
 * the result has every secret masked.
 */
export async function runExtended(host: Host, call: Call, goal: string | undefined, otherwise: () => Promise<ActionResult>): Promise<ActionResult> {
  const secrets = host.state.secrets;
  if (call.kind === 'page' && call.action.name === 'type' && hasPlaceholder(call.action.args.text))
    return actWithSecrets(call.action, secrets, host.pageSettings());
  if (call.kind === 'page_tool') return maskResult(await runPageTool(host, call, goal), secrets);
  return maskResult(await otherwise(), secrets);
}

/** The page action for a call a form tool makes, in the canonical form the risk check reads. */
function pageCall(c: ActionCall): PageCall | undefined {
  const p = parseCall({ name: c.name, args: c.args ?? {} });
  return p.ok ? { kind: 'page', planned: { name: c.name, args: c.args ?? {} }, action: p.call } : undefined;
}

async function runPageTool(host: Host, call: PageToolCall, goal: string | undefined): Promise<ActionResult> {
  const t = call.tool;
  // Loaded on first use; by now the run has loaded the bridge that offered the tool.
  if (t.registered) return (await agentLazy()).webmcp.executeRegistered(t, call.args, host.signal);
  if (!t.form) return failure(`"${t.name}" cannot run here.`);
  const { fillPlan, fillReport } = await agentLazy();
  const plan = fillPlan(t.form, call.args, createDescriber(host.pageSettings()));
  if ('error' in plan) return failure(plan.error, 'bad_args');
  const results: ActionResult[] = [];
  for (const c of plan.calls) {
    const p = pageCall(c);
    if (!p) return failure(`The form "${t.name}" could not be filled.`);
    const r = await actWithSecrets(p.action, host.state.secrets, host.pageSettings());
    results.push(r);
    if (!r.ok || r.changes.navigation || host.ended) return { ...r, message: fillReport(t.form, results, false) };
  }
  if (!plan.submit) return { ok: true, message: fillReport(t.form, results, false), changes: results[results.length - 1]?.changes ?? {} };
  const submit = pageCall(plan.submit);
  if (!submit) return failure(`The form "${t.name}" could not be submitted.`);
  // The submit is judged now, with the form filled: what it would send is what it holds now.
  const allowed = await host.confirm(submit, undefined, goal);
  if (host.ended) return failure('The run ended.');
  if (allowed !== true)
    return {
      ok: false,
      message: `Filled the form "${t.name}", but it was not submitted: ${typeof allowed === 'object' ? allowed.message : allowed}`,
      error: { kind: 'failed' },
      changes: {},
    };
  host.beforeAction(submit, undefined);
  const r = await act(submit.action, undefined, host.pageSettings());
  results.push(r);
  return { ...r, message: fillReport(t.form, results, r.ok) };
}
