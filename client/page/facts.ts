/**
 * Facts about what a tool call would touch, for the agent's risk guard: the element, where a
 * link goes, whether it downloads, and whether the call submits a form with personal data.
 * Reads only; the judgement itself is the agent's (pure, in client/agent/risk.ts).
 */
import { createDescriber } from './describe';
import { deepActiveElement, deepHit } from './flat-tree';
import { resolveRef } from './refs';

export interface FormFacts {
  /** Kinds of personal fields that hold a value and would be sent: `email`, `name`, `card`, … */
  personal: string[];
  /** A search form (role=search, a lone search field): never personal. */
  search: boolean;
}

export interface TargetFacts {
  role: string;
  name: string;
  tag: string;
  /** Absolute URL a link (or the link around the element) goes to. */
  href?: string;
  /** The link has a `download` attribute. */
  download?: boolean;
  /** The call would submit a form: what it holds. */
  submits?: FormFacts;
}

export interface CallLike {
  name: string;
  args?: Record<string, unknown>;
}

// Field kinds by autocomplete token, input type or name/id words.
const PERSONAL_AUTOCOMPLETE: Array<[RegExp, string]> = [
  [/^(name|given-name|family-name|additional-name|nickname|honorific)/, 'name'],
  [/^email/, 'email'],
  [/^tel/, 'phone'],
  [/^(street-address|address-line|address-level|postal-code|country)/, 'address'],
  [/^cc-/, 'card'],
  [/^bday/, 'birthday'],
  [/^(current-password|new-password)/, 'password'],
];
const PERSONAL_WORDS: Array<[RegExp, string]> = [
  [/e-?mail/, 'email'],
  [/phone|tel\b|mobile/, 'phone'],
  [/card|cc-?num|cvc|cvv|iban/, 'card'],
  [/pass(word)?\b|pwd/, 'password'],
  [/street|address|city|zip|postal|postcode/, 'address'],
  [/birth|dob\b/, 'birthday'],
  [/ssn|passport|national.?id|tax.?id/, 'id number'],
  [/(first|last|full|given|family|sur)[-_ ]?name|^name$/, 'name'],
];

function fieldKind(el: Element): string | undefined {
  const input = el as HTMLInputElement;
  const type = el.localName === 'input' ? input.type : '';
  if (type === 'submit' || type === 'button' || type === 'search' || type === 'checkbox' || type === 'radio') return undefined;
  // Hidden fields are sent too (a wizard carries earlier steps in them): judged by name only.
  if (type === 'hidden') return wordsKind(el);
  if (type === 'email') return 'email';
  if (type === 'tel') return 'phone';
  if (type === 'password') return 'password';
  const ac = (el.getAttribute('autocomplete') ?? '').toLowerCase().split(/\s+/).filter((t) => !/^(section-|shipping|billing|home|work|mobile|on|off)$/.test(t)).join(' ');
  for (const [re, kind] of PERSONAL_AUTOCOMPLETE) if (re.test(ac)) return kind;
  return wordsKind(el);
}

function wordsKind(el: Element): string | undefined {
  const words = `${el.getAttribute('name') ?? ''} ${el.id}`.toLowerCase();
  for (const [re, kind] of PERSONAL_WORDS) if (re.test(words)) return kind;
  return undefined;
}

/** `filled`: a field about to receive text (a `type` call that also submits). */
function formFacts(form: HTMLFormElement, filled?: Element): FormFacts {
  const fields = [...form.elements].filter((e) => /^(input|select|textarea)$/.test(e.localName));
  const texty = fields.filter((f) => f.localName !== 'select' && !/^(hidden|submit|button|checkbox|radio|reset|image)$/.test((f as HTMLInputElement).type));
  const search =
    form.getAttribute('role') === 'search' ||
    (texty.length === 1 && ((texty[0] as HTMLInputElement).type === 'search' || /^(q|query|search|s|keywords?)$/i.test((texty[0] as HTMLInputElement).name)));
  const personal = new Set<string>();
  if (!search) {
    for (const f of fields) {
      if (!(f as HTMLInputElement).value && f !== filled) continue;
      const kind = fieldKind(f);
      if (kind) personal.add(kind);
    }
  }
  return { personal: [...personal], search };
}

function isSubmitter(el: Element): el is HTMLButtonElement | HTMLInputElement {
  if (el.localName === 'button') return (el as HTMLButtonElement).type === 'submit';
  return el.localName === 'input' && /^(submit|image)$/.test((el as HTMLInputElement).type);
}

/** What the call would do to which element; undefined when it touches no element we can see. */
export function targetFacts(call: CallLike): TargetFacts | undefined {
  const args = call.args ?? {};
  const describer = createDescriber();
  let el: Element | null = null;
  try {
    if (call.name === 'click_at') {
      const x = Number(args.x) * window.innerWidth;
      const y = Number(args.y) * window.innerHeight;
      el = Number.isFinite(x) && Number.isFinite(y) ? deepHit(x, y)?.el ?? null : null;
    } else if (args.ref !== undefined && args.ref !== null && args.ref !== '') {
      el = resolveRef(args.ref, (e) => describer.describe(e));
    } else if (call.name === 'press_key') {
      el = deepActiveElement(document);
    }
  } catch {
    return undefined; // unknown or stale: the action itself will say so
  }
  if (!el) return undefined;
  const { role, name } = describer.describe(el);
  const facts: TargetFacts = { role, name, tag: el.localName };
  const link = el.closest('a[href], area[href]') as HTMLAnchorElement | null;
  if (link) {
    facts.href = link.href;
    if (link.hasAttribute('download')) facts.download = true;
  }
  const form = (el as HTMLInputElement).form ?? el.closest('form');
  const key = String(args.key ?? '');
  const submits =
    ((call.name === 'click' || call.name === 'click_at') && isSubmitter(el)) ||
    (call.name === 'type' && (args.submit === true || args.submit === 'true')) ||
    (call.name === 'press_key' && /^enter$/i.test(key) && el.localName !== 'textarea');
  if (submits && form) {
    facts.submits = formFacts(form, call.name === 'type' ? el : undefined);
    // Enter or a typed submit goes through the form's default button: its name says what it does.
    if (call.name !== 'click' && call.name !== 'click_at') {
      const button = [...form.elements].find(isSubmitter);
      if (button) facts.name = `${facts.name} → ${describer.name(button)}`;
    }
  }
  return facts;
}
