/**
 * Which calls need the user's yes, whatever the model says: payment, deletion, sending a
 * message, submitting personal data, leaving the site, downloading, and the site's own tools
 * that do not declare themselves read-only. Pure: the page layer supplies the facts
 * (`targetFacts`: the element the call really activates, the form it really submits), this
 * decides.
 *
 * Judged from what the call will do — never from the model's stated intent, which a hijacked
 * model states as the page told it to. Three signals, any of which asks: the words on the
 * control (thirteen languages, icon names), the structure (where the form or link goes, card
 * and password fields, `_method=delete`), and the site's own marks.
 */
import type { TargetFacts } from '../page/facts-types';
import { activatingKey, comboLabel, parseKeyCombo } from '../page/actions/keys';
import { ACTION_TOOLS, parseCall, type Judge, type ParsedCall } from '../page/actions/args';
import type { ActionResult } from '../page/actions/contract';
import type { PlannedCall, RiskKind } from '../agent/public-types';
import type { Said } from '../../common/said';
import { cap } from '../page/map/format';
import type { PageText } from '../page/settings';
import type { PageTool } from '../webmcp/page-tool';
import { readAsPerson, readPattern, readings } from './read-as-person';

export interface Risk {
  kind: RiskKind;
  reason: string;
  /** The reason as a code, for the panel to word in its language (the model reads `reason`). */
  said?: Said;
  /** A site tool's name: the user's "always" for it holds for this tool only. */
  tool?: string;
}

/**
 * What the risk check decided about one call, for the dispatch to act on: run it (`risks`
 * empty), ask first (`risks`), or refuse it (`refused`: the action's own refusal, for a call
 * whose element is unknown or gone). `judge`: how its effect was judged (`tool`: a site's or
 * page's own tool).
 */
export interface RiskCheck {
  judge: Judge | 'tool';
  risks: Risk[];
  /** The addresses the call itself was judged to go to (a link's, a form's, navigate's): the page going there is the call's own effect. */
  own?: string[];
  refused?: ActionResult;
}

/** The question for a call whose effect pagehand could not judge: asked, one call at a time. */
export function unjudged(why: string): Risk {
  return { kind: 'unjudged', reason: `pagehand could not tell what this does (${why}), so it needs your yes for this one call.`, said: { code: 'unjudged' } };
}

export interface RiskOptions {
  /**
   * The page is the site owner's (an embed): its marks are trusted, so `none` can clear a
   * false alarm. On a stranger's page (bookmarklet, userscript, runner) marks may only add
   * caution. Default true.
   */
  trustMarks?: boolean;
}

// Words are matched as whole words in any script: a letter or digit may not touch either end
// (JS's \b is ASCII-only). No lookbehind: Safari 15 cannot parse it.
const EDGE = '\\p{L}\\p{N}\\p{M}';
// Each word is read as the page's text is (readAsPerson): look-alikes and accents agree.
const words = (list: string[]): RegExp =>
  new RegExp(`(?:^|[^${EDGE}])(?:${list.map((w) => readPattern(w).replace(/ /g, '\\s+')).join('|')})(?![${EDGE}])`, 'iu');
// Chinese, Japanese and Korean run words together: a substring is a word.
const inside = (list: string[]): RegExp => new RegExp(list.map(readPattern).join('|'), 'u');

const PAYMENT_WORDS = words([
  // en
  'pay',
  'pay now',
  'payment',
  'place (?:my |the |your )?order',
  'buy',
  'buy now',
  'purchase',
  'checkout and pay',
  'complete (?:order|purchase|payment|booking)',
  'confirm (?:order|purchase|payment|booking)',
  'submit order',
  'order now',
  'book now',
  'subscribe',
  'donate',
  '(?:transfer|send|wire) (?:money|funds|payment)',
  'transfer(?=\\s*[$€£¥₹\\d])',
  'wire transfer',
  // es
  'pagar',
  'pagar ahora',
  'comprar',
  'comprar ahora',
  'realizar pedido',
  'confirmar (?:pedido|compra|pago)',
  'finalizar (?:compra|pedido)',
  'tramitar pedido',
  'suscribirse',
  'donar',
  // de
  'bezahlen',
  'jetzt (?:kaufen|bezahlen|zahlen)',
  'kaufen',
  'bestellen',
  'bestellung (?:abschicken|absenden|abschließen|bestätigen)',
  'abonnieren',
  'spenden',
  // fr
  'payer',
  'commander',
  'acheter',
  '(?:valider|confirmer|passer|finaliser) (?:la |ma |votre )?commande',
  'régler',
  "s['’]abonner",
  'faire un don',
  // pt
  'confirmar (?:pedido|compra|pagamento)',
  'fazer pedido',
  'doar',
  // it
  'paga',
  'paga ora',
  'pagare',
  'acquista',
  'acquista ora',
  'acquistare',
  'compra',
  'compra ora',
  "(?:conferma|completa|effettua|invia) (?:l['’])?ordine",
  'abbonati',
  // nl
  'betalen',
  'nu betalen',
  'afrekenen',
  'kopen',
  'nu kopen',
  'bestelling plaatsen',
  'abonneren',
  'doneren',
  // ru
  'оплатить',
  'оплата',
  'купить',
  'заказать',
  'оформить заказ',
  'подтвердить заказ',
  'подписаться',
  'пожертвовать',
  // pl
  'zapłać',
  'płacę',
  'kup',
  'kup teraz',
  'kupuję',
  'zamów',
  'zamawiam',
  'złóż zamówienie',
  'potwierdź zamówienie',
  'płatność',
  'subskrybuj',
  // tr
  'sat[ıi]n al',
  'öde',
  'ödeme(?:yi)? (?:yap|tamamla)',
  'şimdi öde',
  'sipariş(?:i)? (?:ver|tamamla|onayla)',
  'abone ol',
  'bağış yap',
]);
const PAYMENT_CJK = inside([
  '💳', // a credit-card emoji
  '購入(?!履歴)',
  '注文を確定',
  '注文する',
  '注文確定',
  '支払う',
  'お支払い',
  '決済',
  '今すぐ買う',
  '支付',
  '付款',
  '购买(?!记录)',
  '購買(?!記錄)',
  '提交订单',
  '提交訂單',
  '下单',
  '下單',
  '结算',
  '結算',
  '结账',
  '結帳',
  '订阅',
  '訂閱',
  '결제',
  '구매(?!\\s*내역)',
  '주문하기',
  '주문 완료',
  '구독',
]);
const DELETION_WORDS = words([
  // en
  'delete',
  'erase',
  'destroy',
  'trash',
  'deactivate',
  'wipe',
  'unsubscribe',
  'remove (?:account|user|member|permanently|all|everything)',
  'close (?:my |your )?account',
  'cancel (?:my |your )?(?:account|subscription|membership|order)',
  // es, pt
  'eliminar',
  'borrar',
  'suprimir',
  'dar(?:se)? de baja',
  'cancelar (?:mi |minha |la |a )?(?:cuenta|suscripción|conta|assinatura)',
  'excluir',
  'apagar',
  'desativar',
  // de
  'löschen',
  'loeschen',
  'konto (?:schließen|kündigen|deaktivieren)',
  'kündigen',
  'deaktivieren',
  // fr
  'supprimer',
  'effacer',
  'détruire',
  'désactiver',
  'fermer (?:mon |le |votre )?compte',
  'résilier',
  '(?:se )?désabonner',
  // it
  'elimina',
  'eliminare',
  'cancella',
  'cancellare',
  'disattiva',
  'chiudi (?:il )?(?:mio )?account',
  // nl
  'verwijder',
  'verwijderen',
  'wissen',
  'opzeggen',
  'account (?:sluiten|opheffen)',
  'deactiveren',
  // ru
  'удалить',
  'удаление',
  'стереть',
  'деактивировать',
  'закрыть (?:аккаунт|счёт|счет)',
  'отписаться',
  // pl
  'usuń',
  'usuwam',
  'skasuj',
  'wymaż',
  'zamknij konto',
  'dezaktywuj',
  // tr
  'sil',
  'hesab[ıi] (?:sil|kapat)',
]);
// A trash-can emoji says delete in every language (as the trash icon does).
const DELETION_CJK = inside(['🗑', '削除', '消去', '退会', '解約', '删除', '刪除', '清空', '注销', '註銷', '销户', '銷戶', '삭제', '탈퇴', '해지']);
const SENDING_WORDS = words([
  'send',
  'post',
  'publish',
  'tweet',
  'share',
  'reply all',
  'enviar',
  'publicar',
  'responder',
  'compartilhar',
  'partilhar',
  'senden',
  'absenden',
  'abschicken',
  'versenden',
  'veröffentlichen',
  'posten',
  'teilen',
  'envoyer',
  'publier',
  'partager',
  'répondre à tous',
  'invia',
  'inviare',
  'pubblica',
  'condividi',
  'verzenden',
  'verzend',
  'versturen',
  'verstuur',
  'publiceren',
  'отправить',
  'опубликовать',
  'поделиться',
  'wyślij',
  'opublikuj',
  'udostępnij',
  'gönder',
  'paylaş',
  'yay[ıi]nla',
]);
const SENDING_CJK = inside([
  '送信',
  '投稿',
  'シェア',
  '发送',
  '發送',
  '发布',
  '發佈',
  '發布',
  '发表',
  '發表',
  '分享',
  '보내기',
  '전송',
  '게시',
  '발송',
  '공유',
]);

type WordKind = 'payment' | 'deletion' | 'sending';
const WORD_LISTS: Array<[WordKind, RegExp, RegExp]> = [
  ['payment', PAYMENT_WORDS, PAYMENT_CJK],
  ['deletion', DELETION_WORDS, DELETION_CJK],
  ['sending', SENDING_WORDS, SENDING_CJK],
];

/** Every risky kind the words of a name say, in the order they are said ("Delete Buy milk": deletion, then payment). */
export function wordsKinds(text: string): WordKind[] {
  const found: Array<[number, WordKind]> = [];
  const seen = readings(text);
  for (const [kind, latin, cjk] of WORD_LISTS) {
    const at = seen.flatMap((t) => [latin.exec(t)?.index, cjk.exec(t)?.index]).filter((i): i is number => i !== undefined);
    if (at.length) found.push([Math.min(...at), kind]);
  }
  return found.sort((a, b) => a[0] - b[0]).map(([, kind]) => kind);
}

/** The first risky kind the words of a name say, if any. */
export function wordsKind(text: string): WordKind | undefined {
  return wordsKinds(text)[0];
}

/** Words read as readAsPerson reads them, to compare with what the page says. */
const readSet = (list: string[]): Set<string> => new Set(list.map(readAsPerson));

// Icon names (class/id words, a material icon's ligature) of a control with no name.
const ICON_DELETION = readSet(['trash', 'delete', 'remove', 'bin', 'garbage', 'wastebasket', 'erase', 'destroy']);
const ICON_PAYMENT = readSet(['pay', 'payment', 'purchase', 'buy']);
const ICON_SENDING = readSet(['send']);
const PAPER_PLANE = readAsPerson('paper plane');

/** The risky kind an icon's words say, if any. */
export function iconKind(icon: readonly string[]): 'payment' | 'deletion' | 'sending' | undefined {
  const read = icon.map(readAsPerson);
  if (read.some((w) => ICON_PAYMENT.has(w))) return 'payment';
  if (read.some((w) => ICON_DELETION.has(w))) return 'deletion';
  if (read.some((w) => ICON_SENDING.has(w)) || read.join(' ').includes(PAPER_PLANE)) return 'sending';
  return undefined;
}

/** The icon words that say what it does, for the reason. */
const iconSaying = (icon: readonly string[]): string[] =>
  icon.filter((w) => [ICON_DELETION, ICON_PAYMENT, ICON_SENDING].some((set) => set.has(readAsPerson(w))) || PAPER_PLANE.includes(readAsPerson(w)));

// Where a form or link goes: a path segment of at most two words naming the act (words read as readAsPerson reads them).
const PATH_DELETION = readSet(['delete', 'remove', 'destroy', 'unsubscribe', 'deactivate', 'erase']);
const PATH_PAYMENT = readSet(['pay', 'purchase', 'buy']);
/** A form sent to /checkout, /payment or /orders pays; a link there only opens the page where one pays. */
const FORM_PAYMENT = readSet(['checkout', 'payment', 'order', 'orders']);
const ACCOUNTS = readSet(['account', 'subscription', 'membership', 'profile']);
const ENDING = readSet(['cancel', 'close']);
const QUERY_KEYS = /^(_?method|action|do|op|cmd|task|mode)$/i;

function actWords(text: string): string[] {
  return readAsPerson(text.replace(/\.[a-z0-9]{1,5}$/i, ''))
    .split(/[-_.+\s]+/)
    .filter(Boolean);
}

function actKind(parts: string[], form: boolean): 'payment' | 'deletion' | undefined {
  if (parts.length === 0 || parts.length > 2) return undefined;
  if (parts.some((w) => PATH_DELETION.has(w))) return 'deletion';
  if (parts.some((w) => ENDING.has(w)) && parts.some((w) => ACCOUNTS.has(w))) return 'deletion';
  if (parts.some((w) => PATH_PAYMENT.has(w) || (form && FORM_PAYMENT.has(w)))) return 'payment';
  return undefined;
}

/**
 * What a URL's path (or its `?action=` style parameter) says the request does:
 * `/account/delete`, `/delete-account`, `/account/cancel`, `/pay`, `index.php?action=delete`.
 * `form`: the URL is where a form sends data (not a GET), where `/checkout`, `/payment` and
 * `/orders` mean paying.
 */
export function urlKind(url: string, form: boolean): 'payment' | 'deletion' | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  let path = u.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    /* keep it encoded */
  }
  const segments = path.split('/').filter(Boolean);
  for (let i = 0; i < segments.length; i++) {
    const kind = actKind(actWords(segments[i]!), form);
    if (kind) return kind;
    // /account/cancel, /subscription/close
    if (i > 0 && ENDING.has(readAsPerson(segments[i]!)) && ACCOUNTS.has(readAsPerson(segments[i - 1]!))) return 'deletion';
  }
  for (const [key, value] of u.searchParams) {
    if (!QUERY_KEYS.test(key)) continue;
    const kind = actKind(actWords(value), form);
    if (kind) return kind;
  }
  return undefined;
}

export const DOWNLOAD_PATH = /\.(zip|rar|7z|tar|gz|tgz|exe|msi|dmg|pkg|deb|rpm|apk|iso|bin|pdf|csv|xlsx?|docx?|pptx?)$/i;
/** Roles whose name says what pressing them does (a textbox's name says what to type). */
const NAMED_BY_ACT = new Set([
  'button',
  'link',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'tab',
  'gridcell',
  'generic',
  'img',
  'listitem',
  'cell',
  'treeitem',
  'none',
  'presentation',
]);

export const DOES: Record<'payment' | 'deletion' | 'sending', string> = {
  payment: 'may pay or place an order',
  deletion: 'may delete something',
  sending: 'may send or publish a message',
};

/** Whether a call presses anything, for facts made without `via` (tests, callers outside targetFacts), by its own arguments. */
function pressesByCall(call: ParsedCall): boolean {
  const judge = ACTION_TOOLS[call.name].judge;
  if (judge === 'none') return false;
  if (call.name === 'press_key') {
    try {
      return activatingKey(parseKeyCombo(call.args.key)) !== undefined;
    } catch {
      return false;
    }
  }
  // A line break at the end presses Enter, in every kind of field (typingPlan); one inside the text is a line.
  if (call.name === 'type') return call.args.submit || /[\r\n]$/.test(call.args.text);
  return true;
}

const keyName = (key: string): string => {
  try {
    return comboLabel(parseKeyCombo(key));
  } catch {
    return String(key);
  }
};

/**
 * The call as the user should read it, to be followed by what it may do:
 * `Clicking button "Place order"`, `Clicking at (0.5, 0.99) (button "Pay")`,
 * `Pressing Enter in textbox "Email" (it submits the form through button "Delete my account")`.
 */
function verbOf(call: ParsedCall, facts: TargetFacts): string {
  const what = `${facts.role === 'generic' ? facts.tag : facts.role}${facts.name ? ` "${facts.name.length > 60 ? `${facts.name.slice(0, 57)}…` : facts.name}"` : facts.place ? ` ${facts.place}` : ''}`;
  const through = facts.button ? ` through ${facts.button}` : '';
  const form =
    facts.via !== 'newline'
      ? ` (it submits the form${through})`
      : facts.editor
        ? ` (an editor: pages send what it holds on Enter${facts.submits ? `, here the form${through}` : ''})`
        : ` (pages often send the form${through} on Enter there)`;
  switch (call.name) {
    case 'click_at':
      return `Clicking at (${call.args.x}, ${call.args.y}) (${what})`;
    case 'press_key':
      return facts.via === 'submit' || facts.via === 'newline'
        ? `Pressing ${keyName(call.args.key)} in ${what}${form}`
        : `Pressing ${keyName(call.args.key)} on ${what}`;
    case 'type':
      return `Typing into ${what} and pressing Enter${form}`;
    case 'double_click':
      return `Double-clicking ${what}`;
    case 'drag':
      return `Dropping onto ${what}`;
    case 'hover':
      return `Hovering over ${what}`;
    case 'right_click':
      return `Right-clicking ${what}`;
    case 'select_option':
      return `Choosing ${what}`;
    case 'navigate':
      return `Opening ${safePath(facts.href ?? '')}`;
    case 'read':
      return `Reading ${safePath(facts.href ?? '')}`;
    case 'click':
      return call.args.hold ? `Pressing and holding ${what}` : `Clicking ${what}`;
    default:
      return `Clicking ${what}`;
  }
}

const quote = (text: string): string => `"${text.length > 60 ? `${text.slice(0, 57)}…` : text}"`;
/** Where the words were seen, when the name did not say them. */
const seenSays = (facts: TargetFacts): string =>
  `its visible text says ${quote(facts.visibleText!)}${facts.name ? ` while its label says ${quote(facts.name)}` : ''}`;

const kindName: Record<string, string> = { payment: 'a payment', deletion: 'a deletion', sending: 'sending a message', personal_data: 'personal data' };

/**
 * Every risk of the call, most telling first (payment, deletion, sending from words; then
 * structure; then personal data, downloads, leaving the site). The loop asks about the first
 * the user has not allowed for the run, so a control that both sends and pays cannot pass
 * under an "always" given for sending.
 *
 * @param here the page's URL, to tell leaving the site from moving within it
 * @example classifyRisks({ name: 'click', args: { ref: '9' } }, { role: 'button', name: 'Place order', tag: 'button' }, location.href)
 *   // → [{ kind: 'payment', reason: 'Clicking button "Place order" may pay or place an order.' }]
 */
export function classifyRisks(raw: PlannedCall | ParsedCall, facts: TargetFacts | undefined, here: string, options: RiskOptions = {}): Risk[] {
  // The call in its canonical form (the loop's calls are already; a raw one is parsed here).
  const parsed = parseCall(raw);
  if (!parsed.ok) return [];
  const call = parsed.call;
  // Judged by what the tool's table says it does (page/actions/args.ts), never by a list of names.
  const judge = ACTION_TOOLS[call.name].judge;
  switch (judge) {
    case 'none':
      return [];
    case 'destination':
    case 'fetch': {
      // A navigate is judged as a link to where it goes: the same path, file and other-site rules.
      // A read of a url GETs it with the user's cookies, as following a link there would.
      const url = (call.args as { url?: string }).url;
      if (url === undefined) return []; // a read of this page: it asks for nothing
      const href = resolveUrl(url, here);
      if (!href) return []; // not a URL: the action refuses it
      // A read never leaves this origin: one elsewhere is refused by the action, so not asked about.
      if (judge === 'fetch' && originOf(href) !== originOf(here)) return [];
      if (!originOf(href)) return [unjudged(`it opens a ${new URL(href).protocol} address`)];
      facts = { role: 'link', name: '', tag: 'a', via: 'click', href };
      break;
    }
    case 'target':
    case 'drop':
    case 'option':
      // These always act on an element: no facts means nothing was read of it.
      if (!facts) return [unjudged('nothing could be read of what it acts on')];
      break;
    case 'key':
    case 'typed':
    case 'point':
      break; // no facts: the key, the typing or the point presses nothing
    default:
      return [unjudged(`no rule judges "${call.name}"`)];
  }
  if (!facts || !(facts.via ? true : pressesByCall(call))) return [];
  const verb = verbOf(call, facts);
  const trusted = options.trustMarks !== false;
  const out: Risk[] = [];
  const add = (kind: RiskKind, reason: string, said: Said): void => {
    if (!out.some((r) => r.kind === kind)) out.push({ kind, reason, said });
  };

  // The site's own say: on its own page it is the last word (`none` clears a false alarm).
  if (trusted && facts.mark) {
    return facts.mark === 'none'
      ? []
      : onlySending(facts, [
          {
            kind: facts.mark,
            reason: `${verb} is marked by the site as ${kindName[facts.mark] ?? facts.mark}.`,
            said: { code: 'marked', kind: facts.mark, site: true },
          },
        ]);
  }

  // Words: the control's name (when its role is named by what it does), the button a submission goes through, the form's name.
  // A drop's target is named by what a drop there does ("Trash", "Archive"), whatever its role.
  const named = NAMED_BY_ACT.has(facts.role) || facts.submits || ACTION_TOOLS[call.name].judge === 'drop';
  const texts = [...(named ? [facts.name] : []), ...(facts.words ?? [])].filter(Boolean);
  for (const text of texts) {
    for (const kind of wordsKinds(text)) {
      if (kind === 'sending' && facts.role === 'link' && !facts.submits) continue; // a "Share" link opens a page
      add(kind, `${verb} ${DOES[kind]}.`, { code: 'does', kind });
    }
  }
  // What a person sees on it counts as much as its name: either saying "Delete" is a deletion.
  if (named && facts.visibleText) {
    for (const kind of wordsKinds(facts.visibleText)) {
      if (kind === 'sending' && facts.role === 'link' && !facts.submits) continue;
      add(kind, `${verb} ${DOES[kind]} (${seenSays(facts)}).`, {
        code: 'doesSeen',
        kind,
        text: quote(facts.visibleText),
        ...(facts.name ? { label: quote(facts.name) } : {}),
      });
    }
  }
  if (facts.icon?.length) {
    const kind = iconKind(facts.icon);
    const icon = iconSaying(facts.icon).join(' ');
    if (kind) add(kind, `${verb} ${DOES[kind]} (its icon: ${icon}).`, { code: 'doesIcon', kind, icon });
  }
  // Enter in an editor sends what it holds, whatever its form or its words say.
  if (facts.editor && facts.via === 'newline') add('sending', `${verb} may send what it holds.`, { code: 'editorSends' });

  // Structure: where the submission or the link goes, and what the form holds.
  const s = facts.submits;
  if (s) {
    if (s.method === 'delete') add('deletion', `${verb} sends a DELETE request.`, { code: 'deleteRequest' });
    // A GET form only asks for a page, as a link does.
    const kind = s.action ? urlKind(s.action, s.method !== 'get') : undefined;
    const path = safePath(s.action ?? '');
    if (kind) add(kind, `${verb} ${DOES[kind]} (the form goes to ${path}).`, { code: 'doesForm', kind, path });
    if (s.payment) add('payment', `${verb} sends a form with card fields.`, { code: 'cardFields' });
    const to = s.action ? originOf(s.action) : undefined;
    if (to && to !== originOf(here)) add('leaving_site', `${verb} sends a form to ${to}, another site.`, { code: 'formElsewhere', to });
  } else if (facts.href && facts.via !== 'newline') {
    if (facts.linkMethod === 'delete') add('deletion', `${verb} sends a DELETE request.`, { code: 'deleteRequest' });
    const kind = urlKind(facts.href, false);
    const path = safePath(facts.href);
    if (kind) add(kind, `${verb} ${DOES[kind]} (the link goes to ${path}).`, { code: 'doesLink', kind, path });
    // A ping is a POST the browser sends as the link is followed: judged as a form's would be.
    for (const ping of facts.pings ?? []) {
      const k = urlKind(ping, true);
      const path = safePath(ping);
      if (k) add(k, `${verb} ${DOES[k]} (the link pings ${path}).`, { code: 'doesPing', kind: k, path });
      const to = originOf(ping);
      if (to && to !== originOf(here)) add('leaving_site', `${verb} tells ${to} (the link pings it).`, { code: 'pingElsewhere', to });
    }
  }
  // A "Yes" or an "OK" does what the question it answers says.
  if (named && facts.question) {
    for (const kind of wordsKinds(facts.question)) {
      if (kind === 'sending' && facts.role === 'link' && !facts.submits) continue;
      add(kind, `${verb} ${DOES[kind]} (it answers ${quote(facts.question)}).`, { code: 'doesAnswer', kind, question: quote(facts.question) });
    }
  }
  if (s && s.personal.length && facts.via !== 'newline') {
    const fields = s.personal.join(', ');
    add('personal_data', `${verb} ${s.newPassword ? 'changes a password, submitting' : 'submits'} personal data (${fields}).`, {
      code: 'personal',
      fields,
      password: !!s.newPassword,
    });
  }
  if (facts.href && facts.via !== 'newline') {
    if (facts.download || DOWNLOAD_PATH.test(fileName(facts.href))) add('download', `${verb} downloads a file.`, { code: 'download' });
    const to = originOf(facts.href);
    const from = originOf(here);
    if (to && from && to !== from) add('leaving_site', `${verb} leaves this site for ${to}.`, { code: 'leaves', to });
  }

  // On a stranger's page a mark may only add caution.
  if (facts.mark && facts.mark !== 'none')
    add(facts.mark, `${verb} is marked by the page as ${kindName[facts.mark] ?? facts.mark}.`, { code: 'marked', kind: facts.mark, site: false });
  return onlySending(facts, out);
}

/**
 * Enter in a text area or editor adds a line; what pages do on it themselves is send (a chat,
 * a comment box), never pay or delete: only sending is asked there, so pressing Enter in an
 * address box of a checkout form does not ask about a payment.
 */
function onlySending(facts: TargetFacts, risks: Risk[]): Risk[] {
  return facts.via === 'newline' ? risks.filter((r) => r.kind === 'sending') : risks;
}

/**
 * A site tool asks first unless it declares itself read-only (`readOnly: true`, as WebMCP's
 * `readOnlyHint`); a declared `risk` kind always asks, under that kind.
 */
export function siteToolRisk(tool: { name: string; description: string; readOnly?: boolean; risk?: RiskKind }): Risk | undefined {
  if (tool.risk) return { kind: tool.risk, reason: `${tool.name}: ${tool.description}`, tool: tool.name };
  if (tool.readOnly === true) return undefined;
  const about = tool.description.trim().replace(/\.$/, '');
  return {
    kind: 'site_tool',
    reason: `The site's tool "${tool.name}" (${about}) may change something: it is not marked read-only.`,
    said: { code: 'siteTool', name: tool.name, about },
    tool: tool.name,
  };
}

export const originOf = (url: string): string | undefined => {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
};

export function resolveUrl(url: string, base: string): string {
  try {
    return new URL(url, base).href;
  } catch {
    return ''; // not a URL: the navigate action reports that itself
  }
}

/**
 * The last part of a URL's path as a server reads it: percent-escapes decoded (`statement%2Epdf`)
 * and `;` parameters left out (`statement.pdf;jsessionid=1`).
 */
export function fileName(href: string): string {
  let name = safePath(href).replace(/^.*\//, '').replace(/;.*$/, '');
  try {
    name = decodeURIComponent(name);
  } catch {
    /* a stray % stays as it is */
  }
  return name.replace(/;.*$/, '');
}

export function safePath(href: string): string {
  try {
    return new URL(href).pathname;
  } catch {
    return '';
  }
}

/**
 * Why a call of the tool needs the user's yes. A registered tool on a stranger's page: always
 * (its `readOnlyHint` is the page's word). On the site's own page: unless it is read-only, as a
 * site tool. A form tool: none here — its submit is judged when it comes (runPageTool).
 */
export function pageToolRisks(t: PageTool, pt: PageText): Array<Risk & { kind: 'site_tool'; tool: string }> {
  if (t.form) return [];
  if (t.untrusted)
    return [
      {
        kind: 'site_tool',
        reason: `"${t.name}" is this page's own code, which pagehand cannot check (whatever the page says it does): each call is yours to allow.`,
        said: { code: 'pageTool', name: t.name },
        tool: t.name,
      },
    ];
  if (t.readOnly) return [];
  const about = cap(t.description.trim().replace(/\.$/, ''), 200, pt);
  return [
    {
      kind: 'site_tool',
      reason: `The site's tool "${t.name}" (${about}) may change something: it is not marked read-only.`,
      said: { code: 'siteTool', name: t.name, about },
      tool: t.name,
    },
  ];
}
