/**
 * Hints for targets without a name. A hint is not an accessible name — `describe()` never
 * returns one — but a clue the page carries anyway: a control word in the class or id, the
 * link's path, the icon it draws (SVG `<use>`, icon-font class), an image's file name, a
 * telling id, the form it submits, or (for icons inside a row) where it sits by the row's text;
 * for a form field, first the text it sits by when no label is linked (near-label.ts).
 * The map prints it as `~hint`, apart from the quoted name.
 */
import { quote } from './format';
import { iconWordOf, ligatureOf, spriteWord } from './icon-name';
import { isLabelableField, nearLabel } from './near-label';
import { CONTROL_WORDS, classAndId } from './walk/target';
import type { PageSettings, Zones } from '../settings';
import { ownerDocumentOf, parentElementOf, attrOf, hasAttrOf } from '../dom/proto';

const HINT_MAX = 40;

/** Pure: the first control word in a class/id string ("hitarea expandable-hitarea" → "expand"). */
export function controlWord(classes: string): string {
  const lower = classes.toLowerCase();
  for (const w of CONTROL_WORDS) if (w !== 'hitarea' && lower.includes(w)) return w;
  return '';
}

/** Pure: the path a link goes to, when it says something ("/mes-commandes"); not "/" or "#". */
export function hrefHint(href: string, base: string): string {
  let u: URL;
  try {
    u = new URL(href, base);
  } catch {
    return '';
  }
  if (u.protocol === 'javascript:') return '';
  const b = new URL(base);
  const path = decodeURIComponent(u.pathname).replace(/\/+$/, '');
  if (u.origin !== b.origin) return u.hostname + path;
  if (path && path !== decodeURIComponent(b.pathname).replace(/\/+$/, '')) return path.length > HINT_MAX ? `…${path.slice(-HINT_MAX)}` : path;
  return u.hash.length > 1 ? u.hash : '';
}

/** Pure: the file name of an image URL ("/static/img/logo.svg?v=2" → "logo.svg"). */
export function fileName(src: string): string {
  if (!src || src.startsWith('data:')) return '';
  const last = src.split(/[?#]/)[0]!.split('/').pop() ?? '';
  try {
    return decodeURIComponent(last).slice(0, HINT_MAX);
  } catch {
    return last.slice(0, HINT_MAX);
  }
}

/** Pure: an id a person wrote ("hamburger-toggle"), not a generated one ("ember412", "r:3f"). */
export function tellingId(id: string): string {
  if (!id || id.length > HINT_MAX || !/[a-z]{3}/i.test(id) || /\d{3,}/.test(id) || /^[:_]|[:]/.test(id)) return '';
  return /^[0-9a-f-]{12,}$/i.test(id) ? '' : id;
}

/**
 * The hint for an unnamed element. `row` is the clickable row an icon target sits in: its hint
 * also says where it sits by the nearest text (`remove before "Blue"`), as rows often hold
 * several alike icons (one × per chip). A form field (`role` says which) is told by the text it
 * sits by (`after "Name"`, `before "Remember me"`, `over "Choose a file"`), else by its clue.
 */
export function hintFor(el: Element, settings: PageSettings, row?: Element, role = ''): string {
  const { zones } = settings;
  if (!row && isLabelableField(el, role)) {
    const near = nearLabel(el, role, zones);
    if (near) return `${near.where} ${quote(near.text, settings)}`;
  }
  if (!row) return clueFor(el, zones);
  const word = controlWord(classAndId(el));
  const clue = word || clueFor(el, zones);
  const pos = positionHint(el, row, zones);
  return clue && pos ? `${clue} ${pos}` : clue || pos;
}

function clueFor(el: Element, zones: Zones): string {
  // Elsewhere than in a row, an id is more specific than a control word.
  const word = controlWord(classAndId(el));
  const link = el.localName === 'a' && hasAttrOf(el, 'href') ? hrefHint(attrOf(el, 'href')!, ownerDocumentOf(el).baseURI) : '';
  if (link) return link;
  // What a deny zone inside the element holds (an icon's class, an image's file name) is no clue.
  let zoned: boolean | undefined;
  const hasZone = (): boolean => (zoned ??= zones.holds(el));
  const inside = (selector: string): Element | null => {
    const first = el.querySelector(selector);
    return first && hasZone() ? (zoneFree([...el.querySelectorAll(selector)])[0] ?? null) : first;
  };
  const zoneFree = (list: Element[]): Element[] => (list.length && hasZone() ? list.filter((n) => !zones.inside(n)) : list);
  const use = el.localName === 'use' ? el : inside('use');
  const ref = use ? (attrOf(use, 'href') ?? attrOf(use, 'xlink:href')) : null;
  if (ref && ref.includes('#')) return spriteWord(ref);
  // The icon's own name: an icon font's class (its library prefix and style words taken off),
  // or a Material ligature (hidden from the name by aria-hidden, so not already the name).
  const icon =
    iconWordOf(attrOf(el, 'class') ?? '') ||
    zoneFree([...el.querySelectorAll('[class]')])
      .slice(0, 4)
      .map((c) => iconWordOf(attrOf(c, 'class') ?? '') || ligatureOf(c))
      .find(Boolean);
  if (icon) return icon;
  const img = el.localName === 'img' || (el.localName === 'input' && (el as HTMLInputElement).type === 'image') ? el : inside('img');
  const file = img ? fileName(attrOf(img, 'src') ?? '') : '';
  if (file) return file;
  const id = tellingId(el.id);
  if (id) return id;
  const form = formHint(el);
  if (form) return form;
  return word;
}

/** The only submit button of a form: "search" for a search form, else "submit". */
function formHint(el: Element): string {
  const tag = el.localName;
  const submit =
    (tag === 'button' && (el as HTMLButtonElement).type === 'submit') ||
    (tag === 'input' && ((el as HTMLInputElement).type === 'submit' || (el as HTMLInputElement).type === 'image'));
  const form = submit ? (el as HTMLButtonElement).form : null;
  if (!form || form.querySelectorAll('button, input[type=submit], input[type=image]').length !== 1) return '';
  const search =
    attrOf(form, 'role') === 'search' ||
    !!form.querySelector('input[type=search], input[name=q], input[name=query], input[name=search], input[name=s]') ||
    /search|find/i.test(attrOf(form, 'action') ?? '');
  return search ? 'search' : 'submit';
}

/**
 * Where an icon sits by the nearest text in its row: `after "Rust"`, `before "Documents"`. The
 * text is looked for in the icon's closest ancestor (up to the row) that has any besides it.
 */
function positionHint(el: Element, row: Element, zones: Zones): string {
  // The row's words beside the icon may be a deny zone's: then no position is given.
  if (zones.holds(row)) return '';
  const own = (el.textContent ?? '').trim().length;
  let box: Element = row;
  for (let n = parentElementOf(el); n && n !== row; n = parentElementOf(n)) {
    if ((n.textContent ?? '').trim().length > own) {
      box = n;
      break;
    }
  }
  try {
    const r = ownerDocumentOf(el).createRange();
    r.setStart(box, 0);
    r.setEndBefore(el);
    const before = r.toString().replace(/\s+/g, ' ').trim();
    if (before) return `after "${before.slice(-30).trim()}"`;
    r.setStartAfter(el);
    r.setEnd(box, box.childNodes.length);
    const after = r.toString().replace(/\s+/g, ' ').trim();
    return after ? `before "${after.slice(0, 30).trim()}"` : '';
  } catch {
    return ''; // across a shadow boundary
  }
}
