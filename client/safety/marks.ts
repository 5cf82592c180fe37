/**
 * The site owner's own say on what a control does, for the risk check: the attribute
 * `data-pagehand-risk="payment|deletion|sending|personal_data|none"` on the control or an
 * ancestor, and `init({ risky: [{ selector, kind }] })`. The nearest mark to the element wins.
 * Whether a mark may also remove caution (`none`) is the risk check's decision (./risk.ts).
 */
import type { RiskMark, RiskyRule } from '../page/facts-types';
import { flatParent } from '../page/dom/flat-tree';
import { nodeTypeOf, attrOf } from '../page/dom/proto';

export type { RiskMark, RiskyRule };

export const RISK_ATTR = 'data-pagehand-risk';
export const RISK_MARKS: readonly RiskMark[] = ['payment', 'deletion', 'sending', 'personal_data', 'none'];

const isMark = (v: string | null): v is RiskMark => v !== null && (RISK_MARKS as readonly string[]).includes(v);

/** `init`'s `risky` rules, checked: selectors that do not parse (or unknown kinds) are skipped and returned. */
export function riskRules(list: readonly RiskyRule[]): { rules: readonly RiskyRule[]; ignored: string[] } {
  const ok: RiskyRule[] = [];
  const ignored: string[] = [];
  for (const r of list) {
    try {
      document.createDocumentFragment().querySelector(r.selector);
      if (isMark(r.kind)) ok.push({ selector: r.selector, kind: r.kind });
      else ignored.push(r.selector);
    } catch {
      ignored.push(r.selector);
    }
  }
  return { rules: ok, ignored };
}

function markOn(el: Element, rules: readonly RiskyRule[]): RiskMark | undefined {
  const attr = attrOf(el, RISK_ATTR);
  const v = attr === null ? null : attr.trim().toLowerCase();
  if (isMark(v)) return v;
  for (const r of rules) {
    try {
      if (el.matches(r.selector)) return r.kind;
    } catch {
      /* a selector this element's document cannot match */
    }
  }
  return undefined;
}

/** The nearest mark on `el` or its ancestors (across shadow roots and same-origin frames). */
export function riskMarkOf(el: Element, rules: readonly RiskyRule[]): RiskMark | undefined {
  for (let n: Node | null = el; n; n = flatParent(n) ?? (n as Document).defaultView?.frameElement ?? null) {
    if (nodeTypeOf(n) !== 1) continue;
    const mark = markOn(n as Element, rules);
    if (mark) return mark;
  }
  return undefined;
}
