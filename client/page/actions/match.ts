/**
 * Choosing an option by what the model wrote (pure): exact value, exact label, case-insensitive
 * label, then a unique partial label. Ambiguity is an error listing the candidates, never a guess.
 */

export interface Choice {
  label: string;
  value?: string;
  disabled?: boolean;
}

export type MatchResult<T> = { ok: true; item: T; how: 'value' | 'label' | 'partial' } | { ok: false; reason: 'none' | 'ambiguous'; candidates: T[] };

const norm = (s: string): string => s.replace(/\s+/g, ' ').trim().toLowerCase();

export function matchOption<T extends Choice>(items: T[], wanted: string): MatchResult<T> {
  const w = wanted.trim();
  const byLabel = items.filter((i) => i.label.replace(/\s+/g, ' ').trim() === w);
  if (byLabel.length === 1) return { ok: true, item: byLabel[0]!, how: 'label' };
  const byValue = items.filter((i) => i.value !== undefined && i.value === w);
  if (byValue.length === 1) return { ok: true, item: byValue[0]!, how: 'value' };
  const nw = norm(w);
  const ci = items.filter((i) => norm(i.label) === nw);
  if (ci.length === 1) return { ok: true, item: ci[0]!, how: 'label' };
  if (byLabel.length > 1 || ci.length > 1) return { ok: false, reason: 'ambiguous', candidates: byLabel.length > 1 ? byLabel : ci };
  if (!nw) return { ok: false, reason: 'none', candidates: [] };
  const partial = items.filter((i) => norm(i.label).includes(nw));
  if (partial.length === 1) return { ok: true, item: partial[0]!, how: 'partial' };
  if (partial.length > 1) return { ok: false, reason: 'ambiguous', candidates: partial };
  return { ok: false, reason: 'none', candidates: [] };
}

/** "France, Finland, Germany, … (24 options)" for error messages. */
export function optionList(labels: string[], max = 12): string {
  const shown = labels.slice(0, max).map((l) => (l.length > 40 ? `${l.slice(0, 37)}…` : l));
  return shown.join(', ') + (labels.length > max ? `, … (${labels.length} options)` : '');
}
