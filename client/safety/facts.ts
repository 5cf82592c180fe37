/**
 * Facts about what a tool call will really do, for the agent's risk guard: which element it
 * activates, the form it submits (and what the form holds and where it goes), where a link
 * goes, and the site's own marks. Reads only; the judgement is the agent's (pure, in
 * client/safety/risk.ts).
 *
 * The call is first put in its one canonical form (the actions' own argument parser), and
 * every "what happens" decision is the action's own: the key parser and keyEffect (press_key),
 * typingPlan (type), clickAtTarget (click_at) and activatedBy (click) — so the check judges
 * exactly what the action then does, never the words of the call.
 */
import { createDescriber, type Describer } from '../page/names/describe';
import { visibleText } from '../page/names/visible-text';
import { deepActiveElement } from '../page/dom/flat-tree';
import { parseCall } from '../page/actions/args';
import { clickAtTarget } from '../page/actions/click-at';
import { activatedBy } from '../page/actions/hit';
import { activatingKey, parseKeyCombo } from '../page/actions/keys';
import { keyEffect, defaultButton, type KeyEffect } from '../page/actions/press';
import { editableTarget, typingPlan } from '../page/actions/type';
import { remoteFacts } from '../page/frames/parent';
import { resolveRef } from '../page/map/refs';
import { riskMarkOf } from './marks';
import { personalKind } from './personal-words';
import type { PageSettings } from '../page/settings';
import type { CallLike, FormFacts, TargetFacts, Via } from '../page/facts-types';

// Field kinds by autocomplete token, input type or name/id words (personal-words.ts).
const PERSONAL_AUTOCOMPLETE: Array<[RegExp, string]> = [
  [/^(name|given-name|family-name|additional-name|nickname|honorific)/, 'name'],
  [/^email/, 'email'],
  [/^tel/, 'phone'],
  [/^(street-address|address-line|address-level|postal-code|country)/, 'address'],
  [/^cc-/, 'card'],
  [/^bday/, 'birthday'],
  [/^new-password/, 'new password'],
  [/^current-password/, 'password'],
];
/** Names of card fields: a form with one takes a payment. */
const CARD_FIELD =
  /(^|[^a-z])(cc|card)[-_ ]?(num|number|no)|cardnumber|(^|[^a-z])(cvc|cvv|cvv2|csc)([^a-z]|$)|card[-_ ]?(cvc|code|security)|security[-_ ]?code/;
/** Frames that hold card fields (payment providers' hosted fields). */
const CARD_FRAME = /card|payment|checkout/i;

function acTokens(el: Element): string {
  return (el.getAttribute('autocomplete') ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter((t) => !/^(section-|shipping|billing|home|work|mobile|on|off)/.test(t))
    .join(' ');
}

function fieldKind(el: Element): string | undefined {
  const input = el as HTMLInputElement;
  const type = el.localName === 'input' ? input.type : '';
  if (type === 'submit' || type === 'button' || type === 'search' || type === 'checkbox' || type === 'radio') return undefined;
  // A file put into the form (upload) leaves with it.
  if (type === 'file') return (el as HTMLInputElement).files?.length ? 'file' : undefined;
  // Hidden fields are sent too (a wizard carries earlier steps in them): judged by name only.
  if (type === 'hidden') return wordsKind(el);
  if (type === 'email') return 'email';
  if (type === 'tel') return 'phone';
  const ac = acTokens(el);
  for (const [re, kind] of PERSONAL_AUTOCOMPLETE) if (re.test(ac)) return kind;
  if (type === 'password') return 'password';
  return wordsKind(el);
}

function wordsKind(el: Element): string | undefined {
  return personalKind(el.getAttribute('name') ?? '') ?? personalKind(el.id);
}

function isCardField(el: Element): boolean {
  if (/^cc-/.test(acTokens(el))) return true;
  return CARD_FIELD.test(`${el.getAttribute('name') ?? ''} ${el.id}`.toLowerCase());
}

const absolute = (url: string | null, base: string): string | undefined => {
  if (!url || !url.trim()) return undefined;
  try {
    return new URL(url.trim(), base).href;
  } catch {
    return undefined;
  }
};

/**
 * `filled`: a field about to receive text (a `type` call that also submits).
 * `submitter`: the button the submission goes through (its formaction/formmethod win).
 */
function formFacts(form: HTMLFormElement, filled?: Element, submitter?: Element): FormFacts {
  const fields = [...form.elements].filter((e) => /^(input|select|textarea)$/.test(e.localName));
  const texty = fields.filter((f) => f.localName !== 'select' && !/^(hidden|submit|button|checkbox|radio|reset|image)$/.test((f as HTMLInputElement).type));
  const search =
    form.getAttribute('role') === 'search' ||
    (texty.length === 1 && ((texty[0] as HTMLInputElement).type === 'search' || /^(q|query|search|s|keywords?)$/i.test((texty[0] as HTMLInputElement).name)));
  const personal = new Set<string>();
  let newPassword = false;
  if (!search) {
    for (const f of fields) {
      if (!(f as HTMLInputElement).value && f !== filled) continue;
      const kind = fieldKind(f);
      if (kind) personal.add(kind);
      if (kind === 'new password') newPassword = true;
    }
  }
  const base = form.ownerDocument.baseURI;
  // Only an action the page wrote counts: a form without one posts to the page's own URL.
  const action = absolute(submitter?.getAttribute('formaction') ?? null, base) ?? absolute(form.getAttribute('action'), base);
  const override = fields.find((f) => (f as HTMLInputElement).name === '_method');
  const method = ((override as HTMLInputElement | undefined)?.value || submitter?.getAttribute('formmethod') || form.getAttribute('method') || 'get')
    .trim()
    .toLowerCase();
  let frames: boolean;
  try {
    frames = [...form.querySelectorAll('iframe')].some((f) => CARD_FRAME.test(`${f.getAttribute('title') ?? ''} ${f.getAttribute('name') ?? ''}`));
  } catch {
    frames = false;
  }
  const payment = fields.some(isCardField) || frames;
  return { personal: [...personal], search, ...(action ? { action } : {}), method, ...(payment ? { payment } : {}), ...(newPassword ? { newPassword } : {}) };
}

function isSubmitter(el: Element): el is HTMLButtonElement | HTMLInputElement {
  if (el.localName === 'button') return (el as HTMLButtonElement).type === 'submit';
  return el.localName === 'input' && /^(submit|image)$/.test((el as HTMLInputElement).type);
}

/** Roles a page's own key handler activates with Enter/Space (the browser does not: pages do). */
const KEY_ROLES = new Set(['button', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'tab', 'checkbox', 'radio', 'switch', 'treeitem']);
const NAMELESS_ROLES = new Set(['generic', 'none', 'presentation', 'img', 'listitem', 'cell', 'gridcell', 'paragraph']);
/** A nameless element is told by what it says, if that is short enough to be a label. */
const CONTENT_NAME_MAX = 80;

/** Words an icon gives a nameless control: its own class/id, its icon children's, a material icon's ligature. */
function iconWords(el: Element): string[] {
  const parts: string[] = [];
  const add = (v: string | null | undefined): void => {
    if (v) parts.push(v);
  };
  const take = (e: Element): void => {
    add(typeof e.className === 'string' ? e.className : e.getAttribute('class'));
    add(e.id);
    add(e.getAttribute('data-icon'));
    add(e.getAttribute('href')?.replace(/^.*#/, ''));
    add(e.getAttribute('xlink:href')?.replace(/^.*#/, ''));
    if (e.localName === 'img') add((e.getAttribute('src') ?? '').replace(/^.*\//, '').replace(/\.\w+$/, ''));
    if (/material-(icons|symbols)/.test(e.getAttribute('class') ?? '')) add(e.textContent);
  };
  take(el);
  try {
    [...el.querySelectorAll('svg, i, span, img, use, [class*="icon"]')].slice(0, 12).forEach(take);
  } catch {
    /* an odd subtree: the control's own words are enough */
  }
  const words = parts
    .join(' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length > 1);
  return [...new Set(words)].slice(0, 24);
}

function nameOf(el: Element, role: string, describer: Describer): string {
  let name: string;
  try {
    name = describer.name(el);
  } catch {
    name = '';
  }
  if (!name && NAMELESS_ROLES.has(role)) {
    try {
      const content = describer.nameAs(el, 'button');
      if (content.length <= CONTENT_NAME_MAX) name = content;
    } catch {
      /* no content name */
    }
  }
  return name;
}

/** What a person sees on the control, when it is not its name (layout: only for the call's own target). */
function seenText(el: Element, name: string, describer: Describer): string | undefined {
  let seen: string;
  try {
    seen = visibleText(el, (e) => describer.settings.zones.excluded(e));
  } catch {
    return undefined;
  }
  return seen && seen !== name ? seen : undefined;
}

const label = (role: string, name: string, tag: string): string =>
  `${role === 'generic' ? tag : role}${name ? ` "${name.length > 60 ? `${name.slice(0, 57)}…` : name}"` : ''}`;

/** Facts about the control a click or key activates (itself a submit button, a link, …). */
function activationFacts(control: Element, origin: Element, via: Via, describer: Describer): TargetFacts {
  const role = describer.role(control);
  const name = nameOf(control, role, describer);
  const facts: TargetFacts = { role, name, tag: control.localName, via };
  const seen = seenText(control, name, describer);
  if (seen) facts.visibleText = seen;
  if (!name) {
    const icon = iconWords(control);
    if (icon.length) facts.icon = icon;
  }
  const link = control.closest('a[href], area[href]') as HTMLAnchorElement | null;
  if (link) {
    facts.href = link.href;
    if (link.hasAttribute('download')) facts.download = true;
    const method = (link.getAttribute('data-method') ?? link.getAttribute('data-turbo-method') ?? '').trim().toLowerCase();
    if (method) facts.linkMethod = method;
  }
  const form = isSubmitter(control) ? control.form : null;
  if (form) {
    facts.submits = formFacts(form, undefined, control);
    const formName = describer.name(form);
    if (formName) facts.words = [formName];
  }
  const mark = riskMarkOf(origin, describer.settings.marks);
  if (mark) facts.mark = mark;
  return facts;
}

/** Facts about Enter in a field: the submission of its form (through its default button), or a line in a text area. */
function enterFacts(
  field: Element,
  effect: Extract<KeyEffect, { does: 'submit' | 'newline' }>,
  filled: Element | undefined,
  describer: Describer,
): TargetFacts | undefined {
  const form = effect.form;
  if (!form) return undefined; // a line in a text area outside any form sends nothing the page did not wire itself
  const role = describer.role(field);
  const facts: TargetFacts = { role, name: nameOf(field, role, describer), tag: field.localName, via: effect.does === 'submit' ? 'submit' : 'newline' };
  const button = effect.does === 'submit' ? effect.button : defaultButton(form);
  const words: string[] = [];
  if (button) {
    const b = describer.describe(button);
    const bname = nameOf(button, b.role, describer);
    facts.button = label(b.role, bname, button.localName);
    if (bname) words.push(bname);
    const seen = seenText(button, bname, describer);
    if (seen) words.push(seen);
    else {
      const icon = iconWords(button);
      if (icon.length) facts.icon = icon;
    }
  }
  const formName = describer.name(form);
  if (formName) words.push(formName);
  if (words.length) facts.words = words;
  facts.submits = formFacts(form, filled, button);
  const mark = riskMarkOf(button ?? field, describer.settings.marks);
  if (mark) facts.mark = mark;
  return facts;
}

/** What Enter or Space does to `target` (the action's own decision), as facts. */
function keyFacts(target: Element, key: 'Enter' | ' ', filled: Element | undefined, describer: Describer): TargetFacts | undefined {
  const effect = keyEffect(target, key);
  if (effect.does === 'activate') return activationFacts(activatedBy(effect.el), target, 'key', describer);
  if (effect.does === 'submit' || effect.does === 'newline') return enterFacts(target, effect, filled, describer);
  // A control the browser does not press but the page's own key handler does (role=button, …);
  // Space on a real link only scrolls.
  const control = activatedBy(target);
  if (!KEY_ROLES.has(describer.role(control))) return undefined;
  if (key === ' ' && control.matches('a[href], area[href]')) return undefined;
  return activationFacts(control, target, 'key', describer);
}

/**
 * What the call would do to which element, or undefined when it presses, submits or opens
 * nothing (or the action itself would refuse it: a bad argument, an unknown ref).
 */
export function targetFacts(raw: CallLike, settings: PageSettings): TargetFacts | undefined {
  const parsed = parseCall(raw); // a call already in its canonical form is taken as it is
  if (!parsed.ok) return undefined;
  const call = parsed.call;
  // In a frame from another origin: what that frame's pagehand said with its map (it refuses
  // the call if its element no longer matches).
  const remote = remoteFacts(call as CallLike, settings);
  if (remote !== undefined) return remote ?? undefined;
  const describer = createDescriber(settings);
  const resolve = (ref: unknown): Element => resolveRef(ref, (e) => describer.describe(e));
  try {
    switch (call.name) {
      case 'click':
      case 'double_click': {
        const el = resolve(call.args.ref);
        return activationFacts(activatedBy(el), el, 'click', describer);
      }
      case 'drag': {
        // What a drop lands on says what it does ("Trash", "Delete"): judged like a press of it.
        if (call.args.to_ref === undefined) return undefined;
        const el = resolve(call.args.to_ref);
        return activationFacts(activatedBy(el), el, 'click', describer);
      }
      case 'click_at': {
        const { hit, activates } = clickAtTarget(call.args.x, call.args.y);
        if (!hit || !activates) return undefined;
        return activationFacts(activates, hit.el, 'click', describer);
      }
      case 'press_key': {
        const key = activatingKey(parseKeyCombo(call.args.key));
        if (!key) return undefined;
        const target = call.args.ref !== undefined ? resolve(call.args.ref) : (deepActiveElement(document) ?? document.body);
        return keyFacts(target, key, undefined, describer);
      }
      case 'type': {
        const field = editableTarget(resolve(call.args.ref), 'the field');
        const plan = typingPlan(field, call.args.text, call.args.submit);
        if (!plan.enter && !plan.lineKeys) return undefined;
        return keyFacts(field, 'Enter', field, describer);
      }
      default:
        return undefined;
    }
  } catch {
    return undefined; // unknown or stale ref, not a field, not a key: the action itself will say so
  }
}
