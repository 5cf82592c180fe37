/**
 * WebMCP's declarative tools: a `<form toolname="…" tooldescription="…">` is a tool whose input
 * schema comes from its named controls (`toolparamdescription` on a control describes it), and
 * calling it fills the form — through pagehand's own actions (type, select_option, click), so
 * deny zones, actionability and the page's own events work as for any action — then, when the
 * form has `toolautosubmit`, submits it by clicking its submit button (or Enter in a field).
 * That submit is judged by the normal risk check, as a click on that button would be
 * (`submitCall`). Without `toolautosubmit` the form is left filled for the model to submit with
 * its button, as the draft leaves it for the user.
 *
 * The draft leaves the schema's synthesis open; this one is deliberately plain: text-like
 * inputs and text areas are strings (with minLength/maxLength/pattern), number and range inputs
 * numbers (minimum/maximum), a lone checkbox a boolean, checkboxes sharing a name an array of
 * their values, radio groups and selects an enum of their values (an array for `multiple`).
 * Hidden, file, disabled and button controls are left out.
 */
import type { JsonSchema } from '../llm/wire';
import type { ActionCall, ActionResult } from '../page/actions/contract';
import { createDescriber, type Describer } from '../page/names/describe';
import type { PageSettings, Zones } from '../page/settings';
import { assignRef, remember } from '../page/map/refs';
import type { Ref } from '../page/page-types';
import { hasAttrOf, attrOf } from '../page/dom/proto';

export interface FormTool {
  /** The form's `toolname`. */
  name: string;
  description: string;
  inputSchema: JsonSchema;
  form: HTMLFormElement;
  autosubmit: boolean;
}

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

const SKIPPED_TYPES = new Set(['hidden', 'file', 'submit', 'reset', 'button', 'image']);
const NUMBER_TYPES = new Set(['number', 'range']);
const SUBMIT = 'button:not([type]), button[type="submit"], input[type="submit"], input[type="image"]';

/** The form's controls that become parameters, grouped by name. */
function controlsByName(form: HTMLFormElement, zones: Zones): Map<string, Control[]> {
  const out = new Map<string, Control[]>();
  for (const el of Array.from(form.elements)) {
    const c = el as Control;
    const tag = c.localName;
    if (tag !== 'input' && tag !== 'select' && tag !== 'textarea') continue;
    if (!c.name || c.disabled || (tag === 'input' && SKIPPED_TYPES.has((c as HTMLInputElement).type))) continue;
    if (zones.inside(c)) continue;
    const list = out.get(c.name);
    if (list) list.push(c);
    else out.set(c.name, [c]);
  }
  return out;
}

const attrNumber = (el: Element, name: string): number | undefined => {
  const v = attrOf(el, name);
  if (v === null || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
};

function propertyOf(list: Control[], describe: Describer): JsonSchema {
  const first = list[0]!;
  const said = list.map((c) => attrOf(c, 'toolparamdescription')?.trim()).find(Boolean);
  let label: string;
  try {
    label = describe.describe(first).name;
  } catch {
    label = '';
  }
  const description = said || label || undefined;
  const base = (s: JsonSchema): JsonSchema => (description ? { ...s, description } : s);
  if (first.localName === 'select') {
    const sel = first as HTMLSelectElement;
    const values = Array.from(sel.options)
      .filter((o) => !o.disabled && o.value !== '')
      .map((o) => o.value);
    const item: JsonSchema = values.length ? { type: 'string', enum: values } : { type: 'string' };
    return base(sel.multiple ? { type: 'array', items: item } : item);
  }
  if (first.localName === 'textarea') return base(textSchema(first));
  const type = (first as HTMLInputElement).type;
  if (type === 'checkbox') {
    if (list.length === 1) return base({ type: 'boolean' });
    return base({ type: 'array', items: { type: 'string', enum: list.map((c) => c.value) } });
  }
  if (type === 'radio') return base({ type: 'string', enum: list.map((c) => c.value) });
  if (NUMBER_TYPES.has(type)) {
    const s: JsonSchema = { type: 'number' };
    const min = attrNumber(first, 'min');
    const max = attrNumber(first, 'max');
    if (min !== undefined) s.minimum = min;
    if (max !== undefined) s.maximum = max;
    return base(s);
  }
  return base(textSchema(first));
}

function textSchema(el: Control): JsonSchema {
  const s: JsonSchema & { minLength?: number; maxLength?: number; pattern?: string } = { type: 'string' };
  const min = attrNumber(el, 'minlength');
  const max = attrNumber(el, 'maxlength');
  if (min !== undefined && min > 0) s.minLength = min;
  if (max !== undefined && max >= 0) s.maxLength = max;
  const pattern = attrOf(el, 'pattern');
  if (pattern) s.pattern = pattern;
  return s as JsonSchema;
}

/** The form's tool, or undefined when it is not one (no `toolname`, in a deny zone). */
export function formTool(form: HTMLFormElement, describe: Describer): FormTool | undefined {
  const { zones } = describe.settings;
  const name = attrOf(form, 'toolname')?.trim();
  if (!name || zones.inside(form)) return undefined;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [key, list] of controlsByName(form, zones)) {
    properties[key] = propertyOf(list, describe);
    if (list.some((c) => c.required)) required.push(key);
  }
  return {
    name,
    description: attrOf(form, 'tooldescription')?.trim() || name,
    inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}) },
    form,
    autosubmit: hasAttrOf(form, 'toolautosubmit'),
  };
}

/** Every declarative tool in the document now. */
export function formTools(settings: PageSettings, doc: Document = document): FormTool[] {
  const describe = createDescriber(settings);
  const out: FormTool[] = [];
  for (const form of Array.from(doc.querySelectorAll('form[toolname]'))) {
    const t = formTool(form as HTMLFormElement, describe);
    if (t) out.push(t);
  }
  return out;
}

/** A ref the actions resolve, recorded as the map would record it. */
function refFor(el: Element, describe: Describer): Ref {
  const { ref } = assignRef(el, undefined);
  const d = describe.describe(el);
  remember(ref, el, d.role, d.name, `|${d.role}|${d.name}|form-tool`);
  return ref;
}

/** The call that submits the form: a click on its submit button, else Enter in its first text field. */
export function submitCall(tool: FormTool, describe: Describer): ActionCall | undefined {
  const button = Array.from(tool.form.elements).find((e) => e.matches(SUBMIT) && !(e as HTMLButtonElement).disabled);
  if (button) return { name: 'click', args: { ref: refFor(button, describe) } };
  const field = Array.from(tool.form.elements).find(
    (e) => e.localName === 'input' && !SKIPPED_TYPES.has((e as HTMLInputElement).type) && !['checkbox', 'radio'].includes((e as HTMLInputElement).type),
  );
  return field ? { name: 'press_key', args: { key: 'Enter', ref: refFor(field, describe) } } : undefined;
}

const asList = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : v === undefined || v === null ? [] : [String(v)]);
const truthy = (v: unknown): boolean => v === true || v === 'true' || v === 'on' || v === 1;

/**
 * The page actions that fill the form with `input` (and the one that submits it, with
 * `toolautosubmit`), in order, or the sentence saying what is wrong with the input. The loop
 * runs them as it runs the model's own calls (a `type` gets its secrets filled in there).
 */
export function fillPlan(
  tool: FormTool,
  input: Record<string, unknown>,
  describe: Describer,
): { calls: ActionCall[]; submit?: ActionCall } | { error: string } {
  const controls = controlsByName(tool.form, describe.settings.zones);
  const unknown = Object.keys(input).filter((k) => !controls.has(k));
  if (unknown.length)
    return {
      error: `The form "${tool.name}" has no field ${unknown.map((k) => `"${k}"`).join(', ')}; its fields are ${[...controls.keys()].map((k) => `"${k}"`).join(', ') || 'none'}.`,
    };
  const calls: ActionCall[] = [];
  for (const [key, value] of Object.entries(input)) {
    const list = controls.get(key)!;
    const first = list[0]!;
    const type = first.localName === 'input' ? (first as HTMLInputElement).type : first.localName;
    if (type === 'checkbox' || type === 'radio') {
      const wanted = list.length === 1 && type === 'checkbox' ? (truthy(value) ? [first.value] : []) : asList(value);
      const bad = wanted.filter((w) => !list.some((c) => c.value === w));
      if (bad.length) return { error: `"${key}" must be one of ${list.map((c) => JSON.stringify(c.value)).join(', ')}.` };
      for (const c of list as HTMLInputElement[]) {
        const on = wanted.includes(c.value);
        if (on !== c.checked && (on || type === 'checkbox')) calls.push({ name: 'click', args: { ref: refFor(c, describe) } });
      }
    } else if (type === 'select') {
      calls.push({ name: 'select_option', args: { ref: refFor(first, describe), option: asList(value) } });
    } else {
      calls.push({ name: 'type', args: { ref: refFor(first, describe), text: value === undefined || value === null ? '' : String(value) } });
    }
  }
  if (!tool.autosubmit) return { calls };
  const submit = submitCall(tool, describe);
  return submit ? { calls, submit } : { error: `The form "${tool.name}" has no submit button or text field to submit it with.` };
}

/** What calling the tool did, from the results of its actions, for the model. */
export function fillReport(tool: FormTool, results: ActionResult[], submitted: boolean): string {
  const failed = results.find((r) => !r.ok);
  if (failed) return failed.message;
  const last = results[results.length - 1];
  if (submitted) return `Filled and submitted the form "${tool.name}". ${last?.message ?? ''}`.trim();
  return `Filled the form "${tool.name}" (it is not submitted: the site asks for a check before it is sent; submit it with its button when it is right).`;
}
