/**
 * Live state of an element, read from DOM properties (what the user sees now), not from the
 * attributes a page was served with: `checked` after a click, `value` after typing, `:disabled`
 * through a disabled <fieldset>. ARIA states are attributes by nature and are read as such.
 *
 * Rules worth knowing (each tested):
 * - A state is present when it applies to the role: a checkbox is `checked: false` when
 *   unchecked, a disclosure is `expanded: false` when collapsed; a plain button has neither.
 *   disabled/required/invalid/readonly/focused are present only when true.
 * - invalid: aria-invalid (any value but "false"); or the browser's `:user-invalid` (the user
 *   has interacted and the value fails validation); or a text field that holds a value which
 *   fails validation (typed or prefilled "abc" in an email field). An untouched empty
 *   required field is `required`, not `invalid` — the page has not complained yet.
 * - expanded: aria-expanded; else a summary's details, a popover invoker's popover, or (trees
 *   without ARIA) whether the list item's nested list is shown.
 * - value: passwords become "••••" whatever their length; long values are cut at
 *   VALUE_MAX characters with "…"; contenteditable content is not a value (it is the text).
 */
import { isHtml } from './role';
import type { ElementStates } from '../page-types';
import type { Zones } from '../settings';
import { attrOf, parentElementOf, hasAttrOf } from '../dom/proto';

export const VALUE_MAX = 200;
/** How many option labels `options.first` carries. */
export const OPTIONS_SHOWN = 5;
export const PASSWORD_MASK = '••••';

const CHECKABLE_ROLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);
const SELECTABLE_ROLES = new Set(['option', 'tab', 'treeitem', 'row', 'gridcell', 'columnheader', 'rowheader']);
const RANGE_ROLES = new Set(['slider', 'spinbutton', 'progressbar', 'meter', 'scrollbar']);

/** Input types the model must know to type correctly (the map prints `type=`). */
const TELLING_TYPES = new Set(['email', 'tel', 'url', 'number', 'password', 'search', 'date', 'time', 'datetime-local', 'month', 'week', 'color', 'file']);
/** Input types that hold free text (value, readonly, placeholder, validity of typed text). */
const TEXT_TYPES = new Set(['text', 'email', 'tel', 'url', 'number', 'password', 'search', 'date', 'time', 'datetime-local', 'month', 'week']);
/** Input types with min/max/step. */
const RANGED_TYPES = new Set(['range', 'number', 'date', 'time', 'datetime-local', 'month', 'week']);

/**
 * The expected text format of date/time-like inputs (and color), as the model must type it.
 * Times show seconds only when `step` asks for sub-minute precision.
 */
export function inputFormat(type: string, step = ''): string | undefined {
  const seconds = step !== '' && step !== 'any' && Number(step) > 0 && Number(step) % 60 !== 0;
  switch (type) {
    case 'date':
      return 'YYYY-MM-DD';
    case 'time':
      return seconds ? 'HH:MM:SS' : 'HH:MM';
    case 'datetime-local':
      return seconds ? 'YYYY-MM-DDTHH:MM:SS' : 'YYYY-MM-DDTHH:MM';
    case 'month':
      return 'YYYY-MM';
    case 'week':
      return 'YYYY-Www';
    case 'color':
      return '#rrggbb';
  }
  return undefined;
}

/** Whitespace-collapsed and cut at `max` characters (with "…"). */
export function clip(s: string, max = VALUE_MAX): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

const textOf = (el: Element, zones: Zones): string => clip(attrOf(el, 'aria-label') || zones.textOutside(el, 200), 80);

/**
 * States of `el` shown with role `role`. `focused` is the deep active element (through shadow
 * roots and frames). `optionName` names ARIA options (default: aria-label or text outside `zones`).
 */
export function readStates(
  el: Element,
  role: string,
  focused: Element | null,
  zones: Zones,
  optionName: (el: Element) => string = (o) => textOf(o, zones),
): ElementStates {
  const s: ElementStates = {};
  const tag = isHtml(el) ? el.localName : '';
  const input = tag === 'input' ? (el as HTMLInputElement) : null;
  const type = input ? input.type : '';

  // checked: the checkedness and indeterminate flag of native boxes; aria-checked otherwise.
  if (input && (type === 'checkbox' || type === 'radio')) {
    s.checked = type === 'checkbox' && input.indeterminate ? 'mixed' : input.checked;
  } else if (CHECKABLE_ROLES.has(role) || hasAttrOf(el, 'aria-checked')) {
    const a = attrOf(el, 'aria-checked');
    if (a === 'mixed') s.checked = 'mixed';
    else if (a === 'true') s.checked = true;
    else if (CHECKABLE_ROLES.has(role) || a === 'false') s.checked = false;
  }

  // pressed: toggle buttons only (aria-pressed present).
  if (role === 'button') {
    const p = attrOf(el, 'aria-pressed');
    if (p === 'mixed') s.pressed = 'mixed';
    else if (p === 'true') s.pressed = true;
    else if (p === 'false') s.pressed = false;
  }

  // selected: the option's selectedness; aria-selected for tabs, rows, tree items…
  if (tag === 'option') s.selected = (el as HTMLOptionElement).selected;
  else if (SELECTABLE_ROLES.has(role)) {
    const a = attrOf(el, 'aria-selected');
    if (a === 'true') s.selected = true;
    else if (a === 'false') s.selected = false;
  }

  // expanded: aria-expanded; a summary shows its details' `open`; a popover invoker its popover.
  const ae = attrOf(el, 'aria-expanded');
  if (ae === 'true') s.expanded = true;
  else if (ae === 'false') s.expanded = false;
  else if (tag === 'summary' && parentElementOf(el)?.localName === 'details') s.expanded = (parentElementOf(el) as HTMLDetailsElement).open;
  else {
    const target = (el as HTMLButtonElement).popoverTargetElement;
    if (target) s.expanded = matchesSafe(target, ':popover-open');
    else if (tag !== 'input' && tag !== 'select' && tag !== 'textarea') {
      const nested = nestedListState(el);
      if (nested !== undefined) s.expanded = nested;
    }
  }

  // disabled: :disabled covers disabled fieldsets (outside their first legend) and optgroups.
  if ((tag && matchesSafe(el, ':disabled')) || ariaDisabled(el)) s.disabled = true;

  // required
  if ((el as HTMLInputElement).required === true || attrOf(el, 'aria-required') === 'true') s.required = true;

  // invalid (see file comment)
  if (isInvalid(el, tag, type)) s.invalid = true;

  // readonly: text fields, and aria-readonly
  const textField = (input && TEXT_TYPES.has(type)) || tag === 'textarea';
  if ((textField && (el as HTMLInputElement).readOnly) || attrOf(el, 'aria-readonly') === 'true') s.readonly = true;

  // value, type, format, min/max/step
  const value = currentValue(el, tag, type, role, zones);
  if (value) s.value = value;
  if (input && TELLING_TYPES.has(type)) s.type = type;
  if (input) {
    const format = inputFormat(type, input.step);
    if (format) s.format = format;
  }
  if (input && RANGED_TYPES.has(type)) {
    // A range always has bounds: the defaults are part of what the model needs to know.
    const min = input.min || (type === 'range' ? '0' : '');
    const max = input.max || (type === 'range' ? '100' : '');
    if (min) s.min = min;
    if (max) s.max = max;
    if (input.step) s.step = input.step;
  } else if (tag === 'meter') {
    s.min = String((el as HTMLMeterElement).min);
    s.max = String((el as HTMLMeterElement).max);
  } else if (tag === 'progress') {
    s.max = String((el as HTMLProgressElement).max);
  } else if (RANGE_ROLES.has(role)) {
    const min = attrOf(el, 'aria-valuemin');
    const max = attrOf(el, 'aria-valuemax');
    if (min !== null) s.min = min;
    if (max !== null) s.max = max;
  }

  // options: native select, an input's datalist, an ARIA listbox, an open ARIA combobox's popup
  // An option in a deny zone (a <datalist> kept there, one <option>) is no option at all here.
  const all = optionList(el, tag, role, s.expanded === true);
  const kept = all && outsideZones(all, zones);
  // A list whose options are all in zones says nothing, not even that it is there.
  const options = kept && (kept.length || !all.length) ? kept : null;
  if (options) {
    const first: string[] = [];
    for (let i = 0; i < options.length && first.length < OPTIONS_SHOWN; i++) {
      const o = options[i]!;
      first.push(o.localName === 'option' && isHtml(o) ? clip(optionLabel(o as HTMLOptionElement), 80) : optionName(o));
    }
    s.options = { count: options.length, first };
  }

  if (focused !== null && el === focused) s.focused = true;

  // level: headings (aria-level wins over h1–h6)
  if (role === 'heading') {
    const al = parseInt(attrOf(el, 'aria-level') ?? '', 10);
    const fromTag = /^h([1-6])$/.exec(tag);
    const level = al >= 1 ? al : fromTag ? Number(fromTag[1]) : 2; // ARIA's default heading level is 2
    s.level = level;
  }
  return s;
}

/**
 * A tree without ARIA: an element in a list item's own row (not inside its nested list) reads
 * expanded when the item's nested list is rendered, collapsed when it is hidden.
 */
function nestedListState(el: Element): boolean | undefined {
  const li = el.closest('li');
  if (!li) return undefined;
  for (let c = li.firstElementChild; c; c = c.nextElementSibling) {
    if ((c.localName !== 'ul' && c.localName !== 'ol') || !c.querySelector('li')) continue;
    if (c.contains(el)) return undefined;
    return typeof c.checkVisibility === 'function' ? c.checkVisibility({ visibilityProperty: true }) : getComputedStyle(c).display !== 'none';
  }
  return undefined;
}

/** The elements of `list` outside deny zones (and our UI). */
function outsideZones<T extends Element>(list: ArrayLike<T>, zones: Zones): T[] {
  const inZone = zones.check();
  return Array.from(list).filter((o) => !inZone(o));
}

/** What an option shows: its label (label attribute or text), or its value (datalist options
 *  are often written `<option value="Madrid">` with no text). */
const optionLabel = (o: HTMLOptionElement): string => o.label || o.value;

function matchesSafe(el: Element, selector: string): boolean {
  try {
    return el.matches(selector);
  } catch {
    return false; // selector not supported by this browser
  }
}

/** aria-disabled="true" on the element or an ancestor (ARIA: it disables the subtree). */
function ariaDisabled(el: Element): boolean {
  for (let n: Element | null = el; n;) {
    if (n.closest('[aria-disabled="true"]')) return true;
    const root = n.getRootNode();
    n = root.nodeType === 11 ? (root as ShadowRoot).host : null;
  }
  return false;
}

function isInvalid(el: Element, tag: string, type: string): boolean {
  const ai = attrOf(el, 'aria-invalid');
  if (ai !== null && ai !== '' && ai !== 'false') return true;
  if (tag !== 'input' && tag !== 'textarea' && tag !== 'select') return false;
  const field = el as HTMLInputElement;
  if (!field.willValidate) return false;
  if (matchesSafe(el, ':user-invalid')) return true;
  const holdsText = tag === 'textarea' || TEXT_TYPES.has(type);
  return holdsText && field.value !== '' && !field.validity.valid;
}

function currentValue(el: Element, tag: string, type: string, role: string, zones: Zones): string | undefined {
  if (tag === 'input') {
    const input = el as HTMLInputElement;
    switch (type) {
      case 'password':
        return input.value ? PASSWORD_MASK : undefined;
      case 'checkbox':
      case 'radio':
      case 'button':
      case 'submit':
      case 'reset':
      case 'image':
      case 'hidden':
        return undefined;
      case 'file':
        return input.files && input.files.length ? clip([...input.files].map((f) => f.name).join(', ')) : undefined;
    }
    return input.value ? clip(input.value) : undefined;
  }
  if (tag === 'textarea') return clip((el as HTMLTextAreaElement).value) || undefined;
  if (tag === 'select') {
    const chosen = outsideZones((el as HTMLSelectElement).selectedOptions, zones).map(optionLabel);
    return chosen.length ? clip(chosen.join(', ')) : undefined;
  }
  if (tag === 'progress') {
    const p = el as HTMLProgressElement;
    return p.position >= 0 ? String(p.value) : undefined; // indeterminate: no value
  }
  if (tag === 'meter') return String((el as HTMLMeterElement).value);
  if (RANGE_ROLES.has(role)) return attrOf(el, 'aria-valuetext') ?? attrOf(el, 'aria-valuenow') ?? undefined;
  // A custom combobox (a <div role=combobox>) shows its chosen value as its text.
  if (role === 'combobox' && !(el as HTMLElement).isContentEditable) return clip(zones.textOutside(el, 2000)) || undefined;
  return undefined;
}

function optionList(el: Element, tag: string, role: string, expanded: boolean): ArrayLike<Element> | null {
  if (tag === 'select') return (el as HTMLSelectElement).options;
  if (tag === 'input') {
    const list = (el as HTMLInputElement).list;
    return list ? list.options : null;
  }
  if (role === 'listbox') return el.querySelectorAll('[role=option]');
  if (role === 'combobox' && expanded) {
    const id = attrOf(el, 'aria-controls') ?? attrOf(el, 'aria-owns');
    const scope = el.getRootNode() as Document | ShadowRoot;
    const popup = id && typeof scope.getElementById === 'function' ? scope.getElementById(id.split(/\s+/)[0]!) : null;
    if (popup) return popup.querySelectorAll('[role=option]');
  }
  return null;
}
