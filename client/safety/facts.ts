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
import { ACTION_TOOLS, parseCall, type ParsedCall, type ToolArgs } from '../page/actions/args';
import { clickAtTarget, pointTarget, viewportPoint } from '../page/actions/click-at';
import { activatedBy } from '../page/actions/hit';
import { editingHost, viewportSize, visibleBox, type Point } from '../page/actions/dom';
import { dropPoint } from '../page/actions/drag-path';
import { matchOption } from '../page/actions/match';
import { nativeSelectOf, pickNativeOptions } from '../page/actions/native-select';
import { zoneGate } from '../page/actions/touches';
import { ZoneRefusal } from '../page/actions/zones';
import {
  allIn,
  attrOf,
  baseURIOf,
  closestOf,
  controlsOf,
  elementById,
  fileCount,
  formOf,
  hasAttrOf,
  localNameOf,
  nameOf as controlName,
  ownerDocumentOf,
  textOf,
  typeOf,
  valueOf,
} from '../page/dom/proto';
import { activatingKey, parseKeyCombo, type Modifiers } from '../page/actions/keys';
import { keyEffect, defaultButton, type KeyEffect } from '../page/actions/press';
import { editableTarget, typingPlan } from '../page/actions/type';
import { remoteFacts } from '../page/frames/parent';
import { resolveRef } from '../page/map/refs';
import { nearLabel } from '../page/map/near-label';
import { riskMarkOf } from './marks';
import { personalKind } from './personal-words';
import { questionOf } from './question';
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
  return (attrOf(el, 'autocomplete') ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter((t) => !/^(section-|shipping|billing|home|work|mobile|on|off)/.test(t))
    .join(' ');
}

function fieldKind(el: Element): string | undefined {
  const type = localNameOf(el) === 'input' ? typeOf(el) : '';
  if (type === 'submit' || type === 'button' || type === 'search' || type === 'checkbox' || type === 'radio') return undefined;
  // A file put into the form (upload) leaves with it.
  if (type === 'file') return fileCount(el) ? 'file' : undefined;
  // Hidden fields are sent too (a wizard carries earlier steps in them): judged by name only.
  if (type === 'hidden') return wordsKind(el);
  if (type === 'email') return 'email';
  if (type === 'tel') return 'phone';
  const ac = acTokens(el);
  for (const [re, kind] of PERSONAL_AUTOCOMPLETE) if (re.test(ac)) return kind;
  if (type === 'password') return 'password';
  return wordsKind(el);
}

/** A field whose type or autocomplete (not only its name) says it holds personal data. */
function strongKind(el: Element): boolean {
  const type = localNameOf(el) === 'input' ? typeOf(el) : '';
  if (type === 'email' || type === 'tel' || type === 'password' || (type === 'file' && fileCount(el) > 0)) return true;
  const ac = acTokens(el);
  return PERSONAL_AUTOCOMPLETE.some(([re]) => re.test(ac));
}

function wordsKind(el: Element): string | undefined {
  return personalKind(attrOf(el, 'name') ?? '') ?? personalKind(attrOf(el, 'id') ?? '');
}

function isCardField(el: Element): boolean {
  if (/^cc-/.test(acTokens(el))) return true;
  return CARD_FIELD.test(`${attrOf(el, 'name') ?? ''} ${attrOf(el, 'id') ?? ''}`.toLowerCase());
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
  // Every read goes through the prototypes: a field named "elements", "action" or "getAttribute" shadows the form's own.
  const fields = controlsOf(form).filter((e) => /^(input|select|textarea)$/.test(localNameOf(e)));
  const texty = fields.filter((f) => localNameOf(f) !== 'select' && !/^(hidden|submit|button|checkbox|radio|reset|image)$/.test(typeOf(f)));
  const search =
    attrOf(form, 'role') === 'search' ||
    (texty.length === 1 && (typeOf(texty[0]!) === 'search' || /^(q|query|search|s|keywords?)$/i.test(controlName(texty[0]!))));
  const personal = new Set<string>();
  let newPassword = false;
  // A search form sends a query, not personal data; but the page names it a search itself
  // (role=search): a field whose type or autocomplete says personal data still counts.
  for (const f of fields) {
    if (!valueOf(f) && f !== filled) continue;
    if (search && !strongKind(f)) continue;
    const kind = fieldKind(f);
    if (kind) personal.add(kind);
    if (kind === 'new password') newPassword = true;
  }
  const base = baseURIOf(form);
  // Only an action the page wrote counts: a form without one posts to the page's own URL.
  const action = absolute(submitter ? attrOf(submitter, 'formaction') : null, base) ?? absolute(attrOf(form, 'action'), base);
  // Rails/Laravel's method override: a field, or the button the form goes through (its name=value is sent too).
  const override = submitter && controlName(submitter) === '_method' ? submitter : fields.find((f) => controlName(f) === '_method');
  const method = ((override && valueOf(override)) || (submitter && attrOf(submitter, 'formmethod')) || attrOf(form, 'method') || 'get').trim().toLowerCase();
  const frames = allIn(form, 'iframe').some((f) => CARD_FRAME.test(`${attrOf(f, 'title') ?? ''} ${attrOf(f, 'name') ?? ''}`));
  const payment = fields.some(isCardField) || frames;
  return { personal: [...personal], search, ...(action ? { action } : {}), method, ...(payment ? { payment } : {}), ...(newPassword ? { newPassword } : {}) };
}

function isSubmitter(el: Element): el is HTMLButtonElement | HTMLInputElement {
  const t = localNameOf(el);
  return t === 'button' ? typeOf(el) === 'submit' : t === 'input' && /^(submit|image)$/.test(typeOf(el));
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
    add(typeof e.className === 'string' ? e.className : attrOf(e, 'class'));
    add(e.id);
    add(attrOf(e, 'data-icon'));
    add(attrOf(e, 'href')?.replace(/^.*#/, ''));
    add(attrOf(e, 'xlink:href')?.replace(/^.*#/, ''));
    if (e.localName === 'img') add((attrOf(e, 'src') ?? '').replace(/^.*\//, '').replace(/\.\w+$/, ''));
    if (/material-(icons|symbols)/.test(attrOf(e, 'class') ?? '')) add(e.textContent);
  };
  take(el);
  // A subtree that throws is not a control without an icon: the error reaches the check, which asks.
  allIn(el, 'svg, i, span, img, use, [class*="icon"]').slice(0, 12).forEach(take);
  const words = parts
    .join(' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length > 1);
  return [...new Set(words)].slice(0, 24);
}

/** The control's name (a nameless one's short content). Errors are not taken for "no name": the check asks instead. */
function nameOf(el: Element, role: string, describer: Describer): string {
  let name = describer.name(el);
  if (!name && NAMELESS_ROLES.has(role)) {
    const content = describer.nameAs(el, 'button');
    if (content.length <= CONTENT_NAME_MAX) name = content;
  }
  return name;
}

/**
 * What a person sees on the control, when it is not its name (layout: only for the call's own
 * target). A page that makes reading it fail fails the check: it asks (fail closed).
 */
function seenText(el: Element, name: string, describer: Describer): string | undefined {
  const seen = visibleText(el, (e) => describer.settings.zones.excluded(e));
  return seen && seen !== name ? seen : undefined;
}

const label = (role: string, name: string, tag: string): string =>
  `${role === 'generic' ? tag : role}${name ? ` "${name.length > 60 ? `${name.slice(0, 57)}…` : name}"` : ''}`;

/** Facts about the control a click or key activates (itself a submit button, a link, …). */
function activationFacts(control: Element, origin: Element, via: Via, describer: Describer): TargetFacts {
  const role = describer.role(control);
  const name = nameOf(control, role, describer);
  const facts: TargetFacts = { role, name, tag: localNameOf(control), via };
  const seen = seenText(control, name, describer);
  if (seen) facts.visibleText = seen;
  const question = questionOf(control, role, name, seen, describer);
  if (question) facts.question = question;
  if (!name) {
    const icon = iconWords(control);
    if (icon.length) facts.icon = icon;
  }
  const link = closestOf(control, 'a[href], area[href]');
  if (link) {
    // Resolved as the browser does (an SVG link has no `href` string to read).
    const href = absolute(attrOf(link, 'href'), baseURIOf(link));
    if (href) facts.href = href;
    if (hasAttrOf(link, 'download')) facts.download = true;
    const method = (attrOf(link, 'data-method') ?? attrOf(link, 'data-turbo-method') ?? '').trim().toLowerCase();
    if (method) facts.linkMethod = method;
    // `ping`: the browser POSTs to each of these addresses when the link is followed.
    const pings = (attrOf(link, 'ping') ?? '')
      .split(/\s+/)
      .map((u) => absolute(u, baseURIOf(link)))
      .filter((u): u is string => !!u);
    if (pings.length) facts.pings = pings;
  }
  const form = isSubmitter(control) ? formOf(control) : null;
  if (form) {
    facts.submits = formFacts(form, undefined, control);
    const formName = describer.name(form);
    if (formName) facts.words = [formName];
  }
  const mark = riskMarkOf(origin, describer.settings.marks);
  if (mark) facts.mark = mark;
  return facts;
}

/** Roles of single-line fields a page draws as an editor: Enter there asks for a query, not a message. */
const QUERY_ROLES = new Set(['searchbox', 'combobox', 'spinbutton']);

/** Shift+Enter alone: a line break in every editor's convention, not a send. */
const lineBreakOnly = (m: Modifiers): boolean => m.shift && !m.ctrl && !m.alt && !m.meta;

/**
 * Facts about Enter in a field: the submission of its form (through its default button), or
 * Enter in a text area or editor — judged as sending what it holds (pages send a chat, a
 * comment, a reply on Enter there, with or without a form around it), named by the editor.
 */
function enterFacts(
  field: Element,
  effect: Extract<KeyEffect, { does: 'submit' | 'newline' }>,
  filled: Element | undefined,
  describer: Describer,
  mods: Modifiers,
): TargetFacts | undefined {
  const form = effect.form;
  const newline = effect.does === 'newline';
  if (newline && lineBreakOnly(mods)) return undefined;
  const editor = newline && localNameOf(field) !== 'textarea' ? (editingHost(field) ?? field) : field;
  const role = describer.role(editor);
  // A contenteditable drawn as a search box or combobox: judged by its form only, as a field's.
  const sends = newline && !QUERY_ROLES.has(role);
  if (!form && !sends) return undefined;
  const facts: TargetFacts = { role, name: nameOf(editor, role, describer), tag: localNameOf(editor), via: newline ? 'newline' : 'submit' };
  if (sends) {
    facts.editor = true;
    const near = facts.name ? null : nearLabel(editor, role, describer.settings.zones);
    if (near) facts.place = `${near.where} "${near.text}"`;
  }
  if (!form) {
    const mark = riskMarkOf(editor, describer.settings.marks);
    if (mark) facts.mark = mark;
    return facts;
  }
  const button = effect.does === 'submit' ? effect.button : defaultButton(form);
  const words: string[] = [];
  if (button) {
    const b = describer.describe(button);
    const bname = nameOf(button, b.role, describer);
    facts.button = label(b.role, bname, localNameOf(button));
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
  const mark = riskMarkOf(button ?? editor, describer.settings.marks);
  if (mark) facts.mark = mark;
  return facts;
}

/** What Enter or Space does to `target` (the action's own decision), as facts. */
function keyFacts(target: Element, key: 'Enter' | ' ', mods: Modifiers, filled: Element | undefined, describer: Describer): TargetFacts | undefined {
  const effect = keyEffect(target, key);
  if (effect.does === 'activate') return activationFacts(activatedBy(effect.el), target, 'key', describer);
  if (effect.does === 'submit' || effect.does === 'newline') return enterFacts(target, effect, filled, describer, mods);
  // A control the browser does not press but the page's own key handler does (role=button, …);
  // Space on a real link only scrolls.
  const control = activatedBy(target);
  if (!KEY_ROLES.has(describer.role(control))) return undefined;
  if (key === ' ' && control.matches('a[href], area[href]')) return undefined;
  return activationFacts(control, target, 'key', describer);
}

/** Roles of the items a custom list or menu chooses from (select_option's rows). */
const OPTION_ITEMS = 'option,[role=option],[role=menuitem],[role=menuitemradio],[role=menuitemcheckbox],[role=treeitem]';
/** How much of an option's own text is judged beside its name. */
const OPTION_TEXT_MAX = 200;

/** Where a custom list's items are: the widget itself, its inner parts, and what they point at. */
function optionItems(el: Element): Element[] {
  const doc = ownerDocumentOf(el);
  const parts = [el, ...allIn(el, '[aria-controls],[aria-owns]')];
  const outer = closestOf(el, '[role=combobox]');
  if (outer) parts.push(outer);
  const places = [el];
  for (const p of parts) {
    for (const id of `${attrOf(p, 'aria-controls') ?? ''} ${attrOf(p, 'aria-owns') ?? ''}`.split(/\s+/).filter(Boolean)) {
      const t = elementById(doc, id);
      if (t) places.push(t);
    }
  }
  return [...new Set(places.flatMap((p) => allIn(p, OPTION_ITEMS)))];
}

/**
 * What choosing `wanted` in `el` picks, judged by the options' own words: a native select's
 * options as the action matches them, a custom list's items by their names. An option the list
 * does not show yet (a menu still closed) is judged by the words asked for.
 */
function optionFacts(el: Element, wanted: readonly string[], describer: Describer): TargetFacts {
  const native = nativeSelectOf(el);
  const items = native ? [] : optionItems(el);
  const chosen: Element[] = [];
  const asked: string[] = [];
  for (const w of wanted) {
    let hit: Element | undefined;
    if (native) {
      try {
        hit = pickNativeOptions(native, [w], '', describer.settings.zones)[0]!.o;
      } catch {
        /* no such option: the action refuses it, and the words asked for are judged below */
      }
    } else {
      const m = matchOption(
        items.map((r) => ({ label: nameOf(r, 'option', describer), value: attrOf(r, 'data-value') ?? undefined, r })),
        w,
      );
      if (m.ok) hit = m.item.r;
    }
    if (hit) chosen.push(hit);
    else asked.push(w);
  }
  const all = chosen.map((o) => activationFacts(o, o, 'click', describer));
  const facts: TargetFacts = all[0] ?? { role: 'option', name: asked[0] ?? '', tag: 'option', via: 'click' };
  // Every option's name and its own text (a label can say "Keep" over the text "Delete account").
  const words = [...all.map((f) => f.name), ...chosen.map((o) => (textOf(o) ?? '').replace(/\s+/g, ' ').trim().slice(0, OPTION_TEXT_MAX)), ...asked];
  facts.words = [...new Set(words.filter((w) => w && w !== facts.name))];
  const marks = all.map((f) => f.mark);
  const mark = marks.find((m) => m && m !== 'none') ?? (marks.length && marks.every((m) => m === 'none') ? 'none' : undefined);
  if (mark) facts.mark = mark;
  else delete facts.mark;
  return facts;
}

/**
 * Where a `drag` that lets go at a point (to_x/to_y) or at an offset (dx/dy) from where it
 * presses (an element's centre, or x/y) lets go, in root-viewport pixels: the action's own
 * computation (viewportPoint, dropPoint).
 */
function dropAt(args: ToolArgs['drag'], resolve: (ref: unknown) => Element): Point {
  if (args.to_x !== undefined) return viewportPoint(args.to_x, args.to_y!);
  let from: Point;
  if (args.ref !== undefined) {
    const { box } = visibleBox(resolve(args.ref));
    // The action scrolls it into view first: where it lands is not known from here.
    if (!box) throw new Error('the dragged element is not in view, so where it lands is unknown');
    from = { x: (box.left + box.right) / 2, y: (box.top + box.bottom) / 2 };
  } else from = viewportPoint(args.x, args.y);
  return dropPoint(from, args.dx!, args.dy!, viewportSize()).to;
}

/** The call presses nothing, read from its own arguments (a key that activates nothing, typing with no line break). */
function pressesNothing(call: ParsedCall): boolean {
  if (call.name === 'press_key') return !activatingKey(parseKeyCombo(call.args.key));
  if (call.name === 'type') return !typingPlan(call.args.text, call.args.submit).enter;
  return ACTION_TOOLS[call.name].judge === 'none';
}

/**
 * What the call would do to which element, by how its tool says it is judged (`judge` in the
 * tool table), or undefined when it presses, submits or opens nothing (`destination` and `none`
 * calls carry no element facts). Throws when it cannot tell — an element the page broke, a frame
 * that sent no facts, a drop it cannot place: the risk check then asks (fail closed).
 */
export function targetFacts(raw: CallLike, settings: PageSettings): TargetFacts | undefined {
  const parsed = parseCall(raw); // a call already in its canonical form is taken as it is
  if (!parsed.ok) return undefined; // the action refuses it with the same message
  const call = parsed.call;
  // In a frame from another origin: what that frame's pagehand said with its map (it refuses
  // the call if its element no longer matches).
  const remote = remoteFacts(call as CallLike, settings);
  if (remote) return remote;
  if (remote === null) {
    if (pressesNothing(call)) return undefined;
    throw new Error('a frame from another site did not say what this does');
  }
  const describer = createDescriber(settings);
  // A call that would touch a deny zone is refused, not judged: the action's own gate says so.
  const refused = zoneGate(call, settings, describer);
  if (refused) throw new ZoneRefusal(refused);
  const resolve = (ref: unknown): Element => resolveRef(ref, (e) => describer.describe(e));
  const judge = ACTION_TOOLS[call.name].judge;
  switch (judge) {
    case 'target': {
      const el = resolve((call.args as { ref: unknown }).ref);
      return activationFacts(activatedBy(el), el, 'click', describer);
    }
    case 'drop': {
      // What a drop lands on says what it does ("Trash", "Delete"): judged like a press of it.
      const args = call.args as ToolArgs['drag'];
      if (args.to_ref !== undefined) {
        const el = resolve(args.to_ref);
        return activationFacts(activatedBy(el), el, 'click', describer);
      }
      // A point is judged as click_at judges one: what is there and what a press there activates.
      const { hit, activates } = pointTarget(dropAt(args, resolve));
      if (!hit || !activates) throw new Error('nothing pagehand can read is where the drag lets go');
      return activationFacts(activates, hit.el, 'click', describer);
    }
    case 'option': {
      const args = call.args as ToolArgs['select_option'];
      return optionFacts(resolve(args.ref), args.option, describer);
    }
    case 'point': {
      const args = call.args as ToolArgs['click_at'];
      const { hit, activates } = clickAtTarget(args.x, args.y);
      if (!hit || !activates) return undefined;
      return activationFacts(activates, hit.el, 'click', describer);
    }
    case 'key': {
      const args = call.args as ToolArgs['press_key'];
      const combo = parseKeyCombo(args.key);
      const key = activatingKey(combo);
      if (!key) return undefined;
      const target = args.ref !== undefined ? resolve(args.ref) : (deepActiveElement(document) ?? document.body);
      return keyFacts(target, key, combo.modifiers, undefined, describer);
    }
    case 'typed': {
      const args = call.args as ToolArgs['type'];
      const field = editableTarget(resolve(args.ref), 'the field');
      if (!typingPlan(args.text, args.submit).enter) return undefined;
      return keyFacts(field, 'Enter', { ctrl: false, shift: false, alt: false, meta: false }, field, describer);
    }
    case 'destination':
    case 'fetch':
    case 'none':
      return undefined;
    default:
      throw new Error(`no rule judges "${call.name}"`);
  }
}
