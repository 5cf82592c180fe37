/**
 * Which calls need the user's yes, whatever the model says: payment, deletion, sending a
 * message, submitting personal data, leaving the site, downloading. Pure: the page layer
 * supplies the facts (`targetFacts`), this decides.
 *
 * Judged from what the element is called and what the call does, never from the model's
 * stated intent — a hijacked model states whatever the page told it to.
 */
import type { TargetFacts } from '../page/facts';
import type { PlannedCall, RiskKind } from './types';

export interface Risk {
  kind: RiskKind;
  reason: string;
}

// Words on the control itself (English and Spanish, the overlay's languages).
const PAYMENT = /\b(pay|payment|place (?:my |the |your )?order|buy|purchase|checkout and pay|complete (?:order|purchase|payment)|confirm (?:order|purchase|payment)|subscribe|donate|pagar|comprar|realizar pedido|confirmar (?:pedido|compra|pago))\b/i;
const DELETION = /\b(delete|erase|destroy|trash|deactivate|wipe|remove (?:account|user|member|permanently|all)|close (?:my )?account|cancel (?:my )?(?:account|subscription|order)|eliminar|borrar|suprimir)\b/i;
const SENDING = /\b(send|post|publish|tweet|share|reply all|enviar|publicar|responder)\b/i;
const ACTIONABLE = new Set(['button', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'tab', 'gridcell', 'generic', 'img', 'listitem', 'cell']);
const DOWNLOAD_PATH = /\.(zip|rar|7z|tar|gz|tgz|exe|msi|dmg|pkg|deb|rpm|apk|iso|bin|pdf|csv|xlsx?|docx?|pptx?)$/i;

/** Calls that can press, submit or navigate; the rest (typing without submit, scrolling, reading) are safe. */
function presses(call: PlannedCall): boolean {
  if (call.name === 'click' || call.name === 'click_at') return true;
  if (call.name === 'press_key') return /^(enter|space| )$/i.test(String(call.args.key ?? ''));
  if (call.name === 'type') return call.args.submit === true || call.args.submit === 'true';
  return false;
}

const originOf = (url: string): string | undefined => {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
};

/**
 * @param here the page's URL, to tell leaving the site from moving within it
 * @example classifyRisk({ name: 'click', args: { ref: '9' } }, { role: 'button', name: 'Place order', tag: 'button' }, location.href)
 *   // → { kind: 'payment', reason: 'Clicking button "Place order" may pay or place an order.' }
 */
export function classifyRisk(call: PlannedCall, facts: TargetFacts | undefined, here: string): Risk | undefined {
  if (call.name === 'navigate') {
    const to = originOf(resolveUrl(String(call.args.url ?? ''), here));
    const from = originOf(here);
    if (to && from && to !== from) return { kind: 'leaving_site', reason: `Opening ${to} leaves this site.` };
    return undefined;
  }
  if (!facts || !presses(call)) return undefined;
  const what = `${facts.role === 'generic' ? facts.tag : facts.role}${facts.name ? ` "${facts.name}"` : ''}`;
  const verb = call.name === 'type' ? `Submitting ${what}` : call.name === 'press_key' ? `Pressing ${String(call.args.key)} on ${what}` : `Clicking ${what}`;
  const label = facts.name;
  if (ACTIONABLE.has(facts.role) || facts.submits) {
    if (PAYMENT.test(label)) return { kind: 'payment', reason: `${verb} may pay or place an order.` };
    if (DELETION.test(label)) return { kind: 'deletion', reason: `${verb} may delete something.` };
    if (SENDING.test(label) && facts.role !== 'link') return { kind: 'sending', reason: `${verb} may send or publish a message.` };
  }
  if (facts.submits && !facts.submits.search && facts.submits.personal.length) {
    return { kind: 'personal_data', reason: `${verb} submits personal data (${facts.submits.personal.join(', ')}).` };
  }
  if (facts.href) {
    if (facts.download || DOWNLOAD_PATH.test(safePath(facts.href))) return { kind: 'download', reason: `${verb} downloads a file.` };
    const to = originOf(facts.href);
    const from = originOf(here);
    if (to && from && to !== from) return { kind: 'leaving_site', reason: `${verb} leaves this site for ${to}.` };
  }
  return undefined;
}

function resolveUrl(url: string, base: string): string {
  try {
    return new URL(url, base).href;
  } catch {
    return ''; // not a URL: the navigate action reports that itself
  }
}

function safePath(href: string): string {
  try {
    return new URL(href).pathname;
  } catch {
    return '';
  }
}
