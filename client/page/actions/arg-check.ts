/**
 * Reading a tool call's arguments: the error the model is told, a value shown short, and a ref
 * argument (`ref`, `to_ref`) parsed the one way the map writes them ("12", "f2:7", 12). Used by
 * the core actions (args.ts) and the hands (hands-args.ts) alike.
 */
import { parseRef } from '../map/refs';
import type { Ref } from '../page-types';

/** A bad argument: the message says which and how to fix it. */
export class ArgError extends Error {}

export type Args = Record<string, unknown>;

/** A value as the model sent it, in at most 40 characters. */
export function show(v: unknown): string {
  try {
    const s = JSON.stringify(v);
    return s === undefined ? String(v) : s.length > 40 ? `${s.slice(0, 40)}…` : s;
  } catch {
    return String(v);
  }
}

/** The ref in `args[key]`; missing is an error when `required`. */
export function refArg(tool: string, args: Args, key: 'ref' | 'to_ref', required: true): Ref;
export function refArg(tool: string, args: Args, key: 'ref' | 'to_ref', required: boolean): Ref | undefined;
export function refArg(tool: string, args: Args, key: 'ref' | 'to_ref', required: boolean): Ref | undefined {
  const v = args[key];
  if (v === undefined || v === null || v === '') {
    if (required) throw new ArgError(`${tool} needs "${key}": the number shown in brackets in the page map, e.g. {"${key}": "12"}.`);
    return undefined;
  }
  const r = parseRef(v);
  if (!r) throw new ArgError(`${tool}: "${key}" must be the number shown in brackets (like "12" or "f2:7"), got ${show(v)}.`);
  return r;
}

/** A number, also as a numeric string; undefined when absent. */
export function numArg(tool: string, args: Args, key: string): number | undefined {
  const v = args[key];
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw new ArgError(`${tool}: "${key}" must be a number, got ${show(v)}.`);
  return n;
}
