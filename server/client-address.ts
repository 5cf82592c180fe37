/**
 * The address a request came from, as a rate-limit key: the TCP peer on Node, the
 * `CF-Connecting-IP` Cloudflare's edge sets on Workers (a client cannot choose it there), and
 * `X-Forwarded-For` only when the operator says reverse proxies stand in front (TRUST_PROXY):
 * anyone can send that header, so it is otherwise ignored.
 *
 * With TRUST_PROXY=N the address is the N-th entry from the right: each trusted proxy appends
 * the address it saw, so entries further left were written by the client and prove nothing.
 * (Behind one proxy that replaces the header, that is its only, left-most, entry.)
 */
import type { Context } from 'hono';
import { getRuntimeKey } from 'hono/adapter';

/**
 * @example
 * clientAddress(c, 0); // '203.0.113.7', or '2001:db8:1:2::/64' for an IPv6 client
 */
export function clientAddress(c: Context, trustProxyHops: number): string | undefined {
  if (trustProxyHops > 0) {
    const list = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const picked = list[Math.max(0, list.length - trustProxyHops)];
    if (picked) return addressKey(picked);
  }
  if (getRuntimeKey() === 'workerd') {
    const cf = c.req.header('cf-connecting-ip');
    return cf ? addressKey(cf) : undefined;
  }
  // @hono/node-server puts the Node request in c.env.incoming.
  const socket = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress;
  return socket ? addressKey(socket) : undefined;
}

/**
 * One key per client: IPv4 as is (an IPv4-mapped IPv6 address as its IPv4), IPv6 by its /64
 * (one subscriber usually holds a whole /64, so single addresses would be free budgets).
 */
export function addressKey(raw: string): string {
  let a = raw.trim().toLowerCase();
  const v4port = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(a);
  if (v4port) a = v4port[1]!;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(a);
  if (bracketed) a = bracketed[1]!;
  a = a.replace(/%.*$/, ''); // zone id
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(a);
  if (mapped) return mapped[1]!;
  if (a.includes(':')) return v6Prefix(a) ?? a.slice(0, 64);
  return a.slice(0, 64);
}

function v6Prefix(a: string): string | undefined {
  const halves = a.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  // An embedded IPv4 tail (::1.2.3.4) counts as two groups; it never reaches the /64 anyway.
  const tailGroups = tail.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const groups = halves.length === 2 ? [...head, ...Array<string>(Math.max(0, 8 - head.length - tailGroups)).fill('0'), ...tail] : head;
  if (groups.length < 4 || !groups.slice(0, 4).every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
