/**
 * The question a button answers, for the risk check. A "Yes" or an "OK" says nothing of what
 * it does: the words that do are the question around it ("Permanently delete your account?").
 * So a button inside a dialog (`<dialog>`, `role=dialog`, `role=alertdialog`) is judged with
 * the dialog's name, its description and the text it shows, and a button whose own words only
 * consent ("Yes", "OK", "Confirm", "Continue", in the languages the risk words cover) is judged
 * with the text shown around it. The other controls' words are not the question: a "Continue
 * shopping" beside a "Checkout" is not a payment.
 *
 * Reads layout (drawn text): call it for the one control a call presses, never over a map.
 */
import type { Describer } from '../page/names/describe';
import { visibleText } from '../page/names/visible-text';
import { flatParent } from '../page/dom/flat-tree';
import { attrOf, elementById, localNameOf, matchesOf, nodeTypeOf, rootOf, textOf } from '../page/dom/proto';
import { readAsPerson, readPattern } from './read-as-person';

const DIALOG = 'dialog, [role=dialog], [role=alertdialog]';
/** Other controls, whose words say what they do, not what is asked. */
const CONTROL =
  'button, a[href], input, select, textarea, [role=button], [role=link], [role=menuitem], [role=option], [role=tab], [role=checkbox], [role=radio], [role=switch]';
/** A dialog is read in full (a question padded to hide it still counts); a confirmation box around a button, a few lines. */
const DIALOG_LIMITS = { nodes: 2000, text: 4000 };
const NEARBY_LIMITS = { nodes: 300, text: 600 };
/** How far up a consenting button's question is looked for. */
const NEARBY_LEVELS = 3;

// Words that consent and say nothing else, per language of the risk words (read as a person reads them).
const CONSENT = [
  // en
  'yes',
  'ok',
  'okay',
  'sure',
  'confirm',
  'continue',
  'proceed',
  'accept',
  'agree',
  'i agree',
  "i'm sure",
  'i am sure',
  'go ahead',
  'do it',
  'got it',
  'allow',
  // es, pt
  'sí',
  'si',
  'sim',
  'aceptar',
  'acepto',
  'aceitar',
  'aceito',
  'confirmar',
  'continuar',
  'proceder',
  'prosseguir',
  'seguir',
  'de acuerdo',
  'vale',
  'concordo',
  // de
  'ja',
  'bestätigen',
  'weiter',
  'fortfahren',
  'akzeptieren',
  'einverstanden',
  'zustimmen',
  // fr
  'oui',
  "d'accord",
  'confirmer',
  'continuer',
  'valider',
  'accepter',
  "j'accepte",
  // it
  'sì',
  'conferma',
  'confermare',
  'continua',
  'continuare',
  'procedi',
  'accetta',
  'accetto',
  // nl
  'bevestigen',
  'doorgaan',
  'verder',
  'akkoord',
  'accepteren',
  'ga door',
  // ru
  'да',
  'ок',
  'подтвердить',
  'продолжить',
  'принять',
  'согласен',
  // pl
  'tak',
  'potwierdź',
  'kontynuuj',
  'dalej',
  'akceptuj',
  'zgadzam się',
  // tr
  'evet',
  'tamam',
  'onayla',
  'devam',
  'devam et',
  'kabul et',
  // ja, zh, ko
  'はい',
  '確認',
  '続行',
  '続ける',
  '同意',
  '同意する',
  '了解',
  '是',
  '是的',
  '确定',
  '確定',
  '确认',
  '继续',
  '繼續',
  '好',
  '好的',
  '예',
  '네',
  '확인',
  '계속',
  '동의',
];
const SEP = '[\\s\\p{P}\\p{S}]';
const ONLY_CONSENT = new RegExp(`^${SEP}*(?:(?:${CONSENT.map((w) => readPattern(w).replace(/ /g, '\\s+')).join('|')})(?:${SEP}+|$))+$`, 'u');

/** The words only consent: "Yes", "OK!", "Yes, continue", "Aceptar". */
export function onlyConsents(text: string): boolean {
  const read = readAsPerson(text).trim();
  return read !== '' && ONLY_CONSENT.test(read);
}

/** The nearest dialog around `el` in the flat tree (through shadow roots and slots). */
function dialogAround(el: Element): Element | undefined {
  for (let n: Node | null = flatParent(el); n && nodeTypeOf(n) === 1; n = flatParent(n)) if (matchesOf(n as Element, DIALOG)) return n as Element;
  return undefined;
}

/** The texts `aria-describedby` points at (a description may be hidden and still be the question). */
function described(el: Element, describer: Describer): string[] {
  const ids = (attrOf(el, 'aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  if (!ids.length) return [];
  const root = rootOf(el);
  const find = (id: string): Element | null => (nodeTypeOf(root) === 9 ? elementById(root as Document, id) : (root as DocumentFragment).getElementById(id));
  return ids
    .map(find)
    .filter((d): d is Element => !!d && !describer.settings.zones.excluded(d))
    .map((d) => (textOf(d) ?? '').replace(/\s+/g, ' ').trim())
    .filter(Boolean);
}

/** What a person reads on `box` that is not a control's own words, outside deny zones. */
function prose(box: Element, describer: Describer, limits: { nodes: number; text: number }): string {
  return visibleText(box, (e) => describer.settings.zones.excluded(e) || (e !== box && matchesOf(e, CONTROL)), limits);
}

/**
 * The question `control` (a button, named `name`, showing `seen`) answers, or undefined: a
 * dialog's around it, or, for words that only consent, the text shown around it.
 */
export function questionOf(control: Element, role: string, name: string, seen: string | undefined, describer: Describer): string | undefined {
  if (role !== 'button') return undefined;
  const own = described(control, describer);
  const dialog = dialogAround(control);
  if (dialog) {
    const parts = [describer.name(dialog), ...described(dialog, describer), ...own, prose(dialog, describer, DIALOG_LIMITS)];
    return join(parts);
  }
  if (!onlyConsents(name || seen || '') || (seen && !onlyConsents(seen))) return undefined;
  for (let n = flatParent(control), i = 0; n && nodeTypeOf(n) === 1 && i < NEARBY_LEVELS; n = flatParent(n), i++) {
    const el = n as Element;
    if (localNameOf(el) === 'body' || localNameOf(el) === 'html') break;
    const text = prose(el, describer, NEARBY_LIMITS);
    if (text) return join([...own, text]);
  }
  return own.length ? join(own) : undefined;
}

const join = (parts: string[]): string | undefined => {
  const text = [...new Set(parts.filter(Boolean))].join(' — ');
  return text || undefined;
};
