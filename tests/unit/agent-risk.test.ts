// @vitest-environment happy-dom
/**
 * The risk judgement's pure parts: every key name that presses, typed line breaks, words in
 * thirteen languages (and no words: icons, where a form or link goes, what a form holds), the
 * site's marks both ways, site tools, and init's `risky` and tools' `readOnly` validation.
 */
import { describe, expect, it } from 'vitest';
import { classifyRisks, iconKind, siteToolRisk, urlKind, wordsKind, wordsKinds } from '../../client/safety/risk';
import { toolProblem } from '../../client/agent/tools';
import { onlyConsents } from '../../client/safety/question';
import { InitError, parseInit } from '../../client/embed/init-config';
import type { FormFacts, TargetFacts } from '../../client/page/facts-types';

const here = 'https://shop.example/cart';
const button = (name: string, extra: Partial<TargetFacts> = {}): TargetFacts => ({ role: 'button', name, tag: 'button', ...extra });
const click = { name: 'click', args: { ref: '1' } };
const form = (extra: Partial<FormFacts> = {}): FormFacts => ({ personal: [], search: false, method: 'post', ...extra });

describe('risky actions', () => {
  it.each([
    ['Place order', 'payment'],
    ['Pay now', 'payment'],
    ['Confirmar pedido', 'payment'],
    ['Delete account', 'deletion'],
    ['Move to trash', 'deletion'],
    ['Send', 'sending'],
    ['Publish post', 'sending'],
  ])('clicking %j is %s', (name, kind) => {
    expect(classifyRisks(click, button(name), here)[0]?.kind).toBe(kind);
  });

  it.each(['Add to cart', 'Checkout', 'Search', 'Next', 'Open', 'Show more'])('clicking %j is not risky', (name) => {
    expect(classifyRisks(click, button(name), here)[0]).toBeUndefined();
  });

  it('submitting a form with personal data is risky; a search form is not', () => {
    const submits = { personal: ['name', 'email'], search: false };
    expect(classifyRisks(click, button('Next', { submits }), here)[0]).toMatchObject({ kind: 'personal_data', reason: expect.stringContaining('name, email') });
    expect(classifyRisks({ name: 'press_key', args: { key: 'Enter' } }, { role: 'textbox', name: 'Email', tag: 'input', submits }, here)[0]?.kind).toBe(
      'personal_data',
    );
    expect(classifyRisks(click, button('Search', { submits: { personal: [], search: true } }), here)[0]).toBeUndefined();
  });

  it('leaving the site and downloads are risky; links within the site are not', () => {
    const link = (href: string, extra: Partial<TargetFacts> = {}): TargetFacts => ({ role: 'link', name: 'More', tag: 'a', href, ...extra });
    expect(classifyRisks(click, link('https://other.example/'), here)[0]?.kind).toBe('leaving_site');
    expect(classifyRisks(click, link('https://shop.example/report.pdf'), here)[0]?.kind).toBe('download');
    expect(classifyRisks(click, link('https://shop.example/x', { download: true }), here)[0]?.kind).toBe('download');
    expect(classifyRisks(click, link('https://shop.example/orders'), here)[0]).toBeUndefined();
    expect(classifyRisks({ name: 'navigate', args: { url: 'https://other.example/' } }, undefined, here)[0]?.kind).toBe('leaving_site');
    expect(classifyRisks({ name: 'navigate', args: { url: '/orders' } }, undefined, here)[0]).toBeUndefined();
    expect(classifyRisks({ name: 'navigate', args: { url: 'http://[' } }, undefined, here)[0]).toBeUndefined();
  });

  it('typing and scrolling are never risky by themselves; a hover is judged as a click on the same control (pages act on mouse-over)', () => {
    expect(classifyRisks({ name: 'type', args: { ref: '1', text: 'x' } }, button('Delete'), here)[0]).toBeUndefined();
    expect(classifyRisks({ name: 'scroll', args: { ref: '1' } }, button('Delete'), here)[0]).toBeUndefined();
    expect(classifyRisks({ name: 'hover', args: { ref: '1' } }, button('Delete'), here)[0]).toMatchObject({
      kind: 'deletion',
      reason: expect.stringMatching(/^Hovering over button "Delete"/),
    });
    expect(classifyRisks({ name: 'hover', args: { ref: '1' } }, button('Open menu'), here)[0]).toBeUndefined();
  });
});

describe('keys: judged after the key parser, as the action reads them', () => {
  const field = (): TargetFacts => ({
    role: 'textbox',
    name: 'Confirm',
    tag: 'input',
    button: 'button "Delete my account"',
    words: ['Delete my account'],
    submits: form(),
  });
  it.each(['Enter', 'enter', 'ENTER', 'Return', 'return', ' Enter', 'Enter ', 'Shift+Enter', 'Control+Enter', 'Meta+Return', 'NumpadEnter', 'numpadenter'])(
    '%j in a field of the "Delete my account" form asks',
    (key) => {
      expect(classifyRisks({ name: 'press_key', args: { key } }, field(), here)[0]?.kind).toBe('deletion');
    },
  );
  it.each(['Space', 'space', ' ', 'spacebar', 'Shift+Space', 'Enter', 'Return'])('%j on a "Delete my account" button asks', (key) => {
    expect(classifyRisks({ name: 'press_key', args: { key } }, button('Delete my account'), here)[0]?.kind).toBe('deletion');
  });
  it.each(['Tab', 'Escape', 'a', 'ArrowDown', 'Shift+Tab', 'Control+a', 'Foo', ''])('%j presses nothing', (key) => {
    expect(classifyRisks({ name: 'press_key', args: { key } }, button('Delete my account'), here)[0]).toBeUndefined();
  });
  it('the reason names the key in its one canonical form', () => {
    expect(classifyRisks({ name: 'press_key', args: { key: 'Return' } }, { ...field(), via: 'submit' }, here)[0]?.reason).toBe(
      'Pressing Enter in textbox "Confirm" (it submits the form through button "Delete my account") may delete something.',
    );
    expect(classifyRisks({ name: 'press_key', args: { key: 'spacebar' } }, button('Delete my account'), here)[0]?.reason).toMatch(/^Pressing Space on button/);
  });
});

describe('typed line breaks press Enter', () => {
  const input = (tag = 'input'): TargetFacts => ({ role: 'textbox', name: 'Confirm', tag, words: ['Delete my account'], submits: form() });
  it.each(['bye\n', 'bye\r\n', 'bye\r'])('%j into a single-line field submits', (text) => {
    expect(classifyRisks({ name: 'type', args: { ref: '1', text } }, input(), here)[0]?.kind).toBe('deletion');
  });
  it('submit: true (or "true") submits; plain text does not', () => {
    expect(classifyRisks({ name: 'type', args: { ref: '1', text: 'bye', submit: 'true' } }, input(), here)[0]?.kind).toBe('deletion');
    expect(classifyRisks({ name: 'type', args: { ref: '1', text: 'bye' } }, input(), here)[0]).toBeUndefined();
  });
  it('into a text area, a line break at the end is Enter there; one inside the text is a line', () => {
    expect(classifyRisks({ name: 'type', args: { ref: '1', text: 'hi\n' } }, input('textarea'), here)[0]?.kind).toBe('deletion');
    expect(classifyRisks({ name: 'type', args: { ref: '1', text: 'hi\nthere' } }, input('textarea'), here)[0]).toBeUndefined();
    expect(classifyRisks({ name: 'type', args: { ref: '1', text: 'hi there' } }, input('textarea'), here)[0]).toBeUndefined();
  });
});

describe('Enter in an editor sends what it holds', () => {
  const editor = (extra: Partial<TargetFacts> = {}): TargetFacts => ({
    role: 'textbox',
    name: '',
    tag: 'span',
    via: 'newline',
    editor: true,
    place: 'after "Chat"',
    ...extra,
  });
  it('with no form and no words, asks as sending, naming the editor by where it sits', () => {
    const [risk, ...rest] = classifyRisks({ name: 'press_key', args: { key: 'Enter', ref: '1' } }, editor(), here);
    expect(risk).toEqual({
      kind: 'sending',
      reason: expect.stringContaining('Pressing Enter in textbox after "Chat" (an editor'),
      said: { code: 'editorSends' },
    });
    expect(rest).toEqual([]);
  });
  it('only sending: a form to /checkout around it is not a payment there', () => {
    const risks = classifyRisks(
      { name: 'press_key', args: { key: 'Enter', ref: '1' } },
      editor({ submits: { personal: ['address'], search: false, action: 'https://shop.example/checkout', method: 'post' } }),
      here,
    );
    expect(risks.map((r) => r.kind)).toEqual(['sending']);
  });
  it("the site's own none clears it on its page", () => {
    expect(classifyRisks({ name: 'press_key', args: { key: 'Enter', ref: '1' } }, editor({ mark: 'none' }), here)).toEqual([]);
  });
});

describe('a button is judged with the question it answers', () => {
  const yes = (question: string, extra: Partial<TargetFacts> = {}): TargetFacts => ({
    role: 'button',
    name: 'Yes',
    tag: 'button',
    via: 'click',
    question,
    ...extra,
  });
  it.each([
    ['Permanently delete your account and all its data?', 'deletion'],
    ['¿Eliminar tu cuenta para siempre?', 'deletion'],
    ['Send this message to all 300 contacts?', 'sending'],
    ['Complete your purchase of the yearly plan?', 'payment'],
  ])('%s → %s', (question, kind) => {
    const [risk] = classifyRisks({ name: 'click', args: { ref: '1' } }, yes(question), here);
    expect(risk?.kind).toBe(kind);
    expect(risk?.reason).toContain('it answers');
  });
  it('a question with no risky words asks nothing', () => {
    expect(classifyRisks({ name: 'click', args: { ref: '1' } }, yes('Show 20 more comments?'), here)).toEqual([]);
  });
  it('the form\'s structure is told first: a _method=delete form under a heading that says "Post"', () => {
    const risks = classifyRisks(
      { name: 'click', args: { ref: '1' } },
      yes('Post 9', { submits: { personal: [], search: false, action: 'https://shop.example/posts/9', method: 'delete' } }),
      here,
    );
    expect(risks[0]?.kind).toBe('deletion');
  });
});

describe('words that only consent', () => {
  it.each(['Yes', 'OK', 'Ok!', 'Yes, continue', 'Confirm', 'Aceptar', 'Ja', 'Oui', "D'accord", 'Да', 'Tak', 'Evet', 'はい', '确定', '확인', 'Ｏｋ', 'Yеs'])(
    '%j only consents',
    (w) => {
      expect(onlyConsents(w)).toBe(true);
    },
  );
  it.each(['Delete', 'Yes, delete it', 'Continue shopping', 'Send', 'OK, pay now', '', 'Okapi'])('%j says more', (w) => {
    expect(onlyConsents(w)).toBe(false);
  });
});

describe('words in thirteen languages', () => {
  it.each([
    // de
    ['Jetzt kaufen', 'payment'],
    ['Zahlungspflichtig bestellen', 'payment'],
    ['Konto löschen', 'deletion'],
    ['Senden', 'sending'],
    // fr
    ['Payer', 'payment'],
    ['Commander', 'payment'],
    ['Supprimer', 'deletion'],
    ['Envoyer', 'sending'],
    ['Valider ma commande', 'payment'],
    // pt
    ['Finalizar compra', 'payment'],
    ['Excluir conta', 'deletion'],
    ['Enviar', 'sending'],
    // it
    ['Acquista', 'payment'],
    ['Elimina', 'deletion'],
    ['Invia', 'sending'],
    // nl
    ['Afrekenen', 'payment'],
    ['Verwijderen', 'deletion'],
    ['Verzenden', 'sending'],
    // ru
    ['Оплатить', 'payment'],
    ['Купить', 'payment'],
    ['Удалить', 'deletion'],
    ['Отправить', 'sending'],
    ['ОТПРАВИТЬ', 'sending'],
    // ja
    ['購入', 'payment'],
    ['注文を確定する', 'payment'],
    ['削除', 'deletion'],
    ['送信', 'sending'],
    // zh
    ['支付', 'payment'],
    ['立即购买', 'payment'],
    ['提交订单', 'payment'],
    ['删除', 'deletion'],
    ['发送', 'sending'],
    // ko
    ['결제하기', 'payment'],
    ['구매', 'payment'],
    ['삭제', 'deletion'],
    ['보내기', 'sending'],
    // pl
    ['Zapłać', 'payment'],
    ['Kup teraz', 'payment'],
    ['Usuń', 'deletion'],
    ['Wyślij', 'sending'],
    // tr
    ['Satın al', 'payment'],
    ['SATIN AL', 'payment'],
    ['Öde', 'payment'],
    ['Sil', 'deletion'],
    ['SİL', 'deletion'],
    ['Gönder', 'sending'],
    // es, en
    ['Eliminar', 'deletion'],
    ['Pagar ahora', 'payment'],
    ['Unsubscribe', 'deletion'],
    ['🗑 Delete', 'deletion'],
    ['Delete-account', 'deletion'],
  ])('%j is %s', (name, kind) => {
    expect(wordsKind(name)).toBe(kind);
    expect(classifyRisks(click, button(name), here)[0]?.kind).toBe(kind);
  });

  it.each([
    'Add to cart',
    'Checkout',
    'Search',
    'Orders',
    'Mes commandes',
    'Einstellungen',
    'Posteingang',
    'Verkaufen',
    'Ordina per prezzo',
    '購入履歴',
    '购买记录',
    '구매내역',
    'Sign in',
    'Anmelden',
    'Weiter',
    'Continuar',
    'Siguiente',
    'Далее',
    '次へ',
    '下一步',
    'Silver',
    'Deleted items (3)',
    'Paypal help',
    'Repayment plan',
    'Compras',
    'Postcode',
    'Sendungsverfolgung',
    'Odeon',
  ])('%j is none of them', (name) => {
    expect(wordsKind(name)).toBeUndefined();
  });
});

describe('no words: icons and structure', () => {
  it('an icon-only control is named by its icon', () => {
    expect(iconKind(['fa', 'trash', 'can'])).toBe('deletion');
    expect(iconKind(['bi', 'trash'])).toBe('deletion');
    expect(iconKind(['mdi', 'delete'])).toBe('deletion');
    expect(iconKind(['icon', 'send'])).toBe('sending');
    expect(iconKind(['fa', 'paper', 'plane'])).toBe('sending');
    expect(iconKind(['icon', 'pay'])).toBe('payment');
    // Adding to a cart, or going to the checkout page, pays nothing (as the words "Checkout" and "Add to cart").
    expect(iconKind(['icon', 'cart'])).toBeUndefined();
    expect(iconKind(['icon', 'checkout'])).toBeUndefined();
    expect(iconKind(['btn', 'primary'])).toBeUndefined();
    expect(classifyRisks(click, button('', { icon: ['bi', 'trash'] }), here)[0]).toMatchObject({
      kind: 'deletion',
      reason: expect.stringContaining('its icon: trash'),
    });
  });

  it.each([
    ['https://shop.example/account/delete', true, 'deletion'],
    ['https://shop.example/delete-account', false, 'deletion'],
    ['https://shop.example/account/cancel', false, 'deletion'],
    ['https://shop.example/cancel-account', false, 'deletion'],
    ['https://shop.example/users/7/destroy', true, 'deletion'],
    ['https://shop.example/newsletter/unsubscribe?id=3', false, 'deletion'],
    ['https://shop.example/index.php?action=delete&id=3', false, 'deletion'],
    ['https://shop.example/remove.php?id=3', true, 'deletion'],
    ['https://shop.example/checkout', true, 'payment'],
    ['https://shop.example/checkout', false, undefined],
    ['https://shop.example/pay', true, 'payment'],
    ['https://shop.example/pay/invoice-7', false, 'payment'],
    ['https://shop.example/orders', true, 'payment'],
    ['https://shop.example/payment', true, 'payment'],
    ['https://shop.example/orders', false, undefined],
    ['https://shop.example/account/payment-methods', false, undefined],
    ['https://shop.example/blog/how-to-delete-cookies', false, undefined],
    ['https://shop.example/search?q=delete', false, undefined],
    ['https://shop.example/', true, undefined],
  ] as const)('%s (form: %s) → %s', (url, isForm, kind) => {
    expect(urlKind(url, isForm)).toBe(kind);
  });

  it('a neutral button is judged by where its form goes and what the form holds', () => {
    const go = (submits: FormFacts) => classifyRisks(click, button('Continue', { submits }), here)[0];
    expect(go(form({ action: 'https://shop.example/account/delete' }))).toMatchObject({ kind: 'deletion', reason: expect.stringContaining('/account/delete') });
    expect(go(form({ method: 'delete' }))?.kind).toBe('deletion');
    expect(go(form({ payment: true }))?.kind).toBe('payment');
    expect(go(form({ personal: ['password', 'new password'], newPassword: true }))).toMatchObject({
      kind: 'personal_data',
      reason: expect.stringContaining('changes a password'),
    });
    expect(go(form({ action: 'https://shop.example/search', method: 'get' }))).toBeUndefined();
    expect(go(form({ action: 'https://shop.example/orders', method: 'get' }))).toBeUndefined(); // a filter, not an order
    expect(go(form({ action: 'https://shop.example/orders', method: 'post' }))?.kind).toBe('payment');
  });

  it('a link is judged by its path and its data-method; a "Share" link opens a page', () => {
    const link = (href: string, extra: Partial<TargetFacts> = {}): TargetFacts => ({ role: 'link', name: 'Continue', tag: 'a', href, ...extra });
    expect(classifyRisks(click, link('https://shop.example/pay/invoice-7'), here)[0]?.kind).toBe('payment');
    expect(classifyRisks(click, link('https://shop.example/checkout'), here)[0]).toBeUndefined(); // the page where one pays, later
    expect(classifyRisks(click, link('https://shop.example/account/delete'), here)[0]?.kind).toBe('deletion');
    expect(classifyRisks(click, link('https://shop.example/posts/4', { linkMethod: 'delete' }), here)[0]?.kind).toBe('deletion');
    expect(classifyRisks(click, { ...link('https://shop.example/share'), name: 'Share' }, here)[0]).toBeUndefined();
  });

  it('words count in the order they are said', () => {
    expect(wordsKinds('Delete Buy milk')).toEqual(['deletion', 'payment']);
    expect(classifyRisks(click, button('Delete Buy milk'), here)[0]?.kind).toBe('deletion');
  });

  it('Enter in a text area can only send: a two-line address in a checkout form asks nothing', () => {
    const area = (words: string[]): TargetFacts => ({
      role: 'textbox',
      name: 'Address',
      tag: 'textarea',
      via: 'newline',
      words,
      submits: form({ personal: ['address'], action: 'https://shop.example/checkout' }),
    });
    expect(classifyRisks({ name: 'type', args: { ref: '1', text: 'a\nb' } }, area(['Place order']), here)).toEqual([]);
    expect(classifyRisks({ name: 'type', args: { ref: '1', text: 'a\nb' } }, area(['Send']), here)[0]?.kind).toBe('sending');
  });

  it('every risk is listed, so an "always" for one kind cannot cover another', () => {
    const risks = classifyRisks(click, button('Send', { submits: form({ action: 'https://shop.example/pay', personal: ['card'] }) }), here);
    expect(risks.map((r) => r.kind)).toEqual(['sending', 'payment', 'personal_data']);
  });
});

describe("the site's own marks", () => {
  const untrusted = { trustMarks: false };
  it("on the site's page a mark is the last word: it adds a kind, or clears a false alarm", () => {
    expect(classifyRisks(click, button('Continue', { mark: 'payment' }), here)[0]).toMatchObject({
      kind: 'payment',
      reason: expect.stringContaining('marked by the site'),
    });
    expect(classifyRisks(click, button('Delete draft', { mark: 'none' }), here)).toEqual([]);
  });
  it("on a stranger's page a mark only adds: none is ignored, a kind cannot hide the words' kind", () => {
    expect(classifyRisks(click, button('Delete draft', { mark: 'none' }), here, untrusted)[0]?.kind).toBe('deletion');
    expect(classifyRisks(click, button('Continue', { mark: 'payment' }), here, untrusted)[0]?.kind).toBe('payment');
    expect(classifyRisks(click, button('Delete', { mark: 'sending' }), here, untrusted).map((r) => r.kind)).toEqual(['deletion', 'sending']);
  });
});

describe('site tools', () => {
  const base = { name: 'lookup', description: 'Find an order.' };
  it('ask unless read-only; a declared risk always asks, under its kind', () => {
    expect(siteToolRisk({ ...base, readOnly: true })).toBeUndefined();
    expect(siteToolRisk(base)).toMatchObject({ kind: 'site_tool', tool: 'lookup', reason: expect.stringContaining('not marked read-only') });
    expect(siteToolRisk({ ...base, readOnly: false })?.kind).toBe('site_tool');
    expect(siteToolRisk({ ...base, readOnly: true, risk: 'payment' })).toMatchObject({ kind: 'payment', tool: 'lookup' });
  });
  it('readOnly and risk are checked when the tool is given', () => {
    const handler = () => 1;
    expect(toolProblem({ ...base, handler, readOnly: true })).toBeUndefined();
    expect(toolProblem({ ...base, handler, readOnly: 'yes' })).toBe('tool "lookup": readOnly must be true or false');
    expect(toolProblem({ ...base, handler, risk: 'danger' })).toMatch(/^tool "lookup": risk must be one of payment, deletion/);
  });
});

describe('init({ risky })', () => {
  it('takes rules of a selector and a kind', () => {
    expect(
      parseInit({
        risky: [
          { selector: '#go', kind: 'payment' },
          { selector: '.draft button', kind: 'none' },
        ],
      }).site.risky,
    ).toEqual([
      { selector: '#go', kind: 'payment' },
      { selector: '.draft button', kind: 'none' },
    ]);
  });
  it.each([
    [{ risky: 'x' }, /risky must be an array of \{ selector, kind \}/],
    [{ risky: [null] }, /risky\[0\] must be an object/],
    [{ risky: [{ selector: '', kind: 'payment' }] }, /risky\[0\]\.selector must be a CSS selector/],
    [{ risky: [{ selector: 'a[', kind: 'payment' }] }, /risky\[0\]\.selector must be a CSS selector the browser can parse \(got "a\["\)/],
    [
      { risky: [{ selector: 'a', kind: 'danger' }] },
      /risky\[0\]\.kind must be one of 'payment', 'deletion', 'sending', 'personal_data', 'none' \(got "danger"\)/,
    ],
    [{ risky: [{ selector: 'a', kind: 'leaving_site' }] }, /risky\[0\]\.kind must be one of/],
  ])('%j is refused with a clear error', (config, message) => {
    expect(() => parseInit(config)).toThrow(InitError);
    expect(() => parseInit(config)).toThrow(message);
  });
});
