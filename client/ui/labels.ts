/** One short line for a tool call, as the log and the mask's caption show it. */
import type { CallTarget, PlannedCall } from '../agent/public-types';

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
  if (call.name === 'drag') s += a.to_ref !== undefined ? ` → [${String(a.to_ref)}]` : ` by (${String(a.dx ?? 0)}, ${String(a.dy ?? 0)})`;
  if (call.name === 'upload' && a.files !== undefined) s += ` — ${clip(([] as unknown[]).concat(a.files).join(', '))}`;
  if (call.name === 'click' && a.hold_ms) s += ` (hold ${String(a.hold_ms)} ms)`;
  return s;
}

/** `[12] button "Place order"` for a target. */
export const targetLabel = (t: CallTarget): string => `[${t.ref}] ${t.role}${t.name ? ` "${clip(t.name)}"` : ''}`;
