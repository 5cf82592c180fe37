/**
 * Stable refs for elements, for the whole session.
 *
 * A ref is handed out once per element and never reused (a counter that only grows). When a
 * framework replaces a node, the new node gets the old ref back only if exactly one old,
 * now-detached entry and exactly one new node share its fingerprint (role + name + context).
 * Before acting, `resolveRef` re-validates: detached, or role/name changed → stale.
 */
import type { Ref } from '../page-types';

export type RefErrorCode = 'unknown' | 'stale';

export class RefError extends Error {
  constructor(
    readonly code: RefErrorCode,
    readonly ref: string,
    message: string,
  ) {
    super(message);
    this.name = 'RefError';
  }
}

interface Entry {
  el: WeakRef<Element>;
  role: string;
  name: string;
  fingerprint: string;
}

const byElement = new WeakMap<Element, Ref>();
const entries = new Map<Ref, Entry>();
let counter = 0;

/** Parses what a model or user may pass: "12", "[12]", "*[12]", 12, "f2:7". */
export function parseRef(input: unknown): Ref | undefined {
  if (typeof input === 'number' && Number.isInteger(input) && input > 0) return String(input) as Ref;
  if (typeof input !== 'string') return undefined;
  const m = /^\s*\*?\[?\s*((?:f\d+:)?\d+)\s*\]?\s*$/.exec(input);
  return m ? (m[1] as Ref) : undefined;
}

/** The ref this element already has, if any. */
export function refOf(el: Element): Ref | undefined {
  return byElement.get(el);
}

/**
 * Gives `el` a ref: its own, an old one re-matched by fingerprint (see `rematch`), or a new one.
 * `frame` is the frame id ("f2") for elements inside iframes.
 */
export function assignRef(el: Element, frame: string | undefined): { ref: Ref; isNew: boolean } {
  const known = byElement.get(el);
  if (known) return { ref: known, isNew: false };
  const ref = (frame ? `${frame}:${++counter}` : String(++counter)) as Ref;
  byElement.set(el, ref);
  return { ref, isNew: true };
}

/** Records what the element was when last mapped, for re-validation and re-matching. */
export function remember(ref: Ref, el: Element, role: string, name: string, fingerprint: string): void {
  entries.set(ref, { el: new WeakRef(el), role, name, fingerprint });
}

/**
 * Re-matches replaced nodes. `fresh` are elements found by this map without a ref yet, with their
 * fingerprints. An old entry whose element is gone is reused when its fingerprint occurs exactly
 * once among the gone entries and exactly once among the fresh elements.
 */
export function rematch(fresh: Array<{ el: Element; fingerprint: string }>): Map<Element, Ref> {
  const out = new Map<Element, Ref>();
  if (!fresh.length) return out;
  const freshCount = new Map<string, number>();
  for (const f of fresh) freshCount.set(f.fingerprint, (freshCount.get(f.fingerprint) ?? 0) + 1);
  const gone = new Map<string, Ref[]>();
  for (const [ref, e] of entries) {
    if (!freshCount.has(e.fingerprint)) continue;
    const el = e.el.deref();
    if (el && el.isConnected) continue;
    const list = gone.get(e.fingerprint);
    if (list) list.push(ref);
    else gone.set(e.fingerprint, [ref]);
  }
  for (const f of fresh) {
    const old = gone.get(f.fingerprint);
    if (old?.length !== 1 || freshCount.get(f.fingerprint) !== 1) continue;
    const ref = old[0]!;
    byElement.set(f.el, ref);
    out.set(f.el, ref);
  }
  return out;
}

/**
 * Drops entries whose element was garbage-collected, so the table does not grow forever on a
 * long-lived single-page app. Called once per map.
 */
export function sweep(): void {
  for (const [ref, e] of entries) if (!e.el.deref()) entries.delete(ref);
}

/**
 * The live element for `ref`, re-validated against what the model was shown.
 * Throws RefError: 'unknown' (never handed out) or 'stale' (detached, or its role/name changed).
 */
export function resolveRef(input: unknown, describe: (el: Element) => { role: string; name: string }): Element {
  const ref = parseRef(input);
  const entry = ref && entries.get(ref);
  if (!ref || !entry) {
    throw new RefError('unknown', String(input), `There is no element [${String(input)}] in the map. Use a ref from the latest observation.`);
  }
  const el = entry.el.deref();
  if (!el || !el.isConnected) {
    throw new RefError('stale', ref, `Element [${ref}] ${entry.role} "${entry.name}" is no longer on the page (it was removed or re-rendered). Observe again.`);
  }
  const now = describe(el);
  if (now.role !== entry.role || now.name !== entry.name) {
    throw new RefError('stale', ref, `Element [${ref}] changed: it was ${entry.role} "${entry.name}", now ${now.role} "${now.name}". Observe again.`);
  }
  return el;
}
