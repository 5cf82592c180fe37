/**
 * One end of a userscript frame session once both sides proved the key: what it sends is sealed
 * in order, and what it takes must open as the very next message from the other end. The
 * parent and the child use the same two functions, so the order and replay rules are written
 * once.
 *
 * @example
 * const end = sealedEnd(binding, await sessionKey(c, binding));
 * sendInOrder(c, end, 'c2p', reply, (m) => post(m, binding.parentOrigin));
 * const request = await openInOrder(c, end, 'p2c', message, frameRequest);
 */
import { seal, unseal, type Binding, type Direction } from './sealed-crypto';
import type { Sealed } from './sealed-messages';
import type { FrameCrypto } from './secret';

export interface SealedEnd {
  binding: Binding;
  key: CryptoKey;
  /** Next sequence numbers, each way. */
  sent: number;
  received: number;
  /** What goes out is sealed one message at a time, in order. */
  outbox: Promise<void>;
}

export const sealedEnd = (binding: Binding, key: CryptoKey): SealedEnd => ({ binding, key, sent: 0, received: 0, outbox: Promise.resolve() });

/** The body of a sealed message, without the channel's envelope. */
export type SealedBody = Omit<Sealed, 'channel' | 'v'>;

/** Seals `value` as this end's next message in direction `dir` and hands it to `post`. */
export function sendInOrder(c: FrameCrypto, end: SealedEnd, dir: Direction, value: unknown, post: (m: SealedBody) => void): void {
  end.outbox = end.outbox
    .then(async () => {
      const seq = end.sent++;
      const { iv, ct } = await seal(c, end.key, dir, end.binding, seq, JSON.stringify(value));
      post({ type: 'sealed', sid: end.binding.np, seq, iv, ct });
    })
    .catch(() => undefined);
}

/**
 * Message `m` opened and read by `parse`, when it is this session's next one in direction
 * `dir`; undefined for anything else (another session, out of order, forged, replayed,
 * reflected, altered, not JSON). Counted only when it opens.
 */
export async function openInOrder<T>(c: FrameCrypto, end: SealedEnd, dir: Direction, m: Sealed, parse: (v: unknown) => T | undefined): Promise<T | undefined> {
  if (m.sid !== end.binding.np || m.seq !== end.received) return undefined;
  const text = await unseal(c, end.key, dir, end.binding, m.seq, m.iv, m.ct);
  if (text === undefined) return undefined;
  end.received++;
  try {
    return parse(JSON.parse(text));
  } catch {
    return undefined;
  }
}
