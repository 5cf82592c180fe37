/** One short line for a tool call, as the log and the mask's caption show it. */
import type { CallTarget, PlannedCall } from '../agent/types';

const clip = (s: string, n = 60): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function callLabel(call: PlannedCall, target?: CallTarget): string {
  const a = call.args;
  const ref = target?.ref ?? (a.ref !== undefined ? String(a.ref) : undefined);
  let s = call.name;
  if (ref !== undefined) s += ` [${ref}]`;
  if (target) s += ` ${target.role}${target.name ? ` "${clip(target.name, 40)}"` : ''}`;
  const extra = a.text ?? a.option ?? a.key ?? a.url ?? a.direction ?? a.query ?? a.question;
  if (extra !== undefined && extra !== null && extra !== '') s += ` — ${clip(String(extra))}`;
  if (call.name === 'click_at') s += ` (${a.x}, ${a.y})`;
  return s;
}

/** `[12] button "Place order"` for a target. */
export const targetLabel = (t: CallTarget): string => `[${t.ref}] ${t.role}${t.name ? ` "${clip(t.name)}"` : ''}`;
