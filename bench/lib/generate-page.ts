/**
 * Deterministic benchmark pages for the page map: a shop-like grid of cards with buttons, links,
 * labelled inputs, hidden controls, nested open shadow roots, a modal dialog and a same-origin
 * iframe. Pure string building, no DOM: the same seed and size always give the same bytes.
 *
 * Ground truth is written into the page as `data-gt` on every interactive element:
 *   visible — rendered, not hidden by any of DESIGN §2's visibility rules; must be listed when in
 *             scope.
 *   hidden  — hidden by a DESIGN §2 rule: display:none (own or ancestor, `hidden` attribute, a
 *             closed <dialog>, the content of a closed <details>), visibility:hidden (own or
 *             ancestor), opacity:0 (own or ancestor), zero size, inside an aria-hidden or inert
 *             subtree, or `<input type=hidden>`. Listing one is a leak.
 *   inert-behind-modal — visible controls behind an open modal dialog (that variant only): the
 *             browser makes them inert, so listing one is a leak too.
 *   edge    — visually-hidden tricks that accname does NOT treat as hidden and DESIGN §2 does
 *             not list (1×1 clipped "sr-only" skip link, `left:-10000px` off-screen links).
 *             Neither required nor counted as leaks; the bench only reports how many were listed.
 *
 * `data-gt-kind` says which rule hides a hidden control, so a leak can be traced to its cause.
 *
 * Element counts include everything in the DOM: <html>/<head>, elements inside the (declarative)
 * shadow roots, and the iframe's document. `<template shadowrootmode>` is not counted because
 * the parser consumes it.
 */

export type GroundTruth = 'visible' | 'hidden' | 'inert-behind-modal' | 'edge';

export const HIDDEN_KINDS = [
  'display-none',
  'visibility-hidden',
  'opacity-0',
  'zero-size',
  'aria-hidden-subtree',
  'inert-subtree',
  'hidden-attribute',
  'ancestor-display-none',
  'ancestor-visibility-hidden',
  'ancestor-opacity-0',
  'closed-details',
  'input-type-hidden',
] as const;
export type HiddenKind = (typeof HIDDEN_KINDS)[number] | 'closed-dialog';

export interface PageSpec {
  /** Total elements wanted (main document + shadow roots + iframe document). */
  targetElements: number;
  seed: number;
  /** Open the dialog with showModal() on load: everything behind it becomes inert. */
  modalOpen?: boolean;
  /** URL path of the iframe document (served by the bench next to the page). */
  framePath: string;
}

export interface GeneratedPage {
  html: string;
  frameHtml: string;
  /** Elements counted while generating (checked against a live count in the page). */
  elements: number;
  /** Ground-truth controls by category, as generated. */
  groundTruth: Record<GroundTruth, number>;
  cards: number;
}

/** mulberry32: tiny seeded PRNG, good enough to vary words and layouts reproducibly. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'alpine amber anchor arcade atlas aurora basil beacon birch blossom breeze canyon cedar cobalt ' +
  'comet coral crystal dune ember falcon fern fjord garnet glacier harbor hazel horizon indigo ' +
  'island jasper juniper lagoon lantern lemon lotus maple marble meadow mesa meteor mint nebula ' +
  'nectar oasis olive onyx orchid pebble pepper pine prairie quartz raven reef ridge river saffron ' +
  'sage sierra silver spruce summit tango thistle tidal topaz tundra velvet willow zephyr'
).split(' ');

const VOID = new Set(['input', 'img', 'br', 'meta', 'hr', 'link']);

type Attrs = Record<string, string | number | boolean | undefined>;

/** Builds HTML strings and counts every element it emits. */
class Builder {
  count = 0;
  readonly gt: Record<GroundTruth, number> = { visible: 0, hidden: 0, 'inert-behind-modal': 0, edge: 0 };

  el(tag: string, attrs: Attrs = {}, ...children: string[]): string {
    this.count++;
    let open = `<${tag}`;
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === false) continue;
      open += v === true ? ` ${k}` : ` ${k}="${String(v).replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`;
    }
    open += '>';
    return VOID.has(tag) ? open : `${open}${children.join('')}</${tag}>`;
  }

  /** An open declarative shadow root (the <template> is consumed by the parser: not counted). */
  shadow(...children: string[]): string {
    return `<template shadowrootmode="open">${children.join('')}</template>`;
  }

  /** Ground-truth attributes for one interactive element, counted by category. */
  mark(gt: GroundTruth, kind?: HiddenKind): Attrs {
    this.gt[gt]++;
    return { 'data-gt': gt, 'data-gt-kind': kind };
  }
}

const CSS = `
*{box-sizing:border-box}
body{margin:0;font:14px/1.4 system-ui,sans-serif;color:#222;background:#fafafa}
.top{display:flex;gap:14px;align-items:center;height:48px;padding:0 16px;background:#243447;color:#fff}
.top a{color:#fff}
.top form{margin-left:auto;display:flex;gap:6px}
.hero{display:flex;gap:16px;padding:12px 16px;align-items:flex-start}
.hero section{flex:1}
.hero iframe{width:440px;height:210px;border:1px solid #ccc;background:#fff}
.grid{display:grid;grid-template-columns:repeat(4,1fr);gap:12px;padding:12px 16px}
.card{background:#fff;border:1px solid #ddd;border-radius:6px;padding:10px;display:flex;flex-direction:column;gap:6px;min-width:0}
.card h3{margin:0;font-size:15px}
.card p{margin:0;color:#555}
.card ul{margin:0;padding-left:16px;color:#666;font-size:12px}
.thumb{height:48px;background:linear-gradient(90deg,#cde,#edc);border-radius:4px}
.row{display:flex;gap:6px;align-items:center;flex-wrap:wrap}
.row input[type=text],.row input[type=number],.row select{width:90px}
.chip{display:inline-block;padding:2px 8px;border:1px solid #88a;border-radius:10px;cursor:pointer}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
.offscreen{position:absolute;left:-10000px;top:auto;width:1px;height:1px;overflow:hidden}
.zero{display:block;width:0;height:0;padding:0;border:0;margin:0;overflow:hidden;min-width:0;min-height:0}
footer{padding:16px;color:#666}
dialog{width:420px}
`;

export function generatePage(spec: PageSpec): GeneratedPage {
  const rnd = prng(spec.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const words = (n: number): string => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const title = (n: number): string => {
    const w = words(n);
    return w[0]!.toUpperCase() + w.slice(1);
  };
  const b = new Builder();
  const el = b.el.bind(b);
  const modal = !!spec.modalOpen;
  /** Visible controls become inert behind an open modal. */
  const vis = (): Attrs => b.mark(modal ? 'inert-behind-modal' : 'visible');

  // --- the iframe document (counted into the same total) ---------------------------------
  const frame = new Builder();
  const frameVis = (): Attrs => frame.mark(modal ? 'inert-behind-modal' : 'visible');
  const frameBody = frame.el(
    'body',
    { style: 'margin:0;padding:8px;font:13px system-ui' },
    frame.el('h2', { style: 'margin:0 0 6px;font-size:15px' }, 'Newsletter'),
    frame.el(
      'form',
      { style: 'display:flex;flex-direction:column;gap:6px' },
      frame.el('div', {}, frame.el('label', { for: 'nl-email' }, 'Email address'), ' ', frame.el('input', { id: 'nl-email', type: 'email', ...frameVis() })),
      frame.el('div', {}, frame.el('label', {}, frame.el('input', { type: 'checkbox', ...frameVis() }), ' Weekly digest')),
      frame.el(
        'div',
        {},
        frame.el('button', { type: 'submit', ...frameVis() }, 'Subscribe'),
        ' ',
        frame.el('a', { href: '#privacy', ...frameVis() }, 'Privacy policy'),
      ),
      frame.el('button', { type: 'button', style: 'display:none', ...frame.mark('hidden', 'display-none') }, 'Unsubscribe'),
      frame.el('div', { 'aria-hidden': 'true' }, frame.el('a', { href: '#tracking', ...frame.mark('hidden', 'aria-hidden-subtree') }, 'Tracking pixel')),
    ),
  );
  const frameHtml =
    '<!doctype html>' +
    frame.el('html', { lang: 'en' }, frame.el('head', {}, frame.el('meta', { charset: 'utf-8' }), frame.el('title', {}, 'Newsletter')), frameBody);

  // --- fixed parts of the main page --------------------------------------------------------
  const nav = el(
    'header',
    { class: 'top' },
    el('a', { class: 'sr-only', href: '#main', ...b.mark('edge') }, 'Skip to content'),
    el('strong', {}, 'Bench Shop'),
    el(
      'nav',
      { 'aria-label': 'Primary' },
      ...['Home', 'Deals', 'New in', 'Brands', 'Help'].map((t) => el('a', { href: `#${t.toLowerCase().replace(' ', '-')}`, ...vis() }, t) + ' '),
    ),
    el(
      'form',
      { role: 'search' },
      el('label', { for: 'site-search', class: 'sr-only' }, 'Search products'),
      el('input', { id: 'site-search', type: 'search', placeholder: 'Search', ...vis() }),
      el('button', { type: 'submit', ...vis() }, 'Go'),
      el('button', { type: 'button', hidden: true, ...b.mark('hidden', 'hidden-attribute') }, 'Voice search'),
    ),
  );

  const hero = el(
    'div',
    { class: 'hero' },
    el(
      'section',
      {},
      el('h1', { style: 'margin:0 0 6px;font-size:22px' }, 'Spring collection'),
      el('p', { style: 'margin:0 0 8px' }, `${title(12)}.`),
      el(
        'div',
        { class: 'row' },
        el('span', { id: 'sort-label' }, 'Sort by'),
        el('select', { 'aria-labelledby': 'sort-label', ...vis() }, ...['Relevance', 'Price', 'Newest', 'Rating'].map((o) => el('option', {}, o))),
        el('label', {}, el('input', { type: 'checkbox', ...vis() }), ' In stock only'),
        el('button', { type: 'button', 'aria-haspopup': 'dialog', ...vis() }, 'Checkout'),
        el('a', { href: '#offscreen-help', class: 'offscreen', ...b.mark('edge') }, 'Accessibility help'),
      ),
    ),
    el('iframe', { src: spec.framePath, title: 'Newsletter sign-up' }),
  );

  const dialogGt = (): Attrs => b.mark(modal ? 'visible' : 'hidden', modal ? undefined : 'closed-dialog');
  const dialog = el(
    'dialog',
    { id: 'checkout-dialog', 'aria-labelledby': 'dlg-title' },
    el('h2', { id: 'dlg-title' }, 'Confirm your order'),
    el(
      'form',
      { method: 'dialog' },
      el('p', {}, el('label', { for: 'dlg-email' }, 'Email for receipt'), ' ', el('input', { id: 'dlg-email', type: 'email', ...dialogGt() })),
      el('p', {}, el('label', {}, el('input', { type: 'checkbox', ...dialogGt() }), ' Save my details')),
      el('p', {}, el('button', { value: 'cancel', ...dialogGt() }, 'Cancel'), ' ', el('button', { value: 'ok', ...dialogGt() }, 'Place order')),
    ),
  );

  const footer = el('footer', {}, el('p', {}, 'End of catalogue. ', el('a', { href: '#top', ...vis() }, 'Back to top')));
  const head = el('head', {}, el('meta', { charset: 'utf-8' }), el('title', {}, 'Bench Shop'), el('style', {}, CSS));
  const script = modal ? el('script', {}, "document.getElementById('checkout-dialog').showModal();") : '';

  // --- cards until the target is reached ---------------------------------------------------
  const cards: string[] = [];
  let i = 0;
  // + 4 for <main>, the grid <div>, <body> and <html>, which wrap the cards and are built last.
  while (b.count + frame.count + 4 < spec.targetElements || cards.length === 0) {
    cards.push(card(i++));
  }

  function hiddenControl(kind: (typeof HIDDEN_KINDS)[number], label: string): string {
    const m = (): Attrs => b.mark('hidden', kind);
    switch (kind) {
      case 'display-none':
        return el('button', { type: 'button', style: 'display:none', ...m() }, label);
      case 'visibility-hidden':
        return el('button', { type: 'button', style: 'visibility:hidden', ...m() }, label);
      case 'opacity-0':
        return el('button', { type: 'button', style: 'opacity:0', ...m() }, label);
      case 'zero-size':
        return el('a', { href: '#zero', class: 'zero', ...m() }, label);
      case 'aria-hidden-subtree':
        return el('div', { 'aria-hidden': 'true' }, el('button', { type: 'button', ...m() }, label));
      case 'inert-subtree':
        return el('div', { inert: true }, el('a', { href: '#inert', ...m() }, label));
      case 'hidden-attribute':
        return el('button', { type: 'button', hidden: true, ...m() }, label);
      case 'ancestor-display-none':
        return el('div', { style: 'display:none' }, el('label', {}, label, ' ', el('input', { type: 'text', ...m() })));
      case 'ancestor-visibility-hidden':
        return el('div', { style: 'visibility:hidden' }, el('select', { 'aria-label': label, ...m() }, el('option', {}, 'One'), el('option', {}, 'Two')));
      case 'ancestor-opacity-0':
        return el('div', { style: 'opacity:0' }, el('button', { type: 'button', ...m() }, label));
      case 'closed-details':
        return el('details', {}, el('summary', vis(), 'More options'), el('div', {}, el('a', { href: '#spec', ...m() }, label)));
      case 'input-type-hidden':
        return el('input', { type: 'hidden', name: 'sku', value: label, ...m() });
    }
  }

  function labelledField(n: number, v: number): string {
    switch (v % 4) {
      case 0:
        return el(
          'div',
          { class: 'row' },
          el('label', { for: `qty-${n}` }, 'Quantity'),
          el('input', { id: `qty-${n}`, type: 'number', value: '1', min: '1', ...vis() }),
        );
      case 1:
        return el(
          'div',
          { class: 'row' },
          el('span', { id: `note-lbl-${n}` }, 'Gift note'),
          el('input', { id: `note-${n}`, type: 'text', 'aria-labelledby': `note-lbl-${n}`, ...vis() }),
        );
      case 2:
        return el('div', { class: 'row' }, el('label', {}, el('input', { type: 'checkbox', ...vis() }), ' Gift wrap'));
      default:
        return el(
          'div',
          { class: 'row' },
          el('label', { for: `size-${n}` }, 'Size'),
          el('select', { id: `size-${n}`, ...vis() }, ...['S', 'M', 'L', 'XL'].map((o) => el('option', {}, o))),
        );
    }
  }

  /** Every 3rd card: a rating widget in an open shadow root, with a comment box one shadow level deeper. */
  function ratingWidget(n: number): string {
    return el(
      'x-rating',
      { style: 'display:block' },
      b.shadow(
        el('style', {}, ':host{display:block}.stars{display:flex;gap:2px;align-items:center}'),
        el(
          'div',
          { class: 'stars', role: 'group', 'aria-label': 'Rate this item' },
          ...[1, 2, 3, 4, 5].map((s) => el('button', { type: 'button', 'aria-label': `${s} star${s > 1 ? 's' : ''}`, ...vis() }, '★')),
          el('button', { type: 'button', style: 'display:none', ...b.mark('hidden', 'display-none') }, 'Clear rating'),
        ),
        el(
          'x-comment',
          { style: 'display:block' },
          b.shadow(
            el('label', { for: `cmt-${n}` }, 'Comment'),
            ' ',
            el('input', { id: `cmt-${n}`, type: 'text', ...vis() }),
            el('div', { 'aria-hidden': 'true' }, el('button', { type: 'button', ...b.mark('hidden', 'aria-hidden-subtree') }, 'Emoji')),
          ),
        ),
      ),
    );
  }

  function card(n: number): string {
    const name = title(2);
    const price = (5 + rnd() * 200).toFixed(2);
    const parts: string[] = [
      el('div', { class: 'thumb', role: 'img', 'aria-label': `${name} photo` }),
      el('h3', {}, el('a', { href: `#item-${n}`, ...vis() }, name)),
      el('p', {}, `${title(6)} `, el('em', {}, words(2)), ' ', el('span', {}, words(3)), '.'),
      el('ul', {}, el('li', {}, el('b', {}, 'Price '), `$${price}`), el('li', {}, el('span', {}, words(3))), el('li', {}, el('span', {}, words(2)))),
      el('div', { class: 'row', style: 'font-size:11px;color:#777' }, ...[1, 2, 3].map(() => el('span', {}, el('i', {}, '#'), words(1)))),
      labelledField(n, n),
      el(
        'div',
        { class: 'row' },
        el('button', { type: 'button', ...vis() }, 'Add to cart'),
        el(
          'button',
          { type: 'button', 'aria-label': `Save ${name}`, ...vis() },
          el(
            'svg',
            { width: 12, height: 12, viewBox: '0 0 12 12', 'aria-hidden': 'true' },
            el('path', { d: 'M6 1l1.5 3 3.5.5-2.5 2.5.5 3.5L6 9 3 10.5l.5-3.5L1 4.5 4.5 4z' }),
          ),
        ),
        el('a', { href: `#reviews-${n}`, ...vis() }, 'Reviews'),
      ),
    ];
    if (n % 2 === 0) {
      parts.push(
        el(
          'div',
          { class: 'row' },
          el('div', { role: 'button', tabindex: '0', class: 'chip', ...vis() }, 'Share'),
          el('span', { role: 'checkbox', 'aria-checked': 'false', tabindex: '0', class: 'chip', ...vis() }, 'Compare'),
        ),
      );
    } else {
      parts.push(
        el(
          'div',
          { role: 'tablist', class: 'row' },
          el('button', { role: 'tab', 'aria-selected': 'true', type: 'button', ...vis() }, 'Specs'),
          el('button', { role: 'tab', 'aria-selected': 'false', type: 'button', ...vis() }, 'Shipping'),
        ),
      );
    }
    if (n % 5 === 4)
      parts.push(el('div', { contenteditable: 'true', 'aria-label': 'Private note', style: 'border:1px dashed #aaa;min-height:20px', ...vis() }));
    if (n % 3 === 1) parts.push(ratingWidget(n));
    // Two hidden controls per card, of different kinds, so every kind appears near the top.
    parts.push(hiddenControl(HIDDEN_KINDS[n % HIDDEN_KINDS.length]!, 'Quick view'));
    parts.push(hiddenControl(HIDDEN_KINDS[(n * 7 + 5) % HIDDEN_KINDS.length]!, 'Notify me'));
    return el('article', { class: 'card', 'aria-label': name }, ...parts);
  }

  const main = el('main', { id: 'main' }, hero, el('div', { class: 'grid' }, ...cards));
  const body = el('body', {}, nav, main, footer, dialog, script);
  const html = '<!doctype html>' + el('html', { lang: 'en' }, head, body);

  const groundTruth = { ...b.gt };
  for (const k of Object.keys(frame.gt) as GroundTruth[]) groundTruth[k] += frame.gt[k];
  return { html, frameHtml, elements: b.count + frame.count, groundTruth, cards: cards.length };
}

const ARTICLE_CSS = `
body{margin:0;font:16px/1.6 Georgia,serif;color:#202122;background:#fff}
.top{display:flex;gap:14px;align-items:center;height:48px;padding:0 16px;border-bottom:1px solid #ccc;font-family:system-ui}
.layout{display:flex;gap:24px;padding:0 16px}
.toc{flex:0 0 200px;font:13px/1.5 system-ui}
.toc ol{padding-left:16px}
article{flex:1;min-width:0;max-width:880px}
.infobox{float:right;width:260px;margin:0 0 12px 16px;border:1px solid #aaa;font:13px system-ui;border-collapse:collapse}
.infobox td,.infobox th{padding:2px 6px;border-top:1px solid #ddd;text-align:left}
figure{float:right;clear:right;width:240px;margin:0 0 12px 16px;font:13px system-ui}
figure .img{height:140px;background:linear-gradient(135deg,#cde,#dcb)}
sup{line-height:0}
.refs{font-size:13px}
`;

/**
 * A long encyclopedia-style article (the shape reading tasks meet): long paragraphs dense with
 * inline links, emphasis and footnote markers, a table of contents, an infobox, figures and a
 * references list. Same ground-truth marks as `generatePage`; every link is visible.
 */
export function generateArticle(spec: { targetElements: number; seed: number }): {
  html: string;
  elements: number;
  groundTruth: Record<GroundTruth, number>;
  sections: number;
} {
  const rnd = prng(spec.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const words = (n: number): string => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const title = (n: number): string => {
    const w = words(n);
    return w[0]!.toUpperCase() + w.slice(1);
  };
  const b = new Builder();
  const el = b.el.bind(b);
  const vis = (): Attrs => b.mark('visible');
  let refNo = 0;

  /** ~200 words with a dozen inline elements, the way article prose is marked up. */
  const paragraph = (): string => {
    const parts: string[] = [];
    for (let i = 0; i < 12; i++) {
      parts.push(`${words(10 + Math.floor(rnd() * 8))} `);
      const k = rnd();
      if (k < 0.5) parts.push(el('a', { href: `#wiki-${words(1)}`, title: title(2), ...vis() }, words(1 + Math.floor(rnd() * 3))), ' ');
      else if (k < 0.65) parts.push(el('b', {}, words(2)), ' ');
      else if (k < 0.8) parts.push(el('i', {}, words(2)), ' ');
      else parts.push(el('sup', { class: 'reference' }, el('a', { href: `#cite-${++refNo}`, ...vis() }, `[${refNo}]`)), ' ');
    }
    return el('p', {}, ...parts, `${words(6)}.`);
  };

  const sections: string[] = [];
  const tocItems: string[] = [];
  let n = 0;
  // + 6 for html, body, layout div, article, refs section and its list, built last.
  while (b.count + 6 + refNo * 2 < spec.targetElements || n === 0) {
    const heading = title(2);
    const id = `s-${n}`;
    tocItems.push(el('li', {}, el('a', { href: `#${id}`, ...vis() }, heading)));
    const body: string[] = [el('h2', { id }, heading)];
    if (n % 3 === 1) body.push(el('figure', {}, el('div', { class: 'img', role: 'img', 'aria-label': title(3) }), el('figcaption', {}, `${title(8)}.`)));
    for (let p = 0; p < 4; p++) body.push(paragraph());
    if (n % 4 === 2) {
      body.push(
        el(
          'table',
          {},
          el(
            'tbody',
            {},
            ...Array.from({ length: 4 }, () => el('tr', {}, el('th', {}, title(1)), el('td', {}, words(3)), el('td', {}, (rnd() * 1000).toFixed(0)))),
          ),
        ),
      );
    }
    sections.push(el('section', {}, ...body));
    n++;
  }
  const refs = el(
    'ol',
    { class: 'refs' },
    ...Array.from({ length: refNo }, (_, i) => el('li', { id: `cite-${i + 1}` }, `${title(5)}. `, el('a', { href: `#src-${i}`, ...vis() }, 'Archived'))),
  );
  const infobox = el(
    'table',
    { class: 'infobox' },
    el('tbody', {}, ...Array.from({ length: 8 }, () => el('tr', {}, el('th', {}, title(1)), el('td', {}, words(2))))),
  );
  const header = el(
    'header',
    { class: 'top' },
    el('strong', {}, 'Bench Encyclopedia'),
    el(
      'form',
      { role: 'search', style: 'margin-left:auto' },
      el('input', { type: 'search', 'aria-label': 'Search the encyclopedia', ...vis() }),
      el('button', { ...vis() }, 'Search'),
    ),
  );
  const toc = el('nav', { class: 'toc', 'aria-label': 'Contents' }, el('h2', {}, 'Contents'), el('ol', {}, ...tocItems));
  const article = el(
    'article',
    {},
    el('h1', {}, title(3)),
    infobox,
    el('p', {}, el('b', {}, title(3)), ` ${words(40)}.`),
    ...sections,
    el('h2', {}, 'References'),
    refs,
  );
  const head = el('head', {}, el('meta', { charset: 'utf-8' }), el('title', {}, 'Bench Encyclopedia'), el('style', {}, ARTICLE_CSS));
  const html = '<!doctype html>' + el('html', { lang: 'en' }, head, el('body', {}, header, el('div', { class: 'layout' }, toc, article)));
  return { html, elements: b.count, groundTruth: { ...b.gt }, sections: n };
}

/** The layouts `generateLayoutPage` lays the same items out in. */
export const LAYOUTS = ['cards', 'table', 'grid', 'flex'] as const;
export type Layout = (typeof LAYOUTS)[number];

const LAYOUT_CSS = `
*{box-sizing:border-box}
body{margin:0;font:14px/1.4 system-ui,sans-serif;color:#222;background:#fafafa}
.top{display:flex;gap:14px;align-items:center;height:48px;padding:0 16px;background:#243447;color:#fff}
.top a{color:#fff}
main{padding:12px 16px}
.item{background:#fff;border:1px solid #ddd;border-radius:6px;padding:8px 10px;margin:0 0 8px}
.item h3{margin:0;font-size:15px}
.item p{margin:0;color:#555}
.grid{display:grid;grid-template-columns:repeat(3,1fr);gap:8px}
.grid .item{margin:0;min-height:253px}
.flex{display:flex;flex-direction:column;gap:8px}
.flex .item{margin:0}
table{width:100%;border-collapse:collapse;background:#fff}
th,td{border-bottom:1px solid #ddd;padding:6px 8px;text-align:left;height:87px}
`;

/**
 * The same list of products laid out four ways, for the screenshot bench: block-flow cards, a
 * table (one row per product), a three-column grid and a flex column. Every product is five
 * elements in each layout (card: div, h3, p, span, button; row: tr, th, td, td>button), so the
 * pages have the same size; and each layout shows a product per ~87px of height (a grid tile is
 * as tall as its three cards would be, a table row as tall as a card), so the same number of
 * products shows in the viewport: a capture costs what shows, and only the layout differs.
 */
export function generateLayoutPage(spec: { layout: Layout; targetElements: number; seed: number }): { html: string; elements: number; items: number } {
  const rnd = prng(spec.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const words = (n: number): string => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const title = (n: number): string => {
    const w = words(n);
    return w[0]!.toUpperCase() + w.slice(1);
  };
  const b = new Builder();
  const el = b.el.bind(b);
  const header = el('header', { class: 'top' }, el('strong', {}, 'Bench Shop'), el('a', { href: '#deals' }, 'Deals'), el('a', { href: '#help' }, 'Help'));
  // html, head, meta, title, style, body, header (3 inside), main, h1 and the list container(s).
  const fixed = 14 + (spec.layout === 'table' ? 3 : 1);
  const items = Math.max(1, Math.floor((spec.targetElements - fixed) / 5));
  const products = Array.from({ length: items }, (_, i) => ({ name: `${title(2)} ${i + 1}`, desc: `${title(6)}.`, price: `$${(5 + rnd() * 200).toFixed(2)}` }));
  let list: string;
  if (spec.layout === 'table') {
    const head = el('thead', {}, el('tr', {}, el('th', {}, 'Product'), el('th', {}, 'Description'), el('th', {}, 'Buy')));
    const rows = products.map((p) => el('tr', {}, el('th', {}, p.name), el('td', {}, `${p.desc} ${p.price}`), el('td', {}, el('button', {}, 'Add to cart'))));
    list = el('table', {}, head, el('tbody', {}, ...rows));
  } else {
    const cards = products.map((p) =>
      el('div', { class: 'item' }, el('h3', {}, p.name), el('p', {}, p.desc), el('span', {}, p.price), ' ', el('button', {}, 'Add to cart')),
    );
    list = spec.layout === 'cards' ? el('div', {}, ...cards) : el('div', { class: spec.layout }, ...cards);
  }
  const head = el('head', {}, el('meta', { charset: 'utf-8' }), el('title', {}, `Bench ${spec.layout}`), el('style', {}, LAYOUT_CSS));
  const html = '<!doctype html>' + el('html', { lang: 'en' }, head, el('body', {}, header, el('main', {}, el('h1', {}, 'All products'), list)));
  return { html, elements: b.count, items };
}
