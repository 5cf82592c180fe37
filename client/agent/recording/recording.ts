/**
 * The recording format (`{ "pagehand": "recording", "v": 1, … }`, docs/replay.md): checking a
 * recording that came from outside, filling its named values, and making its steps from what a
 * run did. Pure: the page is read by locate.ts.
 *
 * What a step keeps is what survives a re-render — the action, its canonical arguments without
 * the ref, the target as a person would describe it, and what showed after it — never a ref or
 * a CSS path. Typed text is kept as the model gave it: a secret stays `<secret:NAME>` (the model
 * never had its value), and page text that a secret's value shows in is masked like any text
 * that leaves the page.
 */
import type { ActionChanges } from '../../page/actions/contract';
import type { Recording, RecordedExpectation, RecordedStep, RecordedTarget } from '../public-types';
import type { Masks } from '../../page/settings';

export { fill, recordingProblem, valuesFor } from '../../../common/recording';

/** A step's arguments as kept: the canonical ones without the ref, page text masked. */
export function keptArgs(args: Record<string, unknown>, masks: Masks): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    if (k === 'ref' || v === undefined) continue;
    out[k] = mask(v, masks);
  }
  return out;
}

function mask<T>(v: T, masks: Masks): T {
  if (typeof v === 'string') return masks.text(v) as T;
  if (Array.isArray(v)) return v.map((x: unknown) => mask(x, masks)) as T;
  return v;
}

/** A target as kept: its strings masked (a secret's value may show in page text). */
export function keptTarget(t: RecordedTarget, masks: Masks): RecordedTarget {
  const out: RecordedTarget = { role: t.role, name: masks.text(t.name) };
  if (t.landmark) out.landmark = masks.text(t.landmark);
  if (t.heading) out.heading = masks.text(t.heading);
  if (t.near) out.near = masks.text(t.near);
  if (t.of && t.of > 1) {
    out.nth = t.nth;
    out.of = t.of;
  }
  return out;
}

/** Path and query of `href` when it is on `origin`, else the whole URL. */
export function pathOn(href: string, origin: string): string {
  try {
    const u = new URL(href);
    return u.origin === origin ? `${u.pathname}${u.search}` : `${u.origin}${u.pathname}${u.search}`;
  } catch {
    return href;
  }
}

/** Actions whose new elements are what they were for (a menu a click opened); not scroll, hover, wait. */
const COMMITS = new Set(['click', 'press_key', 'select_option', 'type', 'click_at']);

/** A query string as the words it carries. */
export function decodeQuery(q: string): string {
  try {
    return decodeURIComponent(q.replace(/\+/g, ' '));
  } catch {
    return q;
  }
}

/**
 * Whether the page at `href` is the one `expected` names: path and query when it has a query,
 * else the path alone.
 */
export function urlMatches(expected: string, href: string, origin: string): boolean {
  const here = pathOn(href, origin);
  const hasQuery = expected.includes('?');
  const a = hasQuery ? expected : expected.split('?')[0]!;
  const b = hasQuery ? here : here.split('?')[0]!;
  return decodeQuery(a) === decodeQuery(b);
}

/** `button "Save"` (how an action reports elements) as a role and a name; undefined for a cut or nameless one. */
function sampleOf(label: string): { role: string; name: string } | undefined {
  const m = /^([a-z]+) "(.+)"$/.exec(label);
  if (!m || m[2]!.endsWith('…')) return undefined;
  return { role: m[1]!, name: m[2]! };
}

/**
 * What a step's result says it led to, most telling first: the page it went to, a dialog that
 * opened, an element that appeared. Nothing that shows a value the step typed (the next replay
 * may type another), nothing masked.
 */
export function expectationOf(
  changes: ActionChanges,
  origin: string,
  masks: Masks,
  typed: readonly string[] = [],
  action = 'click',
): RecordedExpectation | undefined {
  const fresh = (s: string): boolean => {
    const low = s.toLowerCase();
    return !typed.some((t) => t.trim().length >= 2 && low.includes(t.trim().toLowerCase())) && masks.text(s) === s;
  };
  const to = changes.navigation?.url ?? changes.url?.to;
  if (to) {
    // A query that carries what was typed (a search) is left out: the path is the page.
    const url = pathOn(to, origin);
    const q = url.indexOf('?');
    return { url: q >= 0 && !fresh(decodeQuery(url.slice(q))) ? url.slice(0, q) : url };
  }
  const dialog = changes.dialogOpened?.find((d) => d && !d.endsWith('…') && fresh(d));
  if (dialog) return { dialog };
  // What appears after a scroll or a wait is more of the page, not what the step was for.
  if (!COMMITS.has(action)) return undefined;
  for (const label of changes.newSample ?? []) {
    const v = sampleOf(label);
    if (v && fresh(v.name)) return { visible: v };
  }
  return undefined;
}

/** The strings a step typed or chose (its expectation must not depend on them). */
export function typedValues(args: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const k of ['text', 'option', 'url']) {
    const v = args[k];
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) for (const x of v) if (typeof x === 'string') out.push(x);
  }
  return out;
}

/** A new recording. */
export function newRecording(task: string, url: string, steps: RecordedStep[], summary?: string): Recording {
  return { pagehand: 'recording', v: 1, task, url, steps, ...(summary ? { summary } : {}), created: new Date().toISOString() };
}

/** One line per step for the model and for logs: `click button "Place order" (in: Total 12 €)`. */
export function stepText(s: RecordedStep): string {
  const t = s.target;
  const what = t
    ? ` ${t.role}${t.name ? ` ${JSON.stringify(t.name)}` : ''}${t.near ? ` (in: ${JSON.stringify(t.near)})` : ''}${t.of ? ` (${t.nth} of ${t.of})` : ''}`
    : '';
  const args = Object.entries(s.args)
    .filter(([k, v]) => !(k === 'replace' && v === true) && !(k === 'submit' && v === false))
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(' ');
  return `${s.action}${what}${args ? ` ${args}` : ''}`;
}
