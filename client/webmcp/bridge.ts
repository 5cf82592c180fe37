/**
 * The page's WebMCP tools as the run offers them to the model: the tools registered with
 * `document.modelContext` (./polyfill.ts) and the forms declared as tools (./forms.ts), under
 * names the model's tool format accepts, beside the built-in tools and the site's own.
 *
 * Trust follows who put pagehand on the page. On the site's own page (the embed, the npm
 * entry) a page tool is the site's code: its description and schema go to the model as a
 * tool's, and a tool annotated `readOnlyHint: true` runs without asking. On a stranger's page
 * (bookmarklet, userscript) it is the page's code, offered only as untrusted: the model gets a
 * neutral description and a schema stripped of every description, what the page says the tool
 * does goes into the prompt as page data (between the data markers), and every call asks the
 * user, whatever it claims (a hostile page marks its "transfer money" tool read-only).
 * A form tool is filled and submitted by pagehand's own actions, so it is judged as those are.
 */
import type { JsonSchema } from '../llm/wire';
import type { ActionResult } from '../page/actions/contract';
import { cap } from '../page/map/format';
import { formTools } from './forms';
import { pageToolRegistry } from './offer';
import type { PageSettings, PageText } from '../page/settings';
import type { PageTool, SiteTool } from './page-tool';
import type { ModelContextTool, RegisteredTool, ToolRegistry } from './webmcp-types';

/** What the model is offered for a page tool. */
export interface OfferedTool {
  name: string;
  description: string;
  parameters: JsonSchema;
}

const DESCRIPTION_MAX = 600;
const UNTRUSTED_DESCRIPTION = 'A tool this page offers (the page\'s code, not checked). What the page says it does is under "Tools this page offers".';
const RESULT_MAX = 4000;
/** A page's execute that never settles must not hold the run. */
export const EXECUTE_TIMEOUT_MS = 30_000;

/** A name the model's tool format takes (letters, digits, `_`, `-`; a letter first; 64 at most). */
export function modelName(name: string): string {
  const n = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  return /^[A-Za-z]/.test(n) ? n : `t_${n}`.slice(0, 64);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The page's tools now: registered ones, then forms, under names not `taken` (the built-in
 * tools and the site's own, which win) and not used twice. Never throws: a registry the page
 * broke yields no tools.
 */
export function pageTools(
  registry: ToolRegistry | undefined,
  options: { untrusted: boolean; taken: ReadonlySet<string>; forms?: boolean; settings: PageSettings },
): PageTool[] {
  const out: PageTool[] = [];
  const used = new Set<string>();
  const add = (t: Omit<PageTool, 'name' | 'untrusted'>): void => {
    const name = modelName(t.pageName);
    const lower = name.toLowerCase();
    if (options.taken.has(name) || [...options.taken].some((n) => n.toLowerCase() === lower) || used.has(lower)) return;
    used.add(lower);
    out.push({ ...t, name, untrusted: options.untrusted });
  };
  let registered: RegisteredTool[];
  try {
    registered = registry?.tools() ?? [];
  } catch {
    registered = [];
  }
  for (const r of registered) {
    if (!r || typeof r.name !== 'string' || typeof r.execute !== 'function') continue;
    const schema = isObject(r.inputSchema) && r.inputSchema.type === 'object' ? (r.inputSchema as JsonSchema) : { type: 'object', properties: {} };
    add({ pageName: r.name, description: String(r.description ?? ''), inputSchema: schema, readOnly: r.readOnlyHint === true, registered: r });
  }
  if (options.forms !== false) {
    try {
      for (const f of formTools(options.settings)) add({ pageName: f.name, description: f.description, inputSchema: f.inputSchema, readOnly: false, form: f });
    } catch {
      /* a page that breaks the scan offers no form tools */
    }
  }
  return out;
}

/**
 * A schema with nothing the page wrote that reads as instructions: no descriptions, titles,
 * examples or defaults; property names and enum values capped. Structure and types stay, so
 * the model can still call the tool.
 */
export function strippedSchema(s: unknown, pt: PageText, depth = 0): JsonSchema {
  if (!isObject(s) || depth > 8) return {};
  const out: JsonSchema & Record<string, unknown> = {};
  if (typeof s.type === 'string' || (Array.isArray(s.type) && s.type.every((t) => typeof t === 'string'))) out.type = s.type as string | string[];
  if (isObject(s.properties)) {
    out.properties = {};
    for (const [k, v] of Object.entries(s.properties).slice(0, 40)) out.properties[cap(k, 40, pt)] = strippedSchema(v, pt, depth + 1);
  }
  if (Array.isArray(s.required)) out.required = s.required.filter((r): r is string => typeof r === 'string').map((r) => cap(r, 40, pt));
  if (isObject(s.items)) out.items = strippedSchema(s.items, pt, depth + 1);
  if (Array.isArray(s.enum))
    out.enum = s.enum
      .slice(0, 30)
      .map((e) => (typeof e === 'string' ? cap(e, 60, pt) : e))
      .filter((e): e is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof e));
  for (const k of ['minimum', 'maximum', 'minLength', 'maxLength'] as const) if (typeof s[k] === 'number') out[k] = s[k] as number;
  if (typeof s.additionalProperties === 'boolean') out.additionalProperties = s.additionalProperties;
  return out;
}

/** The tool as the model is offered it. */
export function offered(t: PageTool, pt: PageText): OfferedTool {
  if (t.untrusted) return { name: t.name, description: UNTRUSTED_DESCRIPTION, parameters: { ...strippedSchema(t.inputSchema, pt), type: 'object' } };
  return { name: t.name, description: cap(t.description.trim() || t.pageName, DESCRIPTION_MAX, pt), parameters: t.inputSchema };
}

/** The property descriptions of a schema, one `name — description` each (page text). */
function fieldNotes(s: JsonSchema, pt: PageText): string[] {
  return Object.entries(s.properties ?? {})
    .slice(0, 20)
    .flatMap(([k, p]) =>
      isObject(p) && typeof p.description === 'string' && p.description.trim() ? [`${cap(k, 40, pt)} — ${cap(p.description.trim(), 160, pt)}`] : [],
    );
}

/**
 * What the page says its untrusted tools do, one line each, for the prompt's data block (the
 * caller wraps it with `dataBlock`). Empty when there are none.
 */
export function untrustedToolLines(tools: readonly PageTool[], pt: PageText): string[] {
  return tools
    .filter((t) => t.untrusted)
    .map((t) => {
      const notes = fieldNotes(t.inputSchema, pt);
      const kind = t.form ? 'form' : 'tool';
      return `${t.name} (${kind}): ${cap(t.description.replace(/\s+/g, ' ').trim(), DESCRIPTION_MAX, pt)}${notes.length ? ` — fields: ${notes.join('; ')}` : ''}`;
    });
}

/** An MCP-style result (`{ content: [{ type: 'text', text }], isError }`), a string, or any JSON value, as text. */
function resultText(value: unknown): { ok: boolean; text: string } {
  if (value === undefined) return { ok: true, text: 'Done.' };
  if (typeof value === 'string') return { ok: true, text: value };
  if (isObject(value) && Array.isArray(value.content)) {
    const parts = value.content.map((c: unknown) => (isObject(c) && typeof c.text === 'string' ? c.text : JSON.stringify(c)));
    return { ok: value.isError !== true, text: parts.join('\n') || (value.isError === true ? 'The tool reported an error.' : 'Done.') };
  }
  try {
    return { ok: true, text: JSON.stringify(value) ?? String(value) };
  } catch {
    return { ok: true, text: String(value) };
  }
}

/** Runs a registered tool's `execute`; whatever it does (throws, never settles) becomes a result. */
export async function executeRegistered(t: PageTool, args: Record<string, unknown>, signal?: AbortSignal): Promise<ActionResult> {
  const r = t.registered!;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  try {
    const stop = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`it did not answer within ${EXECUTE_TIMEOUT_MS / 1000} s`)), EXECUTE_TIMEOUT_MS);
      onAbort = () => reject(new Error('the run stopped'));
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    const value = await Promise.race([Promise.resolve().then(() => r.execute({ ...args })), stop]);
    const { ok, text } = resultText(value);
    const message = text.length > RESULT_MAX ? `${text.slice(0, RESULT_MAX)}… (cut)` : text;
    return { ok, message: ok ? message : `${t.name} failed: ${message}`, changes: {} };
  } catch (e) {
    let why: string;
    try {
      why = String((e as Error)?.message ?? e);
    } catch {
      why = 'an error';
    }
    return { ok: false, message: `${t.name} failed: ${why}`, changes: {} };
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

let published: AbortController | undefined;

/**
 * `init({ tools })` registered with the browser's own `document.modelContext` too (not with
 * pagehand's polyfill: no one else reads that), so the browser's agent can use the site's tools
 * as pagehand does. Each init replaces the previous set (their signals abort).
 */
export function publishSiteTools(registry: ToolRegistry | undefined, tools: readonly SiteTool[]): void {
  published?.abort();
  published = undefined;
  if (!registry?.native || !tools.length) return;
  const controller = new AbortController();
  published = controller;
  for (const t of tools) {
    const tool: ModelContextTool = {
      name: t.name,
      description: t.description,
      inputSchema: t.parameters ?? { type: 'object', properties: {} },
      execute: (input) => t.handler({ ...(input as Record<string, unknown>) }),
      annotations: { readOnlyHint: t.readOnly === true },
    };
    try {
      registry.own(tool, { signal: controller.signal }).catch(() => undefined);
    } catch {
      /* the browser refused it: pagehand still offers it */
    }
  }
}

/**
 * The page's tools on offer now, by the name the model calls: registered ones (from the
 * registry on `document.modelContext`, or the runner's page world's: ./offer.ts) and forms
 * (the run asks only when the site did not turn them off). Trust from who installed pagehand (`untrusted`: a
 * stranger's page).
 */
export function pageToolsNow(taken: ReadonlySet<string>, untrusted: boolean, settings: PageSettings): Map<string, PageTool> {
  return new Map(pageTools(pageToolRegistry(), { untrusted, taken, settings }).map((t) => [t.name, t]));
}
