/**
 * The messages between pagehand in a page and pagehand in a frame from another origin (pure).
 *
 * This is the site's protocol (version 1, `init({ frames })`); the userscript's, which never
 * sends its token, is sealed-messages.ts (its messages) and sealed-crypto.ts (its keys and seals).
 *
 * parent → child: `hello` (opens a session: a fresh random nonce, the parent's proxy and token),
 * `map` (the frame's map), `act` (one call on the frame's elements, refs without the frame
 * prefix, with the facts the parent judged its risk on). child → parent: `ready`, `map-result`,
 * `act-result`. Every message after `hello` carries the session's nonce; a message without the
 * right one is ignored. Who may talk to whom is checked by the two ends (parent.ts, child.ts),
 * not here: here only the shape.
 */
import type { ActionCall, ActionResult } from '../actions/contract';
import type { TargetFacts } from '../facts-types';
import type { MappedElement } from '../page-types';

/** Marks our messages among whatever else a page posts. */
export const CHANNEL = 'pagehand-frames';
export const VERSION = 1;

/**
 * What a frame's map reply says about its listed elements' risk, per ref and per way of
 * pressing: a click (also a double click, or a drop onto it), Enter, Space, and typing with
 * Enter after (`submit`). What the frame's own risk facts say, computed by the frame.
 */
export interface RemoteFacts {
  click?: TargetFacts;
  enter?: TargetFacts;
  space?: TargetFacts;
  submit?: TargetFacts;
}

export interface RemoteMap {
  /** The frame's map text: its content lines only (no header, no markers, no count lines). */
  lines: string[];
  elements: MappedElement[];
  /** Facts for the listed elements, by the frame's own ref. */
  facts: Record<string, RemoteFacts>;
}

/** What a parent asks of a frame, in either protocol: its map, or one call on its elements. */
export type FrameRequest = { type: 'map'; id: number; maxTokens: number } | { type: 'act'; id: number; call: ActionCall; judged?: TargetFacts | null };

/** What a frame answers to a request, in either protocol. */
export type FrameReply = { type: 'map-result'; id: number; map: RemoteMap } | { type: 'act-result'; id: number; result: ActionResult };

type Envelope = { channel: typeof CHANNEL; v: 1; nonce: string };

export type ParentMessage = { channel: typeof CHANNEL; v: 1; type: 'hello'; nonce: string; proxy: string; token: string } | (Envelope & FrameRequest);

export type ChildMessage = { channel: typeof CHANNEL; v: 1; type: 'ready'; nonce: string } | (Envelope & FrameReply);

/** `Omit` over each member of a union (the plain one merges them). */
export type Without<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const NONCE = /^[A-Za-z0-9_-]{16,64}$/;

/** A fresh nonce: 128 random bits, base64url. */
export function newNonce(): string {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return btoa(String.fromCharCode(...b))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

function base(v: unknown): v is { channel: string; v: number; type: string; nonce: string } {
  return isObj(v) && v.channel === CHANNEL && v.v === VERSION && typeof v.type === 'string' && typeof v.nonce === 'string' && NONCE.test(v.nonce);
}

/** A request's body (without any envelope), or undefined. */
export function frameRequest(v: unknown): FrameRequest | undefined {
  if (!isObj(v) || !Number.isInteger(v.id)) return undefined;
  if (v.type === 'map') return typeof v.maxTokens === 'number' && v.maxTokens > 0 ? (v as FrameRequest) : undefined;
  if (v.type === 'act')
    return isObj(v.call) && typeof v.call.name === 'string' && (v.call.args === undefined || isObj(v.call.args)) ? (v as FrameRequest) : undefined;
  return undefined;
}

/** A reply's body (without any envelope), or undefined. */
export function frameReply(v: unknown): FrameReply | undefined {
  if (!isObj(v) || !Number.isInteger(v.id)) return undefined;
  if (v.type === 'map-result') {
    const map = v.map;
    const ok = isObj(map) && Array.isArray(map.lines) && map.lines.every((l) => typeof l === 'string') && Array.isArray(map.elements) && isObj(map.facts);
    return ok ? (v as FrameReply) : undefined;
  }
  if (v.type === 'act-result') {
    const r = v.result;
    return isObj(r) && typeof r.ok === 'boolean' && typeof r.message === 'string' && isObj(r.changes) ? (v as FrameReply) : undefined;
  }
  return undefined;
}

/** The message as a parent message, or undefined (anything malformed is ignored). */
export function parentMessage(v: unknown): ParentMessage | undefined {
  if (!base(v)) return undefined;
  const m = v as Record<string, unknown>;
  if (m.type === 'hello') return typeof m.proxy === 'string' && typeof m.token === 'string' ? (m as ParentMessage) : undefined;
  return frameRequest(m) ? (m as ParentMessage) : undefined;
}

/** The message as a child message, or undefined. */
export function childMessage(v: unknown): ChildMessage | undefined {
  if (!base(v)) return undefined;
  const m = v as Record<string, unknown>;
  if (m.type === 'ready') return m as ChildMessage;
  return frameReply(m) ? (m as ChildMessage) : undefined;
}

/** The same origin spelled as `new URL().origin` does, or undefined for anything that is not one. */
export function canonicalOrigin(o: unknown): string | undefined {
  if (typeof o !== 'string') return undefined;
  try {
    const u = new URL(o);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === o.replace(/\/$/, '') ? u.origin : undefined;
  } catch {
    return undefined;
  }
}
