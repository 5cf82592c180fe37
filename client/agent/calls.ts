/**
 * A model's calls in their one canonical form, made once right after the reply is parsed:
 * typed, defaults applied, refs parsed. Everything after — the risk check, the dispatch, the
 * history line, the recording — reads this form, never the model's raw arguments (those stay
 * on `planned`, for the events the user and the runner see). Pure.
 */
import { ACTION_TOOLS, ArgError, parseCall, TOOL_NAMES, type ParsedCall, type ToolName } from '../page/actions/args';
import { parseRef } from '../page/map/refs';
import type { Ref } from '../page/page-types';
import { describeCall } from './history';
import type { RawCall } from './reply';
import { AGENT_TOOL_TABLE, type AgentToolArgs } from './tools';
import type { CustomTool, PlannedCall } from './public-types';
import type { PageTool } from '../webmcp/page-tool';

/** A page action, typed (`pagehand.act` runs it). */
export interface PageCall {
  kind: 'page';
  planned: PlannedCall;
  action: ParsedCall;
}

/** A tool the loop runs itself, typed. */
export type AgentCall = { [K in keyof AgentToolArgs]: { kind: K; planned: PlannedCall; args: AgentToolArgs[K] } }[keyof AgentToolArgs];

/** A site's own tool: its arguments go to its handler as the model wrote them. */
export interface SiteCall {
  kind: 'site';
  planned: PlannedCall;
  tool: CustomTool;
  args: Record<string, unknown>;
}

/**
 * A call of a known tool with arguments that do not parse: it is reported as that tool's
 * failed result (`message`), as if it had run. `ref` is the target, when its ref parsed.
 */
export interface BadArgsCall {
  kind: 'bad_args';
  planned: PlannedCall;
  runs: 'page' | 'find';
  message: string;
  ref?: Ref;
}

/** A call that is not run at all: its arguments were not JSON, or no tool on offer has its name. */
export interface RejectedCall {
  kind: 'rejected';
  planned: PlannedCall;
  message: string;
}

/** A call of one of the page's WebMCP tools. */
export interface PageToolCall {
  kind: 'page_tool';
  planned: { name: string; args: Record<string, unknown> };
  tool: PageTool;
  args: Record<string, unknown>;
}

export type Call = PageCall | AgentCall | SiteCall | PageToolCall | BadArgsCall | RejectedCall;

export interface CallContext {
  /** The site's tools on offer, by name. */
  siteTools: ReadonlyMap<string, CustomTool>;
  /** The page's WebMCP tools on offer, by the name the model calls. */
  pageTools?: ReadonlyMap<string, PageTool>;
  /** Page actions on offer (the run's `allowedActions`); undefined: all. */
  allowedActions?: readonly string[];
  /** Every tool name the model is offered, for the "unknown tool" message. */
  offered: readonly string[];
}

const isAction = (name: string): name is ToolName => (TOOL_NAMES as readonly string[]).includes(name);
const isAgentTool = (name: string): name is keyof AgentToolArgs => Object.prototype.hasOwnProperty.call(AGENT_TOOL_TABLE, name);

/** Puts one call in its canonical form. */
export function normaliseCall(raw: RawCall, ctx: CallContext): Call {
  const planned: PlannedCall = { name: raw.name, args: raw.args };
  if (raw.error) return { kind: 'rejected', planned, message: `Not run: ${raw.error}. Send the arguments as a JSON object.` };
  const name = raw.name;
  if (name === 'done' || name === 'fail' || name === 'ask_user') {
    return { kind: name, planned, args: AGENT_TOOL_TABLE[name].parse(raw.args) } as AgentCall;
  }
  const tool = ctx.siteTools.get(name);
  if (tool) return { kind: 'site', planned, tool, args: raw.args };
  const pageTool = ctx.pageTools?.get(name);
  if (pageTool) return { kind: 'page_tool', planned, tool: pageTool, args: raw.args };
  const offered = !ctx.allowedActions || ctx.allowedActions.includes(name);
  if (isAgentTool(name)) return parsed(planned, 'find', () => ({ kind: 'find', planned, args: AGENT_TOOL_TABLE.find.parse(raw.args) }));
  if (!isAction(name) || !offered) {
    return {
      kind: 'rejected',
      planned,
      message: `${isAction(name) ? `"${name}" is not allowed on this site` : `Unknown tool "${name}"`}. Tools: ${ctx.offered.join(', ')}.`,
    };
  }
  const p = parseCall({ name, args: raw.args });
  if (!p.ok) return { kind: 'bad_args', planned, runs: 'page', message: p.message, ...refOf(raw.args) };
  return { kind: 'page', planned, action: p.call };
}

function parsed(planned: PlannedCall, runs: 'page' | 'find', make: () => Call): Call {
  try {
    return make();
  } catch (e) {
    if (e instanceof ArgError) return { kind: 'bad_args', planned, runs, message: e.message, ...refOf(planned.args) };
    throw e;
  }
}

/** The ref a call names, when it parses (a call with other bad arguments still shows its target). */
function refOf(args: Record<string, unknown>): { ref?: Ref } {
  const ref = parseRef(args.ref);
  return ref ? { ref } : {};
}

/** The call's arguments in canonical form (as written, for a call that could not be read). */
export function callArgs(call: Call): Record<string, unknown> {
  if (call.kind === 'page') return call.action.args as Record<string, unknown>;
  if (call.kind === 'bad_args' || call.kind === 'rejected') return call.planned.args;
  return call.args as Record<string, unknown>;
}

/** The element a call acts on, by ref, or undefined. */
export function callRef(call: Call): Ref | undefined {
  if (call.kind === 'page') return (call.action.args as { ref?: Ref }).ref;
  if (call.kind === 'bad_args') return call.ref;
  return undefined;
}

/** The arguments the model gave, in its order, as their canonical values; aliases under their tool's name. */
function givenArgs(call: PageCall): Record<string, unknown> {
  const typed = call.action.args as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const known = ACTION_TOOLS[call.action.name].properties ?? {};
  for (const key of Object.keys(call.planned.args)) {
    const k = key === 'value' || key === 'label' ? (call.action.name === 'select_option' ? 'option' : key) : key;
    if (!Object.prototype.hasOwnProperty.call(known, k) || k in out) continue;
    const v = typed[k];
    // One option reads as that option.
    out[k] = Array.isArray(v) && v.length === 1 ? v[0] : v;
  }
  return out;
}

/**
 * The call as the history shows it to the model: `click [12]`, `type [3] "ernesto" +Enter`.
 * A typed call shows the arguments the model gave, as they will be used; one that could not
 * be read shows them as written.
 */
export function callLabel(call: Call): string {
  switch (call.kind) {
    case 'page':
      return describeCall(call.action.name, givenArgs(call));
    case 'find':
      return describeCall('find', { query: call.args.query });
    case 'ask_user':
      return describeCall('ask_user', { question: call.args.question });
    default:
      return describeCall(call.planned.name, call.planned.args);
  }
}
